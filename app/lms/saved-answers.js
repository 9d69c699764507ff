/**
 * A test's answers as one short string, and back: what an LMS keeps between visits
 * (cmi.suspend_data). Each question is named by its inputs' `name` and its answer by the chosen
 * radio's `value` (never its position: options are shuffled per attempt) or the text typed;
 * with them, how many attempts were submitted (`a`), whether this one was (`s`) and the seed
 * that drew the attempt's versions of a graded test's items (`r`, app/quiz/versions.js):
 * "v=1&a=1&s=1&r=3405691582&quiz-1=1&quiz-4.b=0". The format follows whatever questions the
 * page holds. The seed comes back before the answers, so that they land in the versions they
 * were given to.
 */

import { quizController } from "../quiz/engine.js";
import { t } from "../i18n.js";

const VERSION = "1";
/** The fields that are not answers. */
const OWN = new Set(["v", "a", "s", "r"]);

/**
 * The answers given in `form` now, as text, with the attempts used and whether this one is
 * submitted.
 * @param {HTMLFormElement} form
 * @param {{used?: number, submitted?: boolean}} [attempts]
 */
export function savedAnswers(form, { used = 0, submitted = false } = {}) {
  const saved = new URLSearchParams({ v: VERSION });
  if (used) saved.set("a", String(used));
  if (submitted) saved.set("s", "1");
  const seed = quizController(form)?.state().seed;
  if (seed !== undefined) saved.set("r", String(seed));
  for (const input of form.querySelectorAll(".quiz-question input")) {
    const field = /** @type {HTMLInputElement} */ (input);
    if (field.type === "radio" ? field.checked : field.type === "text" && field.value.trim()) {
      saved.append(field.name, field.value.trim());
    }
  }
  return saved.toString();
}

/**
 * Give in `form` the answers that `text` holds, each as if chosen or typed (a change event), so
 * the quiz takes them like the learner's own. Returns how many were restored, how many named a
 * question or an option that this page does not have (a quiz changed since), the attempts used
 * and whether the attempt was submitted; throws on text that is not saved answers at all.
 * @param {HTMLFormElement} form
 * @param {string} text
 */
export function restoreAnswers(form, text) {
  const saved = new URLSearchParams(text);
  // Translators: said inside "Your saved answers could not be read (...)".
  if (saved.get("v") !== VERSION) throw new Error(t("the saved answers are not in a form this lesson reads"));
  let restored = 0;
  let unknown = 0;
  const used = Number(saved.get("a") ?? 0);
  const attempts = Number.isInteger(used) && used >= 0 ? used : 0;
  const submitted = saved.get("s") === "1";
  const seed = Number(saved.get("r"));
  if (saved.has("r") && Number.isInteger(seed) && seed >= 0) {
    quizController(form)?.redraw(seed, submitted ? Math.max(1, attempts) : attempts + 1);
  }
  // only the questions shown: an answer to a version this attempt does not show is not restored
  const inputs = /** @type {HTMLInputElement[]} */ ([...form.querySelectorAll(".quiz-question:not([disabled]) input")]);
  for (const [name, value] of saved) {
    if (OWN.has(name)) continue;
    const input = inputs.find((field) => field.name === name && (field.type === "text" || field.value === value));
    if (!input) {
      unknown += 1;
      continue;
    }
    if (input.type === "text") input.value = value;
    else input.checked = true;
    input.dispatchEvent(new Event("change", { bubbles: true }));
    restored += 1;
  }
  return { restored, unknown, used: attempts, submitted };
}
