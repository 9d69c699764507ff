// The class report's pure modules under Node (app/report/): the CSV and Moodle's text export
// parsed (quotes, commas and line breaks inside them, a BOM, CRLF, tabs), every way a file can be
// wrong said with its row and column, and the numbers the page shows worked out from answers
// and keys. tests/browser/test_scorm.py loads files written from a real LMS run into the page.
import assert from "node:assert/strict";
import { test } from "node:test";

import { parseTable, ReportProblem } from "../../app/report/table.js";
import { PLAIN_COLUMNS, readRecords } from "../../app/report/records.js";
import { itemAndVersion, summarise, whyOf } from "../../app/report/summary.js";

/** The records of a file's text. */
const read = (text) => readRecords(parseTable(text).rows);

/** The ReportProblem reading `text` throws: its message, row and column. */
function problemOf(text) {
  try {
    read(text);
  } catch (error) {
    assert.ok(error instanceof ReportProblem, String(error));
    return { message: error.message, row: error.row, column: error.column };
  }
  assert.fail("no problem reported");
}

test("fields in quotes keep commas, quotes and line breaks; a BOM and CRLF are taken in stride", () => {
  const text = '\uFEFFa,b,c\r\n"x, y","say ""hi""","two\r\nlines"\r\n1,,3\r\n\r\n';
  assert.deepEqual(parseTable(text), {
    rows: [["a", "b", "c"], ["x, y", 'say "hi"', "two\r\nlines"], ["1", "", "3"]],
    delimiter: ",",
  });
  assert.deepEqual(parseTable("a\tb\n1\t2").rows, [["a", "b"], ["1", "2"]]); // Moodle's text export
  assert.equal(parseTable("a;b\n1;2").delimiter, ";");
  assert.deepEqual(parseTable("a,b\r1,2\r").rows, [["a", "b"], ["1", "2"]]); // old Mac line ends
  assert.deepEqual(parseTable('a,b\n"",x').rows, [["a", "b"], ["", "x"]]);
});

test("the project's CSV: one record per row, its columns in any order", () => {
  const { format, records } = read(
    "result,learner,attempt,interaction_id,response,comment\n" +
      "correct,Ada,1,quiz-heat,2,\n" +
      'wrong,"Lovelace, Ada",2,quiz-heat.b,0,"a note, with a comma"\n' +
      "WRONG,Bo,1,quiz-num.v3,,\n",
  );
  assert.equal(format, "plain");
  assert.deepEqual(records, [
    { learner: "Ada", attempt: 1, id: "quiz-heat", response: "2", result: "correct", row: 2 },
    { learner: "Lovelace, Ada", attempt: 2, id: "quiz-heat.b", response: "0", result: "wrong", row: 3 },
    { learner: "Bo", attempt: 1, id: "quiz-num.v3", response: "", result: "wrong", row: 4 },
  ]);
  assert.deepEqual(PLAIN_COLUMNS, ["learner", "attempt", "interaction_id", "response", "result"]);
});

const MOODLE_HEADER = ["Name", "Email address", "Attempt", "Started on", "Last accessed on", "Score", "Quiz",
  "Question 0", "Response 0", "Right answer 0", "Result 0", "Question 1", "Response 1", "Right answer 1", "Result 1"];
const moodle = (...rows) => [MOODLE_HEADER, ...rows].map((row) => row.join("\t")).join("\r\n") + "\r\n";

test("Moodle's Interactions report: a row per attempt, its interactions in column groups", () => {
  const { format, records } = read(
    moodle(
      ["Ada Lovelace", "ada@example.org", "1", "1 May", "1 May", "50", "50/100", "quiz-heat", "2", "2", "correct", "quiz-tf.b", "t", "f", "wrong"],
      ["Bo &amp; Co", "bo@example.org", "1", "1 May", "1 May", "100", "100/100", "quiz-heat", "2", "2", "correct", "", "", "", ""],
      ["Cy", "cy@example.org", "-", "-", "-", "-", "Not attempted", "", "", "", "", "", "", "", ""],
    ),
  );
  assert.equal(format, "moodle");
  assert.deepEqual(
    records.map((r) => [r.learner, r.attempt, r.id, r.response, r.result, r.row]),
    [
      ["Ada Lovelace", 1, "quiz-heat", "2", "correct", 2],
      ["Ada Lovelace", 1, "quiz-tf.b", "t", "wrong", 2],
      ["Bo & Co", 1, "quiz-heat", "2", "correct", 3], // Moodle escapes its values as HTML
    ],
  );
});

