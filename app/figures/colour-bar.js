/**
 * A colour bar: the scale a coloured square is drawn with, as a strip of pelab's cool-warm map
 * (colors.js) with its ends and its middle labelled, and the grey of "no value" beside it when
 * the square has any. Its ends are the range the square was coloured over, so the bar is true
 * to what is drawn. The heatmap's legend is one; every matrix figure has one.
 *
 * The bar is one image for a screen reader, named by the scale in words ("Colour scale: blue
 * −9.19791, white 0, red +9.19791"), with the numbers in full; the labels drawn are rounded to
 * four significant figures.
 */
import { LEGEND } from "./colors.js";
import { formatNumber, roundSignificant } from "./format.js";
import { paintPixels } from "./paint.js";
import { t } from "../i18n.js";

/** The map's entries: 0 (blue, -limit) to 255 (red, +limit); 128 is the light grey middle. */
const SIZE = LEGEND.width;

/**
 * Make `bar` (an element, empty or holding the markup this builds) a colour bar, and return
 * show(scale): scale = {limit, part, missing, title}. The square was coloured over [-limit,
 * limit]; part says which part of that range it holds: "both" (signed values: blue, white, red),
 * "negative" (blue to white: -limit to 0) or "positive" (white to red: 0 to limit). `missing`,
 * if given, names what the grey of the colour map's NaN stands for ("masked", "no row");
 * `title` what the colours measure ("score", "weight").
 *
 * @param {HTMLElement} bar
 */
export function colourBar(bar) {
  bar.classList.add("colour-bar");
  bar.setAttribute("role", "img");
  let strip = bar.querySelector("canvas");
  if (!strip) {
    strip = Object.assign(document.createElement("canvas"), { className: "colour-bar-strip", width: SIZE, height: 1 });
    bar.append(strip);
  }
  let labels = bar.querySelector(".colour-bar-labels");
  if (!labels) {
    labels = Object.assign(document.createElement("div"), { className: "colour-bar-labels" });
    bar.append(labels);
  }
  labels.setAttribute("aria-hidden", "true");
  let shown = "";

  return function show({ limit = 1, part = "both", missing = "", title = "" } = {}) {
    const key = `${limit}|${part}|${missing}|${title}`;
    if (key === shown) return; // a drag repaints the square, not its scale
    shown = key;
    const [first, last] = { both: [0, SIZE], negative: [0, SIZE / 2], positive: [SIZE / 2, SIZE] }[part];
    paintPixels(strip, { width: last - first, height: 1, rgba: LEGEND.rgba.subarray(first * 4, last * 4) });
    const ends = { both: [-limit, 0, limit], negative: [-limit, 0], positive: [0, limit] }[part];
    labels.replaceChildren(
      ...ends.map((value) => Object.assign(document.createElement("span"), { textContent: signed(roundSignificant(value, 4)) })),
    );
    /** @type {HTMLElement | null} */
    let grey = bar.querySelector(".colour-bar-missing");
    if (missing && !grey) {
      grey = Object.assign(document.createElement("span"), { className: "colour-bar-missing" });
      bar.append(grey);
    }
    if (grey) {
      grey.hidden = !missing;
      grey.textContent = missing;
      grey.setAttribute("aria-hidden", "true");
    }
    Object.assign(bar.dataset, { low: String(ends[0]), high: String(ends[ends.length - 1]) });
    const [low, zero, high] = [signed(-limit), "0", signed(limit)];
    const colours = {
      // Translators: a colour scale's colours and the values they stand for, such as "blue −1, white 0, red +1".
      both: () => t("blue {low}, white {zero}, red {high}", { low, zero, high }),
      negative: () => t("blue {low}, white {zero}", { low, zero }),
      positive: () => t("white {zero}, red {high}", { zero, high }),
    }[part]();
    // Translators: {title} says what the colours measure, such as "weights"; {colours} is the scale, such as "blue −1, white 0, red +1".
    const scale = title ? t("Colour scale of the {title}: {colours}", { title, colours }) : t("Colour scale: {colours}", { colours });
    // Translators: {missing} says what grey stands for, such as "masked".
    bar.setAttribute("aria-label", missing ? t("{scale}; grey: {missing}", { scale, missing }) : scale);
  };
}

/** A colour bar of its own, right after `node` (a matrix's plot); returns its show(). */
export function colourBarUnder(node) {
  const bar = document.createElement("div");
  node.after(bar);
  return colourBar(bar);
}

/** A number as a scale's label: a real minus sign, and a plus sign on the positive end. */
function signed(value) {
  if (value === 0) return "0";
  const text = formatNumber(Math.abs(value));
  return value < 0 ? `−${text}` : `+${text}`;
}
