// A SCORM package's launch page (app/lms/launch.js, a classic script, run here in a sandbox with
// a stand-in location and script tag), and which chapter page reports itself to the LMS
// (app/lms/chapter-to-lms.js): what an LMS that appends the manifest's parameters and one that
// drops them each get.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import vm from "node:vm";

import { reportsItself } from "../../app/lms/chapter-to-lms.js";

const SCRIPT = readFileSync(new URL("../../app/lms/launch.js", import.meta.url), "utf8");

/** Where launch.js sends a frame opened at launch.html`search``hash`, with the tag's data. */
function launched({ page, query, search = "", hash = "" }) {
  const replaced = [];
  const attributes = { "data-page": page, "data-query": query };
  const context = {
    URLSearchParams,
    document: { currentScript: { getAttribute: (name) => attributes[name] ?? null } },
    location: { search, hash, replace: (url) => replaced.push(url), assign: () => assert.fail("assign adds history") },
  };
  vm.runInNewContext(SCRIPT, context);
  assert.equal(replaced.length, 1, "one location.replace, in the same frame");
  return replaced[0];
}

test("dropped parameters: the launch page adds what its page needs", () => {
  assert.equal(launched({ page: "index.html", query: "lms=scorm12" }), "index.html?lms=scorm12");
  assert.equal(
    launched({ page: "embed.html", query: "demo=quiz&lms=scorm12&lesson=none" }),
    "embed.html?demo=quiz&lms=scorm12&lesson=none",
  );
});

test("appended parameters: the same page, once, and the LMS's own query and fragment are kept", () => {
  assert.equal(
    launched({ page: "why-order.html", query: "lms=scorm12&sco=why-order", search: "?lms=scorm12&sco=why-order" }),
    "why-order.html?lms=scorm12&sco=why-order",
  );
  assert.equal(
    launched({ page: "embed.html", query: "demo=quiz&lms=scorm12", search: "?attempt=3&demo=heatmap", hash: "#d_model=64" }),
    "embed.html?attempt=3&demo=quiz&lms=scorm12#d_model=64",
  );
});

/** A chapter page as the build writes it: its forms, each a check's or a test's. */
function chapterPage(chapter, { forms = ["check"] } = {}) {
  const selectors = { check: 'form.quiz[data-quiz="check"]', test: 'form.quiz[data-quiz="test"]' };
  return {
    body: { dataset: { chapter } },
    querySelector: (selector) =>
      selector === "form.quiz" ? (forms.length ? {} : null) : forms.some((kind) => selectors[kind] === selector) ? {} : null,
  };
}

test("only a chapter package's own page without a test reports itself", () => {
  const page = chapterPage("why-order");
  assert.equal(reportsItself(page, "?lms=scorm12&sco=why-order"), true); // its checks report nothing
  assert.equal(reportsItself(chapterPage("why-order", { forms: [] }), "?lms=scorm12&sco=why-order"), true);
  assert.equal(reportsItself(page, "?sco=why-order"), false); // not launched by an LMS
  assert.equal(reportsItself(page, "?lms=scorm12"), false); // the whole course's package
  assert.equal(reportsItself(page, "?lms=scorm12&sco=geometry"), false); // another chapter's
  const tested = chapterPage("review", { forms: ["check", "test"] });
  assert.equal(reportsItself(tested, "?lms=scorm12&sco=review&test=lesson"), false); // its test reports
});
