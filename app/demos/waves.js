/**
 * Demo: waves and frequencies, "a clock with many hands". Each sine-cosine pair i turns
 * at its own rate w_i = base^(-2i/d_model): early pairs are fast hands, late pairs slow
 * ones. Shows chosen pairs' sin and cos against position, every pair's wavelength on a log
 * axis, and a dial per pair whose hand is at the angle pos * w_i of the chosen position.
 */
import { liveRender } from "./live-render.js";
import { bindSliders, paramsFrom } from "../controls/bind-sliders.js";
import { clockDial } from "../figures/dial.js";
import { evenGrid } from "../figures/even-grid.js";
import { fixed, formatNumber, roundSignificant } from "../figures/format.js";
import { nextFrame } from "../scheduling/next-task.js";
import { numbersFor } from "../figures/numbers.js";
import { showPython } from "./show-python.js";
import { slider } from "../controls/slider.js";
import { svg, svgText } from "../figures/svg.js";
import { chartBox } from "../figures/chart-size.js";
import { t } from "../i18n.js";
import { andList } from "../words.js";

/** The wave chart spans 100 positions, or the next hundred that holds the chosen position. */
const chartSpan = (pos) => Math.max(100, Math.ceil(pos / 100) * 100);
/** Margins around each plot, in CSS pixels (the charts are drawn at their shown width: chart-size.js). */
const MARGIN = { left: 56, right: 12, top: 12, bottom: 34 };

/** `v` rounded to one decimal, as a short string ("44", "90.3"): for SVG coordinates. */
const tenths = (v) => String(Math.round(v * 10) / 10);

/** Up to 8 pairs spread on a log scale from the fastest (i = 0) to the slowest. */
export function dialPairs(dModel) {
  const last = Math.ceil(dModel / 2) - 1;
  const pairs = [0, ...Array.from({ length: 7 }, (_, k) => Math.round((last + 1) ** ((k + 1) / 7)) - 1)];
  return [...new Set(pairs)].filter((i) => i >= 0 && i <= last);
}

/** The demo's sliders but the position's, which sets the shared position: {param: input name}. */
const SLIDERS = { dModel: "d_model", base: "base" };
/** The dial pairs drawn as waves at first, by rank among dialPairs: fast, middle, slow. */
const FIRST_PLOTTED = Object.freeze([0, 4, 6]);

/** The pairs drawn as waves: those of the ranks `plotted` that d_model has. */
const chosenPairs = (plotted, dModel) => {
  const pairs = dialPairs(dModel);
  return plotted.filter((rank) => rank < pairs.length).map((rank) => pairs[rank]);
};

/**
 * The Python behind the charts: the chosen pairs' waves over the chart's span, and the angle of
 * every dial pair's hand at the position.
 *
 * @param {{dModel: number, base: number, pos: number, pairs: number[]}} settings `pairs` those drawn
 */
export function pythonCode({ dModel, base, pos, pairs }) {
  const maxPos = chartSpan(pos);
  // The code's comment, in the page's language (outside the template: the extractor of messages
  // reads no template literal).
  const comment = t("each pair's hand at pos = {pos}", { pos });
  return `import matplotlib.pyplot as plt
import numpy as np
import pelab

w = pelab.angular_frequencies(d_model=${dModel}, base=${formatNumber(base)})   # w_i = base^(-2i/d_model)
pos = np.linspace(0, ${maxPos}, ${8 * maxPos + 1})
for i in [${pairs.join(", ")}]:
    plt.plot(pos, np.sin(pos * w[i]), label=f"sin, pair i = {i}")
plt.xlabel("position"); plt.legend(loc="lower left"); plt.show()

angles = (${pos} * w) % (2 * np.pi)   # ${comment}
{i: round(float(angles[i]), 3) for i in [${dialPairs(dModel).join(", ")}]}`;
}

/**
 * The code the cell shows at first paint, for the section's controls at their first values: the
 * position at its slider's, the pairs drawn those of FIRST_PLOTTED.
 *
 * @param {Record<string, any>} controls
 */
