/**
 * Demo: past the training length, in two parts. The experiment: the tiny Transformer trained
 * with each position scheme on lengths up to L and tested up to 4L (pelab.length_generalisation),
 * run in a Python of its own (python.another()) a slice at a time, with progress and Stop, which
 * ends that Python at once. And, about the vectors alone: how close the two most alike
 * positions come as the sequence grows, for a chosen d_model and base (no model there).
 */
import { liveRender } from "./live-render.js";
import { bindSliders, paramsFrom } from "../controls/bind-sliders.js";
import { MARK } from "../page-protocol.js";
import { bindExperiment } from "./experiment-runner.js";
import { askForPrediction } from "../controls/prediction.js";
import { fixed, formatNumber } from "../figures/format.js";
import { lineChart } from "../figures/line-chart.js";
import { numbersFor } from "../figures/numbers.js";
import { showPython } from "./show-python.js";
import { ticks } from "../figures/ticks.js";

/** Each run's line colour, in the order of pelab.length_generalisation.RUNS (avoiding the two
 * colours below 3:1 on white). */
const RUN_COLOURS = ["pair-0", "pair-1", "pair-2", "pair-3", "pair-6", "pair-7"];

/** The sliders of the part about the vectors: {param: input name}. */
const SLIDERS = { trainLen: "train_len", seqLen: "seq_len", dModel: "d_model", base: "base" };

/** The training length shown: the one asked for, or the sequence's length if that is shorter. */
const shownTrainLen = ({ trainLen, seqLen }) => Math.min(trainLen, seqLen);

/**
 * The Python behind the part about the vectors: how close the two most alike positions come,
 * within the training length and within the sequence.
 *
 * @param {{seqLen: number, dModel: number, base: number, trainLen: number}} settings `trainLen` as shown
 */
export function pythonCode({ seqLen, dModel, base, trainLen }) {
  return `import numpy as np
import pelab

nearest = pelab.nearest_distances(seq_len=${seqLen}, d_model=${dModel}, base=${formatNumber(base)})
print("closest two positions within ${trainLen}:", nearest[${trainLen - 1}].round(4))
print("closest two positions within ${seqLen}:", nearest[-1].round(4))
# How close two vectors come, not how well a model does there: no model is trained here.`;
}

/**
 * The code the cell shows at first paint, for the section's controls at their first values.
 *
 * @param {Record<string, any>} controls
 */
export function firstCode(controls) {
  const params = paramsFrom(SLIDERS, controls);
  return pythonCode({ ...params, trainLen: shownTrainLen(params) });
}

export function extrapolationDemo(root, python) {
  experiment(root, python);
  const params = bindSliders(root, SLIDERS, () => update());
  const render = liveRender(root, python, "extrapolation", show);
  const numbers = numbersFor(root.querySelector(".extrapolation-chart"), "the closest distances");

  function update() {
    const notice = root.querySelector(".extrapolation-notice");
    notice.hidden = params.trainLen <= params.seqLen;
    notice.textContent = notice.hidden
      ? ""
      : `The training length ${params.trainLen} is longer than the sequence: it is shown as ${params.seqLen}.`;
    const trainLen = shownTrainLen(params);
    showPython(root, pythonCode({ ...params, trainLen }));
    return render({ ...params, trainLen });
  }

  function show(result, request) {
    const n = result.nearest.length;
    lineChart(root.querySelector(".extrapolation-chart"), {
      series: [{ x: [...Array(n).keys()].map((k) => k + 1), y: result.nearest, className: "pair-0" }],
      markers: [{ x: Math.min(request.trainLen, n), label: `training length ${request.trainLen}`, className: "now" }],
      xLabel: "sequence length",
      yLabel: "closest two positions",
      yDomain: [0, Math.max(...[...result.nearest].filter(Number.isFinite), 1e-9)],
    });
    root.querySelector(".extrapolation-chart").setAttribute(
      "aria-label",
      `Smallest distance between two different positions, for sequence lengths 2 to ${n}: ` +
        `${fixed(result.at_train, 4)} within the training length ${request.trainLen}, ${fixed(result.beyond, 4)} at length ${n}.`,
    );
    // Sequence lengths at the chart's labels, the training length and the last one (1 has no pair).
    const lengths = [...new Set([...ticks(n + 1), request.trainLen, n])].filter((L) => L >= 2 && L <= n).sort((a, b) => a - b);
    numbers.show({
      caption: `Smallest distance |PE(p) − PE(q)| between two positions of a sequence, d_model ${request.dModel}, base ${formatNumber(request.base)}`,
      corner: "sequence length",
      columns: ["closest two positions"],
      rows: lengths.map((L) => ({ label: L === request.trainLen ? `${L} (training length)` : String(L), values: [result.nearest[L - 1]] })),
    });
    root.querySelector(".extrapolation-at-train").textContent = fixed(result.at_train, 4);
    root.querySelector(".extrapolation-beyond").textContent = fixed(result.beyond, 4);
    Object.assign(root.dataset, {
      rendered: `${request.trainLen}/${request.seqLen}/${request.dModel}@${request.base}`,
      atTrain: result.at_train,
      beyond: result.beyond,
    });
  }

  return { firstRender: update() };
}

