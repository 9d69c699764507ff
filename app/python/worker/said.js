/**
 * A sentence the worker says to the learner (why Python could not start), as its English with
 * `{name}` slots and their values, so that the page words it in its own language (app/i18n.js
 * `tSaid`): the worker has no catalog. tools/i18n.py extracts every `said("…")` of app/ beside
 * its `t("…")`, so the English must be a plain string literal.
 */

/**
 * @param {string} text
 * @param {Record<string, string | number>} [values]
 * @returns {{text: string, values: Record<string, string | number>}}
 */
export function said(text, values = {}) {
  return { text, values };
}

/** The sentence in English, its slots filled in: what the error's message says. */
export function english({ text, values }) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

/**
 * An error whose message is `sentence` in English, carrying the sentence itself (`said`) for
 * the page to word.
 * @param {{text: string, values: Record<string, string | number>}} sentence
 * @param {ErrorConstructor} [Kind]
 */
export function saying(sentence, Kind = Error) {
  return Object.assign(new Kind(english(sentence)), { said: sentence });
}
