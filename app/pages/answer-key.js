/**
 * answer-key.html (tools/teacher_kit.py): the page lists every question with its interaction id
 * and each option's code, but holds no key. "Show the answers" reads the keys as a quiz does
 * after Submit (app/quiz/keys.js's loadKeys(), by interaction id) and fills in, under each
 * question, its answer, why it is right and why each wrong option is wrong. The explanations
 * are the lesson's markup, rebuilt from harmless elements (richText). Once shown, the page
 * prints with them.
 */
import { loadKeys, richText } from "../quiz/keys.js";
import { t } from "../i18n.js";

/** @typedef {import("../quiz/grading.js").QuizKey} QuizKey */

const button = /** @type {HTMLButtonElement | null} */ (document.querySelector(".key-show-button"));
const status = document.querySelector(".key-status");

button?.addEventListener("click", async () => {
  button.disabled = true;
  status.textContent = t("Reading the answers…");
  try {
    const keys = await loadKeys();
    const missing = showAnswers(document, keys);
    status.textContent = missing
      ? t("The answers are shown below each question; {count} question(s) have no key on this site.", { count: missing })
      : t("The answers are shown below each question.");
  } catch (error) {
    button.disabled = false;
    status.textContent = t("The answers could not be loaded ({error}). Try again.", { error: error?.message ?? String(error) });
  }
});

/**
 * Fill in each question's answer from `keys`; how many questions had none.
 * @param {Document} doc
 * @param {Record<string, QuizKey>} keys
 */
export function showAnswers(doc, keys) {
  let missing = 0;
  // a numeric template's variants: each row's answer; the hint, the variants' own, once
  for (const item of /** @type {NodeListOf<HTMLElement>} */ (doc.querySelectorAll(".key-item[data-template]"))) {
    let hint = "";
    for (const row of /** @type {NodeListOf<HTMLElement>} */ (item.querySelectorAll("tr[data-interaction]"))) {
      const key = keys[row.dataset.interaction ?? ""];
      const cell = /** @type {HTMLElement} */ (row.querySelector(".key-variant-answer"));
      if (!key) {
        missing += 1;
        cell.textContent = t("No key for this interaction id on this site.");
        continue;
      }
      cell.textContent = t("{answer}, give or take {tolerance}", { answer: key.answer, tolerance: key.tolerance });
      hint ||= key.why?.["*"] ?? "";
    }
    const why = /** @type {HTMLElement | null} */ (item.querySelector(".key-why"));
    if (why && hint) {
      const lead = doc.createElement("strong");
      lead.textContent = t("A wrong value usually means:");
      why.replaceChildren(lead, " ", ...richText(hint, doc));
      why.hidden = false;
    }
  }
  for (const item of /** @type {NodeListOf<HTMLElement>} */ (doc.querySelectorAll(".key-item[data-interaction]"))) {
    const key = keys[item.dataset.interaction ?? ""];
    const reveal = /** @type {HTMLElement} */ (item.querySelector(".key-reveal"));
    const answer = reveal.querySelector(".key-answer");
    if (!key) {
      missing += 1;
      answer.textContent = t("No key for this interaction id on this site.");
      reveal.hidden = false;
      continue;
    }
    const label = doc.createElement("strong");
    label.textContent = t("Answer:");
    if (key.kind === "numeric") {
      answer.replaceChildren(label, " ", t("{answer}, give or take {tolerance}", { answer: key.answer, tolerance: key.tolerance }));
      const why = /** @type {HTMLElement | null} */ (item.querySelector(".key-why"));
      if (why && key.why?.["*"]) {
        const lead = doc.createElement("strong");
        lead.textContent = t("A wrong value usually means:");
        why.replaceChildren(lead, " ", ...richText(key.why["*"], doc));
        why.hidden = false;
      }
    } else {
      for (const option of /** @type {NodeListOf<HTMLElement>} */ (item.querySelectorAll(".key-codes li"))) {
        const right = option.dataset.value === key.correct;
        const mark = /** @type {HTMLElement} */ (option.querySelector(".key-mark"));
        mark.textContent = right ? t("(the answer)") : "";
        mark.hidden = !right;
        option.dataset.right = String(right);
        const why = /** @type {HTMLElement} */ (option.querySelector(".key-why"));
        const text = key.why?.[option.dataset.value ?? ""];
        if (!right && text) {
          why.replaceChildren(...richText(text, doc));
          why.hidden = false;
        }
      }
      const code = item.querySelector(`.key-codes li[data-value="${CSS.escape(key.correct ?? "")}"]`);
      answer.replaceChildren(label, " ", t("code {code}", { code: /** @type {HTMLElement | null} */ (code)?.dataset.code ?? key.correct ?? "" }));
    }
    reveal.querySelector(".key-explain").replaceChildren(...richText(key.explain ?? "", doc));
    reveal.hidden = false;
  }
  return missing;
}
