/**
 * The answers a file holds, one record per learner, attempt and question, from either of the two
 * formats the class report reads (docs/class-report.md describes both):
 *
 * - the project's own CSV: a header naming the columns learner, attempt, interaction_id,
 *   response and result (in any order; other columns are left alone), then one row per answer;
 * - Moodle's SCORM "Interactions report", downloaded as text. Its columns are those of
 *   mod/scorm/report/interactions/classes/report.php in Moodle's source (read at commit
 *   04975560d10b, Moodle 4.1 and later: the plugin's version.php says 2022112800, requiring
 *   Moodle 2022111800, 4.1): "Name", the site's identity fields (say "Email address"),
 *   "Attempt", "Started on", "Last accessed on", "Score", a column per SCO (its score), then for
 *   each interaction n from 0 "Question n" (cmi.interactions.n.id), "Response n"
 *   (.student_response), "Right answer n" and "Result n" (.result): the headers are the lang
 *   strings questionx, responsex, rightanswerx and resultx of
 *   mod/scorm/report/interactions/lang/en/scormreport_interactions.php, and Question, Response
 *   and Result are written only when the teacher ticks them (Summary of question, of responses,
 *   of result). A row is one attempt of one learner; a learner without an attempt has "-" in
 *   Attempt. Its text download is tab-separated, and each value escaped as HTML (Moodle's s()):
 *   `&amp;` is read back as `&`.
 *
 * A pure function of the rows (tests/js/report.test.mjs): whatever does not fit is a
 * ReportProblem naming the row and the column.
 */
import { t } from "../i18n.js";
import { problemAt } from "./table.js";

/**
 * One answer: who, which attempt (from 1), the interaction id (NAME or NAME.VERSION), what was
 * answered (an option's code, "t"/"f", a number; "" when unanswered) and whether it was right;
 * and the row it came from.
 * @typedef {{learner: string, attempt: number, id: string, response: string, result: "correct" | "wrong", row: number}} AnswerRecord
 */

/** The project's CSV's columns, in the order its documentation lists them. */
export const PLAIN_COLUMNS = Object.freeze(["learner", "attempt", "interaction_id", "response", "result"]);
/** Moodle's headers (English), per report.php and its lang strings. */
export const MOODLE = Object.freeze({ name: "Name", attempt: "Attempt", question: "Question", response: "Response", result: "Result" });
/** The results the report counts: what this course's SCORM packages send. */
const RESULTS = ["correct", "wrong"];

