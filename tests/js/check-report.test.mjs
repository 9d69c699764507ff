// An exercise's report, as pelab sends it (py/pelab/exercises.py, Report.for_page), worded by
// the page (app/cells/check-report.js): in English as pelab's own str() says it; with a catalog,
// each sentence from the catalog, Python's own words (raw) as they are; and the worker's
// sentences (app/python/worker/said.js) likewise.
import assert from "node:assert/strict";
import { afterEach, test } from "node:test";

import { useMessages } from "../../app/i18n.js";
import { checkReport } from "../../app/cells/check-report.js";
import { english, said, saying } from "../../app/python/worker/said.js";
import { tSaid } from "../../app/i18n.js";

afterEach(() => useMessages({}));

const REPORT = {
  passed: false,
  lines: [
    { mark: "✗", what: { text: "{passing} of {total} checks pass.", values: { passing: "1", total: "2" } }, why: null },
    { mark: "✓", what: { text: "{call} returns an array of shape {shape}", values: { call: "pe_table(4, 4)", shape: "(4, 4)" } }, why: null },
    {
      mark: "✗",
      what: { text: "{call} uses its base", values: { call: "pe_table(10, 8, base=100)" } },
      why: { raw: "NameError: name 'x' is not defined" },
    },
    { mark: "", what: { text: "Diagnosis, one position off.", values: {} }, why: null },
  ],
};

test("in English, the report reads as pelab prints it", () => {
  const report = checkReport(REPORT);
  assert.equal(report.passed, false);
  assert.equal(report.summary, "1 of 2 checks pass.");
  assert.equal(
    report.text,
    [
      "✗ 1 of 2 checks pass.",
      "✓ pe_table(4, 4) returns an array of shape (4, 4)",
      "✗ pe_table(10, 8, base=100) uses its base: NameError: name 'x' is not defined",
      "Diagnosis, one position off.",
    ].join("\n"),
  );
});

test("with a catalog, every sentence is the catalog's, and Python's own words stay", () => {
  useMessages({
    "{passing} of {total} checks pass.": "{total} 项检查中通过 {passing} 项。",
    "{call} returns an array of shape {shape}": "{call} 返回形状为 {shape} 的数组",
    "{call} uses its base": "{call} 用到了它的 base",
    "{what}: {why}": "{what}：{why}",
    "Diagnosis, one position off.": "诊断：差了一个位置。",
  });
  const report = checkReport(REPORT);
  assert.equal(report.summary, "2 项检查中通过 1 项。");
  assert.deepEqual(report.text.split("\n"), [
    "✗ 2 项检查中通过 1 项。",
    "✓ pe_table(4, 4) 返回形状为 (4, 4) 的数组",
    "✗ pe_table(10, 8, base=100) 用到了它的 base：NameError: name 'x' is not defined",
    "诊断：差了一个位置。",
  ]);
});

test("a value's own braces are not filled in again", () => {
  const report = checkReport({ passed: false, lines: [{ mark: "✗", what: { text: "{call} is off", values: { call: "f({x})" } }, why: null }] });
  assert.equal(report.text, "✗ f({x}) is off");
});

test("the worker's sentence: English in its error's message, the catalog's on the page", () => {
  const sentence = said("{url} answered {status} {statusText}", { url: "py/x.whl", status: 404, statusText: "Not Found" });
  const error = saying(sentence, TypeError);
  assert.ok(error instanceof TypeError);
  assert.equal(error.message, "py/x.whl answered 404 Not Found");
  assert.equal(english(sentence), error.message);
  useMessages({ "{url} answered {status} {statusText}": "{url} 返回了 {status} {statusText}" });
  assert.equal(tSaid(error.said), "py/x.whl 返回了 404 Not Found");
});
