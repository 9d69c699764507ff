/**
 * Demo: stretching the context. A real model's RoPE (LLaMA 2, Code Llama, Llama 3) run at s
 * times its trained length L: the clock dials of eight pairs at the last position, with the
 * angles each reached in training shaded and the hand coloured by whether it left them; what a
 * method (position interpolation, NTK-aware base, YaRN, Llama 3.1's rule) costs and keeps; and
 * one query-key pair's scores across offsets before and after. The dials are the waves demo's.
 * And an experiment: the tiny RoPE model trained at L and tested at L, 2L and 4L with each
 * method (pelab.stretch_experiment), run in a Python of its own as the extrapolation
 * experiment is (bindExperiment), its accuracies in a table with chance.
 */
import { liveRender } from "./live-render.js";
import { bindSliders } from "../controls/bind-sliders.js";
import { MARK } from "../page-protocol.js";
import { bindExperiment } from "./experiment-runner.js";
import { askForPrediction } from "../controls/prediction.js";
import { clockDial } from "../figures/dial.js";
import { fixed, formatNumber, roundSignificant } from "../figures/format.js";
import { lineChart } from "../figures/line-chart.js";
import { evenGrid } from "../figures/even-grid.js";
import { numbersFor } from "../figures/numbers.js";
import { showPython } from "./show-python.js";
import { ticks } from "../figures/ticks.js";
import { dialPairs } from "./waves.js";
import { t } from "../i18n.js";
import { sentences } from "../words.js";

const STATES = ["inside", "just-past", "outside"];
/** How the experiment's methods (pelab.stretch_experiment.METHODS) are named on the page. */
const methodName = (method) =>
  ({ none: t("No scaling"), interpolation: t("Position interpolation"), ntk: t("NTK-aware base"), yarn: t("YaRN") })[method];

/**
 * The Python behind the dials and numbers: the chosen model's RoPE stretched s-fold by the
 * chosen method, and what that does to its pairs' speeds and angles.
 *
 * @param {{model: string, scale: number, method: string}} settings
 */
export function pythonCode({ model, scale, method }) {
  // The code's comments, in the page's language (outside the template: the extractor of
  // messages reads no template literal).
  const comments = { model: t("base and trained length L"), speeds: t("trained speeds, radians per position") };
  return `import numpy as np
import pelab
from pelab.context_scaling import MODEL_SETTINGS

model = MODEL_SETTINGS["${model}"]          # ${comments.model}
base, L, s, d = model["base"], model["train_len"], ${scale}, 128
w = pelab.angular_frequencies(d, base)              # ${comments.speeds}
w_new = pelab.stretched_frequencies("${method}", d, base, L, s)
cover = pelab.angle_coverage("${method}", d, base, L, s)
print("pairs outside their trained range:", (cover["state"] == 2).sum())
print("fastest pair, radians per position:", w_new[0], "(trained:", w[0], ")")
print("slowest pair, speed against trained:", w_new[-1] / w[-1])`;
}

/**
 * The code the cell shows at first paint, for the section's controls at their first values (the
 * model and the method as their radio groups' checked values).
 *
 * @param {Record<string, any>} controls
 */
export const firstCode = ({ model, scale, method }) => pythonCode({ model, scale, method });

