/**
 * A chapter page of the lesson: start Python, show its progress, wire the course map, the code
 * cells and every demo the page holds.
 */
import { bootStatus, followPython } from "../python/boot-status.js";
import { PythonBridge } from "../python/bridge.js";
import { cellIn, notebookCells } from "../cells/cells.js";
import { nextFrame, nextTask } from "../scheduling/next-task.js";
import { prepareNextVisit } from "../offline/next-visit.js";
import { DEMOS, titleOf } from "../demos/registry.js";
import { PICTURED } from "../demos/first-results.js";
import { MARK } from "../page-protocol.js";
import { FIRST_POSITION, sharedValue } from "../controls/shared-value.js";
import { applyState, lessonUrl, shareBar, showNotices } from "../controls/share.js";
import { tellHostQuizProgress } from "../lms/quiz-progress.js";
import { reportQuizToLms } from "../lms/quiz-to-lms.js";
import { reportChapterToLms } from "../lms/chapter-to-lms.js";
import { startPageSession } from "../lms/page-session.js";
import { gradedTest, launchedByLms } from "../lms/scorm.js";
import { otherSitesInNewTabs } from "../controls/outside-links.js";
import { wireQuizzes } from "../quiz/engine.js";
import { fitTestToPage } from "../quiz/without-demos.js";
import { courseMap } from "../course/map.js";
import { keepPlace } from "../course/language-menu.js";
import { openFoldsForPrint } from "../controls/print-folds.js";

/** null when preflight.js found that this browser or file:// cannot run the lesson. */
const python = document.documentElement.dataset.state === "error" ? null : new PythonBridge();

// The page loads this module with `async`, so that its code (one bundle of 65 modules, 45 kB on
// the wire) does not hold up DOMContentLoaded, and with it the browser's scroll to a #fragment
// (and the first paint of what is there). So it may run before the page is parsed: it starts
// once it is, and once the browser has drawn that first frame. Arriving in one file, early, the
// code would otherwise wire the page (tens of ms) between the parse and the first paint.
const parsed = new Promise((resolve) => {
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", resolve, { once: true });
  else resolve(undefined);
});
parsed.then(nextFrame).then(start);

function start() {
  // Launched by an LMS (a SCORM package): the session starts now, and records where the learner is.
  startPageSession();
  // in the LMS's frame, a link to another site opens a new tab (it might refuse to be framed)
  if (launchedByLms()) otherSitesInNewTabs(document);
  // Before the quizzes are wired: both listen for a test's first progress event. Neither does
  // anything in a plain page (not framed, not launched by an LMS).
  tellHostQuizProgress(document);
  reportQuizToLms(document);
  // A chapter package whose page holds no quiz reports reaching the chapter's end instead.
  reportChapterToLms(document);
  courseMap(document.querySelector(".course-map"));
  keepPlace(document);
  // The checks and tests need no Python: wired at once, graded where the launch or ?graded says.
  fitTestToPage(document.body); // a question's "check in the demo" only where that demo is
  wireQuizzes(document, { graded: gradedTest() });
  openFoldsForPrint(document);
  if (python) wire(python);
}

/**
 * Show Python's progress and wire the cells and demos, a step per task. An async function, not
 * top-level await: browsers with modules but without that still get the page.
 */
async function wire(python) {
  const status = bootStatus(document.querySelector("#boot"));
  followPython(status, python);

  // The page is wired a step per task, so that no single task holds it up once it has painted
  // (wiring it all at once was one task of 60 to 130 ms on a 2-core machine, Python starting),
  // and a demo per frame: each adds a share bar, tables and values that move the page below it,
  // and laying out every demo's additions in one frame still took 40 to 70 ms.
  await nextTask();
  notebookCells(document, python); // first, so that demos and links can hand code to the cells
  // A shared link "#demo=heatmap&d_model=64" sets that demo up and scrolls to it.
  const link = new URLSearchParams(location.hash.slice(1));
  const context = { position: sharedValue(FIRST_POSITION) }; // the position whose dial and heatmap row are shown
  const demos = [];
  const figures = []; // each live demo's first result shown
  // The heatmap first: the page opens on its pre-rendered picture, and Python answers the demos'
  // first requests in the order they come.
  const order = ["heatmap", ...Object.keys(DEMOS).filter((name) => name !== "heatmap")];
  for (const name of order.filter((demo) => document.getElementById(demo))) {
    await nextFrame();
    const root = document.getElementById(name);
    const cell = cellIn(root);
    shareBar(root, { name, title: titleOf(root), linkFor: (state) => lessonUrl(name, state), cell });
    if (link.get("demo") === name) {
      showNotices(root, applyState(root, link, cell));
      requestAnimationFrame(() => root.scrollIntoView());
    }
    const demo = DEMOS[name](root, python, context);
    demo.firstRender.catch(() => {}); // a failure shows in the demo's .problem and the boot panel
    demos.push(demo);
    if (!PICTURED.includes(name)) figures.push(demo.firstRender);
  }
  // Every figure on the page is shown (a pictured one is there from the first paint): the mark
  // python3 build.py bench reports as all_figures_ms.
  Promise.all(figures).then(() => performance.mark(MARK.ALL_FIGURES), () => {});
  const rendered = python.ready
    .then(() => {
      status.rendering();
      // A demo that fails shows its own message; Python itself is up.
      return Promise.allSettled(demos.map((demo) => demo.firstRender));
    })
    .then(() => status.ready(), (error) => status.fail(error.message));
  prepareNextVisit(rendered, python);
}
