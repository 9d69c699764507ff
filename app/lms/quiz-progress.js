/**
 * Tell a host page how the learner is doing on the quiz: when this page is in an iframe, each
 * QUIZ_EVENT of the quiz (app/demos/quiz.js) goes to the parent window as the message
 * {type: HOST_MESSAGE.QUIZ, answered, correct, total} (app/page-protocol.js). Counts only, never
 * the answers themselves; sent to any origin, like HOST_MESSAGE.RESIZE, because a course page
 * may live anywhere.
 */
import { HOST_MESSAGE, QUIZ_EVENT } from "../page-protocol.js";

export function tellHostQuizProgress(doc = document) {
  if (window.parent === window) return;
  doc.addEventListener(QUIZ_EVENT, (event) => {
    const { answered, correct, total } = /** @type {CustomEvent} */ (event).detail;
    window.parent.postMessage({ type: HOST_MESSAGE.QUIZ, answered, correct, total }, "*");
  });
}
