/**
 * The thin SCORM package's launch page (launch.html, written by tools/scorm.py): it frames the
 * lesson where it is hosted, and passes the quiz's progress on to the LMS. The lesson, in its
 * iframe on another origin, posts {type: "pelab:quiz", answered, correct, total, finished, ...}
 * (app/lms/quiz-progress.js); only messages from that iframe, on the hosted site's origin, are
 * believed: anything else on the page could post a perfect score.
 *
 * The LMS gets the status, the score and the session time. Answers stay with the hosted lesson
 * (a thin package has nothing of the lesson to restore them into).
 */
import { masteryScore, openSession, quizReport, sessionTime } from "./scorm.js";

const frame = /** @type {HTMLIFrameElement} */ (document.querySelector(".relay-frame"));
const site = new URL(frame.src).origin;
const noteElement = /** @type {HTMLElement} */ (document.querySelector(".relay-note"));
const started = performance.now();

function note(text, state) {
  document.documentElement.dataset.lms = state;
  noteElement.textContent = text;
  noteElement.hidden = false;
}

let session =
  openSession(note, {
    missing: "No course system (SCORM API) answered: the lesson works, but your score is not recorded.",
    broken: (names) => `The course system’s SCORM API is broken (it has no ${names}): your score is not recorded.`,
    after: "The lesson goes on working.",
  })?.session ?? null;
if (session) {
  document.documentElement.dataset.lms = "connected";
  session.set("cmi.core.lesson_status", "incomplete");
  session.commit();
}
const mastery = session ? masteryScore(session) : undefined;

/**
 * HOST_MESSAGE.QUIZ of app/page-protocol.js, spelt out: the thin SCORM package holds only this
 * folder's relay files (tools/scorm.py), so this module imports nothing outside them;
 * tests/js/page-protocol.test.mjs keeps the two equal.
 */
const QUIZ_MESSAGE = "pelab:quiz";

const count = (value) => Number.isInteger(value) && value >= 0 && value <= 10_000;

window.addEventListener("message", (event) => {
  if (event.origin !== site || event.source !== frame.contentWindow) return;
  const { type, answered, correct, total, finished } = event.data ?? {};
  if (type !== QUIZ_MESSAGE || ![answered, correct, total].every(count)) return;
  if (correct > answered || answered > total || total === 0) return;
  document.documentElement.dataset.quiz = `${answered}/${correct}/${total}`;
  if (!session) return;
  for (const [element, value] of Object.entries(quizReport({ answered, correct, total, finished: typeof finished === "boolean" ? finished : undefined }, mastery))) {
    if (element !== "cmi.core.exit") session.set(element, value);
  }
  session.set("cmi.core.session_time", sessionTime(performance.now() - started));
  session.commit();
});

window.addEventListener(
  "pagehide",
  () => {
    if (!session) return;
    session.set("cmi.core.session_time", sessionTime(performance.now() - started));
    session.commit();
    session.finish();
    session = null;
  },
  { once: true },
);
