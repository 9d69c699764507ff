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
import { t } from "../i18n.js";
import { sentences } from "../words.js";

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
  // The code's comment, in the page's language (outside the template: the extractor of messages
  // reads no template literal).
  const comment = t("How close two vectors come, not how well a model does there: no model is trained here.");
  return `import numpy as np
import pelab

nearest = pelab.nearest_distances(seq_len=${seqLen}, d_model=${dModel}, base=${formatNumber(base)})
print("closest two positions within ${trainLen}:", nearest[${trainLen - 1}].round(4))
print("closest two positions within ${seqLen}:", nearest[-1].round(4))
# ${comment}`;
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
  const numbers = numbersFor(root.querySelector(".extrapolation-chart"), t("the closest distances"));

  function update() {
    const notice = root.querySelector(".extrapolation-notice");
    notice.hidden = params.trainLen <= params.seqLen;
    notice.textContent = notice.hidden
      ? ""
      : t("The training length {trainLen} is longer than the sequence: it is shown as {seqLen}.", { trainLen: params.trainLen, seqLen: params.seqLen });
    const trainLen = shownTrainLen(params);
    showPython(root, pythonCode({ ...params, trainLen }));
    return render({ ...params, trainLen });
  }

  function show(result, request) {
    const n = result.nearest.length;
    lineChart(root.querySelector(".extrapolation-chart"), {
      series: [{ x: [...Array(n).keys()].map((k) => k + 1), y: result.nearest, className: "pair-0" }],
      markers: [{ x: Math.min(request.trainLen, n), label: t("training length {length}", { length: request.trainLen }), className: "now" }],
      xLabel: t("sequence length"),
      yLabel: t("closest two positions"),
      yDomain: [0, Math.max(...[...result.nearest].filter(Number.isFinite), 1e-9)],
    });
    root.querySelector(".extrapolation-chart").setAttribute(
      "aria-label",
      t("Smallest distance between two different positions, for sequence lengths 2 to {n}: {atTrain} within the training length {trainLen}, {beyond} at length {n}.", {
        n,
        atTrain: fixed(result.at_train, 4),
        trainLen: request.trainLen,
        beyond: fixed(result.beyond, 4),
      }),
    );
    // Sequence lengths at the chart's labels, the training length and the last one (1 has no pair).
    const lengths = [...new Set([...ticks(n + 1), request.trainLen, n])].filter((L) => L >= 2 && L <= n).sort((a, b) => a - b);
    numbers.show({
      caption: t("Smallest distance |PE(p) − PE(q)| between two positions of a sequence, d_model {dModel}, base {base}", {
        dModel: request.dModel,
        base: formatNumber(request.base),
      }),
      corner: t("sequence length"),
      columns: [t("closest two positions")],
      rows: lengths.map((L) => ({
        label: L === request.trainLen ? t("{length} (training length)", { length: L }) : String(L),
        values: [result.nearest[L - 1]],
      })),
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
  const numbers = numbersFor(chart, t("the experiment’s accuracies"));
  const prediction = askForPrediction(root.querySelector(".prediction"), root.querySelector(".prediction-answer"), {
    // Translators: where the prediction's scores are measured, put into a sentence: "ALiBi kept the most right answers at 4L".
    where: t("at 4L"),
    // Translators: what running is, put into a sentence: "… or run the experiment to check it."
    run: t("run the experiment"),
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
    current: (result) => training(result.current),
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
          label: t("chance (1 in {count})", { count: Math.round(1 / result.chance) }),
        },
      ],
      markers: [{ x: L, label: `L = ${L}`, className: "now" }],
      xLabel: t("sequence length"),
      yLabel: t("right answers"),
      xDomain: [lengths[0], lengths[lengths.length - 1]],
      yDomain: [0, 1],
    });
    const at = (r, length) => row(r)[lengths.indexOf(length)];
    const finished = runs.filter((_, r) => Number.isFinite(row(r)[0]));
    // (Each message apart: the extractor of messages reads no t() inside another's arguments.)
    const schemes = finished.length
      ? runs
          .map((name, r) =>
            Number.isFinite(at(r, L))
              ? // Translators: one scheme's share of right answers at the training length L and at 4L.
                t("{scheme} {atL} at L and {at4L} at 4L", { scheme: name, atL: fixed(at(r, L), 2), at4L: fixed(at(r, 4 * L), 2) })
              : null,
          )
          .filter(Boolean)
          .join("; ")
      : t("no scheme finished yet");
    chart.setAttribute(
      "aria-label",
      sentences(
        t("Share of right answers against sequence length ({first} to {last}), trained up to L = {L}, mean of {seeds} seeds: {schemes}.", {
          first: lengths[0],
          last: lengths[lengths.length - 1],
          L,
          seeds: result.seeds.length,
          schemes,
        }),
        t("Chance is {chance}.", { chance: fixed(result.chance, 3) }),
      ),
    );
    const spreads = runs
      .map((name, r) =>
        Number.isFinite(at(r, L))
          ? // Translators: one scheme's spread of right answers over seeds, lowest–highest, at L and then at 4L.
            t("{scheme} {atL}, {at4L}", {
              scheme: name,
              atL: `${fixed(row(r, result.accuracy_min)[lengths.indexOf(L)], 2)}–${fixed(row(r, result.accuracy_max)[lengths.indexOf(L)], 2)}`,
              at4L: `${fixed(row(r, result.accuracy_min)[lengths.length - 1], 2)}–${fixed(row(r, result.accuracy_max)[lengths.length - 1], 2)}`,
            })
          : t("{scheme} not run yet", { scheme: name }),
      )
      .join("; ");
    const none = t("none");
    numbers.show(() => ({
      caption: t("Share of right answers at each test length, mean over seeds {seeds}, trained on lengths up to {L} (each spread over seeds is under the table)", {
        seeds: result.seeds.join(", "),
        L,
      }),
      // Translators: a table's corner: its rows are sequence lengths.
      corner: t("length"),
      columns: runs,
      rows: lengths.map((length, k) => ({
        label: length === L ? `${length} (L)` : String(length),
        values: runs.map((_, r) => accuracy[r * lengths.length + k]),
      })),
      format: (v) => fixed(v, 3),
      note: sentences(
        t("The spread over seeds, lowest–highest, at L and 4L: {spreads}.", { spreads }),
        // Translators: {none} is the table's word for a missing number ("none").
        t("“{none}”: not run yet.", { none }),
      ),
    }));
    Object.assign(root.dataset, {
      experimentSetting: setting.quick ? "quick" : "default",
      experimentSteps: String(result.steps_done),
      experimentAccuracy: JSON.stringify(Array.from(accuracy, (v) => (Number.isFinite(v) ? v : null))),
    });
  }
}

/**
 * What a run's Python says it is training ("rope, seed 2", pelab.length_generalisation), in the
 * page's words; null between runs.
 *
 * @param {string | null} current
 */
function training(current) {
  const match = current === null ? null : /^(.*), seed (\d+)$/.exec(current);
  // Translators: what is being trained: a position scheme (as pelab names it, such as "rope") and the seed.
  return match ? t("{scheme}, seed {seed}", { scheme: match[1], seed: match[2] }) : current;
}
