/**
 * A test shown away from the demos its questions are about: the whole-lesson test, on the review
 * chapter's page or in the quiz's embed (embed.html?demo=quiz), which runs no Python.
 *
 * - A question's invitation to try the answer in its demo (`<span class="quiz-try">` in its
 *   legend, the source's) is dropped where that demo is not on the page: the question reads
 *   whole without it.
 * - Where the test holds no lesson to open (the quiz's SCORM package, `lesson=none`:
 *   tools/scorm.py), a question read off a live figure (`data-setup`, tools/lesson.py) cannot be
 *   answered at all: it is left out, and the others are numbered again. So is each question's
 *   "Back to what this question tests" (`.quiz-refers`), which leads nowhere there.
 */

/**
 * @param {Element} root the demo's section (an embed) or the page
 * @param {{withoutLesson?: boolean}} [options]
 */
export function fitTestToPage(root, { withoutLesson = false } = {}) {
  const doc = root.ownerDocument;
  for (const invitation of root.querySelectorAll(".quiz-question .quiz-try")) {
    const section = /** @type {HTMLElement} */ (invitation.closest(".quiz-question")).dataset.section;
    if (!section || !doc.getElementById(section)?.classList.contains("demo")) invitation.remove();
  }
  if (!withoutLesson) return;
  for (const back of root.querySelectorAll(".quiz-question .quiz-refers")) back.remove();
  for (const form of root.querySelectorAll("form.quiz")) {
    const read = [...form.querySelectorAll(".quiz-question[data-setup]")];
    if (!read.length) continue;
    for (const question of read) question.remove();
    // numbered again by item: an item's graded versions (data-item, app/quiz/versions.js) keep
    // its number
    /** @type {Map<string, number>} */
    const numbers = new Map();
    form.querySelectorAll(".quiz-question").forEach((question, index) => {
      const item = /** @type {HTMLElement} */ (question).dataset.item || `#${index}`;
      if (!numbers.has(item)) numbers.set(item, numbers.size + 1);
      const number = question.querySelector(".quiz-number");
      if (number) number.textContent = `${numbers.get(item)}.`;
    });
  }
}
