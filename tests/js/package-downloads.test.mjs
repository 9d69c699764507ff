// The guide's download links (app/pages/package-downloads.js): sizes as the build's log counts
// them, and scorm/packages.json checked before any of it reaches the page.
import assert from "node:assert/strict";
import { test } from "node:test";

import { packageEntries, sizeText } from "../../app/pages/package-downloads.js";

test("sizes read as kB below a megabyte and MB with one decimal above", () => {
  assert.equal(sizeText(1), "1 kB");
  assert.equal(sizeText(348705), "349 kB");
  assert.equal(sizeText(999_499), "999 kB");
  assert.equal(sizeText(1_000_000), "1.0 MB");
  assert.equal(sizeText(20_915_026), "20.9 MB");
});

test("a well-formed list gives its packages, in order", () => {
  const listing = {
    packages: [
      { file: "positional-encoding-lab.zip", title: "Positional Encoding Lab", bytes: 20915026 },
      { file: "positional-encoding-lab-quiz.zip", title: "Positional Encoding Lab: quiz", bytes: 348705 },
    ],
  };
  assert.deepEqual(packageEntries(listing), listing.packages);
  assert.deepEqual(packageEntries({ packages: [] }), []);
});

test("a broken list says what is wrong", () => {
  for (const [listing, says] of [
    [null, /no list of packages/],
    [{ packages: "x" }, /no list of packages/],
    [{ packages: [{ file: "../x.zip", title: "x", bytes: 1 }] }, /package 1 .* no plain \.zip file name/],
    [{ packages: [{ file: "a.zip", title: " ", bytes: 1 }] }, /a\.zip has no title/],
    [{ packages: [{ file: "a.zip", title: "A", bytes: 1.5 }] }, /a\.zip has no size/],
    [{ packages: [{ file: "a.zip", title: "A", bytes: -3 }] }, /a\.zip has no size/],
    [{ packages: [null] }, /package 1/],
  ]) {
    assert.throws(() => packageEntries(listing), says);
  }
});
