/**
 * Demo: position read back from causal attention alone. One attention layer with no positional
 * encoding reads random tokens; its value is 1 on the start token, so token t outputs its
 * weight on the start token, and 1/output − 1 reads a position back: exactly t with the mask
 * and equal scores, the same for every token without the mask. Computed by
 * pelab.browser.demos.nope in the worker.
 */
import { liveRender } from "./live-render.js";
import { bindSliders, paramsFrom } from "../controls/bind-sliders.js";
import { colourBarUnder } from "../figures/colour-bar.js";
import { difference, fixed, formatNumber } from "../figures/format.js";
import { axisTitle, matrixAxes } from "../figures/matrix-axes.js";
import { lineChart } from "../figures/line-chart.js";
import { corner, listed, matrixRows, numbersFor } from "../figures/numbers.js";
import { paintPixels } from "../figures/paint.js";
import { showPython } from "./show-python.js";
import { t } from "../i18n.js";
import { sentences } from "../words.js";

/** The demo's sliders: {param: input name}. */
const SLIDERS = { n: "n", spread: "spread", seed: "seed" };

/** Python's True or False. */
const pythonBool = (value) => (value ? "True" : "False");

/**
 * The Python behind the figures: the layer's weights and the positions read back, in numpy.
 *
 * @param {{n: number, spread: number, causal: boolean, seed: number}} settings
 */
export function pythonCode({ n, spread, causal, seed }) {
  // The code's comments are the reader's, in the page's language (outside the template: the
  // extractor of messages reads no template literal).
  const tokens = t("random tokens, no positional encoding; the start token is row 0");
  const equal = t("spread 0: every score equal");
  const mask = t("the causal mask: key j > query t gets weight 0");
  const value = t("the value: 1 on the start token, 0 elsewhere");
  return `import numpy as np
import pelab

n, spread, causal, seed = ${n}, ${spread}, ${pythonBool(causal)}, ${seed}
rng = np.random.default_rng(seed)
x = rng.standard_normal((n, 8))                   # ${tokens}
w_q = rng.standard_normal((8, 8)) / np.sqrt(8)
w_k = rng.standard_normal((8, 8)) / np.sqrt(8)
scores = (x @ w_q) @ (x @ w_k).T / np.sqrt(8)
scores = spread * scores / scores.std()           # ${equal}
if causal:
    scores[np.triu_indices(n, 1)] = -np.inf       # ${mask}
weights = np.exp(scores - scores.max(axis=1, keepdims=True))
weights /= weights.sum(axis=1, keepdims=True)
value = np.zeros(n)
value[0] = 1.0                                    # ${value}
output = weights @ value
print("read back:", np.round(1 / output - 1, 3))
pelab.show(weights, title="attention weights", vmin=-1, vmax=1)`;
}

/**
 * The code the cell shows at first paint, for the section's controls at their first values.
 *
 * @param {Record<string, any>} controls
 */
export function firstCode(controls) {
  return pythonCode({ ...paramsFrom(SLIDERS, controls), causal: controls.causal });
}

/** A rank correlation as the summary shows it: two decimals, or why there is none. */
function rank(value) {
  // Translators: a rank correlation that does not exist because every token reads back the same position.
  return Number.isNaN(value) ? t("none: every token reads back the same") : fixed(value, 2);
}