export function stretchingDemo(root, python) {
  experiment(root, python);
  const params = bindSliders(root, { scale: "scale" }, () => update());
  const choice = (name) => root.querySelector(`input[name="${name}"]:checked`).value;
  for (const radio of root.querySelectorAll('input[name="model"], input[name="method"]')) {
    radio.addEventListener("change", () => update());
  }
  const render = liveRender(root, python, "stretching", show);
  const dialNumbers = numbersFor(root.querySelector(".stretching-dials"), t("the angles of every pair"));
  evenGrid(root.querySelector(".stretching-dials"), { min: 7.5 });
  const scoreNumbers = numbersFor(root.querySelector(".stretching-scores"), t("the scores"));

  function update() {
    const request = { model: choice("model"), scale: params.scale, method: choice("method") };
    showPython(root, pythonCode(request));
    return render(request);
  }

  function show(result, request) {
    const L = result.train_len;
    const last = result.last;
    root.querySelector(".stretching-model").textContent = t(
      "{model}: base {base}, trained on {L} positions, head dimension {d}; stretched {scale}-fold to {positions} positions, so the dials show position {last}.",
      { model: result.name, base: formatNumber(result.base), L, d: result.d, scale: formatNumber(request.scale), positions: last + 1, last },
    );
    drawDials(result);
    const outside = result.outside;
    // Translators: a readout: how many pairs leave their trained range, and how many did without scaling.
    root.querySelector(".stretching-outside").textContent = result.just_past
      ? t("{outside} (without scaling: {before}); {past} more past by less than one step", {
          outside,
          before: result.outside_before,
          past: result.just_past,
        })
      : t("{outside} (without scaling: {before})", { outside, before: result.outside_before });
    // Translators: a readout: an angle per position, such as "1.0000 radian".
    root.querySelector(".stretching-fastest").textContent = t("{angle} radian", { angle: fixed(result.fastest_step, 4) });
    root.querySelector(".stretching-slowest").textContent = `× ${fixed(result.slowest_ratio, 4)}`;
    // Translators: a readout: how many pairs of all a head's pairs, such as "32 of 64".
    root.querySelector(".stretching-changed").textContent = t("{changed} of {pairs}", { changed: result.changed_pairs, pairs: result.d / 2 });
    root.querySelector(".stretching-factor").textContent =
      result.attention_factor === 1
        ? // Translators: a readout: the attention factor is 1, so there is none.
          t("1 (none)")
        : t("{factor} (each logit × {square})", { factor: fixed(result.attention_factor, 4), square: fixed(result.attention_factor ** 2, 4) });
    drawScores(result, request);
    Object.assign(root.dataset, {
      rendered: `${request.model}/${request.scale}/${request.method}`,
      outside: result.outside,
      justPast: result.just_past,
      outsideBefore: result.outside_before,
      changed: result.changed_pairs,
    });
  }

  function drawDials(result) {
    const pairs = dialPairs(result.d);
    root.querySelector(".stretching-dials").replaceChildren(
      ...pairs.map((pair) => {
        const state = result.state[pair];
        const full = result.trained[pair] >= 2 * Math.PI;
        return clockDial({
          angle: result.hand[pair],
          handClass: `state-${STATES[state]}`,
          sweep: result.trained_arc[pair],
          sweepClass: "dial-sweep",
          data: { pair, state, reached: result.reached[pair], trained: result.trained[pair] },
          caption: dialCaption(pair, full ? null : angleText(result.trained[pair]), angleText(result.reached[pair]), state),
        });
      }),
    );
    dialNumbers.show(() => ({
      caption: t("Every pair of {model}'s head: trained range (L − 1)·w_i and the angle (L′ − 1)·w′_i at position {last}, in radians", {
        model: result.name,
        last: result.last,
      }),
      // Translators: a table's corner: its rows are the sine-cosine pairs i.
      corner: t("pair"),
      columns: [t("trained up to"), t("reached"), t("state (0 inside, 1 just past, 2 outside)")],
      rows: [...result.trained].map((trained, i) => ({ label: `i = ${i}`, values: [trained, result.reached[i], result.state[i]] })),
      format: (v) => (Number.isInteger(v) ? String(v) : fixed(v, 4)),
    }));
  }

  function drawScores(result, request) {
    const chart = root.querySelector(".stretching-scores");
    lineChart(chart, {
      series: [
        { x: result.offsets, y: result.scores_before, className: "pair-7", label: t("without scaling") },
        { x: result.offsets, y: result.scores_after, className: "pair-0", label: t("with the method") },
      ],
      markers: [{ x: result.train_len, label: `L = ${result.train_len}`, className: "now" }],
      xLabel: t("offset t of the query after the key"),
      yLabel: t("score / (|q| |k|)"),
      yDomain: [-1, 1],
    });
    const n = result.offsets.length;
    chart.setAttribute(
      "aria-label",
      sentences(
        t(
          "Score of one random query t positions after one random key, {model} stretched {scale}-fold, for {n} offsets from 0 to {last}, without scaling (grey) and with the method (blue); the trained length {L} is marked.",
          { model: result.name, scale: formatNumber(request.scale), n, last: result.last, L: result.train_len },
        ),
        t("At the last offset: {before} without scaling, {after} with it.", {
          before: fixed(result.scores_before[n - 1], 3),
          after: fixed(result.scores_after[n - 1], 3),
        }),
      ),
    );
    const wanted = new Set([...ticks(result.last + 1).map((t) => nearest(result.offsets, t)), n - 1]);
    scoreNumbers.show({
      // Translators: {method} is the method's name in code, such as "ntk".
      caption: t("Score / (|q| |k|) of one query and key, {model}, stretched {scale}-fold, method {method}", {
        model: result.name,
        scale: formatNumber(request.scale),
        method: request.method,
      }),
      corner: t("offset t"),
      columns: [t("without scaling"), t("with the method")],
      rows: [...wanted].sort((a, b) => a - b).map((k) => ({ label: String(result.offsets[k]), values: [result.scores_before[k], result.scores_after[k]] })),
      format: (v) => fixed(v, 4),
      note: t("The chart samples {n} offsets; the table lists those nearest the axis labels, and the last.", { n }),
    });
  }

  return { firstRender: update() };
}

/** The experiment's controls (bindExperiment runs it in its own Python), and its table; the
 * learner's prediction, checked against the method a finished run ranks first at 2L. */
