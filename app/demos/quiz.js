/**
 * Check your understanding: multiple-choice and true/false questions with immediate, explained
 * feedback. Each question's explanation says why its answer is right, and each wrong option's
 * data-why says what is wrong with that option. Plain radio buttons, so it works from the
 * keyboard. Answers stay in the page: the quiz stores and sends nothing itself. It announces its
 * progress as a QUIZ_EVENT DOM event ("pelab:quiz", app/page-protocol.js) on its form
 * ({answered, correct, total}), at start and on every change, for app/lms/ to pass on to a host
 * page or an LMS; and it takes an answer chosen from outside (a restored one) like one clicked,
 * through the radio's change event.
 */
import { QUIZ_EVENT } from "../page-protocol.js";

export function quizDemo(root) {
  quiz(root.querySelector("form"));
  return { firstRender: Promise.resolve() };
}

function quiz(form) {
  const questions = [...form.querySelectorAll(".quiz-question")];
  const score = form.querySelector(".quiz-score");

  function update() {
    const answered = questions.filter((q) => q.dataset.result);
    const right = answered.filter((q) => q.dataset.result === "right").length;
    score.textContent =
      answered.length === questions.length
        ? `All ${questions.length} answered: ${right} right.${right === questions.length ? " Well done." : ""}`
        : `${answered.length} of ${questions.length} answered, ${right} right.`;
    const detail = { answered: answered.length, correct: right, total: questions.length };
    form.dispatchEvent(new CustomEvent(QUIZ_EVENT, { bubbles: true, detail }));
  }

  form.addEventListener("change", ({ target }) => {
    if (target.type !== "radio") return;
    const question = target.closest(".quiz-question");
    const correct = target.hasAttribute("data-correct");
    const answer = question.querySelector("input[data-correct]").closest("label");
    question.dataset.result = correct ? "right" : "wrong";
    for (const label of question.querySelectorAll("label")) {
      const input = label.querySelector("input");
      label.dataset.mark = input.hasAttribute("data-correct") ? "answer" : input === target ? "wrong" : "";
    }
    const feedback = question.querySelector(".quiz-feedback");
    // A wrong choice says what is wrong with it (its data-why), then which answer is right: the
    // answer's own words, copied with their markup (its variables stay italic, its indices low).
    feedback.replaceChildren(...(correct ? ["Right."] : ["Not quite. ", target.dataset.why, " The answer is “", ...wordsOf(answer), "”."]));
    feedback.hidden = false;
    question.querySelector(".quiz-explain").hidden = false;
    update();
  });

  form.addEventListener("reset", () => {
    for (const question of questions) {
      delete question.dataset.result;
      for (const label of question.querySelectorAll("label")) label.dataset.mark = "";
      question.querySelector(".quiz-feedback").hidden = true;
      question.querySelector(".quiz-explain").hidden = true;
    }
    queueMicrotask(update);
  });
  form.addEventListener("submit", (event) => event.preventDefault());
  update();
}

/** Copies of an option's words: its label's content without the radio button, trimmed. */
function wordsOf(label) {
  const nodes = [...label.childNodes].filter((node) => node.nodeName !== "INPUT").map((node) => node.cloneNode(true));
  const [first, last] = [nodes[0], nodes[nodes.length - 1]];
  if (first?.nodeType === Node.TEXT_NODE) first.textContent = first.textContent.trimStart();
  if (last?.nodeType === Node.TEXT_NODE) last.textContent = last.textContent.trimEnd();
  return nodes;
}
