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

const STATES = ["inside", "just-past", "outside"];
/** How the experiment's methods (pelab.stretch_experiment.METHODS) are named on the page. */
const METHOD_NAMES = { none: "No scaling", interpolation: "Position interpolation", ntk: "NTK-aware base", yarn: "YaRN" };
const STATE_TEXT = ["inside its trained range", "past it by less than one trained step", "outside its trained range"];

/**
 * The Python behind the dials and numbers: the chosen model's RoPE stretched s-fold by the
 * chosen method, and what that does to its pairs' speeds and angles.
 *
 * @param {{model: string, scale: number, method: string}} settings
 */
export function pythonCode({ model, scale, method }) {
  return `import numpy as np
import pelab
from pelab.context_scaling import MODEL_SETTINGS

model = MODEL_SETTINGS["${model}"]          # base and trained length L
base, L, s, d = model["base"], model["train_len"], ${scale}, 128
w = pelab.angular_frequencies(d, base)              # trained speeds, radians per position
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
  const dialNumbers = numbersFor(root.querySelector(".stretching-dials"), "the angles of every pair");
  evenGrid(root.querySelector(".stretching-dials"), { min: 7.5 });
  const scoreNumbers = numbersFor(root.querySelector(".stretching-scores"), "the scores");

  function update() {
    const request = { model: choice("model"), scale: params.scale, method: choice("method") };
    showPython(root, pythonCode(request));
    return render(request);
  }

  function show(result, request) {
    const L = result.train_len;
    const last = result.last;
    root.querySelector(".stretching-model").textContent =
      `${result.name}: base ${formatNumber(result.base)}, trained on ${L} positions, head dimension ${result.d}; ` +
      `stretched ${formatNumber(request.scale)}-fold to ${last + 1} positions, so the dials show position ${last}.`;
    drawDials(result);
    const outside = result.outside;
    root.querySelector(".stretching-outside").textContent =
      `${outside} (without scaling: ${result.outside_before})` + (result.just_past ? `; ${result.just_past} more past by less than one step` : "");
    root.querySelector(".stretching-fastest").textContent = `${fixed(result.fastest_step, 4)} radian`;
    root.querySelector(".stretching-slowest").textContent = `× ${fixed(result.slowest_ratio, 4)}`;
    root.querySelector(".stretching-changed").textContent = `${result.changed_pairs} of ${result.d / 2}`;
    root.querySelector(".stretching-factor").textContent =
      result.attention_factor === 1 ? "1 (none)" : `${fixed(result.attention_factor, 4)} (each logit × ${fixed(result.attention_factor ** 2, 4)})`;
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
          caption:
            `i = ${pair}: ` +
            (full ? "went all the way round in training; " : `trained up to ${angleText(result.trained[pair])} rad; `) +
            `reaches ${angleText(result.reached[pair])} rad: ${STATE_TEXT[state]}`,
        });
      }),
    );
    dialNumbers.show(() => ({
      caption: `Every pair of ${result.name}'s head: trained range (L − 1)·w_i and the angle (L′ − 1)·w′_i at position ${result.last}, in radians`,
      corner: "pair",
      columns: ["trained up to", "reached", "state (0 inside, 1 just past, 2 outside)"],
      rows: [...result.trained].map((trained, i) => ({ label: `i = ${i}`, values: [trained, result.reached[i], result.state[i]] })),
      format: (v) => (Number.isInteger(v) ? String(v) : fixed(v, 4)),
    }));
  }

  function drawScores(result, request) {
    const chart = root.querySelector(".stretching-scores");
    lineChart(chart, {
      series: [
        { x: result.offsets, y: result.scores_before, className: "pair-7", label: "without scaling" },
        { x: result.offsets, y: result.scores_after, className: "pair-0", label: "with the method" },
      ],
      markers: [{ x: result.train_len, label: `L = ${result.train_len}`, className: "now" }],
      xLabel: "offset t of the query after the key",
      yLabel: "score / (|q| |k|)",
      yDomain: [-1, 1],
    });
    const n = result.offsets.length;
    chart.setAttribute(
      "aria-label",
      `Score of one random query t positions after one random key, ${result.name} stretched ${formatNumber(request.scale)}-fold, ` +
        `for ${n} offsets from 0 to ${result.last}, ` +
        `without scaling (grey) and with the method (blue); the trained length ${result.train_len} is marked. ` +
        `At the last offset: ${fixed(result.scores_before[n - 1], 3)} without scaling, ${fixed(result.scores_after[n - 1], 3)} with it.`,
    );
    const wanted = new Set([...ticks(result.last + 1).map((t) => nearest(result.offsets, t)), n - 1]);
    scoreNumbers.show({
      caption: `Score / (|q| |k|) of one query and key, ${result.name}, stretched ${formatNumber(request.scale)}-fold, method ${request.method}`,
      corner: "offset t",
      columns: ["without scaling", "with the method"],
      rows: [...wanted].sort((a, b) => a - b).map((k) => ({ label: String(result.offsets[k]), values: [result.scores_before[k], result.scores_after[k]] })),
      format: (v) => fixed(v, 4),
      note: `The chart samples ${n} offsets; the table lists those nearest the axis labels, and the last.`,
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
    where: "at 2L",
    run: "train and test",
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
    current: (result) => (result.current === null ? null : `the RoPE model, seed ${result.current}`),
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
    const share = (v) => (Number.isFinite(v) ? fixed(v, 3) : "not tested yet");
    /** @type {(text: string, header?: "col" | "row") => HTMLTableCellElement} */
    const cell = (text, header) => {
      const element = document.createElement(header ? "th" : "td");
      element.textContent = text;
      if (header) element.scope = header;
      return element;
    };
    const heads = lengths.map((length, k) => `${scales[k] === 1 ? "" : scales[k]}L = ${length}`);
    table.tHead.replaceChildren(document.createElement("tr"));
    table.tHead.rows[0].append(cell("method", "col"), ...heads.map((text) => cell(text, "col")));
    const rows = methods.map((method, m) => {
      const row = document.createElement("tr");
      row.dataset.method = method;
      row.append(
        cell(METHOD_NAMES[method], "row"),
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
    chance.append(cell(`Chance (a guess among ${Math.round(1 / result.chance)} tokens)`, "row"), ...lengths.map(() => cell(fixed(result.chance, 3))));
    table.tBodies[0].replaceChildren(...rows, chance);
    table.caption.textContent =
      `Share of right answers of the RoPE model trained on lengths up to L = ${result.max_train_len}, tested at ` +
      `each length with each method, no fine-tuning; mean over the ${result.seeds_done} of ${result.seeds.length} seeds ` +
      `(${result.seeds.join(", ")}) tested so far, with the lowest–highest seed in brackets.`;
    box.hidden = false;
    Object.assign(root.dataset, {
      experimentSetting: setting.quick ? "quick" : "default",
      experimentSteps: String(result.steps_done),
      experimentAccuracy: JSON.stringify(Array.from(accuracy, (v) => (Number.isFinite(v) ? v : null))),
    });
  }
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
