/**
 * Predict, then run: a question asked before an experiment ("Which scheme do you expect to keep
 * the most right answers at 4L?"), as a radio group, and the answer, the section's "what it
 * gives" text, hidden until a run has finished or the learner asks for it without running. Then
 * a verdict says whether the guess matches what the run gave, read from the run's own results,
 * never from a stored answer: without a run it only says that one would check it.
 *
 * The answer stays in the HTML, for print and for a page without scripts: it is hidden here, at
 * wiring time, and static/lab.css shows it in print. The group's radios are not a setting of the
 * demo: shared links leave them out (app/controls/share.js).
 */
import { t } from "../i18n.js";
import { andList } from "../words.js";

/**
 * What a finished run gave: a share of right answers for each option it measured.
 *
 * @typedef {object} Outcome
 * @property {readonly string[]} options the options' values, as the radios have them
 * @property {ArrayLike<number>} scores each option's share of right answers, 0 to 1 (NaN: not measured)
 */

/**
 * The options with the highest score, in the outcome's order: several when they tie exactly;
 * none when nothing was measured.
 *
 * @param {Outcome} outcome
 * @returns {string[]}
 */
export function leaders({ options, scores }) {
  const measured = options.map((_, k) => scores[k]).filter(Number.isFinite);
  if (measured.length === 0) return [];
  const top = Math.max(...measured);
  return options.filter((_, k) => scores[k] === top);
}

/** A share as a percentage with one decimal: 0.7969 is "79.7%". */
export function percent(share) {
  return `${(100 * share).toFixed(1)}%`;
}

/**
 * The verdict: the learner's guess against what a run gave, or, without a run, what would check it.
 *
 * @param {string | null} predicted the chosen option's value; null when none was chosen
 * @param {Outcome | null} outcome the finished run's results; null when the answer was asked for without a run
 * @param {object} wording
 * @param {(value: string) => string} wording.nameOf an option's name as the page shows it
 * @param {string} wording.where where the scores were measured, as the question says it ("at 4L"),
 *   in the page's language: a phrase put into the verdict's sentences
 * @param {string} wording.run what running is called ("run the experiment"), likewise
 * @returns {{text: string, match: "yes" | "no" | "unknown"}}
 */
export function verdict(predicted, outcome, { nameOf, where, run }) {
  const guess = predicted === null ? null : nameOf(predicted);
  if (outcome === null) {
    return {
      text: guess === null
        ? // Translators: {run} says what running is, such as "run the experiment".
          t("You made no prediction. The answer is below; {run} to see it happen.", { run })
        : // Translators: {guess} is the option the learner chose; {run} says what running is, such as "run the experiment".
          t("You expected {guess}. Compare that with the answer below, or {run} to check it.", { guess, run }),
      match: "unknown",
    };
  }
  const best = leaders(outcome);
  // Translators: {where} is where the scores were measured, such as "at 4L".
  if (best.length === 0) return { text: t("This run measured nothing {where}.", { where }), match: "unknown" };
  const score = (value) => outcome.scores[outcome.options.indexOf(value)];
  const most = best.length === 1
    ? // Translators: a clause of a longer sentence; {where} is where the scores were measured, such as "at 4L".
      t("{name} kept the most right answers {where}, {percent}", { name: nameOf(best[0]), where, percent: percent(score(best[0])) })
    : // Translators: a clause of a longer sentence; {names} is a list such as "RoPE and ALiBi".
      t("{names} tied for the most right answers {where}, {percent}", {
        names: andList(best.map(nameOf)),
        where,
        percent: percent(score(best[0])),
      });
  // Translators: {most} says which option kept the most right answers, such as "ALiBi kept the most right answers at 4L, 79.7%".
  if (guess === null) return { text: t("You made no prediction. In this run {most}.", { most }), match: "unknown" };
  // Translators: {guess} is the option the learner chose; {most} says which option won, such as "ALiBi kept the most right answers at 4L, 79.7%".
  if (best.includes(predicted)) return { text: t("You expected {guess}, and so did this run: {most}.", { guess, most }), match: "yes" };
  if (!Number.isFinite(score(predicted))) {
    return { text: t("You expected {guess}, but in this run {most}.", { guess, most }), match: "no" };
  }
  return {
    // Translators: {percent} is the share of right answers the learner's choice got, such as "63.0%".
    text: t("You expected {guess}, but in this run {most}; {guess} got {percent}.", { guess, most, percent: percent(score(predicted)) }),
    match: "no",
  };
}

/**
 * Wire a prediction: `group` is the question, a <fieldset class="prediction"> of radios with a
 * "Show me the answer" button (.prediction-show); `answer` is the hidden part, a
 * .prediction-answer whose .prediction-verdict gets the verdict. Hides the answer now.
 *
 * @param {HTMLFieldSetElement} group
 * @param {HTMLElement} answer
 * @param {{where: string, run: string}} wording see verdict()
 * @returns {{settle(outcome: Outcome): void}} settle: a run has finished with `outcome`, so the
 *   answer is shown with its verdict
 */
export function askForPrediction(group, answer, { where, run }) {
  const radios = /** @type {HTMLInputElement[]} */ ([...group.querySelectorAll('input[type="radio"]')]);
  const show = /** @type {HTMLButtonElement} */ (group.querySelector(".prediction-show"));
  const line = /** @type {HTMLElement} */ (answer.querySelector(".prediction-verdict"));
  const nameOf = (value) => radios.find((radio) => radio.value === value)?.labels[0]?.textContent.trim() ?? value;
  /** The finished run's outcome, once there is one; null until then. */
  let outcome = null;
  line.tabIndex = -1;
  answer.hidden = true;
  answer.dataset.prediction = "hidden";

  function reveal() {
    const predicted = radios.find((radio) => radio.checked)?.value ?? null;
    const { text, match } = verdict(predicted, outcome, { nameOf, where, run });
    answer.hidden = false;
    show.hidden = true;
    line.textContent = text;
    line.dataset.match = match;
    answer.dataset.prediction = outcome === null ? "shown" : "settled";
  }

  show.addEventListener("click", () => {
    reveal();
    line.focus(); // the button is gone: the keyboard goes on from the answer
  });
  // A guess changed once the answer shows: the verdict follows it, rather than go stale.
  for (const radio of radios) radio.addEventListener("change", () => answer.hidden || reveal());

  return {
    settle(result) {
      outcome = result;
      reveal();
    },
  };
}
