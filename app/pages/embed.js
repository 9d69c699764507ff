/**
 * embed.html: one demo (or code cell) of the lesson, chosen by ?demo=NAME, for a course page's
 * iframe. Its markup is the lesson's own section, taken from its chapter's page. Settings come from the
 * URL fragment (clamped, with a notice); the theme from ?theme=light|dark, the system, or a
 * {type: "pelab:theme", theme} message from the host page; the height goes to the host page as
 * {type: "pelab:resize", height} whenever it changes (static/embed-host.js applies it); the
 * test's progress and marked answers as {type: "pelab:quiz", ...} (app/lms/quiz-progress.js).
 * Launched by an LMS (?lms=scorm12, a SCORM package), the test is graded and reports to it
 * (app/lms/); ?graded grades it without an LMS. The
 * quiz needs no Python (registry.js WITHOUT_PYTHON): its embed starts none, downloads none of it
 * and prepares no offline copy of the lesson, whose Python is most of its 50 MB.
 */
import { bootStatus, followPython } from "../python/boot-status.js";
import { discardStartedPython, PythonBridge } from "../python/bridge.js";
import { cellIn, notebookCells } from "../cells/cells.js";
import { prepareNextVisit } from "../offline/next-visit.js";
import { DEMOS, titleOf, WITHOUT_PYTHON } from "../demos/registry.js";
import { loadFirstResults, PICTURED } from "../demos/first-results.js";
import { FIRST_POSITION, sharedValue } from "../controls/shared-value.js";
import { applyState, embedUrl, lessonUrl, readState, shareBar, showNotices } from "../controls/share.js";
import { tellHostQuizProgress } from "../lms/quiz-progress.js";
import { reportQuizToLms } from "../lms/quiz-to-lms.js";
import { startPageSession } from "../lms/page-session.js";
import { gradedTest } from "../lms/scorm.js";
import { wireQuizzes } from "../quiz/engine.js";
import { fitTestToPage } from "../quiz/without-demos.js";
import { keepLinksInTheFrame } from "../controls/outside-links.js";
import { openFoldsForPrint } from "../controls/print-folds.js";
import { HOST_MESSAGE, MARK } from "../page-protocol.js";
import { pageOf } from "../course/outline.js";
import { t } from "../i18n.js";

const THEMES = ["light", "dark"];
const query = new URLSearchParams(location.search);

function setTheme(theme) {
  if (THEMES.includes(theme)) document.documentElement.dataset.theme = theme;
  else delete document.documentElement.dataset.theme; // "auto" or anything else: follow the system
}
setTheme(query.get("theme"));

/** Tell the host page our height: on every change, and when it asks (it may have missed one). */
const height = () => Math.ceil(document.documentElement.getBoundingClientRect().height);
const tellHeight = () => window.parent.postMessage({ type: HOST_MESSAGE.RESIZE, height: height() }, "*");
window.addEventListener("message", ({ data }) => {
  if (data?.type === HOST_MESSAGE.THEME) setTheme(data.theme);
  if (data?.type === HOST_MESSAGE.MEASURE && window.parent !== window) tellHeight();
});
if (window.parent !== window) {
  // Browsers pause ResizeObserver in iframes scrolled out of view, so DOM changes count too.
  let last = 0;
  let pending = null;
  const check = () => {
    pending = null;
    if (height() !== last) {
      last = height();
      tellHeight();
    }
  };
  const schedule = () => (pending ??= setTimeout(check, 50));
  new ResizeObserver(schedule).observe(document.documentElement);
  new MutationObserver(schedule).observe(document.documentElement, {
    subtree: true,
    childList: true,
    attributes: true,
    characterData: true,
  });
}

startPageSession(); // launched by an LMS (a SCORM package): the session starts at once
tellHostQuizProgress(document);
reportQuizToLms(document);
openFoldsForPrint(document);
if (document.documentElement.dataset.state !== "error") start();

async function start() {
  const status = bootStatus(document.querySelector("#boot"));
  const name = query.get("demo") ?? "heatmap";
  const demo = DEMOS[name];
  if (!demo) {
    status.fail(t("There is no demo called “{name}”. Known demos: {names}.", { name, names: Object.keys(DEMOS).join(", ") }));
    discardStartedPython();
    return;
  }
  // Its first result, computed at build time, while the section itself is fetched.
  if (!WITHOUT_PYTHON.includes(name)) loadFirstResults([name]);
  let root;
  let base = "";
  // a SCORM package of a demo without Python holds no lesson to open (tools/scorm.py)
  const lesson = query.get("lesson") !== "none";
  try {
    const page = pageOf(name); // the chapter page that holds the demo's section
    const response = await fetch(new URL(page, document.baseURI));
    // Translators: said inside "Could not load the lesson’s demos (...)"; {status} is an HTTP status such as 404.
    if (!response.ok) throw new Error(t("{file} answered {status}", { file: page, status: response.status }));
    const chapter = new DOMParser().parseFromString(await response.text(), "text/html");
    root = document.adoptNode(chapter.getElementById(name));
    base = response.url;
  } catch (error) {
    status.fail(t("Could not load the lesson’s demos ({error}).", { error: error.message }));
    discardStartedPython();
    return;
  }
  // Translators: the embedded demo's page title; {title} is the demo's.
  document.title = t("{title} · Positional Encoding Lab", { title: titleOf(root) });
  // Its questions fit what the embed holds, and its links leave the frame where it is.
  fitTestToPage(root, { withoutLesson: !lesson });
  keepLinksInTheFrame(root, { base, lesson });
  document.querySelector("main").append(root);
  wireQuizzes(root, { graded: gradedTest() }); // before the demo: the quiz's own wiring is practice

  // A demo without Python (the quiz) gets none: start-python.js started none for it either.
  const python = WITHOUT_PYTHON.includes(name) ? null : new PythonBridge();
  if (python) {
    followPython(status, python);
    notebookCells(document, python);
  }
  const cell = cellIn(root); // none without Python: no cells were made
  shareBar(root, { name, title: titleOf(root), linkFor: (state) => embedUrl(name, state), cell });
  showNotices(root, applyState(root, new URLSearchParams(location.hash.slice(1)), cell));
  const lessonLink = /** @type {HTMLAnchorElement} */ (document.querySelector(".embed-lesson-link"));
  lessonLink.hidden = !lesson;
  lessonLink.href = lessonUrl(name, readState(root, cell));
  lessonLink.addEventListener("pointerdown", () => (lessonLink.href = lessonUrl(name, readState(root, cell))));
  lessonLink.addEventListener("focus", () => (lessonLink.href = lessonUrl(name, readState(root, cell))));

  const created = demo(root, python, { position: sharedValue(FIRST_POSITION) });
  created.firstRender.catch(() => {}); // a failure shows in the demo's .problem and the status
  // Its figure is shown (a pictured one is there from the start): python3 build.py bench's mark.
  (PICTURED.includes(name) ? Promise.resolve() : created.firstRender).then(() => performance.mark(MARK.ALL_FIGURES), () => {});
  if (!python) return status.notNeeded();
  const rendered = python.ready
    .then(() => {
      status.rendering();
      return created.firstRender;
    })
    .then(() => status.ready(), (error) => status.fail(error.message));
  prepareNextVisit(rendered, python);
}
