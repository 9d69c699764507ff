/**
 * A small SVG line chart: series of (x, y) points, a linear y axis, tick labels, a title on each
 * axis, vertical markers, and a key naming each labelled line. Used by the similarity, training,
 * ALiBi, RoPE, extrapolation and stretching demos.
 *
 * It reads on its own: the chart is drawn at the width it is shown (chart-size.js), so its text
 * is the page's own size on a phone too; the y range is widened to round values, so no line runs
 * along the top edge; marker labels sit above the plot, where no line can cross them; and the key
 * (an HTML list just above the chart, in the same figure) draws each line's own stroke.
 */
import { chartBox } from "./chart-size.js";
import { formatNumber } from "./format.js";
import { niceStep, ticks } from "./ticks.js";
import { htmlNotation, svgNotation } from "./notation.js";
import { svg, svgText } from "./svg.js";

/** Margins around the plot, in CSS pixels: room for the y labels, the markers' labels above, the x labels below. */
const MARGIN = { left: 56, right: 14, top: 24, bottom: 38 };

/** @typedef {ArrayLike<number> & Iterable<number>} Numbers an array or a typed array */

/**
 * @typedef {object} LineChart
 * @property {{x: Numbers, y: Numbers, className?: string, label?: string}[]} series a series
 *   with a label gets an entry in the chart's key
 * @property {{x: number, label: string, className?: string}[]} [markers]
 * @property {string} xLabel
 * @property {string} yLabel
 * @property {number[]} [xDomain] [low, high] (default: the data's range)
 * @property {number[]} [yDomain] [low, high] (default: the data's range), widened to round values
 * @property {string} [keyClass] a class for the key (a demo's name for it)
 */

/** @param {SVGSVGElement} chart @param {LineChart} figure */
export function lineChart(chart, figure) {
  const { series, markers = [], xLabel, yLabel, xDomain, yDomain } = figure;
  const { width, height } = chartBox(chart, () => lineChart(chart, figure));
  const { left, top, bottom } = MARGIN;
  const right = width - MARGIN.right;
  const base = height - bottom;
  const finite = series.flatMap((s) => [...s.y].filter(Number.isFinite));
  const [x0, x1] = xDomain ?? [Math.min(...series.map((s) => s.x[0])), Math.max(...series.map((s) => s.x[s.x.length - 1]))];
  const [y0, y1, step] = roundRange(...(yDomain ?? [Math.min(...finite), Math.max(...finite)]));
  const sx = (x) => left + ((x - x0) / (x1 - x0 || 1)) * (right - left);
  const sy = (y) => top + (1 - (y - y0) / (y1 - y0)) * (base - top);

  const parts = [];
  for (let k = 0; y0 + k * step <= y1 + step * 1e-9; k++) {
    const y = Number((y0 + k * step).toPrecision(12));
    parts.push(svg("line", { x1: left, x2: right, y1: sy(y), y2: sy(y), class: "grid" }));
    parts.push(svgText(formatNumber(y), { x: left - 6, y: sy(y) + 4, class: "tick", "text-anchor": "end" }));
  }
  // About one label per 55 px (a five-digit label is 36 px wide), so that none touch on a phone.
  for (const x of ticks(x1 + 1, Math.max(2, Math.floor((right - left) / 55))).filter((t) => t >= x0)) {
    parts.push(svgText(String(x), { x: sx(x), y: base + 16, class: "tick", "text-anchor": "middle" }));
  }
  for (const { x, y, className } of series) {
    const points = [];
    for (let n = 0; n < x.length; n++) {
      if (Number.isFinite(y[n])) points.push(`${points.length ? "L" : "M"}${sx(x[n]).toFixed(1)},${sy(y[n]).toFixed(1)}`);
    }
    parts.push(svg("path", { d: points.join(""), class: `series ${className ?? ""}` }));
  }
  for (const { x, label, className } of markers) {
    const at = sx(x);
    parts.push(svg("line", { x1: at, x2: at, y1: top - 4, y2: base, class: `marker ${className ?? ""}` }));
    // Above the plot, beside its line, turned to stay inside the chart near either end.
    const anchor = at > left + (right - left) * 0.7 ? "end" : "start";
    parts.push(svgText(label, { x: anchor === "end" ? at - 4 : at + 4, y: top - 8, class: "tick marker-label", "text-anchor": anchor }));
  }
  // Axis titles in the prose's notation: "S_j" drawn as S with a subscript j (notation.js).
  parts.push(svgNotation(xLabel, { x: (left + right) / 2, y: height - 4, class: "axis", "text-anchor": "middle" }));
  const middle = top + (base - top) / 2;
  parts.push(svgNotation(yLabel, { x: 12, y: middle, class: "axis", "text-anchor": "middle", transform: `rotate(-90 12 ${middle})` }));
  chart.replaceChildren(...parts);
  drawKey(chart, series, figure.keyClass);
}

/**
 * [low, high, step]: the range widened outwards to multiples of a round step, about five of
 * them, so the top and bottom lines are labelled and a line at the data's largest value does not
 * run along the plot's edge unless that value is itself round (as 1 is for a share).
 */
export function roundRange(low, high) {
  if (!(high > low)) [low, high] = [low - 1, high + 1];
  const step = niceStep((high - low) / 5);
  return [Math.floor(low / step + 1e-9) * step, Math.ceil(high / step - 1e-9) * step, step];
}

/** The key: one item per labelled series, its line drawn with the series' own classes. */
function drawKey(chart, series, keyClass) {
  const labelled = series.filter((s) => s.label);
  let key = chart.previousElementSibling?.matches("ul.chart-legend[data-key]") ? chart.previousElementSibling : null;
  if (!labelled.length) {
    key?.remove();
    return;
  }
  if (!key) {
    key = Object.assign(document.createElement("ul"), { className: "chart-legend chart-key-list" });
    key.dataset.key = "";
    chart.before(key);
  }
  if (keyClass) key.classList.add(keyClass);
  const text = labelled.map((s) => `${s.className}:${s.label}`).join("|");
  if (key.dataset.key === text) return; // a drag redraws the lines, not the key
  key.dataset.key = text;
  key.replaceChildren(
    ...labelled.map(({ className, label }) => {
      const item = document.createElement("li");
      const line = svg("line", { x1: 1, x2: 25, y1: 6, y2: 6, class: `series ${className ?? ""}` });
      item.append(svg("svg", { class: "chart chart-key", viewBox: "0 0 26 12", "aria-hidden": "true" }, [line]), ...htmlNotation(label));
      return item;
    }),
  );
}
