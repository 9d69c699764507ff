/**
 * The lesson's side of SCORM 1.2 (the "SCO" side): find the LMS's API object the way the
 * standard says, by walking up window.parent and then the opener's chain, and talk to it.
 * An LMS that is missing, broken or says no must never stop the lesson, so no call here throws:
 * each returns what it got, and every failure is handed to `onProblem` as a sentence for the
 * page to show. What to send for a quiz's progress is `quizReport`, a pure function shared by
 * the packaged lesson (quiz-to-lms.js) and the thin package's relay (relay.js); for its answers,
 * one record per question, `interactionElements`.
 */

/** SCORM 1.2's cmi.suspend_data is a CMIString4096: an LMS may keep no more than that. */
export const SUSPEND_DATA_LIMIT = 4096;
/** The pass mark when the LMS gives none; tools/scorm.py writes the same into the manifest. */
export const DEFAULT_MASTERY_SCORE = 80;
/** How a package's launch URL tells the page it was launched by an LMS (tools/scorm.py). */
export const LAUNCH_PARAMETER = ["lms", "scorm12"];

/**
 * How a session says what went wrong, in English: the thin package's relay (relay.js, which
 * imports nothing outside this folder) says it so; a lesson's page passes its own language's
 * wording to openSession (session-words.js).
 * @typedef {{
 *   start: string, save: string, end: string, record: (element: string) => string,
 *   refused: (action: string) => string,
 *   refusedWith: (action: string, code: string, description: string) => string,
 *   noDescription: string,
 *   failed: (action: string, message: string) => string,
 * }} SessionWords
 * @type {SessionWords}
 */
export const SESSION_WORDS = Object.freeze({
  start: "start the session",
  save: "save",
  end: "end the session",
  record: (element) => `record ${element}`,
  refused: (action) => `The course system refused to ${action}.`,
  refusedWith: (action, code, description) => `The course system refused to ${action} (error ${code}: ${description}).`,
  noDescription: "no description",
  failed: (action, message) => `The course system failed to ${action} (${message}).`,
});

/** ADL's own search gives up after a few levels; nested LMS players rarely need more than 7. */
const MAX_HOPS = 10;

/** The LMS's `API` object above this window (its parents, then its opener's), or null. */
export function findApi(start = window) {
  const fromChain = (win) => {
    for (let hops = 0; win && hops <= MAX_HOPS; hops++) {
      try {
        if (win.API) return win.API;
      } catch {
        // an ancestor on another origin: its API is not ours to call; look further up
      }
      if (win.parent === win) break;
      win = win.parent;
    }
    return null;
  };
  let opener = null;
  try {
    opener = start.top.opener;
  } catch {
    opener = null;
  }
  return fromChain(start) ?? (opener ? fromChain(opener) : null);
}

/**
 * A session with the LMS through `api`: `start`, `get`, `set`, `commit`, `finish`. Each returns
 * false ("" for `get`) when the LMS refused or threw, after telling `onProblem` what it said, in
 * `words`.
 * @param {any} api
 * @param {(text: string) => void} onProblem
 * @param {SessionWords} [words]
 */
export function scormSession(api, onProblem, words = SESSION_WORDS) {
  const broken = ["LMSInitialize", "LMSGetValue", "LMSSetValue", "LMSCommit", "LMSFinish"].filter(
    (name) => typeof api?.[name] !== "function",
  );
  /** The LMS's last error, [code, description], or null when it reports none. */
  const said = () => {
    try {
      const code = String(api.LMSGetLastError());
      if (code === "0" || code === "") return null;
      return [code, String(api.LMSGetErrorString(code) || words.noDescription)];
    } catch {
      return null;
    }
  };
  const call = (name, what, ...args) => {
    if (broken.length) return false;
    try {
      const result = api[name](...args);
      if (String(result) === "true") return true;
      const error = said();
      onProblem(error ? words.refusedWith(what, error[0], error[1]) : words.refused(what));
    } catch (error) {
      onProblem(words.failed(what, error?.message ?? error));
    }
    return false;
  };
  return {
    /** Names of the functions a SCORM 1.2 API must have but this one lacks. */
    broken,
    start: () => call("LMSInitialize", words.start, ""),
    get(element) {
      if (broken.length) return "";
      try {
        return String(api.LMSGetValue(element) ?? "");
      } catch {
        return "";
      }
    },
    set: (element, value) => call("LMSSetValue", words.record(element), element, String(value)),
    commit: () => call("LMSCommit", words.save, ""),
    finish: () => call("LMSFinish", words.end, ""),
  };
}

