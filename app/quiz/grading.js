/**
 * Grading a quiz's answers, as pure functions of plain data (tests/js/quiz-grading.test.mjs runs
 * them under Node): a typed number read the way people type it, an answer judged against its
 * key (app/quiz-keys.json, written by tools/lesson.py), options shuffled for a new attempt, a
 * test's score, and each answer as the record SCORM 1.2 keeps per question
 * (cmi.interactions.n, written by app/lms/scorm.js's `interactionElements`) and the host page's
 * "pelab:quiz" message carries.
 */
import { t } from "../i18n.js";

/**
 * A question's key, as tools/lesson.py writes it into quiz-keys.json.
 * @typedef {{
 *   kind: "choice" | "truefalse" | "numeric",
 *   correct?: string,
 *   answer?: number,
 *   tolerance?: number,
 *   why: Record<string, string>,
 *   explain: string,
 * }} QuizKey
 */

/** @typedef {import("../page-protocol.js").QuizInteraction} QuizInteraction */

/** SCORM 1.2's interaction type for each kind of question. */
export const INTERACTION_TYPE = Object.freeze({ choice: "choice", truefalse: "true-false", numeric: "numeric" });

/**
 * A number as a learner types it: "0.54", "0,54" (a decimal comma), " -1.5 ", "−2" (a minus
 * sign), "1e-3". Returns {value} or {problem}, a sentence saying what is wrong.
 * @param {string} text
 * @returns {{value: number, problem?: undefined} | {problem: string, value?: undefined}}
 */
export function readNumber(text) {
  let typed = String(text).trim().replace(/\u2212/g, "-");
  if (typed === "") return { problem: t("Type a number first.") };
  // one comma and no point: a decimal comma, as much of the world writes it
  if (/^[^,.]*,[^,.]*$/.test(typed)) typed = typed.replace(",", ".");
  if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(typed)) {
    return { problem: t("“{text}” is not a number: type digits, such as 0.54 (0,54 works too).", { text: String(text).trim() }) };
  }
  const value = Number(typed);
  return Number.isFinite(value) ? { value } : { problem: t("“{text}” is too large a number.", { text: String(text).trim() }) };
}

/**
 * Whether `response` (an option's value, or the text typed) answers a question whose key is
 * `key`. A number counts within the key's tolerance, both ends included; the tiny slack on top
 * only absorbs binary rounding (0.54 − 0.01 is 0.53000000000000003), never a real difference.
 * @param {QuizKey} key
 * @param {string} response
 * @returns {{result: "correct" | "wrong" | "unanswered"} | {result: "unreadable", problem: string}}
 */
export function judge(key, response) {
  if (response === "" || response == null) return { result: "unanswered" };
  if (key.kind !== "numeric") return { result: response === key.correct ? "correct" : "wrong" };
  const read = readNumber(response);
  if (read.problem) return { result: "unreadable", problem: read.problem };
  const slack = 1e-9 * Math.max(1, Math.abs(key.answer));
  return { result: Math.abs(read.value - key.answer) <= key.tolerance + slack ? "correct" : "wrong" };
}

/**
 * A copy of `items` in a random order (Fisher–Yates): each order equally likely when `random`
 * is uniform on [0, 1), as Math.random is.
 * @template T
 * @param {T[]} items
 * @param {() => number} [random]
 * @returns {T[]}
 */
export function shuffled(items, random = Math.random) {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

/**
 * A test's score: how many answered, how many right, of how many, and the percent (rounded).
 * @param {string[]} results one per question: "correct", "wrong", "unanswered"
 */
export function score(results) {
  const total = results.length;
  const answered = results.filter((r) => r !== "unanswered").length;
  const correct = results.filter((r) => r === "correct").length;
  return { answered, correct, total, percent: total ? Math.round((100 * correct) / total) : 0 };
}

/** An identifier SCORM 1.2 takes (CMIIdentifier: no spaces, at most 255 characters). */
export function scormIdentifier(text) {
  return String(text).replace(/[^\w.:-]+/g, "-").slice(0, 255) || "question";
}

/**
 * One question's answer as SCORM 1.2 records it. A true/false question's options are values
 * like any other in the page; SCORM wants "t" or "f", so `trueValue` names the option that says
 * "True". A number is sent as read (a decimal point, whatever was typed).
 * @param {{name: string, objective?: string, trueValue?: string}} question
 * @param {QuizKey} key
 * @param {string} response "" when unanswered
 * @returns {QuizInteraction}
 */
export function interaction(question, key, response, result = judge(key, response).result) {
  const truth = (value) => (value === question.trueValue ? "t" : "f");
  let given = response ?? "";
  let correct = key.correct ?? "";
  if (key.kind === "truefalse") {
    given = given === "" ? "" : truth(given);
    correct = truth(key.correct);
  } else if (key.kind === "numeric") {
    const read = readNumber(given);
    given = read.problem ? given.trim() : String(read.value);
    correct = String(key.answer);
  }
  return {
    id: scormIdentifier(question.name),
    type: INTERACTION_TYPE[key.kind],
    response: given,
    result: result === "correct" ? "correct" : "wrong",
    correct,
    objective: scormIdentifier(question.objective || question.name),
  };
}
