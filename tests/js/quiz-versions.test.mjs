// app/quiz/versions.js and app/quiz/sealed.js under Node, on the lesson's real bank of graded
// versions (read from its sources): a graded attempt's draw is reproducible from its seed and
// attempt, the next attempt shows another version of every item, two fresh attempts differ in
// most of their questions, and the sealed keys file opens to what was sealed.
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { test } from "node:test";

import { drawVersions, hash32, newSeed, versionOf } from "../../app/quiz/versions.js";
import { FORMAT, unseal } from "../../app/quiz/sealed.js";

const lesson = new URL("../../lesson/", import.meta.url);
const variants = JSON.parse(readFileSync(new URL("quiz-variants.json", lesson), "utf8"));

/** Each graded item's versions' ids, as app/quiz/engine.js lists them from the page. */
function bank() {
  /** @type {Record<string, string[]>} */
  const graded = {};
  for (const file of readdirSync(lesson).filter((name) => name.endsWith(".html"))) {
    const text = readFileSync(new URL(file, lesson), "utf8");
    for (const [, item, version] of text.matchAll(/data-version-of="([\w-]+)" data-version="(\w)"/g)) {
      graded[item] ??= [];
      if (version === "v") graded[item].push(...variants[item].variants.map((_, k) => `${item}.v${k + 1}`));
      else graded[item].push(`${item}.${version}`);
    }
  }
  return graded;
}

const BANK = bank();

test("the bank: every template's variants and at least two versions of every other graded item", () => {
  assert.ok(Object.keys(BANK).length >= 14, Object.keys(BANK).join(", "));
  for (const [item, ids] of Object.entries(BANK)) {
    assert.ok(ids.length >= 2, item);
    assert.ok(!ids.includes(item), `${item}: a graded attempt never shows practice mode's version`);
  }
});

test("a draw depends only on the seed and the attempt, and names one of the item's versions", () => {
  const first = drawVersions(BANK, 12345, 1);
  assert.deepEqual(drawVersions(BANK, 12345, 1), first);
  assert.deepEqual(Object.keys(first).sort(), Object.keys(BANK).sort());
  for (const [item, id] of Object.entries(first)) {
    assert.ok(BANK[item].includes(id), id);
    assert.equal(versionOf(id).item, item);
  }
  assert.notDeepEqual(drawVersions(BANK, 54321, 1), first);
});

test("the next attempt shows another version of every item", () => {
  for (let seed = 0; seed < 200; seed++) {
    const one = drawVersions(BANK, seed * 7919, 1);
    const two = drawVersions(BANK, seed * 7919, 2);
    for (const item of Object.keys(BANK)) assert.notEqual(one[item], two[item], `${seed} ${item}`);
  }
});

test("two fresh graded attempts differ in at least 30% of their questions", () => {
  // seeds as newSeed draws them, but fixed here so that the test is the same on every run
  let state = 0x2545f491;
  const seed = () => (state = hash32(String(state)));
  const shares = [];
  for (let pair = 0; pair < 2000; pair++) {
    const one = drawVersions(BANK, seed(), 1);
    const two = drawVersions(BANK, seed(), 1);
    const items = Object.keys(BANK);
    shares.push(items.filter((item) => one[item] !== two[item]).length / items.length);
  }
  shares.sort((a, b) => a - b);
  const mean = shares.reduce((a, b) => a + b, 0) / shares.length;
  assert.ok(mean > 0.6, `mean ${mean}`);
  // all but the rarest 0.5% of pairs (two learners whose seeds happen to match on most items)
  assert.ok(shares[Math.floor(shares.length * 0.005)] >= 0.3, `${shares.slice(0, 20)}`);
});

test("newSeed draws 32 bits; versionOf splits an id into its item and version", () => {
  const seeds = new Set(Array.from({ length: 50 }, newSeed));
  assert.ok(seeds.size > 45);
  for (const s of seeds) assert.ok(Number.isInteger(s) && s >= 0 && s < 2 ** 32);
  assert.deepEqual(versionOf("quiz-rope-angle"), { item: "quiz-rope-angle", version: "a" });
  assert.deepEqual(versionOf("quiz-rope-angle.v7"), { item: "quiz-rope-angle", version: "v7" });
  assert.deepEqual(versionOf("quiz-added-word.b"), { item: "quiz-added-word", version: "b" });
});

test("unseal opens what tools/sealed_keys.py sealed, and refuses anything else", async () => {
  // sealed by tools/sealed_keys.py from {"a": {"correct": "2", "why": {"1": "héllo 中文"}}, "b": [1, 2.5]}
  const sealed = {
    format: FORMAT,
    nonce: 4288490699,
    data: "e9raLP/55islWDDd0ECnZllsVLgolid19HGPv2QYvXDj3fmXzgRe4Npe3FXFgr8obv/37ezV8MijVzYh1Ip/Llcv",
  };
  assert.deepEqual(await unseal(sealed), { a: { correct: "2", why: { 1: "héllo 中文" } }, b: [1, 2.5] });
  await assert.rejects(() => unseal({ a: { correct: "2" } }), /not a sealed keys file/);
  await assert.rejects(() => unseal({ ...sealed, format: "other" }), /not a sealed keys file/);
});
