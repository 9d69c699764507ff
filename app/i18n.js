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
  const text = loaded()[english] || english;
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
