/**
 * Demo: watch a learned table form. A tiny Transformer (pelab.training) trains on "name the
 * token `shift` places back" in a Python of its own (python.another()), a slice of steps at a
 * time, so the lesson's Python stays free for every other demo; after each slice the page
 * redraws the loss curve, the table's cosine similarity and its principal components. Pause
 * keeps that Python and its model for Resume; Stop and Reset end it at once, freeing it. The
 * untrained table (step 0) comes from the lesson's own Python, like every demo's first render.
 */
import { liveRender } from "./live-render.js";
import { runInOwnPython } from "./experiment-runner.js";
import { MARK } from "../page-protocol.js";
import { bindSliders, paramsFrom } from "../controls/bind-sliders.js";
import { fixed } from "../figures/format.js";
import { colourBarUnder } from "../figures/colour-bar.js";
import { lineChart } from "../figures/line-chart.js";
import { matrixAxes } from "../figures/matrix-axes.js";
import { corner, listed, matrixRows, numbersFor } from "../figures/numbers.js";
import { paintPixels } from "../figures/paint.js";
import { showPython } from "./show-python.js";

/** Steps per request: the figures are redrawn this often. */
const SLICE = 25;
/** A run stops by itself after this many steps (the progress bar's end). */
const MAX_STEPS = 600;

/** The demo's sliders: {param: input name}. */
const SLIDERS = { seed: "seed", shift: "shift", maxTrainLen: "max_train_len" };

/**
 * The Python behind the demo: the same tiny Transformer trained for 150 steps, and what the page
 * measures of its table.
 *
 * @param {{seed: number, shift: number, maxTrainLen: number}} settings
 */
export function pythonCode({ seed, shift, maxTrainLen }) {
  return `import pelab

trainer = pelab.Trainer(scheme="learned", task="copy", shift=${shift}, max_train_len=${maxTrainLen},
                        table_len=${maxTrainLen}, min_len=${Math.max(4, shift + 1)}, learning_rate=0.003, seed=${seed})
losses = trainer.step(150)           # 150 steps of Adam; the page trains in slices of ${SLICE}
table = trainer.params["position_table"]          # (${maxTrainLen}, 32): one row per position
print("loss:", round(losses[0], 3), "->", round(losses[-1], 3))
print("band contrast:", round(pelab.band_contrast(table), 3))
components, shares = pelab.principal_components(table, 2)
best = pelab.closest_sinusoid(components[0])
print("closest sinusoid to the first: period", round(best["period"], 1),
      "(the slowest tried: a trend, not a wave)" if best["at_longest"] else "")
pelab.show(pelab.similarity(table)[1], title="cosine similarity of the rows")`;
}

/**
 * The code the cell shows at first paint, for the section's controls at their first values.
 *
 * @param {Record<string, any>} controls
 */
export const firstCode = (controls) => pythonCode(paramsFrom(SLIDERS, controls));

