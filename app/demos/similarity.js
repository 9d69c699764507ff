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
import { t } from "../i18n.js";
import { sentences } from "../words.js";

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
  // The code's comments, in the page's language (outside the template: the extractor of
  // messages reads no template literal).
  const comments = {
    // Translators: a comment in Python code: the two matrices each have the shape {shape}, such as (64, 64).
    shape: t("{shape} each", { shape: `(${seqLen}, ${seqLen})` }),
    row: t("position {pos} against every position", { pos }),
  };
  return `import pelab

pe = pelab.sinusoidal(seq_len=${seqLen}, d_model=${dModel}, base=${formatNumber(base)})
dot, cosine = pelab.similarity(pe)                # ${comments.shape}
print("largest spread along a diagonal:", pelab.toeplitz_residual(dot))
pelab.show(cosine, title="cosine similarity", vmin=-1, vmax=1)
dot[${pos}].round(2)                                 # ${comments.row}`;
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
      // Translators: a matrix's axis titles: position p, position q ({p} and {q} are the variables).
      const axes = matrixAxes(canvas, { rowTitle: axisTitle(t("position {p}"), { p: "p" }), columnTitle: axisTitle(t("position {q}"), { q: "q" }) });
      return [kind, { axes, bar: colourBarUnder(canvas.closest(".matrix-plot")) }];
    }),
  );
  const numbers = {
    dot: numbersFor(root.querySelector(".similarity-dot"), t("the dot products")),
    cosine: numbersFor(root.querySelector(".similarity-cosine"), t("the cosine similarities")),
    row: numbersFor(root.querySelector(".similarity-chart"), t("one position against every other")),
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
    // All positive (the first settings): the bar shows the map's white-to-red half alone, a
    // sequential scale from 0 up, with no blue for values that do not occur.
    // Translators: what a colour bar measures: "Colour scale of the dot products".
    squares.dot.bar({ limit: result.dot_scale, part: result.dot_part, title: t("dot products") });
    squares.cosine.bar({ limit: 1, part: result.cosine_part, title: t("cosine similarities") });
    root.querySelector(".similarity-dot").setAttribute(
      "aria-label",
      t("Dot products between all {n} positions: largest ({scale}) on the diagonal, falling off with distance.", { n, scale }),
    );
    root.querySelector(".similarity-cosine").setAttribute(
      "aria-label",
      t("Cosine similarity between all {n} positions: 1 on the diagonal, smaller for positions further apart.", { n }),
    );
    lineChart(root.querySelector(".similarity-chart"), {
      series: [{ x: [...Array(n).keys()], y: result.row, className: "pair-0" }],
      markers: [{ x: request.pos, label: `p = ${request.pos}`, className: "now" }],
      xLabel: t("position q"),
      yLabel: `PE(${request.pos}) · PE(q)`,
    });
    root.querySelector(".similarity-chart").setAttribute(
      "aria-label",
      t("Dot product of position {pos} with every position from 0 to {last}: {value} at q = {pos}, lower further away.", {
        pos: request.pos,
        last: n - 1,
        value: formatNumber(result.dot_scale),
      }),
    );
    for (const kind of ["dot", "cosine"]) {
      const shown = corner(n);
      const values = { shown: listed(shown), n };
      numbers[kind].show({
        caption:
          kind === "dot"
            ? t("PE(p) · PE(q) for p, q = {shown} of {n} positions", values)
            : t("cosine similarity of PE(p) and PE(q) for p, q = {shown} of {n} positions", values),
        corner: "p \\ q",
        columns: shown.map((q) => `q = ${q}`),
        rows: matrixRows(result[kind], n, shown, shown.length, (p) => `p = ${p}`),
        note: shown.length < n ? t("The top-left corner of the {n} × {n} matrix; every diagonal holds one value.", { n }) : "",
      });
    }
    const qs = [...new Set([...ticks(n), request.pos])].sort((a, b) => a - b);
    numbers.row.show({
      caption: t("PE({pos}) · PE(q) at the labelled positions q and at q = {pos}", { pos: request.pos }),
      corner: "q",
      columns: [`PE(${request.pos}) · PE(q)`],
      rows: qs.map((q) => ({ label: String(q), values: [result.row[q]] })),
    });
    root.querySelector(".similarity-toeplitz").textContent = sentences(
      t("Every diagonal holds a single value: the largest spread along any diagonal is {spread}.", { spread: difference(result.toeplitz) }),
      t("So the dot product depends only on the offset q − p."),
    );
    Object.assign(root.dataset, { rendered: `${request.seqLen}x${request.dModel}@${request.base}:${request.pos}`, toeplitz: result.toeplitz });
  }

  return { firstRender: update() };
}