/**
 * Start the session with the LMS that launched this page: find its API, check it, start it and
 * read the launch's mode. When there is no session to be had, `problem(text, state)` is told
 * why (state "missing" or "broken"; a refusal, as the session reports it, with `say.after`
 * added) and the result is null. "review" (an attempt looked at again) and "browse" (a preview)
 * are `readOnly`: no LMS records them.
 * @param {(text: string, state: string) => void} problem
 * @param {{
 *   missing: string,
 *   broken: (names: string) => string,
 *   after: string,
 *   session?: SessionWords,
 *   sentences?: (first: string, next: string) => string,
 * }} say the notes' wording: for no API, for one lacking the functions named, and what follows a
 *   refusal; the session's own (English without it), and how two sentences follow each other
 *   (with a space without it)
 * @returns {{session: ReturnType<typeof scormSession>, mode: string, readOnly: boolean} | null}
 */
export function openSession(problem, say) {
  const api = findApi(window);
  if (!api) {
    problem(say.missing, "missing");
    return null;
  }
  const session = scormSession(api, (text) => problem(say.sentences?.(text, say.after) ?? `${text} ${say.after}`, "error"), say.session);
  if (session.broken.length) {
    problem(say.broken(session.broken.join(", ")), "broken");
    return null;
  }
  if (!session.start()) return null; // the note says why; nothing more will be accepted
  const mode = session.get("cmi.core.lesson_mode");
  return { session, mode, readOnly: mode === "review" || mode === "browse" };
}

/**
 * What the LMS should hold for a quiz's progress: in progress, "incomplete"; all answered (or,
 * given `finished`, once that is true: a graded test's submission), "passed" when the score in percent reaches `masteryScore`, else "failed". The score is in
 * percent (SCORM 1.2 keeps raw, min and max in 0 to 100).
 */
export function quizReport({ answered, correct, total, finished = undefined }, masteryScore = DEFAULT_MASTERY_SCORE) {
  const raw = total > 0 ? Math.round((100 * correct) / total) : 0;
  // a graded test is done when submitted (`finished`), whatever was left unanswered
  const done = total > 0 && (typeof finished === "boolean" ? finished : answered >= total);
  return {
    "cmi.core.lesson_status": !done ? "incomplete" : raw >= masteryScore ? "passed" : "failed",
    "cmi.core.score.raw": String(raw),
    "cmi.core.score.min": "0",
    "cmi.core.score.max": "100",
    // "suspend" asks the LMS to resume this attempt next time (cmi.core.entry = "resume")
    "cmi.core.exit": done ? "" : "suspend",
  };
}

/** The pass mark the LMS read from the manifest (cmi.student_data.mastery_score), or ours. */
export function masteryScore(session) {
  const given = session.get("cmi.student_data.mastery_score").trim();
  const value = given === "" ? NaN : Number(given);
  return Number.isFinite(value) && value >= 0 && value <= 100 ? value : DEFAULT_MASTERY_SCORE;
}