/** The experiment's controls (bindExperiment runs it in its own Python), and its chart; the
 * learner's prediction, checked against the scheme a finished run ranks first at 4L. */
function experiment(root, python) {
  const quick = root.querySelector("[name=quick]");
  const chart = root.querySelector(".extrapolation-experiment");
  const numbers = numbersFor(chart, "the experiment’s accuracies");
  const prediction = askForPrediction(root.querySelector(".prediction"), root.querySelector(".prediction-answer"), {
    where: "at 4L",
    run: "run the experiment",
  });
  let setting = { quick: false };
  bindExperiment(root, python, {
    run: root.querySelector(".extrapolation-run"),
    stop: root.querySelector(".extrapolation-stop"),
    status: root.querySelector(".extrapolation-status"),
    progress: root.querySelector(".extrapolation-progress"),
    problem: root.querySelector(".extrapolation-problem"),
    reset(bridge) {
      setting = { quick: quick.checked };
      return bridge.call("length_generalisation_reset", setting);
    },
    step: (bridge, steps) => bridge.call("length_generalisation_step", { steps }),
    show: (result) => show(result, setting),
    current: (result) => result.current,
    models: (result) => result.runs.length * result.seeds.length,
    marks: { start: MARK.EXPERIMENT_START, done: MARK.EXPERIMENT_DONE },
    finished: (result) => prediction.settle(atFourL(result)),
  });

  /** Each scheme's share of right answers at 4L, the longest test length. */
  function atFourL({ runs, lengths, accuracy, max_train_len }) {
    const k = lengths.indexOf(4 * max_train_len);
    return { options: runs, scores: runs.map((_, r) => accuracy[r * lengths.length + k]) };
  }

  function show(result, setting) {
    const { runs, lengths, accuracy } = result;
    const L = result.max_train_len;
    const figure = chart.closest("figure");
    figure.hidden = false; // shown from the first result on
    figure.removeAttribute("aria-hidden");
    const row = (r, values = accuracy) => values.slice(r * lengths.length, (r + 1) * lengths.length);
    lineChart(chart, {
      series: [
        ...runs.map((name, r) => ({ x: lengths, y: row(r), className: RUN_COLOURS[r], label: name })),
        {
          x: [lengths[0], lengths[lengths.length - 1]],
          y: [result.chance, result.chance],
          className: "extrapolation-chance",
          label: `chance (1 in ${Math.round(1 / result.chance)})`,
        },
      ],
      markers: [{ x: L, label: `L = ${L}`, className: "now" }],
      xLabel: "sequence length",
      yLabel: "right answers",
      xDomain: [lengths[0], lengths[lengths.length - 1]],
      yDomain: [0, 1],
    });
    const at = (r, length) => row(r)[lengths.indexOf(length)];
    const finished = runs.filter((_, r) => Number.isFinite(row(r)[0]));
    chart.setAttribute(
      "aria-label",
      `Share of right answers against sequence length (${lengths[0]} to ${lengths[lengths.length - 1]}), trained up to L = ${L}, ` +
        `mean of ${result.seeds.length} seeds: ` +
        (finished.length
          ? runs
              .map((name, r) => (Number.isFinite(at(r, L)) ? `${name} ${fixed(at(r, L), 2)} at L and ${fixed(at(r, 4 * L), 2)} at 4L` : null))
              .filter(Boolean)
              .join("; ")
          : "no scheme finished yet") +
        `. Chance is ${fixed(result.chance, 3)}.`,
    );
    numbers.show(() => ({
      caption: `Share of right answers at each test length, mean over seeds ${result.seeds.join(", ")} (lowest–highest seed); trained on lengths up to ${L}`,
      corner: "length",
      columns: runs,
      rows: lengths.map((length, k) => ({
        label: length === L ? `${length} (L)` : String(length),
        values: runs.map((_, r) => accuracy[r * lengths.length + k]),
      })),
      format: (v) => fixed(v, 3),
      note:
        `The spread over seeds, lowest–highest, at L and 4L: ` +
        runs
          .map((name, r) =>
            Number.isFinite(at(r, L))
              ? `${name} ${fixed(row(r, result.accuracy_min)[lengths.indexOf(L)], 2)}–${fixed(row(r, result.accuracy_max)[lengths.indexOf(L)], 2)}, ` +
                `${fixed(row(r, result.accuracy_min)[lengths.length - 1], 2)}–${fixed(row(r, result.accuracy_max)[lengths.length - 1], 2)}`
              : `${name} not run yet`,
          )
          .join("; ") +
        ". “none”: not run yet.",
    }));
    Object.assign(root.dataset, {
      experimentSetting: setting.quick ? "quick" : "default",
      experimentSteps: String(result.steps_done),
      experimentAccuracy: JSON.stringify(Array.from(accuracy, (v) => (Number.isFinite(v) ? v : null))),
    });
  }
}
