/**
 * What every demo's rendering shares: one request in flight (latest value wins), a note while
 * Python is busy with a code cell, failures in the demo's .problem, and the first results drawn
 * a frame apart.
 */
import { latestWins } from "./latest.js";
import { nextFrame } from "../scheduling/next-task.js";

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
 * Python runs one thing at a time: while a code cell runs, the demo says it is waiting for it.
 */
export function liveRender(root, python, entry, show) {
  const ask = typeof entry === "function" ? entry : (params) => python.call(entry, params);
  const problem = root.querySelector(".problem");
  let waiting = null; // the note, made the first time it is needed
  async function compute(params) {
    const timer = setTimeout(() => {
      if (!python.busy) return;
      if (!waiting) {
        waiting = Object.assign(document.createElement("p"), {
          className: "note demo-waiting",
          textContent: "Waiting for Python: a code cell is running. This demo catches up when it ends, or when you stop it.",
        });
        waiting.setAttribute("role", "status");
        // under the sliders being moved, where the learner is looking
        (root.querySelector(".controls") ?? problem).after(waiting);
      }
      waiting.hidden = false;
    }, PATIENCE_MS);
    try {
      return await ask(params);
    } finally {
      clearTimeout(timer);
      if (waiting) waiting.hidden = true;
    }
  }
  let first = true;
  return latestWins(
    compute,
    async (result, params) => {
      const turn = first ? firstRenderTurn() : null;
      first = false;
      try {
        await turn?.start;
        if (!problem.hidden) problem.hidden = true; // setting it again would restyle, every frame
        await show(result, params);
        mark("shown");
      } finally {
        turn?.finished();
      }
    },
    (error) => {
      problem.textContent = `Could not compute this: ${error.message}`;
      problem.hidden = false;
      mark("failed");
    },
  );

  /** The readiness marker on the section, `data-live`; written only when it changes (a drag). */
  function mark(state) {
    if (root.dataset.live !== state) root.dataset.live = state;
  }
}
