/**
 * An exercise's check report, worded in the page's language. pelab (py/pelab/exercises.py,
 * `Report.for_page`) sends each sentence as its English with `{name}` slots and their values,
 * never as finished text, so that the page words it from its own catalog, as it words
 * everything else: the sentences are in the catalogs because tools/i18n.py extracts pelab's
 * `said("…")` beside app/'s `t("…")`. Python's own words (an exception's message) come as
 * `raw` and stay as Python wrote them.
 */
import { t, tSaid } from "../i18n.js";

/**
 * @typedef {{text: string, values: Record<string, string>} | {raw: string}} Sentence
 * @typedef {{mark: string, what: Sentence, why: Sentence | null}} Line
 */

/** @param {Sentence} sentence */
function worded(sentence) {
  return "raw" in sentence ? sentence.raw : tSaid(sentence);
}

/**
 * The report's text (a line per check, marked ✓ or ✗, then any diagnosis and note), its first
 * sentence without the mark, and whether every check passed.
 *
 * @param {{passed: boolean, lines: Line[]}} report
 */
export function checkReport(report) {
  const lines = report.lines.map(({ mark, what, why }) => {
    // Translators: one failed check of an exercise: {what} was checked, {why} is what went wrong.
    const text = why ? t("{what}: {why}", { what: worded(what), why: worded(why) }) : worded(what);
    return mark ? `${mark} ${text}` : text;
  });
  return { passed: report.passed, summary: worded(report.lines[0].what), text: lines.join("\n") };
}