/** A duration as SCORM 1.2's CMITimespan, HHHH:MM:SS.SS (hours capped at 9999). */
export function sessionTime(milliseconds) {
  const centis = Math.max(0, Math.round(milliseconds / 10));
  const hours = Math.min(9999, Math.floor(centis / 360000));
  const minutes = Math.floor(centis / 6000) % 60;
  const seconds = (centis % 6000) / 100;
  const two = (n) => String(n).padStart(2, "0");
  return `${String(hours).padStart(4, "0")}:${two(minutes)}:${seconds.toFixed(2).padStart(5, "0")}`;
}

/** Where a launch is remembered for the rest of the visit (this tab only). */
const LAUNCHED_KEY = "pelab:launched-by";

/**
 * Whether this page was launched by an LMS: its launch URL says so, or an earlier page of this
 * visit's (the lesson's chapters are pages of one package: the learner walks from the launch
 * page to the quiz's page, and links do not carry the launch parameter along). `session` is
 * where the launch is remembered (sessionStorage; null to remember nothing).
 */
export function launchedByLms(search = location.search, session = globalThis.sessionStorage ?? null) {
  const [name, value] = LAUNCH_PARAMETER;
  const said = new URLSearchParams(search).get(name) === value;
  try {
    if (said) session?.setItem(LAUNCHED_KEY, value);
    return said || session?.getItem(LAUNCHED_KEY) === value;
  } catch {
    return said; // storage blocked: only the URL can say
  }
}

/** The test a launch grades when its URL names none: the whole-lesson test (tools/lesson.py). */
export const LESSON_TEST = "lesson";
/** Where the launched test is remembered for the rest of the visit, like the launch. */
const LAUNCHED_TEST_KEY = "pelab:launched-test";

/**
 * The test an LMS launch reports: the launch URL's `test` (a chapter's name, as a chapter's
 * package launches it), remembered for the visit's later pages, else the whole-lesson test.
 */
export function launchedTest(search = location.search, session = globalThis.sessionStorage ?? null) {
  const named = new URLSearchParams(search).get("test");
  try {
    if (named) session?.setItem(LAUNCHED_TEST_KEY, named);
    return named || session?.getItem(LAUNCHED_TEST_KEY) || LESSON_TEST;
  } catch {
    return named || LESSON_TEST;
  }
}

/**
 * Which tests of a page are graded: every one with `?graded` in the URL (a teacher's own page);
 * in an LMS launch, the one it reports (`launchedTest`); otherwise none: practice.
 * @returns {(test: string) => boolean}
 */
export function gradedTest(search = location.search, session = globalThis.sessionStorage ?? null) {
  if (new URLSearchParams(search).has("graded")) return () => true;
  if (!launchedByLms(search, session)) return () => false;
  const launched = launchedTest(search, session);
  return (test) => test === launched;
}

/**
 * The attempts a package allows, from cmi.launch_data (the manifest's adlcp:datafromlms,
 * "attempts=N", tools/scorm.py): N ≥ 0, 0 for unlimited; 0 when absent or unreadable.
 */
export function allowedAttempts(launchData) {
  const given = new URLSearchParams(String(launchData ?? "").trim()).get("attempts");
  const value = given === null || given.trim() === "" ? NaN : Number(given);
  return Number.isInteger(value) && value >= 0 ? value : 0;
}

/**
 * The cmi.interactions elements for `records`, numbered from `first` (the LMS's
 * cmi.interactions._count: SCORM 1.2 interactions are written once, never read back).
 * @param {import("../page-protocol.js").QuizInteraction[]} records
 * @param {number} first
 * @returns {[string, string][]}
 */
export function interactionElements(records, first = 0) {
  return records.flatMap((record, i) => {
    const at = `cmi.interactions.${first + i}`;
    return [
      [`${at}.id`, record.id],
      [`${at}.objectives.0.id`, record.objective],
      [`${at}.type`, record.type],
      [`${at}.correct_responses.0.pattern`, record.correct],
      [`${at}.student_response`, record.response],
      [`${at}.result`, record.result],
    ];
  });
}