function experiment(root, python) {
  const quick = root.querySelector("[name=stretch-quick]");
  const box = root.querySelector(".stretching-results-box");
  const table = root.querySelector(".stretching-results");
  const prediction = askForPrediction(root.querySelector(".prediction"), root.querySelector(".prediction-answer"), {
    // Translators: where the prediction's scores are measured, put into a sentence: "YaRN kept the most right answers at 2L".
    where: t("at 2L"),
    // Translators: what running is, put into a sentence: "… or train and test to check it."
    run: t("train and test"),
  });
  let setting = { quick: false };
  bindExperiment(root, python, {
    run: root.querySelector(".stretching-run"),
    stop: root.querySelector(".stretching-stop"),
    status: root.querySelector(".stretching-status"),
    progress: root.querySelector(".stretching-progress"),
    problem: root.querySelector(".stretching-problem"), // the section's one alert, as in extrapolation
    reset(bridge) {
      setting = { quick: quick.checked };
      return bridge.call("stretch_experiment_reset", setting);
    },
    step: (bridge, steps) => bridge.call("stretch_experiment_step", { steps }),
    show,
    current: (result) => (result.current === null ? null : t("the RoPE model, seed {seed}", { seed: result.current })),
    models: (result) => result.seeds.length,
    marks: { start: MARK.STRETCH_EXPERIMENT_START, done: MARK.STRETCH_EXPERIMENT_DONE },
    finished: (result) => prediction.settle(atTwoL(result)),
  });

  /** Each method's share of right answers at 2L (stretched twice). */
  function atTwoL({ methods, scales, lengths, accuracy }) {
    const k = scales.indexOf(2);
    return { options: methods, scores: methods.map((_, m) => accuracy[m * lengths.length + k]) };
  }

  function show(result) {
    const { methods, scales, lengths, accuracy } = result;
    const at = (values, m, k) => values[m * lengths.length + k];
    const share = (v) => (Number.isFinite(v) ? fixed(v, 3) : t("not tested yet"));
    /** @type {(text: string, header?: "col" | "row") => HTMLTableCellElement} */
    const cell = (text, header) => {
      const element = document.createElement(header ? "th" : "td");
      element.textContent = text;
      if (header) element.scope = header;
      return element;
    };
    const heads = lengths.map((length, k) => `${scales[k] === 1 ? "" : scales[k]}L = ${length}`);
    table.tHead.replaceChildren(document.createElement("tr"));
    // Translators: a table's heading: its rows are the stretching methods.
    table.tHead.rows[0].append(cell(t("method"), "col"), ...heads.map((text) => cell(text, "col")));
    const rows = methods.map((method, m) => {
      const row = document.createElement("tr");
      row.dataset.method = method;
      row.append(
        cell(methodName(method), "row"),
        ...lengths.map((_, k) => {
          const mean = at(accuracy, m, k);
          const spread = Number.isFinite(mean) && result.seeds_done > 1
            ? ` (${fixed(at(result.accuracy_min, m, k), 3)}–${fixed(at(result.accuracy_max, m, k), 3)})`
            : "";
          return cell(share(mean) + spread);
        }),
      );
      return row;
    });
    const chance = document.createElement("tr");
    chance.className = "stretching-chance";
    const guess = t("Chance (a guess among {count} tokens)", { count: Math.round(1 / result.chance) });
    chance.append(cell(guess, "row"), ...lengths.map(() => cell(fixed(result.chance, 3))));
    table.tBodies[0].replaceChildren(...rows, chance);
    table.caption.textContent = t(
      "Share of right answers of the RoPE model trained on lengths up to L = {L}, tested at each length with each method, no fine-tuning; mean over the {done} of {seeds} seeds ({list}) tested so far, with the lowest–highest seed in brackets.",
      { L: result.max_train_len, done: result.seeds_done, seeds: result.seeds.length, list: result.seeds.join(", ") },
    );
    box.hidden = false;
    Object.assign(root.dataset, {
      experimentSetting: setting.quick ? "quick" : "default",
      experimentSteps: String(result.steps_done),
      experimentAccuracy: JSON.stringify(Array.from(accuracy, (v) => (Number.isFinite(v) ? v : null))),
    });
  }
}

/**
 * A dial's caption: pair `pair`, the angle it reached in training (`trained`, null when it went all
 * the way round), the angle it reaches now, and its state (0 inside, 1 just past, 2 outside).
 */
function dialCaption(pair, trained, reached, state) {
  const values = { pair, trained, reached };
  if (trained === null) {
    return [
      t("i = {pair}: went all the way round in training; reaches {reached} rad: inside its trained range", values),
      t("i = {pair}: went all the way round in training; reaches {reached} rad: past it by less than one trained step", values),
      t("i = {pair}: went all the way round in training; reaches {reached} rad: outside its trained range", values),
    ][state];
  }
  return [
    t("i = {pair}: trained up to {trained} rad; reaches {reached} rad: inside its trained range", values),
    t("i = {pair}: trained up to {trained} rad; reaches {reached} rad: past it by less than one trained step", values),
    t("i = {pair}: trained up to {trained} rad; reaches {reached} rad: outside its trained range", values),
  ][state];
}

/** An angle in radians with 4 significant figures, so that a small angle just past another shows it. */
function angleText(radians) {
  return formatNumber(roundSignificant(radians, 4));
}

/** The index of the sample in `values` (sorted) nearest `target`. */
function nearest(values, target) {
  let best = 0;
  for (let k = 1; k < values.length; k++) if (Math.abs(values[k] - target) < Math.abs(values[best] - target)) best = k;
  return best;
}
