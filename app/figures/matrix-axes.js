/**
 * Axes for a matrix drawn as a square canvas (canvas.matrix): a title and tick labels on each
 * side, laid out like the heatmap's, so the square says what its rows and columns are without
 * the prose. Ticks are indices (0, 20, 40, ...) or, for a square of tokens against tokens, the
 * tokens themselves: query tokens down the side, key tokens (turned) along the bottom. Where a
 * square is too small for every token, every second (third, ...) one is labelled, so no two
 * labels overlap; the numbers table has them all.
 *
 * The labels are drawn text, hidden from screen readers: the canvas's own name says what it shows.
 */
import { ticks } from "./ticks.js";
import { withNodes } from "../words.js";

/** The least room, in CSS pixels, one label needs along its axis (the page's 0.75rem text). */
const ROW_PITCH = 15;
const NUMBER_PITCH = 34;

/**
 * A title of plain text and variables: `text` (translated, t("query {i}")) with each `{name}` of
 * `variables` drawn as a <var> holding its value: axisTitle(t("query {i}"), {i: "i"}).
 *
 * @param {string} text
 * @param {Record<string, string>} variables
 */
export function axisTitle(text, variables) {
  const fragment = document.createDocumentFragment();
  const vars = Object.fromEntries(
    Object.entries(variables).map(([name, value]) => [name, Object.assign(document.createElement("var"), { textContent: value })]),
  );
  fragment.append(...withNodes(text, vars));
  return fragment;
}

/**
 * Wrap `canvas` in a plot with a title on each axis; returns show({rows, columns}), each a count
 * n (index ticks) or an array of n labels (tokens). Titles: strings or axisTitle(...) fragments.
 *
 * @param {HTMLCanvasElement} canvas
 * @param {{rowTitle: string | Node, columnTitle: string | Node}} titles
 */
export function matrixAxes(canvas, { rowTitle, columnTitle }) {
  const plot = element("div", "matrix-plot");
  const yTitle = element("span", "axis-title matrix-y-title");
  const yTicks = element("div", "matrix-y-ticks");
  const frame = element("div", "matrix-frame");
  const xTicks = element("div", "matrix-x-ticks");
  const xTitle = element("span", "axis-title matrix-x-title");
  // Copies: one title may label several squares.
  yTitle.append(typeof rowTitle === "string" ? rowTitle : rowTitle.cloneNode(true));
  xTitle.append(typeof columnTitle === "string" ? columnTitle : columnTitle.cloneNode(true));
  for (const ticks of [yTicks, xTicks]) ticks.setAttribute("aria-hidden", "true");
  canvas.before(plot);
  frame.append(canvas);
  plot.append(yTitle, yTicks, frame, xTicks, xTitle);

  let shown = null; // {rows, columns} drawn
  let size = 0; // the square's width in CSS pixels, when laid out
  let drawn = "";
  const draw = () => {
    if (!shown) return;
    const key = `${size}|${describe(shown.rows)}|${describe(shown.columns)}`;
    if (key === drawn) return; // a drag of another slider repaints the square, not its axes
    drawn = key;
    label(yTicks, shown.rows, size, "y");
    label(xTicks, shown.columns, size, "x");
  };
  if (typeof ResizeObserver !== "undefined") {
    new ResizeObserver(([entry]) => {
      const width = Math.round(entry.contentRect.width);
      if (width && width !== size) {
        size = width;
        draw();
      }
    }).observe(frame);
  }

  return function show({ rows, columns }) {
    shown = { rows, columns };
    draw();
  };
}

/** The labels of one axis of a square `size` px wide: tokens or indices, spaced to not touch. */
function label(container, labels, size, axis) {
  const n = typeof labels === "number" ? labels : labels.length;
  const room = size || 200; // not laid out yet: a guess, redrawn once it is
  let marks;
  if (typeof labels === "number") {
    const pitch = axis === "x" ? NUMBER_PITCH : ROW_PITCH;
    marks = ticks(n, Math.max(2, Math.min(6, Math.floor(room / pitch)))).map((i) => [i, String(i)]);
  } else {
    const every = Math.max(1, Math.ceil((ROW_PITCH * n) / room));
    marks = labels.map((text, i) => [i, text]).filter(([i]) => i % every === 0);
  }
  container.dataset.count = String(marks.length);
  container.toggleAttribute("data-tokens", typeof labels !== "number");
  // The longest label, invisible, gives the axis its depth; the others are placed over it.
  const longest = marks.reduce((a, [, text]) => (text.length > a.length ? text : a), "");
  container.replaceChildren(
    Object.assign(element("span", "matrix-tick-sizer"), { textContent: longest }),
    ...marks.map(([i, text]) => {
      const mark = Object.assign(element("span", "matrix-tick"), { textContent: text });
      mark.style.setProperty("--at", `${((i + 0.5) / n) * 100}%`);
      return mark;
    }),
  );
}

function describe(labels) {
  return typeof labels === "number" ? String(labels) : labels.join("\u0000");
}

function element(tag, className) {
  return Object.assign(document.createElement(tag), { className });
}
