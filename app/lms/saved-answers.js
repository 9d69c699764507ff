/**
 * A quiz's chosen answers as one short string, and back: what an LMS keeps between visits
 * (cmi.suspend_data). Each question is named by its radios' `name` and its answer by the chosen
 * radio's `value`, so the format follows whatever questions the page holds: "v=1&quiz-1=1&quiz-4=2".
 */

const VERSION = "1";

/** The answers chosen in `form` now, as text. */
export function savedAnswers(form) {
  const saved = new URLSearchParams({ v: VERSION });
  for (const input of form.querySelectorAll(".quiz-question input[type=radio]:checked")) {
    saved.append(input.name, input.value);
  }
  return saved.toString();
}

/**
 * Choose in `form` the answers that `text` holds, each as if clicked (a change event), so the
 * quiz marks and explains them. Returns how many were restored, and how many named a question
 * or an option that this page does not have (a quiz changed since); throws on text that is not
 * saved answers at all.
 */
export function restoreAnswers(form, text) {
  const saved = new URLSearchParams(text);
  if (saved.get("v") !== VERSION) throw new Error("the saved answers are not in a form this lesson reads");
  let restored = 0;
  let unknown = 0;
  for (const [name, value] of saved) {
    if (name === "v") continue;
    const input = [...form.querySelectorAll(".quiz-question input[type=radio]")].find(
      (radio) => radio.name === name && radio.value === value,
    );
    if (!input) {
      unknown += 1;
      continue;
    }
    input.checked = true;
    input.dispatchEvent(new Event("change", { bubbles: true }));
    restored += 1;
  }
  return { restored, unknown };
}
