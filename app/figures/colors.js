/**
 * Colours for numbers shown in tables and for the colour bars: the same cool-warm map as
 * the heatmap (blue for -1, light grey-white for 0, red for +1), from pelab's own table written
 * out as colormap.js, so no colour waits for Python.
 */
import { COOL_WARM } from "./colormap.js";

/** The colour map as a 256 x 1 RGBA image, from -1 (left) to +1 (right). */
export const LEGEND = Object.freeze({ width: COOL_WARM.length / 4, height: 1, rgba: COOL_WARM });

/** CSS background and ink colours for `value` on a scale from -limit to +limit. */
export function colorFor(value, limit = 1) {
  const k = entryFor(value, limit, COOL_WARM.length / 4) * 4;
  const [red, green, blue] = COOL_WARM.subarray(k, k + 3);
  return { background: `rgb(${red} ${green} ${blue})`, ink: inkOn(red, green, blue) };
}

/**
 * The map entry pelab.colormap.to_rgba(value, -limit, limit) draws `value` with, computed the
 * same way so a table cell is the heatmap's colour for its number: round((size - 1) t) with
 * t = (value + limit) / (2 limit) clipped to [0, 1], an exact half rounding to even as numpy's
 * rint does (Math.round takes it up).
 */
export function entryFor(value, limit, size) {
  const x = Math.min(Math.max(((value + limit) / (2 * limit)) * (size - 1), 0), size - 1);
  const k = Math.round(x);
  return k - x === 0.5 && k % 2 ? k - 1 : k;
}

/**
 * Black or white, whichever contrasts more with the background (8-bit sRGB). One of the two
 * always reaches at least 4.58:1, so numbers on any colour of the map pass WCAG AA; a fixed
 * cut-off by value did not (white on the map's mid blues and reds is below 3:1).
 */
export function inkOn(red, green, blue) {
  const linear = (c) => ((c /= 255) <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  const luminance = 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue);
  return (luminance + 0.05) / 0.05 >= 1.05 / (luminance + 0.05) ? "#000" : "#fff";
}
