// The page's pure functions under Node's test runner: scheduling, axes, number formats, shuffles,
// the rows of small multiples, the embed code.
import assert from "node:assert/strict";
import { test } from "node:test";

import { embedCode } from "../../app/controls/embed-code.js";
import { shuffledOrder } from "../../app/demos/attention.js";
import { latestWins } from "../../app/demos/latest.js";
import { difference, fixed, formatNumber, roundSignificant } from "../../app/figures/format.js";
import { evenColumns } from "../../app/figures/even-grid.js";
import { roundRange } from "../../app/figures/line-chart.js";
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

test("small multiples fill every row: a divisor of the count, else rows as full as each other", () => {
  assert.equal(evenColumns(8, 7), 4); // 4 + 4, not 7 + 1
  assert.equal(evenColumns(8, 6), 4); // not 6 + 2
  assert.equal(evenColumns(8, 8), 8);
  assert.equal(evenColumns(8, 3), 2); // 2 + 2 + 2 + 2, not 3 + 3 + 2
  assert.equal(evenColumns(16, 7), 4);
  assert.equal(evenColumns(7, 4), 4); // 4 + 3: no divisor fits
  assert.equal(evenColumns(3, 8), 3);
  assert.equal(evenColumns(1, 1), 1);
  for (let count = 1; count <= 16; count++) {
    for (let fit = 1; fit <= 10; fit++) {
      const columns = evenColumns(count, fit);
      const rows = Math.ceil(count / columns);
      assert.ok(columns <= fit, `${count} in ${fit}`);
      assert.ok(count - (rows - 1) * columns >= columns - (rows - 1), `${count} in ${fit}: a short last row`);
    }
  }
});

test("a chart's y range widens to round values: no line runs along its top edge", () => {
  assert.deepEqual(roundRange(0, 1), [0, 1, 0.2]); // a share: 1 is itself round
  assert.deepEqual(roundRange(0, 2.81), [0, 3, 1]); // ALiBi's line with no bias sat on the top edge
  assert.deepEqual(roundRange(0, 1.0147), [0, 1.5, 0.5]); // the closest distance, flat at 1.01
  assert.deepEqual(roundRange(14.2, 32), [10, 35, 5]);
  assert.deepEqual(roundRange(-1, 1), [-1, 1, 0.5]);
  assert.deepEqual(roundRange(2, 2), [1, 3, 0.5]); // a flat line gets a range around it
});

test("the embed code escapes its address and title, and is as tall as the demo, whole pixels", () => {
  assert.equal(
    embedCode("https://x.org/embed.html?demo=waves&lang=es#base=10", 'Lab: "waves" <1>', 612.2),
    '<iframe src="https://x.org/embed.html?demo=waves&amp;lang=es#base=10" title="Lab: &quot;waves&quot; &lt;1>" ' +
      'height="613" loading="lazy" style="width: 100%; border: 0"></iframe>',
  );
});