/** Moodle's s() undone: the five characters htmlspecialchars escapes. */
function unescaped(text) {
  return text.replace(/&(amp|lt|gt|quot|#0?39);/g, (_, name) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#039": "'", "#39": "'" })[name]);
}

/** An attempt's number, a whole number from 1. */
function attemptOf(text, row, column) {
  const value = Number(text.trim());
  if (text.trim() === "" || !Number.isInteger(value) || value < 1) {
    throw problemAt(t("“{text}” is not an attempt's number (1, 2, …).", { text }), row, column);
  }
  return value;
}

/** A result the report counts: "correct" or "wrong". */
function resultOf(text, row, column) {
  const value = text.trim().toLowerCase();
  if (!RESULTS.includes(value)) {
    throw problemAt(t("“{text}” is not a result the report counts: correct or wrong.", { text }), row, column);
  }
  return /** @type {"correct" | "wrong"} */ (value);
}

/** Row `index` (from 0) must have as many fields as the header. */
function checkWidth(fields, header, index) {
  if (fields.length !== header.length) {
    throw problemAt(
      t("it has {count} fields, but the header (row 1) has {expected}: is a field with a comma or a tab not in quotes?", { count: fields.length, expected: header.length }),
      index + 1,
    );
  }
}

/**
 * The answers of a parsed file (table.js's rows), and which format it was in.
 * @param {string[][]} rows
 * @returns {{format: "plain" | "moodle", records: AnswerRecord[]}}
 */
export function readRecords(rows) {
  if (!rows.length) throw problemAt(t("The file is empty."));
  const header = rows[0].map((name) => name.trim());
  const lower = header.map((name) => name.toLowerCase());
  if (lower.includes("interaction_id") || lower.includes("learner")) return { format: "plain", records: plainRecords(rows, lower) };
  if (header.includes(MOODLE.name) && header.includes(MOODLE.attempt)) return { format: "moodle", records: moodleRecords(rows, header) };
  throw problemAt(
    t("this is not a file the report reads. Its header names neither the columns learner, attempt, interaction_id, response and result (the report's own CSV) nor Moodle's Name, Attempt, Question 0, Response 0 and Result 0 (its SCORM Interactions report, downloaded as text, in English)."),
    1,
  );
}

/** @param {string[][]} rows @param {string[]} header lower-cased */
function plainRecords(rows, header) {
  const at = Object.fromEntries(PLAIN_COLUMNS.map((name) => [name, header.indexOf(name)]));
  const missing = PLAIN_COLUMNS.filter((name) => at[name] < 0);
  if (missing.length) {
    throw problemAt(t("the header lacks the column(s) {names}: the report's CSV has learner, attempt, interaction_id, response and result.", { names: missing.join(", ") }), 1);
  }
  return rows.slice(1).map((fields, i) => {
    const row = i + 2;
    checkWidth(fields, header, i + 1);
    const cell = (name) => fields[at[name]];
    const learner = cell("learner").trim();
    if (!learner) throw problemAt(t("the learner is missing."), row, "learner");
    const id = cell("interaction_id").trim();
    if (!id) throw problemAt(t("the interaction id is missing."), row, "interaction_id");
    return {
      learner,
      attempt: attemptOf(cell("attempt"), row, "attempt"),
      id,
      response: cell("response").trim(),
      result: resultOf(cell("result"), row, "result"),
      row,
    };
  });
}

/** @param {string[][]} rows @param {string[]} header */
function moodleRecords(rows, header) {
  /** The interactions' numbers n, from the "Response n" columns. */
  const numbers = header.flatMap((name) => {
    const found = name.match(/^Response (\d+)$/);
    return found ? [Number(found[1])] : [];
  });
  if (!numbers.length) {
    throw problemAt(t("Moodle's report has no column Response 0: in its options, tick “Summary of question”, “Summary of responses” and “Summary of result”, then download it again."), 1);
  }
  const columns = numbers.map((n) => {
    const named = (word) => {
      const index = header.indexOf(`${word} ${n}`);
      if (index < 0) {
        throw problemAt(
          t("the header has “Response {n}” but no “{column}”: in the report's options, tick “Summary of question” and “Summary of result”, then download it again.", { n, column: `${word} ${n}` }),
          1,
        );
      }
      return index;
    };
    return { n, question: named(MOODLE.question), response: named(MOODLE.response), result: named(MOODLE.result) };
  });
  const nameAt = header.indexOf(MOODLE.name);
  const attemptAt = header.indexOf(MOODLE.attempt);
  /** @type {AnswerRecord[]} */
  const records = [];
  rows.slice(1).forEach((raw, i) => {
    const row = i + 2;
    checkWidth(raw, header, i + 1);
    const fields = raw.map(unescaped);
    const learner = fields[nameAt].trim();
    if (!learner) throw problemAt(t("the learner is missing."), row, MOODLE.name);
    const attemptText = fields[attemptAt].trim();
    if (attemptText === "-" || attemptText === "") return; // a learner with no attempt yet
    const attempt = attemptOf(attemptText, row, MOODLE.attempt);
    for (const column of columns) {
      const id = fields[column.question].trim();
      const response = fields[column.response].trim();
      const result = fields[column.result].trim();
      if (!id && !response && !result) continue; // fewer interactions in this attempt
      if (!id) throw problemAt(t("the interaction id is missing."), row, `${MOODLE.question} ${column.n}`);
      records.push({ learner, attempt, id, response, result: resultOf(result, row, `${MOODLE.result} ${column.n}`), row });
    }
  });
  return records;
}
