/**
 * Tell a host page how the learner is doing on a test: when this page is in an iframe, each
 * QUIZ_EVENT of a test (app/quiz/engine.js) goes to the parent window as the message
 * {type: HOST_MESSAGE.QUIZ, ...detail} (app/page-protocol.js): the counts, and each marked
 * answer as SCORM would record it (question, response, result, objective), so that a course
 * page can see which misconceptions a class holds. Sent to any origin, like HOST_MESSAGE.RESIZE,
 * because a course page may live anywhere; the answers are the learner's choices in this quiz,
 * nothing else.
 */
import { HOST_MESSAGE, QUIZ_EVENT } from "../page-protocol.js";

export function tellHostQuizProgress(doc = document) {
  if (window.parent === window) return;
  doc.addEventListener(QUIZ_EVENT, (event) => {
    /** @type {import("../page-protocol.js").QuizDetail} */
    const detail = /** @type {CustomEvent} */ (event).detail;
    window.parent.postMessage({ type: HOST_MESSAGE.QUIZ, ...detail, questions: detail.questions.map((q) => ({ ...q })) }, "*");
  });
}
