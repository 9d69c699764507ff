// The language menu keeps the reader's place (app/course/language-menu.js): which section the
// reader is in, and the menu link's address with that place and the page's query.
import assert from "node:assert/strict";
import { test } from "node:test";

import { placeToKeep, sectionAt, withPlace } from "../../app/course/language-menu.js";

const sections = [
  { id: "attention", top: -900, bottom: -100 },
  { id: "formula", top: -100, bottom: 700 },
  { id: "waves", top: 700, bottom: 1500 },
];

test("the reader is in the section that holds the line a third of the way down", () => {
  assert.equal(sectionAt(sections, 300), "formula");
  assert.equal(sectionAt(sections, 700), "waves"); // a section's top is in it, its bottom the next's
  assert.equal(sectionAt(sections, -100), "formula");
});

test("above the first section, below the last or between two, the reader is in none", () => {
  assert.equal(sectionAt(sections, -1000), null);
  assert.equal(sectionAt(sections, 2000), null);
  assert.equal(sectionAt([{ id: "a", top: 0, bottom: 100 }, { id: "b", top: 200, bottom: 300 }], 150), null);
  assert.equal(sectionAt([], 300), null);
});

test("of sections inside one another, the innermost", () => {
  const nested = [
    { id: "outer", top: 0, bottom: 1000 },
    { id: "inner", top: 200, bottom: 400 },
  ];
  assert.equal(sectionAt(nested, 300), "inner");
  assert.equal(sectionAt(nested, 500), "outer");
});

test("the place kept: where the reader last stayed, else what the screen shows, else the page's fragment", () => {
  assert.equal(placeToKeep("waves", "attention", "formula"), "waves"); // scrolled up to the menu from waves
  assert.equal(placeToKeep(undefined, "attention", "formula"), "attention"); // not stayed anywhere yet
  assert.equal(placeToKeep(undefined, null, "formula"), "formula");
  assert.equal(placeToKeep(null, "attention", "formula"), "formula"); // stayed at the top, above every section
  assert.equal(placeToKeep(null, null, ""), null);
});

test("a menu link takes the place as its fragment, its path as written", () => {
  assert.equal(withPlace("zh/why-order.html", "formula"), "zh/why-order.html#formula");
  assert.equal(withPlace("../why-order.html#waves", "formula"), "../why-order.html#formula");
  assert.equal(withPlace("../es/why-order.html#waves", null), "../es/why-order.html");
  assert.equal(withPlace("../es/why-order.html", ""), "../es/why-order.html");
});

test("a query is never lost: the link's own, else the page's", () => {
  assert.equal(withPlace("zh/review.html", "quiz", "?graded"), "zh/review.html?graded#quiz");
  assert.equal(withPlace("zh/review.html", "quiz", "graded"), "zh/review.html?graded#quiz");
  assert.equal(withPlace("zh/review.html?graded#quiz", "cell", "?lms=scorm12"), "zh/review.html?graded#cell");
  assert.equal(withPlace("../why-order.html", "attention", ""), "../why-order.html#attention");
  assert.equal(withPlace("../why-order.html", "attention", "?"), "../why-order.html#attention");
  // a fragment holding a shared link's state, kept as the page had it
  assert.equal(withPlace("es/why-order.html", "demo=heatmap&d_model=64"), "es/why-order.html#demo=heatmap&d_model=64");
});
