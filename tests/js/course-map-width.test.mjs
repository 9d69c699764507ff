// Where the course map becomes a column: preflight.js (which closes the map before the first
// paint below it), map.js (which keeps it open above it, closed below, as the window is resized)
// and lab.css (which lays it out as a column or a bar) must say the same width, or the map
// shifts the page at the widths between them.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

const read = (path) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");

test("preflight.js, map.js and lab.css put the map's column at the same width", () => {
  const inMap = /const WIDE = "\(min-width: ([\d.]+)rem\)"/.exec(read("app/course/map.js"));
  const inPreflight = /var wide = "\(min-width: ([\d.]+)rem\)"/.exec(read("app/pages/preflight.js"));
  assert.ok(inMap && inPreflight, "map.js's WIDE or preflight.js's wide is no longer a min-width in rem");
  const width = Number(inMap[1]);
  assert.equal(Number(inPreflight[1]), width);
  const css = read("static/lab.css");
  const column = [...css.matchAll(/@media \(min-width: ([\d.]+)rem\) \{\s*\.chapter-page \{/g)].map((m) => Number(m[1]));
  const bar = [...css.matchAll(/@media \(max-width: ([\d.]+)rem\) \{\s*\.course-map \{/g)].map((m) => Number(m[1]));
  assert.deepEqual(column, [width]);
  assert.deepEqual(bar, [width - 0.01]);
});
