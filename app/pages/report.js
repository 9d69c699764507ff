/**
 * report.html, the class report (tools/teacher_kit.py): a file of a class's answers, chosen or
 * dropped on the page, is read in the browser (File.text(); nothing is uploaded), parsed
 * (app/report/table.js), read as answers (app/report/records.js: the project's CSV or Moodle's
 * Interactions report) and summed up with the keys (app/report/summary.js, the keys from
 * app/quiz/keys.js's loadKeys()). Everything from the file is shown as text; the
 * misconceptions are the keys' own markup, rebuilt from harmless elements (richText). A file
 * that cannot be read gets a message naming its row and column, and the last good report, if
 * any, is cleared.
 */
import { parseTable, ReportProblem } from "../report/table.js";
import { readRecords } from "../report/records.js";
import { summarise } from "../report/summary.js";
import { loadKeys, richText } from "../quiz/keys.js";
import { scrollableByKeyboard } from "../figures/scroll-region.js";
import { t } from "../i18n.js";

/** @typedef {import("../report/summary.js").ClassSummary} ClassSummary */

const input = /** @type {HTMLInputElement} */ (document.getElementById("report-file"));
const drop = /** @type {HTMLElement} */ (document.querySelector(".report-drop"));
const status = /** @type {HTMLElement} */ (document.querySelector(".report-status"));
const problem = /** @type {HTMLElement} */ (document.querySelector(".report-problem"));
const results = /** @type {HTMLElement[]} */ ([...document.querySelectorAll(".report-results")]);

input.addEventListener("change", () => {
  if (input.files?.[0]) open(input.files[0]);
});
drop.addEventListener("dragover", (event) => {
  event.preventDefault();
  drop.dataset.over = "true";
});
drop.addEventListener("dragleave", () => delete drop.dataset.over);
drop.addEventListener("drop", (event) => {
  event.preventDefault();
  delete drop.dataset.over;
  const file = event.dataTransfer?.files?.[0];
  if (file) open(file);
});

/** Read `file` and show its report, or say what is wrong with it. @param {File} file */
async function open(file) {
  document.documentElement.dataset.report = "reading";
  status.textContent = t("Reading {file}…", { file: file.name });
  problem.hidden = true;
  for (const section of results) section.hidden = true;
  let text;
  try {
    text = await file.text();
  } catch (error) {
    return fail(t("{file} could not be read ({error}).", { file: file.name, error: error?.message ?? String(error) }));
  }
  let read;
  try {
    read = readRecords(parseTable(text).rows);
  } catch (error) {
    if (error instanceof ReportProblem) return fail(t("{file} cannot be read. {problem}", { file: file.name, problem: error.message }));
    return fail(t("{file} could not be read ({error}).", { file: file.name, error: error?.message ?? String(error) }));
  }
  if (!read.records.length) return fail(t("{file} holds no answers: no learner has submitted the test yet, or the questions' columns are empty.", { file: file.name }));
  /** @type {Record<string, import("../quiz/grading.js").QuizKey>} */
  let keys = {};
  let keysProblem = "";
  try {
    keys = await loadKeys();
  } catch (error) {
    keysProblem = t("The questions' keys could not be loaded ({error}), so no misconception is named.", { error: error?.message ?? String(error) });
  }
  show(summarise(read.records, keys));
  const format = read.format === "moodle" ? t("Moodle’s Interactions report") : t("the report’s CSV");
  status.textContent = [
    // Translators: {format} is “Moodle’s Interactions report” or “the report’s CSV”.
    t("{file}: {answers} answers read ({format}).", { file: file.name, answers: read.records.length, format }),
    keysProblem,
  ].filter(Boolean).join(" ");
  document.documentElement.dataset.report = "shown";
}

/** Say what is wrong, in the alert box. @param {string} message */
function fail(message) {
  status.textContent = "";
  problem.textContent = message;
  problem.hidden = false;
  document.documentElement.dataset.report = "problem";
}

/** A table cell holding `content` (text, or nodes). */
function cell(content, { header = false, numeric = false } = {}) {
  const element = document.createElement(header ? "th" : "td");
  if (header) element.setAttribute("scope", "row");
  if (numeric) element.className = "report-number";
  if (typeof content === "string" || typeof content === "number") element.textContent = String(content);
  else element.append(...content);
  return element;
}

/** @param {ClassSummary} summary */
function show(summary) {
  const items = /** @type {HTMLTableSectionElement} */ (document.querySelector(".report-items tbody"));
  items.replaceChildren(
    ...summary.items.map((item) => {
      const row = document.createElement("tr");
      row.dataset.item = item.item;
      const code = document.createElement("code");
      code.textContent = item.item;
      const wrong = item.wrong
        ? // Translators: the most chosen wrong answer; {response} is its code as the LMS records it, {version} the question's version, {count} how many chose it.
          t("{response} (version {version}): {count} learner(s)", { response: item.wrong.response, version: item.wrong.version, count: item.wrong.count })
        : t("none");
      const why = item.wrong?.why ? richText(item.wrong.why) : [document.createTextNode(item.known ? "" : t("no key for this question on this site"))];
      const versions = item.versions.map((v) => t("{version}: {right} of {answered} ({percent}%)", { ...v })).join("; ");
      row.append(
        cell([code], { header: true }),
        cell(`${item.percent}%`, { numeric: true }),
        cell(item.answered, { numeric: true }),
        cell(wrong),
        cell(why),
        cell(versions),
      );
      return row;
    }),
  );
  const learners = /** @type {HTMLTableSectionElement} */ (document.querySelector(".report-learners tbody"));
  learners.replaceChildren(
    ...summary.learners.map((learner) => {
      const row = document.createElement("tr");
      const attempt = learner.attempts > 1 ? t("{attempt} (of {attempts})", { ...learner }) : String(learner.attempt);
      row.append(
        cell(learner.learner, { header: true }),
        cell(attempt, { numeric: true }),
        cell(learner.right, { numeric: true }),
        cell(learner.total, { numeric: true }),
        cell(`${learner.percent}%`, { numeric: true }),
      );
      return row;
    }),
  );
  const attempts = summary.learners.length;
  const mean = attempts ? Math.round(summary.learners.reduce((sum, l) => sum + l.percent, 0) / attempts) : 0;
  document.querySelector(".report-summary").textContent = t("{learners} learner(s), {questions} question(s); mean score {mean}%.", {
    learners: attempts,
    questions: summary.items.length,
    mean,
  });
  const unknown = /** @type {HTMLElement} */ (document.querySelector(".report-unknown"));
  unknown.textContent = summary.unknown.length
    ? t("These interaction ids have no key on this site (another course’s, or another version of this one): {ids}.", { ids: summary.unknown.join(", ") })
    : "";
  unknown.hidden = !summary.unknown.length;
  for (const section of results) section.hidden = false;
  for (const box of document.querySelectorAll(".report-results .table-scroll")) scrollableByKeyboard(box);
}
