/**
 * The packaged lesson reporting its quiz to the LMS that launched it (SCORM 1.2). It starts
 * only when the launch URL says an LMS launched it (`?lms=scorm12`, written into the package's
 * manifest by tools/scorm.py); opened as a plain page, the lesson is the normal lesson.
 *
 * On the quiz's first "pelab:quiz" event it finds the API, starts the session, restores the
 * answers saved last time (cmi.suspend_data) and reports; then after each answer it sets the
 * status, the score, the saved answers and the session time, and commits; on leaving it
 * finishes. Once a round is finished, "Start again" never lowers what the LMS holds: a later
 * round replaces it only when finished with a score as good or better. Whatever goes wrong (no API, a broken one, an LMS that refuses, answers too long to
 * save) is said in a note under the quiz's score, and the quiz goes on working in the page.
 */
import { restoreAnswers, savedAnswers } from "./saved-answers.js";
import {
  launchedByLms,
  masteryScore,
  quizReport,
  scormSession,
  sessionTime,
  SUSPEND_DATA_LIMIT,
  findApi,
} from "./scorm.js";
import { QUIZ_EVENT } from "../page-protocol.js";

export function reportQuizToLms(doc = document) {
  if (!launchedByLms()) return;
  const started = performance.now();
  let form = null;
  let session = null;
  let restoring = false;
  let readOnly = false;
  let mastery;
  // The best finished round's score this attempt holds: "Start again" must not lower a grade.
  let best = null;

  doc.addEventListener(QUIZ_EVENT, (event) => {
    if (!form) {
      form = event.target;
      begin();
    } else if (event.target === form && session && !restoring) {
      report();
    }
  });

  function begin() {
    const api = findApi(window);
    if (!api) {
      problem(
        "This lesson was launched as a course package, but no course system (SCORM API) answered: " +
          "your answers work here but are not recorded. Open it from your course page to record them.",
        "missing",
      );
      return;
    }
    const candidate = scormSession(api, (text) => problem(`${text} Your answers stay in this page.`, "error"));
    if (candidate.broken.length) {
      problem(
        `The course system’s SCORM API is broken (it has no ${candidate.broken.join(", ")}): ` +
          "your answers work here but are not recorded.",
        "broken",
      );
      return;
    }
    if (!candidate.start()) return; // the note says why; nothing more will be accepted
    session = candidate;
    mastery = masteryScore(session);
    // "review" (an attempt looked at again) and "browse" (a preview) are recorded by no LMS
    const mode = session.get("cmi.core.lesson_mode");
    readOnly = mode === "review" || mode === "browse";
    form.dataset.lms = readOnly ? mode : "connected";
    note(
      mode === "review"
        ? "Your course opened this attempt for review: it shows your saved answers, and records nothing new."
        : mode === "browse"
          ? "Your course opened this quiz as a preview: your answers are not recorded."
          : `Connected to your course: it records your score (pass mark ${mastery}%) and keeps your answers for next time.`,
    );
    const status = session.get("cmi.core.lesson_status");
    const recorded = session.get("cmi.core.score.raw");
    if ((status === "passed" || status === "failed") && recorded !== "" && Number.isFinite(Number(recorded))) {
      best = Number(recorded);
    }
    const saved = session.get("cmi.suspend_data");
    if (saved) {
      restoring = true;
      try {
        const { unknown } = restoreAnswers(form, saved);
        if (unknown) problem(`${unknown} saved answer(s) belong to questions this version of the quiz no longer has.`, "connected");
      } catch (error) {
        problem(`Your saved answers could not be read (${error.message}); the quiz starts afresh.`, "connected");
      } finally {
        restoring = false;
      }
    }
    report();
    // pagehide is the last event a leaving page reliably gets, in a frame as in a window
    window.addEventListener("pagehide", finish, { once: true });
  }

  function report() {
    if (readOnly) return;
    const progress = form.querySelectorAll(".quiz-question").length;
    const answered = form.querySelectorAll(".quiz-question[data-result]").length;
    const correct = form.querySelectorAll(".quiz-question[data-result=right]").length;
    const values = quizReport({ answered, correct, total: progress }, mastery);
    const finished = values["cmi.core.lesson_status"] !== "incomplete";
    const raw = Number(values["cmi.core.score.raw"]);
    if (best !== null && (!finished || raw < best)) {
      // A new round after a finished one: the course keeps the better finished score.
      delete values["cmi.core.lesson_status"];
      delete values["cmi.core.score.raw"];
      note(`Your course keeps your best finished score, ${best}%: a new round counts once it is finished and does better.`);
    } else if (finished) {
      best = raw;
    }
    for (const [element, value] of Object.entries(values)) session.set(element, value);
    const answers = savedAnswers(form);
    if (answers.length <= SUSPEND_DATA_LIMIT) {
      session.set("cmi.suspend_data", answers);
    } else {
      problem(
        `Your answers take ${answers.length} characters to save, more than the ${SUSPEND_DATA_LIMIT} a ` +
          "SCORM 1.2 course system keeps: your score is recorded, but these answers will not come back " +
          "next time. They stay in this page until you leave it.",
        "connected",
      );
    }
    session.set("cmi.core.session_time", sessionTime(performance.now() - started));
    session.commit();
  }

  function finish() {
    if (!session) return;
    if (!readOnly) {
      session.set("cmi.core.session_time", sessionTime(performance.now() - started));
      session.commit();
    }
    session.finish();
    session = null;
  }

  /** The note under the score: shown once made, its text the latest news. */
  function note(text) {
    let element = form.querySelector(".lms-note");
    if (!element) {
      element = doc.createElement("p");
      element.className = "lms-note note";
      element.setAttribute("role", "status");
      form.querySelector(".quiz-score").after(element);
    }
    element.textContent = text;
  }

  function problem(text, state) {
    form.dataset.lms = state;
    note(text);
    form.querySelector(".lms-note").dataset.problem = "true";
  }
}
