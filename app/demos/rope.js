/**
 * Demo: from M_k to RoPE. One random query q at position m and key k at position n: their score
 * computed from the rotated vectors, with the matrix M_{m-n} of “k positions later” (#relative), and with both positions
 * moved on by s; the Toeplitz but not symmetric score matrix; RoFormer's long-term decay bound
 * for several bases; beside it, what does fall: the mean score of random q and k = q, and,
 * switched to independent q and k, their mean score and mean |score|, flat (both exact, from
 * pelab; the switch only redraws the last result, so it never waits for Python); and the check
 * that the two pairings in use are one rotation.
 */
import { liveRender } from "./live-render.js";
import { bindSliders, paramsFrom } from "../controls/bind-sliders.js";
import { difference, fixed, formatNumber } from "../figures/format.js";
import { colourBarUnder } from "../figures/colour-bar.js";
import { lineChart } from "../figures/line-chart.js";
import { axisTitle, matrixAxes } from "../figures/matrix-axes.js";
import { corner, listed, matrixRows, numbersFor } from "../figures/numbers.js";
import { paintPixels } from "../figures/paint.js";
import { showPython } from "./show-python.js";
import { ticks } from "../figures/ticks.js";
import { vectorTable } from "../figures/vector-table.js";
import { t } from "../i18n.js";
import { sentences } from "../words.js";

/** The demo's sliders: {param: input name}. */
const SLIDERS = { m: "m", n: "n", shift: "shift", d: "d", base: "base", seed: "seed" };
/** The name of the switch between the mean-score chart's two pairings, "alike" and "independent". */
const PAIRING = "qk";

/**
 * The Python behind what is shown: one query and key scored three ways, the decay bound, and the
 * mean score of the chosen pairing.
 *
 * @param {{m: number, n: number, shift: number, d: number, base: number, seed: number, pairing: string}} settings
 */
export function pythonCode({ m, n, shift, d, base, seed, pairing }) {
  // The code's comments, in the page's language (outside the templates: the extractor of
  // messages reads no template literal).
  const comments = {
    alike: t("Long-term decay, d = 128: the mean score of random q and the key k = q, exact and sampled"),
    independent: t("Long-term decay, d = 128: independent random q and k score alike at every offset"),
    vectors: t("one query, one key"),
    matrix: t('M_(m-n), the "k positions later" matrix'),
  };
  const mean =
    pairing === "alike"
      ? `
# ${comments.alike}
from pelab.rope import rope_mean_score
t = [0, 10, 100, 500]
print("sum of 2 cos(t w_i):   ", rope_mean_score(t, 128, base).round(2))
Q = np.random.default_rng(1).standard_normal((10_000, 128))
print("mean over 10,000 draws:", np.round([np.sum(pelab.rope_rotate(Q, [p] * len(Q), base) * Q, axis=1).mean() for p in t], 2))`
      : `
# ${comments.independent}
from pelab.rope import rope_independent_abs_score
t = [0, 10, 100, 500]
Q, K = np.random.default_rng(1).standard_normal((2, 10_000, 128))
S = [np.sum(pelab.rope_rotate(Q, [p] * len(Q), base) * K, axis=1) for p in t]
print("mean score:  ", np.round([s.mean() for s in S], 3), "(exactly 0 in expectation)")
print("mean |score|:", np.round([np.abs(s).mean() for s in S], 3), "exact:", round(rope_independent_abs_score(128), 4))`;
  return `import numpy as np
import pelab

m, n, s, d, base = ${m}, ${n}, ${shift}, ${d}, ${formatNumber(base)}
q, k = np.random.default_rng(${seed}).standard_normal((2, d))    # ${comments.vectors}
rotate = lambda x, p: pelab.rope_rotate(x[np.newaxis], [p], base)[0]
print("rotated:      ", rotate(q, m) @ rotate(k, n))
print("with M_(m-n): ", q @ pelab.rotation(m - n, d, base) @ k)   # ${comments.matrix}
print("shifted by s: ", rotate(q, m + s) @ rotate(k, n + s))
print("decay bound at offsets 0, 10, 100:", pelab.rope_decay_bound([0, 10, 100], d, base).round(3))
${mean}`;
}

/**
 * The code the cell shows at first paint, for the section's controls at their first values (the
 * switch as its checked value).
 *
 * @param {Record<string, any>} controls
 */
export const firstCode = (controls) => pythonCode({ ...paramsFrom(SLIDERS, controls), pairing: controls[PAIRING] });

