// app/quiz/grading.js under Node: numbers read as people type them, answers judged against
// their keys (a number within its tolerance), the shuffle, a test's score, and each answer as
// SCORM 1.2's cmi.interactions records it, accepted by the real runtime scorm-again.
import assert from "node:assert/strict";
import { test } from "node:test";

import { Scorm12API } from "scorm-again/scorm12";

import { interaction, judge, readNumber, score, scormIdentifier, shuffled } from "../../app/quiz/grading.js";
import { interactionElements } from "../../app/lms/scorm.js";

const choice = { kind: "choice", correct: "2", why: { 0: "a", 1: "b" }, explain: "" };
const truefalse = { kind: "truefalse", correct: "1", why: { 0: "no" }, explain: "" };
const numeric = { kind: "numeric", answer: 0.54, tolerance: 0.01, why: { "*": "rounding" }, explain: "" };

test("readNumber takes a decimal point or comma, a minus sign, an exponent; and says what is not a number", () => {
  assert.equal(readNumber("0.54").value, 0.54);
  assert.equal(readNumber(" 0,54 ").value, 0.54);
  assert.equal(readNumber("−2").value, -2); // U+2212, as the lesson prints it
  assert.equal(readNumber(".5").value, 0.5);
  assert.equal(readNumber("1e-3").value, 0.001);
  assert.equal(readNumber("").problem, "Type a number first.");
  assert.match(readNumber("about 0.5").problem, /^“about 0.5” is not a number: type digits/);
  assert.ok(readNumber("1,000.5").problem); // a comma and a point: which is the decimal one?
  assert.ok(readNumber("1.2.3").problem);
  assert.ok(readNumber("1e999").problem); // Infinity is no answer
});

test("judge: an option by its value; a number within its tolerance, both ends included", () => {
  assert.equal(judge(choice, "2").result, "correct");
  assert.equal(judge(choice, "0").result, "wrong");
  assert.equal(judge(choice, "").result, "unanswered");
  assert.equal(judge(numeric, "0.54").result, "correct");
  assert.equal(judge(numeric, "0,55").result, "correct"); // 0.54 + 0.01: the edge counts
  assert.equal(judge(numeric, "0.53").result, "correct"); // 0.54 − 0.01 is 0.53000000000000003 in binary
  assert.equal(judge(numeric, "0.5501").result, "wrong");
  assert.equal(judge(numeric, "0.5299").result, "wrong");
  assert.deepEqual(judge(numeric, "x"), { result: "unreadable", problem: "“x” is not a number: type digits, such as 0.54 (0,54 works too)." });
  assert.equal(judge({ ...numeric, answer: 3, tolerance: 0 }, "3.0").result, "correct"); // no tolerance: exact
});

test("shuffled keeps every item once, leaves its input alone, and reaches every order", () => {
  const items = ["a", "b", "c"];
  let seed = 7;
  const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646; // Park–Miller
  const seen = new Set();
  for (let i = 0; i < 200; i++) {
    const order = shuffled(items, random);
    assert.deepEqual([...order].sort(), items);
    seen.add(order.join(""));
  }
  assert.deepEqual(items, ["a", "b", "c"]);
  assert.equal(seen.size, 6); // all 3! orders
  assert.deepEqual(shuffled(items, () => 0), ["b", "c", "a"]); // Fisher–Yates, step by step
});

test("score counts answered and right answers, and rounds the percent", () => {
  assert.deepEqual(score(["correct", "wrong", "unanswered"]), { answered: 2, correct: 1, total: 3, percent: 33 });
  assert.deepEqual(score([]), { answered: 0, correct: 0, total: 0, percent: 0 });
});

test("interaction: SCORM 1.2's types and formats, true or false as t and f, the objective by name", () => {
  assert.deepEqual(interaction({ name: "quiz-rope-1", objective: "rope-values-rotated" }, choice, "0"), {
    id: "quiz-rope-1",
    type: "choice",
    response: "0",
    result: "wrong",
    correct: "2",
    objective: "rope-values-rotated",
  });
  const tf = interaction({ name: "quiz-2", trueValue: "0" }, truefalse, "0");
  assert.deepEqual([tf.type, tf.response, tf.correct, tf.result, tf.objective], ["true-false", "t", "f", "wrong", "quiz-2"]);
  const typed = interaction({ name: "quiz-n" }, numeric, "0,545");
  assert.deepEqual([typed.type, typed.response, typed.correct, typed.result], ["numeric", "0.545", "0.54", "correct"]);
  assert.equal(interaction({ name: "quiz-n" }, numeric, "").result, "wrong"); // unanswered counts wrong
  assert.equal(scormIdentifier("a name with spaces"), "a-name-with-spaces");
});

test("every interaction element is one the SCORM 1.2 runtime accepts, numbered after those it holds", () => {
  const api = new Scorm12API({ logLevel: 5 });
  api.LMSInitialize("");
  const records = [
    interaction({ name: "quiz-1" }, choice, "2"),
    interaction({ name: "quiz-2", trueValue: "0" }, truefalse, "1"),
    interaction({ name: "quiz-3", objective: "angle-per-step" }, numeric, "0.7"),
  ];
  for (const first of [0, 3]) {
    assert.equal(api.LMSGetValue("cmi.interactions._count"), String(first));
    for (const [element, value] of interactionElements(records, first)) {
      assert.equal(api.LMSSetValue(element, value), "true", `${element}=${value}: ${api.LMSGetErrorString(api.LMSGetLastError())}`);
    }
  }
  assert.equal(api.LMSGetValue("cmi.interactions._count"), "6");
  // JSON, as an LMS stores a commit: write-only elements included
  const held = JSON.parse(JSON.stringify(api.cmi)).interactions;
  assert.deepEqual(held[2].objectives[0].id, "angle-per-step");
  assert.deepEqual(held[2].correct_responses[0].pattern, "0.54");
  assert.deepEqual([0, 1, 2].map((i) => [held[i].id, held[i].type, held[i].student_response, held[i].result]), [
    ["quiz-1", "choice", "2", "correct"],
    ["quiz-2", "true-false", "f", "correct"],
    ["quiz-3", "numeric", "0.7", "wrong"],
  ]);
});
