// The prediction before an experiment (app/controls/prediction.js): which options a run ranks
// first, and the verdict the learner reads, in every case (matched, missed, tied, no guess, no run).
import assert from "node:assert/strict";
import { test } from "node:test";

import { leaders, percent, verdict } from "../../app/controls/prediction.js";

const names = { none: "none (no mask)", rope: "RoPE", alibi: "ALiBi", learned: "learned" };
const wording = { nameOf: (value) => names[value], where: "at 4L", run: "run the experiment" };
const run = { options: ["none", "learned", "rope", "alibi"], scores: [0.21, 0.33, 0.63, 0.7972] };

test("leaders are the options with the highest score, every one of them on a tie", () => {
  assert.deepEqual(leaders(run), ["alibi"]);
  assert.deepEqual(leaders({ options: ["a", "b", "c"], scores: [0.5, 0.9, 0.9] }), ["b", "c"]);
  // NaN is "not measured": it neither leads nor hides the others; nothing measured, no leader.
  assert.deepEqual(leaders({ options: ["a", "b"], scores: [NaN, 0.4] }), ["b"]);
  assert.deepEqual(leaders({ options: ["a", "b"], scores: Float64Array.of(NaN, NaN) }), []);
});

test("a share reads as a percentage with one decimal", () => {
  assert.equal(percent(0.7972), "79.7%");
  assert.equal(percent(1), "100.0%");
  assert.equal(percent(0.125), "12.5%");
});

test("the verdict compares the guess with what the run gave", () => {
  assert.deepEqual(verdict("alibi", run, wording), {
    text: "You expected ALiBi, and so did this run: ALiBi kept the most right answers at 4L, 79.7%.",
    match: "yes",
  });
  assert.deepEqual(verdict("rope", run, wording), {
    text: "You expected RoPE, but in this run ALiBi kept the most right answers at 4L, 79.7%; RoPE got 63.0%.",
    match: "no",
  });
  assert.deepEqual(verdict(null, run, wording), {
    text: "You made no prediction. In this run ALiBi kept the most right answers at 4L, 79.7%.",
    match: "unknown",
  });
});

test("a tie names every leader, and a guess among them matches", () => {
  const tied = { options: ["none", "rope", "alibi"], scores: [0.2, 0.8, 0.8] };
  assert.deepEqual(verdict("rope", tied, wording), {
    text: "You expected RoPE, and so did this run: RoPE and ALiBi tied for the most right answers at 4L, 80.0%.",
    match: "yes",
  });
  assert.equal(verdict("none", tied, wording).match, "no");
});

test("without a run the verdict claims no answer: it says what would check the guess", () => {
  assert.deepEqual(verdict("rope", null, wording), {
    text: "You expected RoPE. Compare that with the answer below, or run the experiment to check it.",
    match: "unknown",
  });
  assert.deepEqual(verdict(null, null, wording), {
    text: "You made no prediction. The answer is below; run the experiment to see it happen.",
    match: "unknown",
  });
  assert.equal(verdict("rope", { options: ["rope"], scores: [NaN] }, wording).match, "unknown");
});