export function nopeDemo(root, python) {
  const causal = root.querySelector("[name=causal]");
  const canvas = root.querySelector(".nope-weights");
  const chart = root.querySelector(".nope-chart");
  const params = bindSliders(root, SLIDERS, () => update());
  const render = liveRender(root, python, "nope_read_back", show);
  // Translators: a matrix's axis titles: query token t, key token j ({t} and {j} are the variables).
  const axes = matrixAxes(canvas, { rowTitle: axisTitle(t("query {t}"), { t: "t" }), columnTitle: axisTitle(t("key {j}"), { j: "j" }) });
  const bar = colourBarUnder(canvas.closest(".matrix-plot"));
  const numbers = {
    weights: numbersFor(canvas, t("the attention weights")),
    chart: numbersFor(chart, t("the positions read back")),
  };

  function update() {
    const settings = { ...params, causal: causal.checked };
    showPython(root, pythonCode(settings));
    return render(settings);
  }

  function show(result, request) {
    const { n } = result;
    paintPixels(canvas, { width: n, height: n, rgba: result.weights_rgba });
    axes({ rows: n, columns: n });
    // Weights lie in [0, 1], coloured over [−1, 1]: the bar shows the half they use.
    // Translators: what a colour bar measures ("Colour scale of the weights"), and what its grey stands for.
    bar({ limit: 1, part: "positive", title: t("weights"), missing: result.causal ? t("masked (j > t)") : "" });
    canvas.setAttribute(
      "aria-label",
      result.causal
        ? t("Causal attention weights of {n} tokens at score spread {spread}: each row spreads its weight over the keys up to itself, none after it (grey).", {
            n,
            spread: formatNumber(result.spread),
          })
        : t("Attention weights of {n} tokens at score spread {spread}, with no mask: each row spreads its weight over all {n} keys.", {
            n,
            spread: formatNumber(result.spread),
          }),
    );
    const shown = corner(n);
    numbers.weights.show({
      caption: t("Attention weights: query t (rows) against key j (columns) {shown} of {n}", { shown: listed(shown), n }),
      corner: "t \\ j",
      columns: shown.map(String),
      rows: matrixRows(result.weights, n, shown, shown.length),
      note: sentences(
        shown.length < n ? t("The top-left corner of the {n} × {n} matrix.", { n }) : "",
        t("Each row sums to 1; column 0 is each token’s output, its weight on the start token."),
      ),
    });

    const x = [...Array(n).keys()];
    const top = 2 * (n - 1);
    const drawn = (values) => [...values].map((v) => Math.min(v, top));
    lineChart(chart, {
      series: [
        { x, y: x, className: "pair-2", label: t("true position (the diagonal)") },
        { x, y: drawn(result.causal_read_back), className: "pair-0", label: t("read back, causal mask") },
        { x, y: drawn(result.open_read_back), className: "pair-1", label: t("read back, no mask") },
      ],
      // Translators: a chart's x axis: each token's true position t.
      xLabel: t("true position t"),
      yLabel: t("position read back"),
      xDomain: [0, n - 1],
      yDomain: [0, Math.max(n - 1, ...drawn(result.causal_read_back), ...drawn(result.open_read_back))],
    });
    chart.setAttribute(
      "aria-label",
      sentences(
        t("Position read back against true position for {n} tokens at score spread {spread}.", { n, spread: formatNumber(result.spread) }),
        t("With the causal mask, rank correlation {causal}; without it, {open}.", { causal: rank(result.causal_rank), open: rank(result.open_rank) }),
      ),
    );
    numbers.chart.show({
      caption: t("Position read back, 1/output − 1, for each true position t"),
      corner: "t",
      columns: [t("with the causal mask"), t("with no mask")],
      rows: x.map((pos) => ({ label: String(pos), values: [result.causal_read_back[pos], result.open_read_back[pos]] })),
      format: (v) => fixed(v, 3),
    });

    root.querySelector(".nope-exact").textContent = difference(result.exact_error);
    root.querySelector(".nope-rank").textContent = t("with the mask: {causal}; without it: {open}", {
      causal: rank(result.causal_rank),
      open: rank(result.open_rank),
    });
    root.querySelector(".nope-mean-rank").textContent = t("with the mask: {causal}; without it: {open}", {
      causal: rank(result.causal_mean_rank),
      open: rank(result.open_mean_rank),
    });
    Object.assign(root.dataset, {
      rendered: `${request.n}/${request.spread}/${request.causal}/${request.seed}`,
      exactError: result.exact_error,
      causalRank: result.causal_rank,
      openRank: result.open_rank,
      causalMeanRank: result.causal_mean_rank,
      openMeanRank: result.open_mean_rank,
    });
  }

  causal.addEventListener("change", update);
  return { firstRender: update() };
}
