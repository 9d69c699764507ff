/**
 * Maths in a figure's words, written as the prose writes it: "S_j", "w_i", "(R_m q)", "w′_i" and
 * "W_Q" show their one-character index as a subscript (S<sub>j</sub>), in SVG text (a <tspan>
 * shifted down) and in HTML (<sub>). The messages keep the plain "x_y" form, one string for the
 * translators to carry over; only a single letter with a single-character index is read so, so
 * "d_model" and a learner's words stay as they are.
 */
import { svg } from "./svg.js";

/** A letter (with a prime, maybe), "_", one letter or digit, and no more word after it (but a
 * transpose's ᵀ, as in "W_Kᵀ"). */
const SUBSCRIPTED = /(?<![\p{L}\p{N}_])(\p{L}[′']?)_([\p{L}\p{N}])(?!(?!ᵀ)[\p{L}\p{N}_])/gu;

/**
 * `text` in pieces: [{text, sub}], `sub` true for an index to draw as a subscript.
 *
 * @param {string} text
 * @returns {{text: string, sub: boolean}[]}
 */
export function notationParts(text) {
  const parts = [];
  let from = 0;
  for (const match of text.matchAll(SUBSCRIPTED)) {
    const at = /** @type {number} */ (match.index);
    parts.push({ text: text.slice(from, at) + match[1], sub: false }, { text: match[2], sub: true });
    from = at + match[0].length;
  }
  parts.push({ text: text.slice(from), sub: false });
  return parts.filter((part) => part.text);
}

/**
 * An SVG <text> holding `text` with its indices as subscripts; set as text, never parsed.
 *
 * @param {string} text
 * @param {Record<string, any>} [attributes]
 */
export function svgNotation(text, attributes = {}) {
  const element = svg("text", attributes);
  for (const { text: piece, sub } of notationParts(text)) {
    if (!sub) element.append(piece);
    else {
      const index = svg("tspan", { "baseline-shift": "sub", "font-size": "80%", class: "subscript" });
      index.textContent = piece;
      element.append(index);
    }
  }
  return element;
}

/**
 * HTML nodes for `text` with its indices in <sub>; text only, never parsed as markup.
 *
 * @param {string} text
 * @returns {(string | HTMLElement)[]}
 */
export function htmlNotation(text) {
  return notationParts(text).map(({ text: piece, sub }) =>
    sub ? Object.assign(document.createElement("sub"), { textContent: piece }) : piece,
  );
}
