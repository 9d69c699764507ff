/**
 * Training run in a Python of its own (python.another()), a slice of steps at a time, so that
 * the lesson's Python stays free for every other demo; ending it ends that Python at once,
 * freeing its memory. One lifecycle for every such run: `runInOwnPython` (start, pause, resume,
 * end), used by the training demo (which pauses), and `bindExperiment` on top of it, a Run and a
 * Stop button with a progress bar and a status line, used by the extrapolation demo (every
 * position scheme, up to 4L) and the stretching demo (RoPE at L, 2L and 4L with each stretching
 * method), so that all three start, stop and fail the same way.
 */
import { t } from "../i18n.js";

/**
 * @typedef {import("../python/bridge.js").PythonBridge} PythonBridge
 *
 * What a run does and whom it tells.
 * @typedef {object} RunSteps
 * @property {number} slice steps per request: what is shown is redrawn this often
 * @property {(bridge: PythonBridge) => Promise<any>} reset calls the run's reset entry point
 * @property {(bridge: PythonBridge, steps: number) => Promise<any>} step calls its step entry point
 * @property {(result: any) => boolean} isDone whether a result is the run's last
 * @property {(result: any) => void} [started] the reset's result, once the run's Python is up
 * @property {(result: any) => void} stepped each slice's result
 * @property {(result: any) => void} finished the last result; the run's Python is ended by then
 * @property {(error: Error) => void} failed why it failed; its Python is ended by then
 */

/**
 * A run in a Python of its own. `start()` ends any run before it, starts a fresh Python, resets
 * and steps it until `isDone`; `pause()` stops after the slice in flight, keeping that Python
 * for `resume()`; `end(reason)` ends the run and its Python at once, and nothing more is told
 * about it. A run ended on purpose is not a failure.
 *
 * @param {{another(): PythonBridge}} python the page's Python (its another() makes a fresh one)
 * @param {RunSteps} steps
 */
export function runInOwnPython(python, steps) {
  const { slice, reset, step, isDone, started, stepped, finished, failed } = steps;
  /** The current run's Python, while there is one. */
  let current = null;
  let paused = false;
  /** The run a loop is stepping, if any: a resume before the paused slice lands just goes on. */
  let looping = null;
  let last = null;

  async function start() {
    end("a new run started");
    const bridge = python.another();
    current = bridge;
    paused = false;
    await guarded(bridge, async () => {
      await bridge.ready;
      last = await reset(bridge);
      if (current !== bridge) return;
      started?.(last);
      await loop(bridge);
    });
  }

  /** Step `bridge`'s run until it is done, paused or ended; one loop at a time. */
  async function loop(bridge) {
    looping = bridge;
    try {
      while (current === bridge && !paused && !isDone(last)) {
        const result = await step(bridge, slice);
        if (current !== bridge) return;
        last = result;
        stepped(result);
      }
    } finally {
      if (looping === bridge) looping = null;
    }
    if (current === bridge && isDone(last)) {
      end("the run is over");
      finished(last);
    }
  }

  /** Run `work` for `bridge`'s run; a failure ends it and is told, unless it was ended already. */
  async function guarded(bridge, work) {
    try {
      await work();
    } catch (error) {
      if (current !== bridge) return; // ended on purpose
      end("it failed");
      failed(error);
    }
  }

  function end(reason) {
    const bridge = current;
    current = null;
    bridge?.close(reason);
  }

  return {
    start,
    /** Stop after the slice in flight; the run's Python keeps its model for resume(). */
    pause() {
      paused = true;
    },
    /** Go on with a paused run. */
    resume() {
      const bridge = current;
      paused = false;
      if (!bridge || looping === bridge) return Promise.resolve();
      return guarded(bridge, () => loop(bridge));
    },
    end,
  };
}

/** Steps per request of an experiment: progress is redrawn this often. */
const SLICE = 50;

/**
 * Wire a Run and a Stop button to an experiment.
 *
 * @param {HTMLElement} root the demo's section; its data-experiment says running, done,
 *   stopped or failed.
 * @param {{another(): PythonBridge}} python the page's Python (its another() makes a fresh one).
 * @param {object} parts the elements (run, stop, status, progress, problem) and what to do:
 *   reset(bridge) and step(bridge, steps) call the experiment's two entry points; show(result)
 *   draws a result; current(result) names what is being trained, or null; models(result) says
 *   how many models a finished run trained; marks (optional) {start, done} are performance
 *   marks (MARK of app/page-protocol.js) set when a run starts and when it is done; finished
 *   (optional) is told the last result of a run that finished (not of one stopped or failed).
 * @param {HTMLButtonElement} parts.run
 * @param {HTMLButtonElement} parts.stop
 * @param {HTMLElement} parts.status
 * @param {HTMLProgressElement} parts.progress
 * @param {HTMLElement} parts.problem
 * @param {(bridge: PythonBridge) => Promise<any>} parts.reset
 * @param {(bridge: PythonBridge, steps: number) => Promise<any>} parts.step
 * @param {(result: any) => void} parts.show
 * @param {(result: any) => string | null} parts.current
 * @param {(result: any) => number} parts.models
 * @param {{start: string, done: string}} [parts.marks]
 * @param {(result: any) => void} [parts.finished]
 */
export function bindExperiment(root, python, parts) {
  const { run, stop, status, progress, problem, reset, step, show, current, models, marks, finished } = parts;
  const runner = runInOwnPython(python, {
    slice: SLICE,
    reset,
    step,
    isDone: (result) => result.done,
    stepped(result) {
      showProgress(result);
      show(result);
    },
    finished(result) {
      if (marks) performance.mark(marks.done);
      root.dataset.experiment = "done";
      setBusy(
        false,
        t("Done: {steps} training steps over {models} models. Its Python was ended, freeing its memory.", {
          steps: result.total_steps,
          models: models(result),
        }),
      );
      finished?.(result);
    },
    failed(error) {
      problem.textContent = t("The experiment failed: {error}", { error: error.message });
      problem.hidden = false;
      root.dataset.experiment = "failed";
      setBusy(false, t("The experiment failed; its Python was ended."));
    },
  });

  run.addEventListener("click", () => {
    runner.end("a new run started");
    setBusy(true, t("Starting a Python of its own for the experiment (a few seconds)…"));
    root.dataset.experiment = "running";
    if (marks) performance.mark(marks.start);
    runner.start();
  });
  stop.addEventListener("click", () => {
    runner.end("stopped");
    root.dataset.experiment = "stopped";
    // Translators: {progress} is how far the run got, such as "45%".
    setBusy(false, t("Stopped at {progress}. Its Python was ended, freeing its memory; the results keep the models that finished.", { progress: progress.textContent }));
  });

  function setBusy(busy, text) {
    run.disabled = busy;
    stop.disabled = !busy;
    status.textContent = text;
  }

  function showProgress(result) {
    progress.max = result.total_steps;
    progress.value = result.steps_done;
    progress.textContent = `${Math.round((100 * result.steps_done) / result.total_steps)}%`;
    const now = current(result);
    // Translators: {what} is what is being trained, such as "RoPE" or "the RoPE model, seed 2"; {progress} such as "45%".
    if (now !== null) status.textContent = t("Training {what} ({progress} of all steps)…", { what: now, progress: progress.textContent });
  }
}
