// The page's pure functions under Node's test runner: scheduling, axes, number formats, shuffles.
import assert from "node:assert/strict";
import { test } from "node:test";

import { shuffledOrder } from "../../app/demos/attention.js";
import { latestWins } from "../../app/demos/latest.js";
import { difference, fixed, formatNumber, roundSignificant } from "../../app/figures/format.js";
import { niceStep, ticks } from "../../app/figures/ticks.js";

test("latestWins keeps one request in flight and ends on the newest value", async () => {
  const started = [];
  const shown = [];
  const gates = [];
  const compute = (params) => {
    started.push(params);
    return new Promise((resolve) => gates.push(() => resolve(params * 10)));
  };
  const render = latestWins(compute, (result) => shown.push(result));
  const first = render(1);
  const dropped = render(2); // replaced by 3 before it starts
  const last = render(3);
  assert.deepEqual(started, [1]);
  gates.shift()();
  await first;
  await new Promise((resolve) => setTimeout(resolve));
  assert.deepEqual(started, [1, 3]); // 2 never ran
  gates.shift()();
  await Promise.all([dropped, last]); // both settle once 3 is shown
  assert.deepEqual(shown, [10, 30]);
});

test("latestWins reports a failure and rejects only its callers", async () => {
  const errors = [];
  const render = latestWins(
    async (params) => {
      if (params === "bad") throw new Error("no");
      return params;
    },
    () => {},
    (error, params) => errors.push([error.message, params]),
  );
  await assert.rejects(render("bad"), /no/);
  await render("good");
  assert.deepEqual(errors, [["no", "bad"]]);
});

test("ticks step by 1, 2 or 5 times a power of ten, below n", () => {
  assert.deepEqual(ticks(1), [0]);
  assert.deepEqual(ticks(6), [0, 1, 2, 3, 4, 5]);
  assert.deepEqual(ticks(64), [0, 20, 40, 60]);
  assert.deepEqual(ticks(128), [0, 50, 100]);
  assert.deepEqual(ticks(512), [0, 100, 200, 300, 400, 500]);
  for (const n of [1, 2, 7, 33, 100, 999, 100000]) {
    const t = ticks(n);
    assert.ok(t.length <= 7 && t.every((v) => v < n), `ticks(${n}) = ${t}`);
  }
});

test("number formats: significant figures, a real minus sign, exact zeros said so", () => {
  assert.equal(roundSignificant(12345), 12300);
  assert.equal(roundSignificant(10 ** 4.1), 12600);
  assert.equal(formatNumber(10000), "10000");
  assert.equal(formatNumber(1 / 3), "0.333333");
  assert.equal(fixed(-0.5, 2), "−0.50");
  assert.equal(fixed(0.25, 1), "0.3");
  assert.equal(difference(0), "0 (exactly)");
  assert.equal(difference(1.1e-16), "1.1e−16");
  assert.equal(difference(0.5), "0.5000");
});

test("shuffledOrder is a permutation that moves something, whenever it can", () => {
  assert.deepEqual(shuffledOrder(0), []);
  assert.deepEqual(shuffledOrder(1), [0]);
  for (let trial = 0; trial < 200; trial++) {
    const n = 2 + (trial % 9);
    const order = shuffledOrder(n);
    assert.deepEqual([...order].sort((a, b) => a - b), [...Array(n).keys()]);
    assert.ok(order.some((value, k) => value !== k), `identity for n = ${n}`);
  }
});

test("niceStep: the one 1/2/5 rule, for the axis ticks and the line chart's values", () => {
  assert.deepEqual([0.3, 1, 1.5, 3, 7, 12, 0.04].map(niceStep), [0.5, 1, 2, 5, 10, 20, 0.05]);
});