export const firstCode = (controls) =>
  pythonCode({ ...paramsFrom(SLIDERS, controls), pos: controls.pos, pairs: chosenPairs(FIRST_PLOTTED, controls.d_model) });

export function wavesDemo(root, python, { position }) {
  const choices = root.querySelector(".waves-pairs");
  const waveNumbers = numbersFor(root.querySelector(".waves-chart"), t("the sine and cosine waves"));
  const wavelengthNumbers = numbersFor(root.querySelector(".wavelength-chart"), t("the wavelengths"));
  evenGrid(root.querySelector(".waves-dials"), { min: 7.5 });
  const params = bindSliders(root, SLIDERS, () => update());
  position.set(slider(root.querySelector("[name=pos]"), { onInput: (v) => position.set(v) }).value);
  let plotted = FIRST_PLOTTED; // which of the dial pairs (by rank) are drawn as waves

  const render = liveRender(root, python, "waves", (result, request) => show(result, request));

  function update(change = {}) {
    Object.assign(params, change);
    const pairs = dialPairs(params.dModel);
    const chosen = chosenPairs(plotted, params.dModel);
    const request = { ...params, pairs: chosen, maxPos: chartSpan(position.value), pos: position.value };
    showPython(root, pythonCode({ ...params, pos: request.pos, pairs: chosen }));
    drawChoices(pairs);
    return render(request);
  }

  function drawChoices(pairs) {
    choices.replaceChildren(
      ...pairs.map((pair, rank) => {
        const label = document.createElement("label");
        const box = document.createElement("input");
        box.type = "checkbox";
        box.checked = plotted.includes(rank);
        box.addEventListener("change", () => {
          plotted = box.checked ? [...plotted, rank] : plotted.filter((r) => r !== rank);
          update();
        });
        const swatch = document.createElement("span");
        swatch.className = `swatch pair-${rank}`;
        label.append(box, swatch, ` i = ${pair}`);
        return label;
      }),
    );
  }

  let cold = true;
  async function show(result, request) {
    drawWaves(result, request);
    if (cold) {
      // The first drawing runs cold code and parses six fresh paths: 15 to 48 ms for all three
      // charts in one task on a 2-core machine. The charts below the waves come a frame later.
      cold = false;
      await nextFrame();
    }
    drawWavelengths(result, request);
    drawDials(result, request);
    root.dataset.rendered = `${request.dModel}@${request.base}:${request.pos}`;
  }

  function drawWaves({ x, sin, cos }, request) {
    const chart = root.querySelector(".waves-chart");
    const { width, height } = chartBox(chart, () => drawWaves({ x, sin, cos }, request));
    const { left, right, top, bottom } = MARGIN;
    const sx = (p) => left + (p / request.maxPos) * (width - left - right);
    const sy = (v) => top + ((1 - v) / 2) * (height - top - bottom);
    // At most a point per pixel of the plot's width (572 on a wide screen): 801 samples of 100 positions draw as 401,
    // 25 points per turn of the fastest wave. Every wave shares its x coordinates, so each "Mx,"
    // or "Lx," is written once. 6 waves of 801 points built point by point took 30 to 40 ms of
    // the demo's first render.
    const step = Math.ceil((x.length - 1) / (width - left - right)) || 1;
    const points = [];
    for (let n = 0; n < x.length; n += step) points.push(n);
    if (points.at(-1) !== x.length - 1) points.push(x.length - 1);
    const xs = points.map((n, i) => `${i ? "L" : "M"}${tenths(sx(x[n]))},`);
    const path = (values, k) => points.map((n, i) => xs[i] + tenths(sy(values[k * x.length + n]))).join("");
    const pairs = dialPairs(request.dModel);
    const parts = [
      ...[-1, 0, 1].map((v) => svg("line", { x1: left, x2: width - right, y1: sy(v), y2: sy(v), class: "grid" })),
      ...[-1, 0, 1].map((v) => svgText(String(v), { x: left - 8, y: sy(v) + 4, class: "tick", "text-anchor": "end" })),
      // Every tenth of the span, or every fifth where ten labels would touch (a phone).
      ...Array.from({ length: 11 }, (_, k) => (k * request.maxPos) / 10)
        .filter((_, k) => width - left - right >= 400 || k % 2 === 0)
        .map((p) => svgText(String(p), { x: sx(p), y: height - bottom + 16, class: "tick", "text-anchor": "middle" })),
      // Translators: a chart's axes: the position pos, and the sine and cosine drawn.
      svgText(t("position pos"), { x: (left + width - right) / 2, y: height - 4, class: "axis", "text-anchor": "middle" }),
      yTitle(t("sin and cos"), top, height - bottom),
    ];
    request.pairs.forEach((pair, k) => {
      const rank = pairs.indexOf(pair);
      parts.push(svg("path", { d: path(sin, k), class: `wave pair-${rank}` }));
      parts.push(svg("path", { d: path(cos, k), class: `wave cosine pair-${rank}` }));
    });
    parts.push(svg("line", { x1: sx(request.pos), x2: sx(request.pos), y1: top, y2: height - bottom, class: "now" }));
    chart.replaceChildren(...parts);
    const values = { pairs: andList(request.pairs.map((pair) => `i = ${pair}`)), last: request.maxPos, pos: request.pos };
    chart.setAttribute(
      "aria-label",
      request.pairs.length
        ? t("Sine (solid) and cosine (dashed) of pairs {pairs} against positions 0 to {last}, with position {pos} marked. Lower pairs swing faster.", values)
        : t("Sine (solid) and cosine (dashed) of no pair (none is ticked) against positions 0 to {last}, with position {pos} marked. Lower pairs swing faster.", values),
    );
    showWaveNumbers({ x, sin, cos }, request);
  }

  /**
   * The drawn waves at the labelled positions and at the chosen one: the samples nearest them
   * (exactly them up to position 512, where every eighth of a position is sampled).
   */
  function showWaveNumbers({ x, sin, cos }, request) {
    const m = x.length;
    const wanted = [...Array.from({ length: 11 }, (_, k) => (k * request.maxPos) / 10), request.pos];
    const samples = [...new Set(wanted.map((p) => Math.round((p / request.maxPos) * (m - 1))))].sort((a, b) => a - b);
    waveNumbers.show({
      caption: t("sin and cos of each drawn pair at positions 0 to {last}, d_model {dModel}, base {base}", {
        last: request.maxPos,
        dModel: request.dModel,
        base: formatNumber(request.base),
      }),
      corner: t("position"),
      columns: request.pairs.flatMap((pair) => [`sin, i = ${pair}`, `cos, i = ${pair}`]),
      rows: samples.map((n) => ({
        // Translators: a table row's label: the position chosen with the slider.
        label: x[n] === request.pos ? t("{pos} (chosen)", { pos: x[n] }) : formatNumber(x[n]),
        values: request.pairs.flatMap((_, k) => [sin[k * m + n], cos[k * m + n]]),
      })),
      note: request.pairs.length ? "" : t("Tick a pair above to see its numbers."),
    });
  }

  function drawWavelengths({ wavelengths }, request) {
    const chart = root.querySelector(".wavelength-chart");
    const { width, height } = chartBox(chart, () => drawWavelengths({ wavelengths }, request));
    const { left, right, top, bottom } = MARGIN;
    const n = wavelengths.length;
    const low = Math.log10(wavelengths[0]);
    const high = Math.log10(Math.max(wavelengths[n - 1], wavelengths[0] * 10));
    const sx = (i) => left + (n > 1 ? i / (n - 1) : 0.5) * (width - left - right);
    const sy = (lambda) => top + (1 - (Math.log10(lambda) - low) / (high - low)) * (height - top - bottom);
    const parts = [];
    for (let e = Math.ceil(low); e <= Math.floor(high); e++) {
      parts.push(svg("line", { x1: left, x2: width - right, y1: sy(10 ** e), y2: sy(10 ** e), class: "grid" }));
      parts.push(svgText(`10${superscript(e)}`, { x: left - 8, y: sy(10 ** e) + 4, class: "tick", "text-anchor": "end" }));
    }
    parts.push(
      svg("path", {
        d: [...wavelengths].map((l, i) => `${i ? "L" : "M"}${sx(i).toFixed(1)},${sy(l).toFixed(1)}`).join(""),
        class: "wavelength",
      }),
    );
    dialPairs(request.dModel).forEach((pair, rank) =>
      parts.push(svg("circle", { cx: sx(pair), cy: sy(wavelengths[pair]), r: 4.5, class: `dot pair-${rank}` })),
    );
    const xTitle = t("pair index i (0 to {last})", { last: n - 1 });
    parts.push(svgText(xTitle, { x: (left + width - right) / 2, y: height - 4, class: "axis", "text-anchor": "middle" }));
    parts.push(yTitle(t("wavelength λ (log)"), top, height - bottom));
    // Translators: labels on a chart: the fastest pair's wavelength, and the slowest's ({wavelength} such as "λ₃₁ ≈ 10000").
    parts.push(svgText(t("fastest: λ₀ = 2π ≈ 6.28"), { x: left + 6, y: top + 4, class: "tick" }));
    const slowest = t("slowest: {wavelength}", { wavelength: `λ${subscript(n - 1)} ≈ ${formatNumber(roundSignificant(wavelengths[n - 1], 4))}` });
    parts.push(
      svgText(slowest, {
        x: width - right - 4,
        y: height - bottom - 6,
        class: "tick",
        "text-anchor": "end",
      }),
    );
    chart.replaceChildren(...parts);
    const marked = dialPairs(request.dModel);
    wavelengthNumbers.show({
      caption: t("Wavelength in positions of the {marked} marked pairs of {n}, base {base}", { marked: marked.length, n, base: formatNumber(request.base) }),
      corner: t("pair"),
      columns: [t("wavelength λ")],
      rows: marked.map((pair) => ({ label: `i = ${pair}`, values: [wavelengths[pair]] })),
      format: (v) => fixed(v, 3),
      note: marked.length < n ? t("Only the pairs marked with a dot (the clock hands above) are listed.") : "",
    });
    chart.setAttribute(
      "aria-label",
      t("Wavelength of each of the {n} pairs on a log scale, rising steadily from 2π ≈ 6.28 positions for i = 0 to about {slowest} positions for i = {last}.", {
        n,
        slowest: formatNumber(roundSignificant(wavelengths[n - 1], 4)),
        last: n - 1,
      }),
    );
  }

  function drawDials({ angles, wavelengths }, request) {
    const pairs = dialPairs(request.dModel);
    const dials = pairs.map((pair, rank) => {
      const theta = angles[pair];
      return clockDial({
        angle: theta,
        handClass: `pair-${rank}`,
        data: { pair, angle: theta },
        // Translators: a clock dial's caption: its pair i, wavelength λ, the hand's angle, and the pair's (sin, cos).
        caption: t("i = {pair}: λ ≈ {wavelength}, angle {angle} rad, (sin, cos) = ({sin}, {cos})", {
          pair,
          wavelength: formatNumber(roundSignificant(wavelengths[pair], 3)),
          angle: theta.toFixed(2),
          sin: Math.sin(theta).toFixed(3),
          cos: Math.cos(theta).toFixed(3),
        }),
      });
    });
    root.querySelector(".waves-dials").replaceChildren(...dials);
  }

  position.subscribe((value) => {
    const input = root.querySelector("[name=pos]");
    if (Number(input.value) !== value) {
      input.value = value;
      input.dispatchEvent(new Event("input"));
    }
    update();
  });

  return { firstRender: update() };
}

/** A y axis's title, turned to run up the chart's left edge, centred on the plot from `top` to `bottom`. */
function yTitle(text, top, bottom) {
  const middle = (top + bottom) / 2;
  return svgText(text, { x: 12, y: middle, class: "axis", "text-anchor": "middle", transform: `rotate(-90 12 ${middle})` });
}

const SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹";
const SUBSCRIPTS = "₀₁₂₃₄₅₆₇₈₉";
function superscript(n) {
  return String(n).replace(/\d/g, (d) => SUPERSCRIPTS[d]).replace("-", "⁻");
}
function subscript(n) {
  return String(n).replace(/\d/g, (d) => SUBSCRIPTS[d]);
}
