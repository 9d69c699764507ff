/**
 * A lesson page's session with the LMS, when a SCORM package launched it (app/lms/scorm.js
 * launchedByLms): started as the page opens, whichever page of the package it is (the whole
 * course's entrance, a chapter, the quiz's embed), and ended once as it leaves (LMSCommit, then
 * LMSFinish, on pagehide). The package's launch page (app/lms/launch.js) holds the LMS's own
 * session across the pages, so a walk from page to page loses nothing.
 *
 * As the learner goes it records where they are (cmi.core.lesson_location: the page, and the
 * section in view, PAGE_PLACE_EVENT) and, until something decides otherwise, that the course is
 * under way: "incomplete", with cmi.core.exit "suspend" so that the LMS resumes the attempt. A
 * graded test (app/lms/quiz-to-lms.js) decides "passed" or "failed"; a chapter without a test
 * (app/lms/chapter-to-lms.js) "completed" at its end; neither is ever taken back here.
 *
 * One session per page: the modules that report to the LMS share it (joinPageSession), and hear
 * what went wrong (no API, a broken one, an LMS that refuses) in their own words.
 */
import { findApi, launchedByLms, scormSession, sessionTime } from "./scorm.js";
import { isTranslatedPage } from "../site-languages.js";
import { pageLanguage } from "../i18n.js";
import { PLACE_EVENT } from "../page-protocol.js";
import { sessionWords, sentences } from "./session-words.js";

/** What the LMS may hold that a page must not take back to "incomplete". */
const DECIDED = new Set(["passed", "failed", "completed"]);

/**
 * What went wrong with the session, for the modules that say it: no API, a broken one (lacking
 * `names`), or an LMS that refused or failed something (`text`, in the page's language).
 * @typedef {{state: "missing"} | {state: "broken", names: string} | {state: "error", text: string}} SessionNews
 */

/** @type {{session: ReturnType<typeof scormSession>, mode: string, readOnly: boolean} | null | undefined} */
let opened;
/** @type {SessionNews[]} */
const news = [];
/** @type {((item: SessionNews) => void)[]} */
const listeners = [];

function tell(/** @type {SessionNews} */ item) {
  news.push(item);
  for (const listener of listeners) listener(item);
}

/**
 * Where this page is in its package: its file, in its language's folder for a translation
 * ("zh/why-order.html"), and the section in view ("#alibi"): the form launch.js reopens.
 * @param {string} [section]
 */
export function placeOf(section = "", path = location.pathname, language = pageLanguage()) {
  const file = path.split("/").pop() || "index.html";
  const folder = isTranslatedPage(path, language) ? `${language}/` : "";
  return `${folder}${file}${section ? `#${section}` : ""}`;
}

/**
 * Start this page's session, if an LMS launched it and none is started yet; the session, or null
 * (no launch, no API, a refusal: joinPageSession's listeners hear why).
 * @param {Document} [doc]
 */
export function startPageSession(doc = document, search = location.search) {
  if (opened !== undefined) return opened;
  opened = null;
  if (!launchedByLms(search)) return null;
  const api = findApi(window);
  if (!api) {
    tell({ state: "missing" });
    return null;
  }
  const session = scormSession(api, (text) => tell({ state: "error", text }), sessionWords());
  if (session.broken.length) {
    tell({ state: "broken", names: session.broken.join(", ") });
    return null;
  }
  if (!session.start()) return null;
  const started = performance.now();
  const mode = session.get("cmi.core.lesson_mode");
  const readOnly = mode === "review" || mode === "browse";
  opened = { session, mode, readOnly };
  if (!readOnly) {
    session.set("cmi.core.lesson_location", placeOf(location.hash.slice(1)));
    if (!DECIDED.has(session.get("cmi.core.lesson_status"))) {
      session.set("cmi.core.lesson_status", "incomplete");
      session.set("cmi.core.exit", "suspend"); // resume this attempt next time
    }
    session.commit();
    doc.addEventListener(PLACE_EVENT, (event) => {
      const section = /** @type {CustomEvent} */ (event).detail?.section;
      if (opened && typeof section === "string") session.set("cmi.core.lesson_location", placeOf(section));
    });
  }
  window.addEventListener(
    "pagehide",
    () => {
      if (!readOnly) {
        session.set("cmi.core.session_time", sessionTime(performance.now() - started));
        session.commit();
      }
      session.finish();
      opened = null;
    },
    { once: true },
  );
  return opened;
}

/**
 * This page's session (started if need be) for a module that reports to it, or null; `problem`
 * is told, in `say`'s words, what went wrong so far and whatever goes wrong later.
 * @param {(text: string, state: string) => void} problem
 * @param {{missing: string, broken: (names: string) => string, after: string}} say
 */
export function joinPageSession(problem, say) {
  const session = startPageSession();
  const listener = (/** @type {SessionNews} */ item) =>
    problem(item.state === "missing" ? say.missing : item.state === "broken" ? say.broken(item.names) : sentences(item.text, say.after), item.state);
  news.forEach(listener);
  listeners.push(listener);
  return session;
}
