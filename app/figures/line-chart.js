/**
 * A small SVG line chart: series of (x, y) points, a linear or log y axis, tick labels and
 * vertical markers. Used by the similarity and extrapolation demos.
 */
import { formatNumber } from "./format.js";
import { niceStep, ticks } from "./ticks.js";
import { svg, svgText } from "./svg.js";

const BOX = { width: 640, height: 240, left: 56, right: 14, top: 14, bottom: 38 };

/** @typedef {ArrayLike<number> & Iterable<number>} Numbers an array or a typed array */

/**
 * series: [{x: number[], y: number[], className}]; markers: [{x, label, className}];
 * xLabel, yLabel: axis titles; xDomain, yDomain: [low, high] (default: the data's range).
 *
 * @param {Element} chart
 * @param {object} figure
 * @param {{x: Numbers, y: Numbers, className?: string}[]} figure.series
 * @param {{x: number, label: string, className?: string}[]} [figure.markers]
 * @param {string} figure.xLabel
 * @param {string} figure.yLabel
 * @param {number[]} [figure.xDomain]
 * @param {number[]} [figure.yDomain]
 */
export function lineChart(chart, { series, markers = [], xLabel, yLabel, xDomain, yDomain }) {
  const { width, height, left, right, top, bottom } = BOX;
  const finite = series.flatMap((s) => [...s.y].filter(Number.isFinite));
  const [x0, x1] = xDomain ?? [Math.min(...series.map((s) => s.x[0])), Math.max(...series.map((s) => s.x[s.x.length - 1]))];
  let [y0, y1] = yDomain ?? [Math.min(...finite), Math.max(...finite)];
  if (y0 === y1) [y0, y1] = [y0 - 1, y1 + 1];
  const sx = (x) => left + ((x - x0) / (x1 - x0 || 1)) * (width - left - right);
  const sy = (y) => top + (1 - (y - y0) / (y1 - y0)) * (height - top - bottom);

  const parts = [];
  for (const y of niceValues(y0, y1)) {
    parts.push(svg("line", { x1: left, x2: width - right, y1: sy(y), y2: sy(y), class: "grid" }));
    parts.push(svgText(formatNumber(y), { x: left - 6, y: sy(y) + 4, class: "tick", "text-anchor": "end" }));
  }
  for (const x of ticks(x1 + 1).filter((t) => t >= x0)) {
    parts.push(svgText(String(x), { x: sx(x), y: height - bottom + 16, class: "tick", "text-anchor": "middle" }));
  }
  for (const { x, y, className } of series) {
    const points = [];
    for (let n = 0; n < x.length; n++) {
      if (Number.isFinite(y[n])) points.push(`${points.length ? "L" : "M"}${sx(x[n]).toFixed(1)},${sy(y[n]).toFixed(1)}`);
    }
    parts.push(svg("path", { d: points.join(""), class: `series ${className ?? ""}` }));
  }
  for (const { x, label, className } of markers) {
    parts.push(svg("line", { x1: sx(x), x2: sx(x), y1: top, y2: height - bottom, class: `marker ${className ?? ""}` }));
    parts.push(svgText(label, { x: sx(x) + 4, y: top + 12, class: "tick" }));
  }
  parts.push(svgText(xLabel, { x: (left + width - right) / 2, y: height - 4, class: "axis", "text-anchor": "middle" }));
  parts.push(svgText(yLabel, { x: 12, y: top + (height - top - bottom) / 2, class: "axis", "text-anchor": "middle",
    transform: `rotate(-90 12 ${top + (height - top - bottom) / 2})` }));
  chart.replaceChildren(...parts);
}

/** About five round values from low to high. */
function niceValues(low, high) {
  const step = niceStep((high - low) / 5);
  const values = [];
  for (let v = Math.ceil(low / step) * step; v <= high + step * 1e-9; v += step) values.push(Number(v.toPrecision(12)));
  return values;
}