export function ropeDemo(root, python) {
  const params = bindSliders(root, SLIDERS, () => update());
  const render = liveRender(root, python, "rope", show);
  const matrixNumbers = numbersFor(root.querySelector(".rope-matrix"), t("the score matrix"));
  const matrixAxesShow = matrixAxes(root.querySelector(".rope-matrix"), {
    // Translators: a matrix's axis titles: query position a, key position b ({a} and {b} are the variables).
    rowTitle: axisTitle(t("query position {a}"), { a: "a" }),
    columnTitle: axisTitle(t("key position {b}"), { b: "b" }),
  });
  const matrixBar = colourBarUnder(root.querySelector(".rope-matrix").closest(".matrix-plot"));
  const decayNumbers = numbersFor(root.querySelector(".rope-decay"), t("the decay measure"));
  const meanNumbers = numbersFor(root.querySelector(".rope-mean"), t("the mean scores"));
  /** The query and key of the mean-score chart: "alike" (k = q) or "independent". */
  const pairing = () => root.querySelector(`input[name="${PAIRING}"]:checked`).value;
  let latest = null; // [result, request] last shown, which the switch redraws
  for (const radio of root.querySelectorAll(`input[name="${PAIRING}"]`)) {
    radio.addEventListener("change", () => {
      showPython(root, code());
      if (latest) drawMean(...latest);
    });
  }

  function update() {
    showPython(root, code());
    return render({ ...params });
  }

  /** The Python behind what is shown, for the current settings and switch. */
  function code() {
    return pythonCode({ ...params, pairing: pairing() });
  }

  function show(result, request) {
    const { m, n, shift, d } = request;
    root.querySelector(".rope-score").textContent = fixed(result.score, 6);
    root.querySelector(".rope-via-matrix").textContent = t("{score} (differs by {difference})", {
      score: fixed(result.via_matrix, 6),
      difference: difference(Math.abs(result.via_matrix - result.score)),
    });
    root.querySelector(".rope-shifted").textContent = t("{score} at positions {m} and {n} (differs by {difference})", {
      score: fixed(result.shifted_score, 6),
      m: m + shift,
      n: n + shift,
      difference: difference(Math.abs(result.shifted_score - result.score)),
    });
    vectorTable(
      root.querySelector(".rope-vectors"),
      [
        { label: "q", values: result.q },
        { label: `R_${m} q`, values: result.q_rotated },
        { label: "k", values: result.k },
        { label: `R_${n} k`, values: result.k_rotated },
      ],
      { limit: 3, caption: t("dimension") },
    );

    const size = result.n_matrix;
    const canvas = root.querySelector(".rope-matrix");
    paintPixels(canvas, { width: size, height: size, rgba: result.scores_rgba });
    matrixAxesShow({ rows: size, columns: size });
    // A random q and k score far below |q| |k|: coloured over what the matrix reaches, so that
    // its diagonals and its asymmetry show (over [−1, 1] it was almost white).
    matrixBar({ limit: result.scores_scale, title: t("scores") });
    canvas.setAttribute(
      "aria-label",
      t(
        "RoPE scores of query positions 0 to {last} (rows) against key positions 0 to {last} (columns), d = {d}, coloured from {low} (blue) to {high} (red): constant along every diagonal, largest spread along one {spread}; not symmetric, largest gap between a score and its mirror image {gap}.",
        {
          last: size - 1,
          d,
          low: `−${formatNumber(result.scores_scale)}`,
          high: `+${formatNumber(result.scores_scale)}`,
          spread: difference(result.toeplitz),
          gap: fixed(result.asymmetry, 4),
        },
      ),
    );
    const shown = corner(size);
    matrixNumbers.show({
      caption: t("(R_a q) · (R_b k) / (|q| |k|), query positions a {shown} (rows), key positions b (columns)", { shown: listed(shown) }),
      corner: "a \\ b",
      columns: shown.map(String),
      rows: matrixRows(result.scores, size, shown, shown.length),
      note: t("The top-left corner of the {n} × {n} matrix.", { n: size }),
    });
    root.querySelector(".rope-toeplitz").textContent = sentences(
      t("Along each diagonal the scores differ by at most {spread} (rounding): they depend on b − a alone.", { spread: difference(result.toeplitz) }),
      t("A score and its mirror across the main diagonal differ by up to {gap}: the matrix is not symmetric.", { gap: fixed(result.asymmetry, 4) }),
    );

    drawDecay(result, request);
    latest = [result, request];
    drawMean(result, request);
    root.querySelector(".rope-pairing").textContent = t(
      "Check, for q at position {m}: the half layout, permuted back, differs from the adjacent layout by {gap}.",
      { m, gap: difference(result.pairing_gap) },
    );
    Object.assign(root.dataset, {
      rendered: `${m}/${n}/${shift}/${d}@${request.base}:${request.seed}`,
      score: result.score,
      viaMatrix: result.via_matrix,
      shiftedScore: result.shifted_score,
      pairingGap: result.pairing_gap,
      toeplitz: result.toeplitz,
      asymmetry: result.asymmetry,
    });
  }

  function drawDecay(result, request) {
    const count = result.decay_offsets.length;
    const bases = [...result.decay_bases];
    const rows = bases.map((_, b) => result.decay.subarray(b * count, (b + 1) * count));
    const chart = root.querySelector(".rope-decay");
    // Translators: a line's name: the base of a RoPE model; "(yours)" marks the one the slider chose.
    const baseName = (b) => (b === 0 ? t("base {base} (yours)", { base: formatNumber(bases[b]) }) : t("base {base}", { base: formatNumber(bases[b]) }));
    lineChart(chart, {
      series: rows.map((y, b) => ({
        x: result.decay_offsets,
        y,
        className: b === 0 ? "pair-0 chosen" : `pair-${b + 1}`,
        label: baseName(b),
      })),
      markers: [],
      xLabel: t("offset |m − n|"),
      yLabel: t("mean |S_j|"),
      yDomain: [0, (result.decay_d / 2 + 1) / 2],
      keyClass: "rope-decay-legend",
    });
    const at = (row, t) => fixed(row[t], 3);
    const values = bases
      .map((_, b) =>
        // Translators: one line's values at the first and last offsets, such as "base 10000: 1.000 at 0, 0.200 at 500".
        t("{base}: {first} at 0, {end} at {last}", { base: baseName(b), first: at(rows[b], 0), end: at(rows[b], count - 1), last: count - 1 }),
      )
      .join("; ");
    chart.setAttribute(
      "aria-label",
      t("RoFormer's decay measure, the mean of |S_j| over the {pairs} pairs of a head of dimension {d}, against offsets 0 to {last}, {values}.", {
        pairs: result.decay_d / 2,
        d: result.decay_d,
        last: count - 1,
        values,
      }),
    );
    const offsets = [...new Set([...ticks(count), count - 1])].filter((t) => t < count);
    decayNumbers.show({
      caption: t("Mean of |S_j| over the {pairs} pairs, head dimension {d}", { pairs: result.decay_d / 2, d: result.decay_d }),
      // Translators: a table's corner: its rows are offsets m − n.
      corner: t("offset"),
      columns: bases.map((_, b) => baseName(b)),
      rows: offsets.map((t) => ({ label: String(t), values: rows.map((row) => row[t]) })),
      format: (v) => fixed(v, 4),
    });
  }

  /**
   * The mean score of random q and k against the offset, d = decay_d, for the chosen base: with
   * k = q it is sum_i 2 cos(t w_i), falling from d; with independent q and k the mean is 0 and
   * the mean |score| one number, at every offset. The y axis stays put, so the switch compares.
   */
  function drawMean(result, request) {
    const alike = pairing() === "alike";
    const offsets = result.decay_offsets;
    const count = offsets.length;
    const d = result.decay_d;
    const base = formatNumber(request.base);
    const flat = (value) => new Float64Array(count).fill(value);
    const lines = alike
      ? [{ y: result.alike_mean, className: "pair-0 chosen", label: t("mean score with k = q: Σ 2 cos((m − n)·w_i), base {base}", { base }) }]
      : [
          { y: flat(0), className: "pair-0 chosen", label: t("mean score: {score}", { score: "0" }) },
          { y: flat(result.independent_abs), className: "pair-1", label: t("mean |score|: {score}", { score: fixed(result.independent_abs, 2) }) },
        ];
    const chart = root.querySelector(".rope-mean");
    lineChart(chart, {
      series: lines.map(({ y, className, label }) => ({ x: offsets, y, className, label })),
      xLabel: t("offset |m − n|"),
      yLabel: t("score (R_m q) · (R_n k)"),
      yDomain: [-d / 4, d],
      keyClass: "rope-mean-legend",
    });
    const at = (t) => fixed(result.alike_mean[t], 2);
    chart.setAttribute(
      "aria-label",
      alike
        ? t(
            "Mean score (R_m q) · (R_n k) of a query q with standard normal entries and the key k = q, head dimension {d}, base {base}, against the offset |m − n| from 0 to {last}: {at0} at 0, {at10} at 10, {at100} at 100, {at500} at 500; largest at offset 0, then lower, with ripples.",
            { d, base, last: count - 1, at0: at(0), at10: at(10), at100: at(100), at500: at(500) },
          )
        : t(
            "Score (R_m q) · (R_n k) of a query q and an independent key k, both with standard normal entries, head dimension {d}, against the offset |m − n| from 0 to {last}: mean 0 and mean |score| {mean} at every offset.",
            { d, last: count - 1, mean: fixed(result.independent_abs, 4) },
          ),
    );
    const rows = [...new Set([0, 10, ...ticks(count), count - 1])].filter((t) => t < count).sort((a, b) => a - b);
    meanNumbers.show({
      caption: alike
        ? t("Mean score of q and k = q, standard normal entries, head dimension {d}, base {base}: Σ 2 cos((m − n)·w_i), exact", { d, base })
        : t("Independent q and k, standard normal entries, head dimension {d}: mean score and mean |score|, exact", { d }),
      corner: t("offset"),
      columns: alike ? [t("mean score, k = q")] : [t("mean score"), t("mean |score|")],
      rows: rows.map((t) => ({ label: String(t), values: alike ? [result.alike_mean[t]] : [0, result.independent_abs] })),
      format: (v) => fixed(v, 4),
    });
    Object.assign(root.dataset, { meanShown: `${alike ? "alike" : "independent"}@${request.base}` });
  }

  return { firstRender: update() };
}
