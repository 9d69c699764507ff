/**
 * Tell a host page how the learner is doing on the quiz: when this page is in an iframe, each
 * "pelab:quiz" event of the quiz (app/demos/quiz.js) goes to the parent window as the message
 * {type: "pelab:quiz", answered, correct, total}. Counts only, never the answers themselves;
 * sent to any origin, like pelab:resize, because a course page may live anywhere.
 */
export function tellHostQuizProgress(doc = document) {
  if (window.parent === window) return;
  doc.addEventListener("pelab:quiz", ({ detail }) => {
    const { answered, correct, total } = detail;
    window.parent.postMessage({ type: "pelab:quiz", answered, correct, total }, "*");
  });
}
