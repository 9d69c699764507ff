/**
 * Ways of putting translated messages together (app/i18n.js translates each one): sentences one
 * after another, a list of names, and a message that holds elements (a <var>, an option's own
 * words). Each joint is itself a message, so a language that writes it differently (Chinese
 * lists with 、 and puts no space between sentences) says so in its catalog. With no messages
 * loaded, each gives the English as it was written before.
 */
import { t } from "./i18n.js";

/** Sentences (or phrases that end one) one after another; empty ones are left out. */
export function sentences(...texts) {
  const given = texts.filter(Boolean);
  if (given.length === 0) return "";
  return given.reduce((first, next) =>
    // Translators: two sentences one after the other. Chinese writes them without the space.
    t("{first} {next}", { first, next }),
  );
}

/** Items as a reader lists them: "A", "A and B", "A, B and C". */
export function andList(items) {
  const texts = items.map(String);
  if (texts.length < 2) return texts.join("");
  // Translators: the start of a list of names (or numbers) and one more name.
  const list = texts.slice(0, -1).reduce((list, item) => t("{list}, {item}", { list, item }));
  // Translators: the end of a list of names (or numbers): "A, B and C".
  return t("{list} and {last}", { list, last: texts[texts.length - 1] });
}

/**
 * A translated message's text as nodes: each `{name}` of `values` is replaced by that value, a
 * string, a Node or an array of them; the rest stays text. `text` is the message as t() gives it
 * without values, its placeholders in place.
 *
 * @param {string} text
 * @param {Record<string, string | Node | (string | Node)[]>} values
 * @returns {(string | Node)[]}
 */
export function withNodes(text, values) {
  /** @type {(string | Node)[]} */
  const parts = [];
  let from = 0;
  for (const match of text.matchAll(/\{(\w+)\}/g)) {
    if (!(match[1] in values)) continue;
    if (match.index > from) parts.push(text.slice(from, match.index));
    const value = values[match[1]];
    parts.push(...(Array.isArray(value) ? value : [value]));
    from = match.index + match[0].length;
  }
  if (from < text.length) parts.push(text.slice(from));
  return parts;
}
