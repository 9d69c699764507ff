// Unit tests of app/figures/colors.js under Node's own test runner (node --test): no browser, no Python.
import assert from "node:assert/strict";
import { test } from "node:test";

import { LEGEND, colorFor, entryFor, inkOn } from "../../app/figures/colors.js";

test("colours come from pelab's table, with no Python", () => {
  assert.deepEqual(colorFor(-1), { background: "rgb(59 76 192)", ink: "#fff" });
  assert.deepEqual(colorFor(1), { background: "rgb(180 4 38)", ink: "#fff" });
  assert.equal(colorFor(0).ink, "#000");
  assert.deepEqual(colorFor(3, 3), colorFor(1)); // a value is read against its own limit
  assert.equal(LEGEND.width, 256);
  assert.equal(LEGEND.rgba.length, 256 * 4);
  assert.ok(LEGEND.rgba.every((byte, i) => i % 4 !== 3 || byte === 255)); // opaque
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
