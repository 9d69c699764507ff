/**
 * A training experiment run in a Python of its own (python.another()), a slice of steps at a
 * time, with a progress bar, a status line and Stop, which ends that Python at once. Shared by
 * the extrapolation demo (every position scheme, up to 4L) and the stretching demo (RoPE at L,
 * 2L and 4L with each stretching method), so that both start, stop and fail the same way.
 */

/** Steps per request: progress is redrawn this often. */
const SLICE = 50;

/**
 * Wire a Run and a Stop button to an experiment.
 *
 * @param {HTMLElement} root the demo's section; its data-experiment says running, done,
 *   stopped or failed.
 * @param {object} python the page's Python (its another() makes a fresh one).
 * @param {object} parts the elements (run, stop, status, progress, problem) and what to do:
 *   reset(bridge) and step(bridge, steps) call the experiment's two entry points; show(result)
 *   draws a result; current(result) names what is being trained, or null; models(result) says
 *   how many models a finished run trained; mark (optional) prefixes performance marks
 *   "-start" and "-done".
 */
export function bindExperiment(root, python, parts) {
  const { run, stop, status, progress, problem, reset, step, show, current, models, mark } = parts;
  let runner = null;

  run.addEventListener("click", async () => {
    end("a new run started");
    const bridge = python.another();
    runner = bridge;
    setBusy(true, "Starting a Python of its own for the experiment (a few seconds)…");
    root.dataset.experiment = "running";
    if (mark) performance.mark(`${mark}-start`);
    try {
      await bridge.ready;
      let result = await reset(bridge);
      while (runner === bridge && !result.done) {
        result = await step(bridge, SLICE);
        if (runner !== bridge) return;
        showProgress(result);
        show(result);
      }
      if (runner !== bridge) return;
      end("the experiment is over");
      if (mark) performance.mark(`${mark}-done`);
      root.dataset.experiment = "done";
      setBusy(false, `Done: ${result.total_steps} training steps over ${models(result)} models. Its Python was ended, freeing its memory.`);
    } catch (error) {
      if (runner !== bridge) return; // stopped on purpose
      end("it failed");
      problem.textContent = `The experiment failed: ${error.message}`;
      problem.hidden = false;
      root.dataset.experiment = "failed";
      setBusy(false, "The experiment failed; its Python was ended.");
    }
  });
  stop.addEventListener("click", () => {
    end("stopped");
    root.dataset.experiment = "stopped";
    setBusy(false, `Stopped at ${progress.textContent}. Its Python was ended, freeing its memory; the results keep the models that finished.`);
  });

  function end(reason) {
    const bridge = runner;
    runner = null;
    bridge?.close(reason);
  }

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
    if (now !== null) status.textContent = `Training ${now} (${progress.textContent} of all steps)…`;
  }
}