export function trainingDemo(root, python) {
  const params = bindSliders(root, SLIDERS, () => update());
  const render = liveRender(root, python, "training_reset", show);
  const buttons = Object.fromEntries(
    ["train", "pause", "resume", "stop", "reset"].map((name) => [name, root.querySelector(`.training-${name}`)]),
  );
  const status = root.querySelector(".training-status");
  const progress = root.querySelector(".training-progress");
  const problem = root.querySelector(".training-problem");
  const cosineCanvas = root.querySelector(".training-cosine");
  const cosineAxes = matrixAxes(cosineCanvas, { rowTitle: "position", columnTitle: "position" });
  colourBarUnder(cosineCanvas.closest(".matrix-plot"))({ limit: 1, title: "cosine similarities" });
  const componentsChart = root.querySelector(".training-components");
  const lossChart = root.querySelector(".training-loss");
  const numbers = {
    cosine: numbersFor(cosineCanvas, "the cosine similarity of the table"),
    components: numbersFor(componentsChart, "the principal components"),
    loss: numbersFor(lossChart, "the training loss"),
  };
  progress.max = MAX_STEPS;

  /** The settings of what is shown. What the demo is doing is its data-phase (setPhase). */
  let settings = null;
  let started = 0; // performance.now() when the current run's slices began (or resumed)
  let stepsAtStart = 0;

  // The same lifecycle as the experiments' (experiment-runner.js), with Pause: a run in a
  // Python of its own, a slice at a time, ended at once by Stop, Reset or new settings.
  const trainer = runInOwnPython(python, {
    slice: SLICE,
    reset: (bridge) => bridge.call("training_reset", settings),
    step(bridge, steps) {
      root.dataset.slice = "running"; // a slice in flight: Pause takes effect when it lands
      return bridge.call("training_step", { steps }).finally(() => (root.dataset.slice = "none"));
    },
    isDone: (result) => result.steps_done >= MAX_STEPS,
    started(first) {
      performance.mark(MARK.TRAINING_BOOTED); // python3 build.py bench: its Python is up
      show(first, settings);
      setPhase("training", "Training…");
      startClock();
    },
    stepped(result) {
      show(result, settings);
      root.dataset.stepsPerSecond = fixed(((result.steps_done - stepsAtStart) * 1000) / (performance.now() - started), 1);
    },
    finished(result) {
      setPhase("done", `Done: ${result.steps_done} steps. Its Python was ended, freeing its memory.`);
    },
    failed(error) {
      problem.textContent = `Training failed: ${error.message}`;
      problem.hidden = false;
      setPhase("stopped", "Training failed; its Python was ended.");
    },
  });

  buttons.train.addEventListener("click", () => train());
  buttons.pause.addEventListener("click", () => {
    trainer.pause();
    setPhase("paused", "Paused: its Python keeps the model until you resume, stop or reset.");
  });
  buttons.resume.addEventListener("click", () => {
    setPhase("training", "Training…");
    startClock();
    trainer.resume();
  });
  buttons.stop.addEventListener("click", () => {
    const steps = Number(root.dataset.steps ?? 0);
    trainer.end("stopped");
    setPhase("stopped", `Stopped at step ${steps}. Its Python was ended, freeing its memory; Train starts again from step 0.`);
  });
  buttons.reset.addEventListener("click", () => update());

  /** Settings changed, or Reset: end any training and show the untrained table. */
  function update() {
    trainer.end("the settings changed");
    settings = { ...params };
    setPhase("idle", "Not trained yet: this is the table at its random start.");
    showPython(root, pythonCode(params));
    return render({ ...params });
  }

  function train() {
    settings = { ...params };
    problem.hidden = true;
    setPhase("starting", "Starting a Python of its own for training (a few seconds)…");
    performance.mark(MARK.TRAINING_START);
    return trainer.start();
  }

  /** Steps per second count from here: the first slice, or a resume. */
  function startClock() {
    started = performance.now();
    stepsAtStart = Number(root.dataset.steps ?? 0);
  }

  /** next: idle, starting, training, paused, done or stopped. */
  function setPhase(next, text) {
    root.dataset.phase = next;
    status.textContent = text;
    buttons.train.disabled = next === "starting" || next === "training";
    buttons.pause.disabled = next !== "training";
    buttons.resume.disabled = next !== "paused";
    buttons.stop.disabled = !["starting", "training", "paused"].includes(next);
  }

  function show(result, request) {
    const n = result.n;
    const steps = result.steps_done;
    paintPixels(cosineCanvas, { width: n, height: n, rgba: result.cosine_rgba });
    cosineAxes({ rows: n, columns: n });
    progress.value = steps;
    progress.textContent = `${steps} of ${MAX_STEPS}`;
    const structured = result.structured_at === null || result.structured_at === undefined
      ? "not structured yet"
      : `structured since step ${result.structured_at}`;
    if (result.structured_at != null && !root.dataset.structuredAt) performance.mark(MARK.TRAINING_STRUCTURED);
    cosineCanvas.setAttribute(
      "aria-label",
      `Cosine similarity of the ${n} rows of the learned table after ${steps} steps: band contrast ${fixed(result.band_contrast, 2)}, ${structured}` +
        (steps === 0 ? "; random rows, so no pattern." : "."),
    );
    const shown = corner(n);
    numbers.cosine.show({
      caption: `Cosine similarity of the table’s rows after ${steps} steps, positions ${listed(shown)} of ${n}`,
      corner: "position",
      columns: shown.map(String),
      rows: matrixRows(result.cosine, n, shown, shown.length),
      note: shown.length < n ? `The top-left corner of the ${n} × ${n} matrix.` : "",
    });

    const positions = [...Array(n).keys()];
    const component = (c) => result.components.slice(c * n, (c + 1) * n);
    const fit = (c) => result.sinusoid_fits.slice(c * n, (c + 1) * n);
    lineChart(componentsChart, {
      series: [
        { x: positions, y: component(0), className: "pair-0", label: "first component" },
        { x: positions, y: fit(0), className: "pair-0 training-fit", label: "its closest sinusoid" },
        { x: positions, y: component(1), className: "pair-1", label: "second component" },
        { x: positions, y: fit(1), className: "pair-1 training-fit", label: "its closest sinusoid" },
      ],
      xLabel: "position",
      yLabel: "component",
    });
    // The fit's period, worded for the grid's two ends (pelab.closest_sinusoid): the longest
    // period tried, 4 (n - 1), is only where the grid stops, so a fit there is a trend, not a
    // wave; the shortest, 2, is alternation, the fastest wave integer positions can show (ω = π,
    // so 2π / ω is exactly 2).
    const period = (c) => {
      const p = result.sinusoid_periods[c];
      if (result.sinusoid_at_longest[c]) {
        return `closest sinusoid is the slowest tried, period ${fixed(p, 1)} positions (a quarter of a cycle across the table: a trend, not a wave), and`;
      }
      return `closest sinusoid has period ${fixed(p, 1)} positions` + (p === 2 ? " (alternating from one position to the next)" : "") + " and";
    };
    const describe = (c) =>
      `${c ? "second" : "first"} component (${fixed(100 * result.component_shares[c], 0)}% of the variance): ${period(c)} ` +
      `explains ${fixed(100 * result.sinusoid_r_squared[c], 0)}% of it`;
    componentsChart.setAttribute("aria-label", `Principal components of the table against position after ${steps} steps: ${describe(0)}; ${describe(1)}.`);
    numbers.components.show({
      caption: `The table’s two principal components and their closest sinusoids, after ${steps} steps`,
      corner: "position",
      columns: ["first", "its sinusoid", "second", "its sinusoid"],
      rows: positions.map((p) => ({ label: String(p), values: [component(0)[p], fit(0)[p], component(1)[p], fit(1)[p]] })),
    });
    root.querySelector(".training-sinusoids").textContent = `${describe(0)}; ${describe(1)}`;

    const losses = result.losses;
    // The loss chart and its numbers appear with the first step: before it there is no loss.
    const lossFigure = lossChart.closest("figure");
    lossFigure.hidden = !losses.length;
    if (losses.length) lossFigure.removeAttribute("aria-hidden");
    else lossFigure.setAttribute("aria-hidden", "true");
    if (losses.length) {
      lineChart(lossChart, {
        series: [{ x: losses.map((_, k) => k + 1), y: losses, className: "pair-0" }],
        xLabel: "step",
        yLabel: "loss",
        yDomain: [0, Math.max(2.2, ...losses)],
      });
      lossChart.setAttribute(
        "aria-label",
        `Training loss over ${losses.length} steps: ${fixed(losses[0], 2)} at step 1, ${fixed(losses[losses.length - 1], 2)} at step ${losses.length}.`,
      );
    } else {
      lossChart.replaceChildren();
      lossChart.setAttribute("aria-label", "Training loss: nothing trained yet.");
    }
    numbers.loss.show(() => ({
      caption: `Training loss, every ${SLICE}th step`,
      corner: "step",
      columns: ["loss"],
      rows: Array.from(losses)
        .map((loss, k) => ({ label: String(k + 1), values: [loss] }))
        .filter((_, k) => k === 0 || (k + 1) % SLICE === 0),
      note: losses.length ? "" : "Nothing trained yet.",
    }));
    root.querySelector(".training-steps").textContent = String(steps);
    root.querySelector(".training-accuracy").textContent =
      result.accuracy === null || result.accuracy === undefined ? "–" : `${fixed(100 * result.accuracy, 0)}%`;
    root.querySelector(".training-contrast").textContent =
      `${fixed(result.band_contrast, 2)} (${structured}; structured from ${fixed(result.threshold, 1)})`;
    Object.assign(root.dataset, {
      rendered: `${request.seed}/${request.shift}/${request.maxTrainLen}@${steps}`,
      steps: String(steps),
      contrast: String(result.band_contrast),
      structuredAt: result.structured_at == null ? "" : String(result.structured_at),
    });
  }

  return { firstRender: update() };
}
