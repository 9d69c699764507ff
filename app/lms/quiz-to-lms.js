/**
 * The packaged lesson reporting a test to the LMS that launched it (SCORM 1.2). It starts only
 * when the launch URL says an LMS launched it (`?lms=scorm12`, written into the package's
 * manifest by tools/scorm.py); opened as a plain page, the lesson is the normal lesson. It
 * reports one test: the one the launch names (`launchedTest`: `?test=CHAPTER`, else the
 * whole-lesson test), which the page wired as graded (app/lms/scorm.js `gradedTest`).
 *
 * On that test's first "pelab:quiz" event it joins the page's session with the LMS (started as
 * the page opened: app/lms/page-session.js, which also ends it as the page leaves), reads the
 * attempts the package allows (cmi.launch_data "attempts=N", 0 for unlimited), restores the
 * answers saved last time (cmi.suspend_data), showing a submitted attempt as submitted, and
 * reports. Until the first submission the LMS holds "incomplete"; each Submit sends that
 * submission's status and score (the LMS score is always the latest submission's, never a best
 * of several), and one cmi.interactions.n record per question: its id, type, the learner's
 * response, the right one, the result and the objective it tests. Every change saves the
 * answers. Whatever goes wrong (no API, a broken
 * one, an LMS that refuses, answers too long to save) is said in a note under the test's score,
 * and the test goes on working in the page.
 */
import { restoreAnswers, savedAnswers } from "./saved-answers.js";
import { allowedAttempts, interactionElements, launchedByLms, launchedTest, masteryScore, quizReport, SUSPEND_DATA_LIMIT } from "./scorm.js";
import { joinPageSession } from "./page-session.js";
import { quizController } from "../quiz/engine.js";
import { QUIZ_EVENT } from "../page-protocol.js";
import { t } from "../i18n.js";

/** @typedef {import("../page-protocol.js").QuizDetail} QuizDetail */

export function reportQuizToLms(doc = document) {
  if (!launchedByLms()) return;
  const test = launchedTest();
  /** @type {HTMLFormElement | null} */
  let form = null;
  let session = null;
  let restoring = false;
  let readOnly = false;
  let mastery;
  // whether the LMS holds a submission's score: before one, it is told "incomplete"
  let scored = false;

  doc.addEventListener(QUIZ_EVENT, (event) => {
    const detail = /** @type {QuizDetail} */ (/** @type {CustomEvent} */ (event).detail);
    if (!form) {
      if (detail?.test !== test) return;
      form = /** @type {HTMLFormElement} */ (event.target);
      begin();
    } else if (event.target === form && session && !restoring) {
      report(detail);
    }
  });

  function begin() {
    const opened = joinPageSession(
      problem,
      {
        missing: t(
          "This lesson was launched as a course package, but no course system (SCORM API) answered: your answers work here but are not recorded. Open it from your course page to record them.",
        ),
        // Translators: {names} lists the functions the course system's SCORM API lacks, such as "LMSCommit, LMSFinish".
        broken: (names) => t("The course system’s SCORM API is broken (it has no {names}): your answers work here but are not recorded.", { names }),
        after: t("Your answers stay in this page."),
      },
    );
    if (!opened) return;
    session = opened.session;
    readOnly = opened.readOnly;
    const { mode } = opened;
    mastery = masteryScore(session);
    const allowed = allowedAttempts(session.get("cmi.launch_data"));
    form.dataset.lms = readOnly ? mode : "connected";
    const connected = { mastery: `${mastery}%`, allowed };
    note(
      mode === "review"
        ? t("Your course opened this attempt for review: it shows your saved answers, and records nothing new.")
        : mode === "browse"
          ? t("Your course opened this test as a preview: your answers are not recorded.")
          : !allowed
            ? // Translators: {mastery} is the pass mark, such as "80%".
              t("Connected to your course: it records the score of your submission (pass mark {mastery}) and each answer, keeps your answers for next time, and allows as many attempts as you like.", connected)
            : allowed === 1
              ? t("Connected to your course: it records the score of your submission (pass mark {mastery}) and each answer, keeps your answers for next time, and allows {allowed} attempt.", connected)
              : t("Connected to your course: it records the score of your submission (pass mark {mastery}) and each answer, keeps your answers for next time, and allows {allowed} attempts.", connected),
    );
    const status = session.get("cmi.core.lesson_status");
    scored = status === "passed" || status === "failed";
    const controller = quizController(form);
    const saved = session.get("cmi.suspend_data");
    let used = 0;
    let submitted = false;
    if (saved) {
      restoring = true;
      try {
        const restored = restoreAnswers(form, saved);
        ({ used, submitted } = restored);
        if (restored.unknown) {
          problem(t("{count} saved answer(s) belong to questions this version of the test no longer has.", { count: restored.unknown }), "connected");
        }
      } catch (error) {
        problem(t("Your saved answers could not be read ({error}); the test starts afresh.", { error: error.message }), "connected");
      } finally {
        restoring = false;
      }
    }
    controller?.setAttempts(allowed, used);
    if (submitted && controller) controller.showSubmitted().then(() => report(null));
    else report(null);
  }

  /** @param {QuizDetail | null} detail the event's, null for "as it stands" */
  function report(detail) {
    if (readOnly || !session) return;
    const controller = quizController(form);
    const state = controller?.state() ?? { used: 0, submitted: false };
    if (detail?.justSubmitted) {
      const values = quizReport({ ...detail, finished: true }, mastery);
      for (const [element, value] of Object.entries(values)) session.set(element, value);
      const first = Number(session.get("cmi.interactions._count")) || 0;
      for (const [element, value] of interactionElements(detail.questions, first)) session.set(element, value);
      scored = true;
    } else if (!scored) {
      session.set("cmi.core.lesson_status", "incomplete");
      session.set("cmi.core.exit", "suspend");
    }
    const answers = savedAnswers(form, state);
    if (answers.length <= SUSPEND_DATA_LIMIT) {
      session.set("cmi.suspend_data", answers);
    } else {
      problem(
        t(
          "Your answers take {length} characters to save, more than the {limit} a SCORM 1.2 course system keeps: your score is recorded, but these answers will not come back next time. They stay in this page until you leave it.",
          { length: answers.length, limit: SUSPEND_DATA_LIMIT },
        ),
        "connected",
      );
    }
    session.commit();
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
    /** @type {HTMLElement} */ (form.querySelector(".lms-note")).dataset.problem = "true";
  }
}
