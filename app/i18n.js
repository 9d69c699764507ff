/**
 * The words the JavaScript shows, in the page's language.
 *
 * Every string a module shows a reader is written `t("English text")`, or with values
 * `t("Step {step} of {steps}", { step, steps })`: build.py's extractor (tools/i18n.py, Babel's
 * JavaScript extractor) finds these calls, so the English must be a plain string literal, never
 * a template or a variable. A translated page (dist/zh/, dist/es/) carries its translations in
 * `<script type="application/json" id="pelab-messages">`; an English page carries none, and a
 * message missing from a language stays in English.
 *
 * A comment `// Translators: ...` just above a call reaches the translator with the message.
 */

import { siteLanguage } from "./site-languages.js";

/** @type {Record<string, string> | null} */
let messages = null;

function loaded() {
  if (messages) return messages;
  const doc = globalThis.document;
  const script = doc?.getElementById?.("pelab-messages");
  if (!script) {
    // the build puts the catalog before the page's scripts; until the page is parsed, a missing
    // one may still come, so nothing is remembered
    if (doc?.readyState === "loading") return {};
    return (messages = {});
  }
  try {
    messages = JSON.parse(script.textContent || "{}");
  } catch {
    messages = {}; // a broken catalog leaves the page in English, never broken
  }
  return /** @type {Record<string, string>} */ (messages);
}

/**
 * `english` in the page's language, its `{name}`s replaced by `values`.
 * @param {string} english
 * @param {Record<string, string | number>} [values]
 */
export function t(english, values) {
  return filled(loaded()[english] || english, values);
}

/**
 * A sentence worded elsewhere, `{text, values}` (its English and its values), in the page's
 * language: pelab's `said("…")` (py/pelab/exercises.py) and the worker's (app/python/worker/
 * said.js). tools/i18n.py extracts those calls as it does `t("…")`, so the catalogs hold them.
 * @param {{text: string, values?: Record<string, string | number>}} sentence
 */
export function tSaid({ text, values }) {
  return filled(loaded()[text] || text, values);
}

/** `text`'s `{name}`s replaced by `values` (in one pass: a value's own braces stay). */
function filled(text, /** @type {Record<string, string | number> | undefined} */ values) {
  if (!values) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

/** The page's site language, its folder's name: its <html lang>'s primary subtag ("zh" for
 * "zh-Hans"), "en" when it has none. */
export function pageLanguage() {
  return siteLanguage(globalThis.document?.documentElement.lang || "en");
}

/** For a test or a page that brings its own messages (the embed, say). */
export function useMessages(/** @type {Record<string, string>} */ found) {
  messages = { ...found };
}
