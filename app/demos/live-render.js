/**
 * What every demo's rendering shares: one request in flight (latest value wins), its first result
 * shown before Python is ready (computed at build time: first-results.js), a note while a
 * request waits for Python, failures in the demo's .problem, and the first results drawn a frame
 * apart.
 */
import { firstResult } from "./first-results.js";
import { latestWins } from "./latest.js";
import { pythonArguments } from "../python/bridge.js";
import { EVENT } from "../python/protocol.js";
import { nextFrame } from "../scheduling/next-task.js";
import { t } from "../i18n.js";

/**
 * The demos show their first results one at a time, each once the page has drawn the one before:
 * those results arrive together when Python is ready, and laying them all out and painting them
 * in one frame took 60-140 ms on a 2-core machine. Returns {start, finished}: await `start`,
 * show, then call `finished()`.
 */
let drawnBefore = Promise.resolve();
function firstRenderTurn() {
  /** @type {(value?: unknown) => void} */
  let finished;
  const start = drawnBefore;
  drawnBefore = new Promise((resolve) => (finished = resolve)).then(nextFrame);
  return { start, finished };
}

/** How long a demo waits for Python before it says why (a code cell may be running). */
const PATIENCE_MS = 400;

/**
 * Render with `python.call(entry, params)` then `show(result, params)`, newest params winning.
 * `entry` names a pelab entry point ("relative"); it may also be a function of params that asks
 * Python itself (the heatmap's, which paints on a canvas; a demo whose params hold more than the
 * entry point's arguments).
 * Until Python is ready, the result computed at build time answers the demo's first request
 * (first-results.js); any other request waits for Python, and the figures say so, dimmed.
 * Python runs one thing at a time: while a code cell runs, the demo says it is waiting for it.
 */
export function liveRender(root, python, entry, show) {
  const ask = typeof entry === "function" ? entry : (params) => python.call(entry, params);
  const problem = root.querySelector(".problem");
  /** @type {HTMLElement | null} */
  let note = null; // made the first time it is needed
  /** Say why the figures are not (yet) what the controls ask for, or nothing. */
  function say(text) {
    if (!text) {
      if (note) note.hidden = true;
      return;
    }
    if (!note) {
      note = Object.assign(document.createElement("p"), { className: "note demo-waiting" });
      note.setAttribute("role", "status");
      // under the sliders being moved, where the learner is looking
      (root.querySelector(".controls") ?? problem).after(note);
    }
    if (note.textContent !== text) note.textContent = text;
    note.hidden = false;
  }
  let shipped = false; // the figures show the result computed at build time
  async function compute(params) {
    if (!python.isReady && typeof entry !== "function") {
      const first = await firstResult(root.id, entry, pythonArguments(params));
      if (first && !python.isReady) {
        shipped = true;
        return first;
      }
      mark("waiting");
      root.dataset.stale = ""; // dimmed (lab.css) until what they show is what was asked
      say(t("Live in a moment: Python is still starting. Until it has computed these settings, the dimmed figures are for others."));
    }
    shipped = false;
    const timer = setTimeout(() => {
      if (python.busy) say(t("Waiting for Python: a code cell is running. This demo catches up when it ends, or when you stop it."));
    }, PATIENCE_MS);
    try {
      return await ask(params);
    } finally {
      clearTimeout(timer);
      say("");
    }
  }
  let first = true;
  const render = latestWins(
    compute,
    async (result, params) => {
      const turn = first ? firstRenderTurn() : null;
      first = false;
      try {
        await turn?.start;
        if (!problem.hidden) problem.hidden = true; // setting it again would restyle, every frame
        await show(result, params);
        delete root.dataset.stale;
        mark(shipped && !python.isReady ? "shipped" : "shown");
      } finally {
        turn?.finished();
      }
    },
    (error) => {
      problem.textContent =
        "stale" in root.dataset && !python.isReady
          ? t("Python could not start, so the dimmed figures are not for these settings ({error}).", { error: error.message })
          : t("Could not compute this: {error}", { error: error.message });
      problem.hidden = false;
      mark("failed");
    },
  );
  // The result computed at build time is what Python would compute: once Python is ready (or
  // ready again after a restart), the figures are live as they are.
  python.addEventListener?.(EVENT.READY, () => root.dataset.live === "shipped" && mark("shown"));
  return render;

  /** The readiness marker on the section, `data-live`; written only when it changes (a drag). */
  function mark(state) {
    if (root.dataset.live !== state) root.dataset.live = state;
  }
}
