// Unit tests of app/figures/colors.js under Node's own test runner (node --test): no browser, no Python.
import assert from "node:assert/strict";
import { test } from "node:test";

import { colorFor, entryFor, inkOn, loadColors } from "../../app/figures/colors.js";

const MAP = { width: 256, height: 1, rgba: new Uint8Array(256 * 4).map((_, i) => (i % 4 === 3 ? 255 : i >> 2)) };

/** A stand-in for the Python bridge whose legend() fails `failures` times, then answers. */
function bridge(failures) {
  const python = { asked: 0 };
  python.legend = async () => {
    python.asked += 1;
    if (python.asked <= failures) throw new Error("the worker restarted");
    return MAP;
  };
  return python;
}

test("a failed colour-map request is asked again on the next use", async () => {
  const python = bridge(1);
  await assert.rejects(loadColors(python), /the worker restarted/);
  const { background } = await colorFor(python, 1);
  assert.equal(background, "rgb(255 255 255)");
  assert.equal(python.asked, 2);
  // and, once it came, it is not asked for again
  await colorFor(python, -1);
  assert.equal(python.asked, 2);
});

test("entryFor rounds half to even, as numpy's rint does", () => {
  assert.equal(entryFor(-1, 1, 256), 0);
  assert.equal(entryFor(1, 1, 256), 255);
  assert.equal(entryFor(5, 1, 256), 255); // clipped
  assert.equal(entryFor(0, 1, 5), 2);
  assert.equal(entryFor(-0.75, 1, 5), 0); // x = 0.5: to even
  assert.equal(entryFor(-0.25, 1, 5), 2); // x = 1.5: to even
});

test("inkOn picks the ink that contrasts more", () => {
  assert.equal(inkOn(255, 255, 255), "#000");
  assert.equal(inkOn(0, 0, 0), "#fff");
  assert.equal(inkOn(59, 76, 192), "#fff");
});