test("a file that cannot be read says why, with its row and column", () => {
  const cases = [
    ["", /^The file is empty\.$/, 0, 0],
    ["\uFEFF\r\n\r\n", /^The file is empty\.$/, 0, 0],
    ["PK\u0003\u0004\u0000\u0000", /not a text file/, 0, 0],
    ["name,score\nAda,3\n", /^Row 1: this is not a file the report reads/, 1, 0],
    ["learner,attempt,response,result\nAda,1,2,correct\n", /^Row 1: the header lacks the column\(s\) interaction_id/, 1, 0],
    ["learner,attempt,interaction_id,response,result\nAda,1,q,2\n", /^Row 2: it has 4 fields, but the header \(row 1\) has 5/, 2, 0],
    ["learner,attempt,interaction_id,response,result\nAda,one,q,2,correct\n", /^Row 2, column “attempt”: “one” is not an attempt's number/, 2, "attempt"],
    ["learner,attempt,interaction_id,response,result\nAda,1,q,2,correct\nBo,1,q,2,maybe\n", /^Row 3, column “result”: “maybe” is not a result the report counts: correct or wrong\.$/, 3, "result"],
    ["learner,attempt,interaction_id,response,result\n,1,q,2,correct\n", /^Row 2, column “learner”: the learner is missing\.$/, 2, "learner"],
    ["learner,attempt,interaction_id,response,result\nAda,1,,2,correct\n", /^Row 2, column “interaction_id”: the interaction id is missing/, 2, "interaction_id"],
    ['learner,attempt,interaction_id,response,result\nAda,1,q,"2" x,correct\n', /^Row 2, column 4: a quoted field ends, but “ ” follows its closing quote/, 2, 4],
    ['learner,attempt,interaction_id,response,result\nAda,1,q,"2,correct\n', /^Row 2, column 4: a quoted field opens here and is never closed/, 2, 4],
    ["Name\tAttempt\tScore\nAda\t1\t50\n", /^Row 1: Moodle's report has no column Response 0: in its options, tick/, 1, 0],
    ["Name\tAttempt\tResponse 0\tResult 0\nAda\t1\t2\tcorrect\n", /^Row 1: the header has “Response 0” but no “Question 0”/, 1, 0],
    [moodle(["Ada", "a@b", "1", "", "", "", "", "quiz-heat", "2", "2", "neutral", "", "", "", ""]), /^Row 2, column “Result 0”: “neutral” is not a result/, 2, "Result 0"],
    [moodle(["Ada", "a@b", "1", "", "", "", "", "", "2", "2", "correct", "", "", "", ""]), /^Row 2, column “Question 0”: the interaction id is missing/, 2, "Question 0"],
  ];
  for (const [text, message, row, column] of cases) {
    const found = problemOf(text);
    assert.match(found.message, message, JSON.stringify(text));
    assert.equal(found.row, row, JSON.stringify(text));
    assert.equal(found.column, column, JSON.stringify(text));
  }
});

const KEYS = {
  "quiz-heat": { kind: "choice", correct: "2", why: { 0: "Rows are positions.", 1: "Columns are dimensions." }, explain: "" },
  "quiz-heat.b": { kind: "choice", correct: "1", why: { 0: "The b version's trap.", 2: "Another." }, explain: "" },
  "quiz-tf": { kind: "truefalse", correct: "1", why: { 0: "Only queries and keys turn." }, explain: "" },
  "quiz-num": { kind: "numeric", answer: 0.5, tolerance: 0.005, why: { "*": "That is pair 0's angle." }, explain: "" },
  "quiz-num.v2": { kind: "numeric", answer: 0.2, tolerance: 0.005, why: { "*": "That is pair 0's angle." }, explain: "" },
};

test("the numbers: share right, most chosen wrong answer and its misconception, versions, scores", () => {
  const records = read(
    [
      "learner,attempt,interaction_id,response,result",
      "Ada,1,quiz-heat,0,wrong", // Ada's first attempt: replaced by her second
      "Ada,1,quiz-tf,t,wrong",
      "Ada,2,quiz-heat,2,correct",
      "Ada,2,quiz-tf,f,correct",
      "Bo,1,quiz-heat.b,0,wrong",
      "Bo,1,quiz-tf,t,wrong",
      "Bo,1,quiz-tf,f,correct", // a second submission within the attempt: the latest counts
      "Cy,1,quiz-heat.b,0,wrong",
      "Cy,1,quiz-tf,t,wrong",
      "Cy,1,quiz-num.v2,5,wrong",
      "Di,1,quiz-heat,0,wrong",
      "Di,1,quiz-num.v1,,wrong",
      "Di,1,quiz-other,1,correct",
    ].join("\n"),
  ).records;
  const summary = summarise(records, KEYS);
  const item = (name) => summary.items.find((i) => i.item === name);
  assert.deepEqual(summary.items.map((i) => i.item), ["quiz-heat", "quiz-tf", "quiz-num", "quiz-other"]);
  const heat = item("quiz-heat");
  assert.deepEqual([heat.answered, heat.right, heat.percent], [4, 1, 25]);
  // version b's option 0 was chosen twice, version a's once
  assert.deepEqual(heat.wrong, { id: "quiz-heat.b", version: "b", response: "0", count: 2, why: "The b version's trap." });
  assert.deepEqual(heat.versions, [
    { version: "a", answered: 2, right: 1, percent: 50 },
    { version: "b", answered: 2, right: 0, percent: 0 },
  ]);
  const tf = item("quiz-tf");
  assert.deepEqual([tf.answered, tf.right, tf.percent], [3, 2, 67]);
  assert.deepEqual(tf.wrong, { id: "quiz-tf", version: "a", response: "t", count: 1, why: "Only queries and keys turn." });
  const num = item("quiz-num");
  assert.deepEqual([num.answered, num.right, num.unanswered], [2, 0, 1]);
  assert.equal(num.wrong.why, "That is pair 0's angle.");
  assert.deepEqual(num.versions.map((v) => v.version), ["v1", "v2"]);
  assert.equal(item("quiz-other").known, false);
  assert.deepEqual(summary.unknown, ["quiz-num.v1", "quiz-other"]); // a variant without a key
  assert.deepEqual(
    summary.learners.map((l) => [l.learner, l.attempt, l.attempts, l.right, l.total, l.percent]),
    [
      ["Ada", 2, 2, 2, 2, 100],
      ["Bo", 1, 1, 1, 2, 50],
      ["Cy", 1, 1, 0, 3, 0],
      ["Di", 1, 1, 1, 3, 33],
    ],
  );
  assert.equal(summary.answers, 13);
});

test("ids split into item and version; a key's why found for each kind", () => {
  assert.deepEqual(itemAndVersion("quiz-heat"), ["quiz-heat", "a"]);
  assert.deepEqual(itemAndVersion("quiz-heat.b"), ["quiz-heat", "b"]);
  assert.deepEqual(itemAndVersion("quiz-num.v12"), ["quiz-num", "v12"]);
  assert.equal(whyOf(KEYS["quiz-heat"], "1"), "Columns are dimensions.");
  assert.equal(whyOf(KEYS["quiz-tf"], "t"), "Only queries and keys turn.");
  assert.equal(whyOf(KEYS["quiz-num"], "7"), "That is pair 0's angle.");
  assert.equal(whyOf(undefined, "1"), null);
  assert.equal(whyOf(KEYS["quiz-heat"], "9"), null);
});
