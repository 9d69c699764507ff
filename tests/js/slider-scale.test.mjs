// The slider scale (app/controls/slider.js) and shared links' clamping (app/controls/share.js),
// with plain objects standing in for <input type=range> elements: no browser needed.
import assert from "node:assert/strict";
import { test } from "node:test";

import { applyState, readState } from "../../app/controls/share.js";
import { positionFor, valueAt, valueText } from "../../app/controls/slider.js";

/** A stand-in for <input type=range name=… min max step value [data-scale]> with a label. */
function range(name, { min, max, step = 1, value, scale, label = name }) {
  let text = String(value);
  return {
    name, type: "range", min: String(min), max: String(max), step: String(step),
    get value() {
      return text;
    },
    set value(v) {
      text = String(v); // as an element does
    },
    dataset: scale ? { scale } : {},
    labels: [{ childNodes: [{ textContent: label }] }],
    closest: () => null,
  };
}
const demo = (...inputs) => ({ querySelectorAll: () => inputs, querySelector: () => null });

test("a log10 slider's position is the exponent, rounded to 3 significant figures", () => {
  const base = range("base", { min: 1, max: 6, step: 0.05, value: 4, scale: "log10" });
  assert.equal(valueAt(base), 10000);
  assert.equal(valueAt(base, 4.05), 11200); // 10^4.05 = 11220.2 is shown and used as 11200
  assert.equal(valueText(base, 6), "1000000");
  assert.equal(positionFor(base, 1000), 3);
  const width = range("d_model", { min: 2, max: 512, step: 2, value: 128 });
  assert.equal(valueAt(width), 128);
  assert.equal(positionFor(width, 64), 64);
});

test("a shared link's values are clamped to the slider, with a notice", () => {
  const base = range("base", { min: 1, max: 6, step: 0.05, value: 4, scale: "log10", label: "Base" });
  const width = range("d_model", { min: 2, max: 512, step: 2, value: 128, label: "d_model" });
  const notices = applyState(demo(base, width), new URLSearchParams("base=1e9&d_model=33"));
  assert.equal(base.value, "6");
  assert.equal(width.value, "34");
  assert.deepEqual(notices, [
    "Base: 1e9 is outside 10 to 1000000; using 1000000.",
    "d_model: 33 is not one of its steps; using 34.",
  ]);
});

test("a malformed value leaves the slider as it was and says so", () => {
  const width = range("d_model", { min: 2, max: 512, step: 2, value: 128, label: "d_model" });
  const [notice] = applyState(demo(width), new URLSearchParams("d_model=lots"));
  assert.equal(width.value, "128");
  assert.equal(notice, "d_model: “lots” is not a number from 2 to 512; it stays 128.");
});

test("readState writes each slider as the value it stands for", () => {
  const base = range("base", { min: 1, max: 6, step: 0.05, value: 4.05, scale: "log10" });
  const width = range("d_model", { min: 2, max: 512, step: 2, value: 64 });
  assert.equal(readState(demo(base, width)).toString(), "base=11200&d_model=64");
});
