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
  const mean =
    pairing === "alike"
      ? `
# Long-term decay, d = 128: the mean score of random q and the key k = q, exact and sampled
from pelab.rope import rope_mean_score
t = [0, 10, 100, 500]
print("sum of 2 cos(t w_i):   ", rope_mean_score(t, 128, base).round(2))
Q = np.random.default_rng(1).standard_normal((10_000, 128))
print("mean over 10,000 draws:", np.round([np.sum(pelab.rope_rotate(Q, [p] * len(Q), base) * Q, axis=1).mean() for p in t], 2))`
      : `
# Long-term decay, d = 128: independent random q and k score alike at every offset
from pelab.rope import rope_independent_abs_score
t = [0, 10, 100, 500]
Q, K = np.random.default_rng(1).standard_normal((2, 10_000, 128))
S = [np.sum(pelab.rope_rotate(Q, [p] * len(Q), base) * K, axis=1) for p in t]
print("mean score:  ", np.round([s.mean() for s in S], 3), "(exactly 0 in expectation)")
print("mean |score|:", np.round([np.abs(s).mean() for s in S], 3), "exact:", round(rope_independent_abs_score(128), 4))`;
  return `import numpy as np
import pelab

m, n, s, d, base = ${m}, ${n}, ${shift}, ${d}, ${formatNumber(base)}
q, k = np.random.default_rng(${seed}).standard_normal((2, d))    # one query, one key
rotate = lambda x, p: pelab.rope_rotate(x[np.newaxis], [p], base)[0]
print("rotated:      ", rotate(q, m) @ rotate(k, n))
print("with M_(m-n): ", q @ pelab.rotation(m - n, d, base) @ k)   # M_(m-n), the "k positions later" matrix
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
  const matrixNumbers = numbersFor(root.querySelector(".rope-matrix"), "the score matrix");
  const matrixAxesShow = matrixAxes(root.querySelector(".rope-matrix"), {
    rowTitle: axisTitle("query position ", { v: "a" }),
    columnTitle: axisTitle("key position ", { v: "b" }),
  });
  const matrixBar = colourBarUnder(root.querySelector(".rope-matrix").closest(".matrix-plot"));
  const decayNumbers = numbersFor(root.querySelector(".rope-decay"), "the decay measure");
  const meanNumbers = numbersFor(root.querySelector(".rope-mean"), "the mean scores");
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
    root.querySelector(".rope-via-matrix").textContent =
      `${fixed(result.via_matrix, 6)} (differs by ${difference(Math.abs(result.via_matrix - result.score))})`;
    root.querySelector(".rope-shifted").textContent =
      `${fixed(result.shifted_score, 6)} at positions ${m + shift} and ${n + shift} (differs by ${difference(Math.abs(result.shifted_score - result.score))})`;
    vectorTable(
      root.querySelector(".rope-vectors"),
      [
        { label: "q", values: result.q },
        { label: `R_${m} q`, values: result.q_rotated },
        { label: "k", values: result.k },
        { label: `R_${n} k`, values: result.k_rotated },
      ],
      { limit: 3, caption: "dimension" },
    );

    const size = result.n_matrix;
    const canvas = root.querySelector(".rope-matrix");
    paintPixels(canvas, { width: size, height: size, rgba: result.scores_rgba });
    matrixAxesShow({ rows: size, columns: size });
    // A random q and k score far below |q| |k|: coloured over what the matrix reaches, so that
    // its diagonals and its asymmetry show (over [−1, 1] it was almost white).
    matrixBar({ limit: result.scores_scale, title: "scores" });
    canvas.setAttribute(
      "aria-label",
      `RoPE scores of query positions 0 to ${size - 1} (rows) against key positions 0 to ${size - 1} (columns), d = ${d}, ` +
        `coloured from −${formatNumber(result.scores_scale)} (blue) to +${formatNumber(result.scores_scale)} (red): ` +
        `constant along every diagonal, largest spread along one ${difference(result.toeplitz)}; not symmetric, ` +
        `largest gap between a score and its mirror image ${fixed(result.asymmetry, 4)}.`,
    );
    const shown = corner(size);
    matrixNumbers.show({
      caption: `(R_a q) · (R_b k) / (|q| |k|), query positions a ${listed(shown)} (rows), key positions b (columns)`,
      corner: "a \\ b",
      columns: shown.map(String),
      rows: matrixRows(result.scores, size, shown, shown.length),
      note: `The top-left corner of the ${size} × ${size} matrix.`,
    });
    root.querySelector(".rope-toeplitz").textContent =
      `Along each diagonal the scores differ by at most ${difference(result.toeplitz)} (rounding): they depend on b − a alone. ` +
      `A score and its mirror across the main diagonal differ by up to ${fixed(result.asymmetry, 4)}: the matrix is not symmetric.`;

    drawDecay(result, request);
    latest = [result, request];
    drawMean(result, request);
    root.querySelector(".rope-pairing").textContent =
      `Check, for q at position ${m}: the half layout, permuted back, differs from the adjacent layout by ${difference(result.pairing_gap)}.`;
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
    lineChart(chart, {
      series: rows.map((y, b) => ({
        x: result.decay_offsets,
        y,
        className: b === 0 ? "pair-0 chosen" : `pair-${b + 1}`,
        label: `base ${formatNumber(bases[b])}${b === 0 ? " (yours)" : ""}`,
      })),
      markers: [],
      xLabel: "offset |m − n|",
      yLabel: "mean |S_j|",
      yDomain: [0, (result.decay_d / 2 + 1) / 2],
      keyClass: "rope-decay-legend",
    });
    const at = (row, t) => fixed(row[t], 3);
    chart.setAttribute(
      "aria-label",
      `RoFormer's decay measure, the mean of |S_j| over the ${result.decay_d / 2} pairs of a head of dimension ${result.decay_d}, against offsets 0 to ${count - 1}, ` +
        bases.map((base, b) => `base ${formatNumber(base)}${b === 0 ? " (yours)" : ""}: ${at(rows[b], 0)} at 0, ${at(rows[b], count - 1)} at ${count - 1}`).join("; ") +
        ".",
    );
    const offsets = [...new Set([...ticks(count), count - 1])].filter((t) => t < count);
    decayNumbers.show({
      caption: `Mean of |S_j| over the ${result.decay_d / 2} pairs, head dimension ${result.decay_d}`,
      corner: "offset",
      columns: bases.map((base, b) => `base ${formatNumber(base)}${b === 0 ? " (yours)" : ""}`),
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
      ? [{ y: result.alike_mean, className: "pair-0 chosen", label: `mean score with k = q: Σ 2 cos((m − n)·w_i), base ${base}` }]
      : [
          { y: flat(0), className: "pair-0 chosen", label: "mean score: 0" },
          { y: flat(result.independent_abs), className: "pair-1", label: `mean |score|: ${fixed(result.independent_abs, 2)}` },
        ];
    const chart = root.querySelector(".rope-mean");
    lineChart(chart, {
      series: lines.map(({ y, className, label }) => ({ x: offsets, y, className, label })),
      xLabel: "offset |m − n|",
      yLabel: "score (R_m q) · (R_n k)",
      yDomain: [-d / 4, d],
      keyClass: "rope-mean-legend",
    });
    const at = (t) => fixed(result.alike_mean[t], 2);
    chart.setAttribute(
      "aria-label",
      alike
        ? `Mean score (R_m q) · (R_n k) of a query q with standard normal entries and the key k = q, head dimension ${d}, base ${base}, ` +
            `against the offset |m − n| from 0 to ${count - 1}: ${at(0)} at 0, ${at(10)} at 10, ${at(100)} at 100, ${at(500)} at 500; ` +
            `largest at offset 0, then lower, with ripples.`
        : `Score (R_m q) · (R_n k) of a query q and an independent key k, both with standard normal entries, head dimension ${d}, ` +
            `against the offset |m − n| from 0 to ${count - 1}: mean 0 and mean |score| ${fixed(result.independent_abs, 4)} at every offset.`,
    );
    const rows = [...new Set([0, 10, ...ticks(count), count - 1])].filter((t) => t < count).sort((a, b) => a - b);
    meanNumbers.show({
      caption: alike
        ? `Mean score of q and k = q, standard normal entries, head dimension ${d}, base ${base}: Σ 2 cos((m − n)·w_i), exact`
        : `Independent q and k, standard normal entries, head dimension ${d}: mean score and mean |score|, exact`,
      corner: "offset",
      columns: alike ? ["mean score, k = q"] : ["mean score", "mean |score|"],
      rows: rows.map((t) => ({ label: String(t), values: alike ? [result.alike_mean[t]] : [0, result.independent_abs] })),
      format: (v) => fixed(v, 4),
    });
    Object.assign(root.dataset, { meanShown: `${alike ? "alike" : "independent"}@${request.base}` });
  }

  return { firstRender: update() };
}
