/**
 * A chapter package whose page holds no test, reporting to the LMS that launched it (SCORM 1.2):
 * "incomplete" when the chapter opens (as every page of a package says until something decides),
 * "completed" once the learner reaches its end (the link to the next chapter comes into view).
 * Without it an LMS would track nothing for such a chapter.
 *
 * It acts only on the page a chapter package opens (tools/scorm.py: its launch page adds
 * `?lms=scorm12&sco=NAME`, NAME the page's `<body data-chapter>`), and only when that page holds
 * no test (its sections' checks are practice, and report nothing): where it holds one, the
 * launch names it (`&test=`) and app/lms/quiz-to-lms.js reports its score instead. The whole
 * course's package never says `sco=`, so its chapter pages only record the learner's place, like
 * every page of a package (app/lms/page-session.js, whose session this shares: it starts as the
 * page opens and ends as it leaves). Nothing here throws: a missing or refusing LMS is said in a
 * note above the chapter's last link, and the lesson goes on.
 */
import { launchedByLms } from "./scorm.js";
import { joinPageSession } from "./page-session.js";
import { t } from "../i18n.js";

/** The query parameter naming the chapter a package is (tools/scorm.py: CHAPTER_PARAMETER). */
export const CHAPTER_PARAMETER = "sco";

/**
 * Whether this page is a chapter package's own page and must report itself: launched by an LMS,
 * named by `sco=`, and holding no test.
 * @param {Document} doc
 * @param {string} search the page's query string
 */
export function reportsItself(doc, search) {
  const chapter = doc.body?.dataset.chapter;
  return (
    Boolean(chapter) &&
    new URLSearchParams(search).get(CHAPTER_PARAMETER) === chapter &&
    launchedByLms(search, null) &&
    !doc.querySelector('form.quiz[data-quiz="test"]')
  );
}

/**
 * @param {Document} [doc]
 * @param {string} [search]
 */
export function reportChapterToLms(doc = document, search = location.search) {
  if (!reportsItself(doc, search)) return;
  const end = doc.querySelector(".chapter-next");
  const root = doc.documentElement;
  const opened = joinPageSession(
    problem,
    {
      missing: t(
        "This chapter was launched as a course package, but no course system (SCORM API) answered: your progress is not recorded. Open it from your course page to record it.",
      ),
      // Translators: {names} lists the functions the course system's SCORM API lacks, such as "LMSCommit, LMSFinish".
      broken: (names) => t("The course system’s SCORM API is broken (it has no {names}): your progress is not recorded.", { names }),
      after: t("The chapter works as before."),
    },
  );
  if (!opened) return;
  const { session, mode, readOnly } = opened;
  let done = session.get("cmi.core.lesson_status") === "completed";
  root.dataset.lms = readOnly ? mode : done ? "completed" : "connected";
  if (end && !readOnly && !done) {
    const watcher = new IntersectionObserver((entries) => {
      if (!entries.some((entry) => entry.isIntersecting) || done) return;
      done = true;
      watcher.disconnect();
      session.set("cmi.core.lesson_status", "completed");
      session.set("cmi.core.exit", "");
      if (session.commit()) root.dataset.lms = "completed";
    });
    watcher.observe(end);
  }

  /**
   * @param {string} text
   * @param {string} state
   */
  function problem(text, state) {
    root.dataset.lms = state;
    let note = doc.querySelector(".chapter-lms-note");
    if (!note) {
      note = doc.createElement("p");
      note.className = "chapter-lms-note note";
      note.setAttribute("role", "status");
      if (end) end.before(note);
      else doc.querySelector("main")?.append(note);
    }
    note.textContent = text;
  }
}
