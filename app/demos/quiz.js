/**
 * The quiz section's demo: the whole-lesson test (app/quiz/engine.js does the work). The page
 * (app/pages/lesson.js, embed.js) has wired it already, graded or not; wiring is done once per
 * form, so this only wires a test that no page wired, as practice.
 */
import { wireQuizzes } from "../quiz/engine.js";

/** @param {HTMLElement} root the quiz's section */
export function quizDemo(root) {
  wireQuizzes(root);
  return { firstRender: Promise.resolve() };
}
