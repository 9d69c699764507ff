// How translated messages are put together (app/words.js, app/i18n.js): in English exactly as the
// page wrote them before it was translated; in another language, as its catalog says, each joint
// a message of its own.
import assert from "node:assert/strict";
import { afterEach, test } from "node:test";

import { t, useMessages } from "../../app/i18n.js";
import { andList, sentences, withNodes } from "../../app/words.js";
import { verdict } from "../../app/controls/prediction.js";
import { readNumber } from "../../app/quiz/grading.js";

afterEach(() => useMessages({}));

test("in English: sentences with a space, lists with commas and “and”", () => {
  assert.equal(sentences("One.", "Two.", "Three."), "One. Two. Three.");
  assert.equal(sentences("One.", "", "Two."), "One. Two."); // an empty one leaves no double space
  assert.equal(sentences("", "Two."), "Two.");
  assert.equal(sentences("", ""), "");
  assert.equal(andList([]), "");
  assert.equal(andList(["a"]), "a");
  assert.equal(andList(["a", "b"]), "a and b");
  assert.equal(andList(["a", "b", "c"]), "a, b and c");
  assert.equal(andList([1, 2]), "1 and 2");
});

test("a message's placeholders become nodes, or text", () => {
  const node = { nodeType: 1, name: "var" };
  assert.deepEqual(withNodes("query {i}", { i: node }), ["query ", node]);
  assert.deepEqual(withNodes("{i} query", { i: node }), [node, " query"]);
  assert.deepEqual(withNodes("Not quite. {why} The answer is “{answer}”.", { why: "Too big.", answer: [node, "!"] }), [
    "Not quite. ",
    "Too big.",
    " The answer is “",
    node,
    "!",
    "”.",
  ]);
  assert.deepEqual(withNodes("{unknown} stays", {}), ["{unknown} stays"]);
});

test("t fills placeholders, and leaves those it has no value for", () => {
  assert.equal(t("{n} of {total}", { n: 3, total: 5 }), "3 of 5");
  assert.equal(t("{n} of {total}", { n: 3 }), "3 of {total}");
  assert.equal(t("Show the numbers: {what}", { what: "{n} stays as typed" }), "Show the numbers: {n} stays as typed");
});

test("in Chinese: the joints are the catalog's", () => {
  useMessages({
    "{first} {next}": "{first}{next}",
    "{list}, {item}": "{list}、{item}",
    "{list} and {last}": "{list}和{last}",
  });
  assert.equal(sentences("一。", "二。"), "一。二。");
  assert.equal(andList(["甲", "乙", "丙"]), "甲、乙和丙");
});

test("a verdict reads in the page's language, its numbers as in English", () => {
  useMessages({
    "{name} kept the most right answers {where}, {percent}": "{name}{where}保持的正确答案最多，{percent}",
    "You expected {guess}, and so did this run: {most}.": "你预期的是 {guess}，这次运行也是：{most}。",
    "at 4L": "在 4L 处",
  });
  const run = { options: ["rope", "alibi"], scores: [0.63, 0.7972] };
  const wording = { nameOf: (value) => ({ rope: "RoPE", alibi: "ALiBi" })[value], where: t("at 4L"), run: "run" };
  assert.deepEqual(verdict("alibi", run, wording), { text: "你预期的是 ALiBi，这次运行也是：ALiBi在 4L 处保持的正确答案最多，79.7%。", match: "yes" });
});

test("a message missing from the catalog stays in English", () => {
  useMessages({ "Type a number first.": "请先输入一个数字。" });
  assert.equal(readNumber("").problem, "请先输入一个数字。");
  assert.equal(readNumber("abc").problem, "“abc” is not a number: type digits, such as 0.54 (0,54 works too).");
});
