/**
 * Demo: how alike two positions are. The dot-product and cosine matrices of the encoding,
 * one position's row against all others, and a check that the dot product depends only on
 * the offset q - p (every diagonal is constant: a Toeplitz matrix).
 */
import { liveRender } from "./live-render.js";
import { bindSliders, paramsFrom } from "../controls/bind-sliders.js";
import { difference, formatNumber } from "../figures/format.js";
import { colourBarUnder } from "../figures/colour-bar.js";
import { lineChart } from "../figures/line-chart.js";
import { axisTitle, matrixAxes } from "../figures/matrix-axes.js";
import { corner, listed, matrixRows, numbersFor } from "../figures/numbers.js";
import { paintPixels } from "../figures/paint.js";
import { ticks } from "../figures/ticks.js";
import { showPython } from "./show-python.js";

/** The demo's sliders: {param: input name}. */
const SLIDERS = { dModel: "d_model", seqLen: "seq_len", base: "base", pos: "pos" };

/** The position plotted: the one asked for, or the last if the sequence is shorter. */
const plottedPosition = ({ pos, seqLen }) => Math.min(pos, seqLen - 1);

/**
 * The Python behind the demo: both matrices of the encoding, the check that they depend on the
 * offset only, and the plotted position's row.
 *
 * @param {{seqLen: number, dModel: number, base: number, pos: number}} settings `pos` as plotted
 */
export function pythonCode({ seqLen, dModel, base, pos }) {
  return `import pelab

pe = pelab.sinusoidal(seq_len=${seqLen}, d_model=${dModel}, base=${formatNumber(base)})
dot, cosine = pelab.similarity(pe)                # (${seqLen}, ${seqLen}) each
print("largest spread along a diagonal:", pelab.toeplitz_residual(dot))
pelab.show(cosine, title="cosine similarity", vmin=-1, vmax=1)
dot[${pos}].round(2)                                 # position ${pos} against every position`;
}

/**
 * The code the cell shows at first paint, for the section's controls at their first values.
 *
 * @param {Record<string, any>} controls
 */
export function firstCode(controls) {
  const params = paramsFrom(SLIDERS, controls);
  return pythonCode({ ...params, pos: plottedPosition(params) });
}

export function similarityDemo(root, python) {
  const params = bindSliders(root, SLIDERS, () => update());
  const render = liveRender(root, python, "similarity", show);
  const squares = Object.fromEntries(
    ["dot", "cosine"].map((kind) => {
      const canvas = root.querySelector(`.similarity-${kind}`);
      const axes = matrixAxes(canvas, { rowTitle: axisTitle("position ", { v: "p" }), columnTitle: axisTitle("position ", { v: "q" }) });
      return [kind, { axes, bar: colourBarUnder(canvas.closest(".matrix-plot")) }];
    }),
  );
  const numbers = {
    dot: numbersFor(root.querySelector(".similarity-dot"), "the dot products"),
    cosine: numbersFor(root.querySelector(".similarity-cosine"), "the cosine similarities"),
    row: numbersFor(root.querySelector(".similarity-chart"), "one position against every other"),
  };

  function update() {
    const pos = plottedPosition(params);
    showPython(root, pythonCode({ ...params, pos }));
    return render({ ...params, pos });
  }

  function show(result, request) {
    const n = result.n;
    paintPixels(root.querySelector(".similarity-dot"), { width: n, height: n, rgba: result.dot_rgba });
    paintPixels(root.querySelector(".similarity-cosine"), { width: n, height: n, rgba: result.cosine_rgba });
    const scale = formatNumber(result.dot_scale);
    for (const square of Object.values(squares)) square.axes({ rows: n, columns: n });
    squares.dot.bar({ limit: result.dot_scale, title: "dot products" });
    squares.cosine.bar({ limit: 1, title: "cosine similarities" });
    root.querySelector(".similarity-dot").setAttribute(
      "aria-label",
      `Dot products between all ${n} positions: largest (${scale}) on the diagonal, falling off with distance.`,
    );
    root.querySelector(".similarity-cosine").setAttribute(
      "aria-label",
      `Cosine similarity between all ${n} positions: 1 on the diagonal, smaller for positions further apart.`,
    );
    lineChart(root.querySelector(".similarity-chart"), {
      series: [{ x: [...Array(n).keys()], y: result.row, className: "pair-0" }],
      markers: [{ x: request.pos, label: `p = ${request.pos}`, className: "now" }],
      xLabel: "position q",
      yLabel: `PE(${request.pos}) · PE(q)`,
    });
    root.querySelector(".similarity-chart").setAttribute(
      "aria-label",
      `Dot product of position ${request.pos} with every position from 0 to ${n - 1}: ` +
        `${formatNumber(result.dot_scale)} at q = ${request.pos}, lower further away.`,
    );
    for (const [kind, title] of [["dot", "PE(p) · PE(q)"], ["cosine", "cosine similarity of PE(p) and PE(q)"]]) {
      const shown = corner(n);
      numbers[kind].show({
        caption: `${title} for p, q = ${listed(shown)} of ${n} positions`,
        corner: "p \\ q",
        columns: shown.map((q) => `q = ${q}`),
        rows: matrixRows(result[kind], n, shown, shown.length, (p) => `p = ${p}`),
        note: shown.length < n ? `The top-left corner of the ${n} × ${n} matrix; every diagonal holds one value.` : "",
      });
    }
    const qs = [...new Set([...ticks(n), request.pos])].sort((a, b) => a - b);
    numbers.row.show({
      caption: `PE(${request.pos}) · PE(q) at the labelled positions q and at q = ${request.pos}`,
      corner: "q",
      columns: [`PE(${request.pos}) · PE(q)`],
      rows: qs.map((q) => ({ label: String(q), values: [result.row[q]] })),
    });
    root.querySelector(".similarity-toeplitz").textContent =
      `Every diagonal holds a single value: the largest spread along any diagonal is ${difference(result.toeplitz)}. ` +
      "So the dot product depends only on the offset q − p.";
    Object.assign(root.dataset, { rendered: `${request.seqLen}x${request.dModel}@${request.base}:${request.pos}`, toeplitz: result.toeplitz });
  }

  return { firstRender: update() };
}
