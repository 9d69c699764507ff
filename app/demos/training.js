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
import { t } from "../i18n.js";
import { COMPUTED } from "../computed.js";

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
  // The code's comments, in the page's language (outside the template: the extractor of
  // messages reads no template literal).
  const comments = {
    steps: t("150 steps of Adam; the page trains in slices of {slice}", { slice: SLICE }),
    table: t("one row per position"),
  };
  // pelab's own: the demo's model trains at its learning rate, and is this wide
  const learningRate = COMPUTED["training.learning-rate"];
  const width = COMPUTED["training.width"];
  return `import pelab

trainer = pelab.Trainer(scheme="learned", task="copy", shift=${shift}, max_train_len=${maxTrainLen},
                        table_len=${maxTrainLen}, min_len=${Math.max(4, shift + 1)}, learning_rate=${learningRate}, seed=${seed})
losses = trainer.step(150)           # ${comments.steps}
table = trainer.params["position_table"]          # (${maxTrainLen}, ${width}): ${comments.table}
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
  const cosineAxes = matrixAxes(cosineCanvas, { rowTitle: t("position"), columnTitle: t("position") });
  colourBarUnder(cosineCanvas.closest(".matrix-plot"))({ limit: 1, title: t("cosine similarities") });
  const componentsChart = root.querySelector(".training-components");
  const lossChart = root.querySelector(".training-loss");
  const numbers = {
    cosine: numbersFor(cosineCanvas, t("the cosine similarity of the table")),
    components: numbersFor(componentsChart, t("the principal components")),
    loss: numbersFor(lossChart, t("the training loss")),
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
      setPhase("training", t("Training…"));
      startClock();
    },
    stepped(result) {
      show(result, settings);
      root.dataset.stepsPerSecond = fixed(((result.steps_done - stepsAtStart) * 1000) / (performance.now() - started), 1);
    },
    finished(result) {
      setPhase("done", t("Done: {steps} steps. Its Python was ended, freeing its memory.", { steps: result.steps_done }));
    },
    failed(error) {
      problem.textContent = t("Training failed: {error}", { error: error.message });
      problem.hidden = false;
      setPhase("stopped", t("Training failed; its Python was ended."));
    },
  });

  buttons.train.addEventListener("click", () => train());
  buttons.pause.addEventListener("click", () => {
    trainer.pause();
    setPhase("paused", t("Paused: its Python keeps the model until you resume, stop or reset."));
  });
  buttons.resume.addEventListener("click", () => {
    setPhase("training", t("Training…"));
    startClock();
    trainer.resume();
  });
  buttons.stop.addEventListener("click", () => {
    const steps = Number(root.dataset.steps ?? 0);
    trainer.end("stopped");
    setPhase("stopped", t("Stopped at step {steps}. Its Python was ended, freeing its memory; Train starts again from step 0.", { steps }));
  });
  buttons.reset.addEventListener("click", () => update());

  /** Settings changed, or Reset: end any training and show the untrained table. */
  function update() {
    trainer.end("the settings changed");
    settings = { ...params };
    setPhase("idle", t("Not trained yet: this is the table at its random start."));
    showPython(root, pythonCode(params));
    return render({ ...params });
  }

  function train() {
    settings = { ...params };
    problem.hidden = true;
    setPhase("starting", t("Starting a Python of its own for training (a few seconds)…"));
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
    // Translators: a progress bar's text: training steps done, of all.
    progress.textContent = t("{steps} of {total}", { steps, total: MAX_STEPS });
    const structured = result.structured_at === null || result.structured_at === undefined
      ? t("not structured yet")
      : t("structured since step {step}", { step: result.structured_at });
    if (result.structured_at != null && !root.dataset.structuredAt) performance.mark(MARK.TRAINING_STRUCTURED);
    cosineCanvas.setAttribute(
      "aria-label",
      steps === 0
        ? // Translators: {structured} says whether the table is structured yet, such as "not structured yet".
          t("Cosine similarity of the {n} rows of the learned table after {steps} steps: band contrast {contrast}, {structured}; random rows, so no pattern.", {
            n,
            steps,
            contrast: fixed(result.band_contrast, 2),
            structured,
          })
        : t("Cosine similarity of the {n} rows of the learned table after {steps} steps: band contrast {contrast}, {structured}.", {
            n,
            steps,
            contrast: fixed(result.band_contrast, 2),
            structured,
          }),
    );
    const shown = corner(n);
    numbers.cosine.show({
      caption: t("Cosine similarity of the table’s rows after {steps} steps, positions {shown} of {n}", { steps, shown: listed(shown), n }),
      corner: t("position"),
      columns: shown.map(String),
      rows: matrixRows(result.cosine, n, shown, shown.length),
      note: shown.length < n ? t("The top-left corner of the {n} × {n} matrix.", { n }) : "",
    });

    const positions = [...Array(n).keys()];
    const component = (c) => result.components.slice(c * n, (c + 1) * n);
    const fit = (c) => result.sinusoid_fits.slice(c * n, (c + 1) * n);
    lineChart(componentsChart, {
      series: [
        { x: positions, y: component(0), className: "pair-0", label: t("first component") },
        { x: positions, y: fit(0), className: "pair-0 training-fit", label: t("its closest sinusoid") },
        { x: positions, y: component(1), className: "pair-1", label: t("second component") },
        { x: positions, y: fit(1), className: "pair-1 training-fit", label: t("its closest sinusoid") },
      ],
      xLabel: t("position"),
      // Translators: a chart's y axis: the value of a principal component.
      yLabel: t("component"),
    });
    // The fit's period, worded for the grid's two ends (pelab.closest_sinusoid): the longest
    // period tried, 4 (n - 1), is only where the grid stops, so a fit there is a trend, not a
    // wave; the shortest, 2, is alternation, the fastest wave integer positions can show (ω = π,
    // so 2π / ω is exactly 2).
    const describe = (c) => {
      const p = result.sinusoid_periods[c];
      const values = {
        share: `${fixed(100 * result.component_shares[c], 0)}%`,
        period: fixed(p, 1),
        explained: `${fixed(100 * result.sinusoid_r_squared[c], 0)}%`,
      };
      const forms = result.sinusoid_at_longest[c]
        ? [
            // Translators: a principal component of the table and how well its closest sinusoid fits it; {share} and {explained} are percentages such as "62%".
            t("first component ({share} of the variance): closest sinusoid is the slowest tried, period {period} positions (a quarter of a cycle across the table: a trend, not a wave), and explains {explained} of it", values),
            t("second component ({share} of the variance): closest sinusoid is the slowest tried, period {period} positions (a quarter of a cycle across the table: a trend, not a wave), and explains {explained} of it", values),
          ]
        : p === 2
          ? [
              t("first component ({share} of the variance): closest sinusoid has period {period} positions (alternating from one position to the next) and explains {explained} of it", values),
              t("second component ({share} of the variance): closest sinusoid has period {period} positions (alternating from one position to the next) and explains {explained} of it", values),
            ]
          : [
              t("first component ({share} of the variance): closest sinusoid has period {period} positions and explains {explained} of it", values),
              t("second component ({share} of the variance): closest sinusoid has period {period} positions and explains {explained} of it", values),
            ];
      return forms[c];
    };
    // Translators: the two principal components described, one after the other.
    const both = t("{first}; {second}", { first: describe(0), second: describe(1) });
    componentsChart.setAttribute("aria-label", t("Principal components of the table against position after {steps} steps: {components}.", { steps, components: both }));
    numbers.components.show({
      caption: t("The table’s two principal components and their closest sinusoids, after {steps} steps", { steps }),
      corner: t("position"),
      // Translators: a table's columns: the first principal component, its sinusoid, the second, its sinusoid.
      columns: [t("first"), t("its sinusoid"), t("second"), t("its sinusoid")],
      rows: positions.map((p) => ({ label: String(p), values: [component(0)[p], fit(0)[p], component(1)[p], fit(1)[p]] })),
    });
    root.querySelector(".training-sinusoids").textContent = both;

    const losses = result.losses;
    // The loss chart and its numbers appear with the first step: before it there is no loss.
    const lossFigure = lossChart.closest("figure");
    lossFigure.hidden = !losses.length;
    if (losses.length) lossFigure.removeAttribute("aria-hidden");
    else lossFigure.setAttribute("aria-hidden", "true");
    if (losses.length) {
      lineChart(lossChart, {
        series: [{ x: losses.map((_, k) => k + 1), y: losses, className: "pair-0" }],
        // Translators: a chart's axes: training steps, and the training loss.
        xLabel: t("step"),
        yLabel: t("loss"),
        yDomain: [0, Math.max(2.2, ...losses)],
      });
      lossChart.setAttribute(
        "aria-label",
        t("Training loss over {steps} steps: {first} at step 1, {last} at step {steps}.", {
          steps: losses.length,
          first: fixed(losses[0], 2),
          last: fixed(losses[losses.length - 1], 2),
        }),
      );
    } else {
      lossChart.replaceChildren();
      lossChart.setAttribute("aria-label", t("Training loss: nothing trained yet."));
    }
    numbers.loss.show(() => ({
      caption: t("Training loss, every {slice}th step", { slice: SLICE }),
      corner: t("step"),
      columns: [t("loss")],
      rows: Array.from(losses)
        .map((loss, k) => ({ label: String(k + 1), values: [loss] }))
        .filter((_, k) => k === 0 || (k + 1) % SLICE === 0),
      note: losses.length ? "" : t("Nothing trained yet."),
    }));
    root.querySelector(".training-steps").textContent = String(steps);
    root.querySelector(".training-accuracy").textContent =
      result.accuracy === null || result.accuracy === undefined ? "–" : `${fixed(100 * result.accuracy, 0)}%`;
    root.querySelector(".training-contrast").textContent = t("{contrast} ({structured}; structured from {threshold})", {
      contrast: fixed(result.band_contrast, 2),
      structured,
      threshold: fixed(result.threshold, 1),
    });
    Object.assign(root.dataset, {
      rendered: `${request.seed}/${request.shift}/${request.maxTrainLen}@${steps}`,
      steps: String(steps),
      contrast: String(result.band_contrast),
      structuredAt: result.structured_at == null ? "" : String(result.structured_at),
    });
  }

  return { firstRender: update() };
}
