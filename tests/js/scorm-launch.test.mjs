// A SCORM package's launch page (app/lms/launch.js, the SCO): the address it opens in its frame
// (app/lms/package-session.js lessonAddress), for an LMS that appends the manifest's parameters
// and one that drops them, and on a return visit; the session API it offers the package's pages
// (pageApi) over a stand-in LMS that, like SCORM 1.2 and scorm-again, takes one LMSInitialize per
// launch; and which chapter page reports itself to the LMS (app/lms/chapter-to-lms.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { reportsItself } from "../../app/lms/chapter-to-lms.js";
import { lessonAddress, pageApi } from "../../app/lms/package-session.js";
import { placeOf } from "../../app/lms/page-session.js";

test("dropped parameters: the launch page adds what its page needs", () => {
  assert.equal(lessonAddress({ page: "index.html", query: "lms=scorm12" }), "index.html?lms=scorm12");
  assert.equal(
    lessonAddress({ page: "embed.html", query: "demo=quiz&lms=scorm12&lesson=none" }),
    "embed.html?demo=quiz&lms=scorm12&lesson=none",
  );
});

test("appended parameters: the same page, once, and the LMS's own query and fragment are kept", () => {
  assert.equal(
    lessonAddress({ page: "why-order.html", query: "lms=scorm12&sco=why-order", search: "?lms=scorm12&sco=why-order" }),
    "why-order.html?lms=scorm12&sco=why-order",
  );
  assert.equal(
    lessonAddress({ page: "embed.html", query: "demo=quiz&lms=scorm12", search: "?attempt=3&demo=heatmap", hash: "#d_model=64" }),
    "embed.html?attempt=3&demo=quiz&lms=scorm12#d_model=64",
  );
});

test("a return visit to the whole course reopens the page the LMS recorded, and only a page of its own", () => {
  const course = { page: "index.html", query: "lms=scorm12", entry: "resume" };
  assert.equal(lessonAddress({ ...course, place: "geometry.html#similarity" }), "geometry.html?lms=scorm12#similarity");
  assert.equal(lessonAddress({ ...course, page: "zh/index.html", place: "zh/longer.html" }), "zh/longer.html?lms=scorm12");
  for (const place of ["", "https://elsewhere.example/x.html", "../x.html", "javascript:alert(1)", "a/b/c.html"]) {
    assert.equal(lessonAddress({ ...course, place }), "index.html?lms=scorm12", place);
  }
  assert.equal(lessonAddress({ ...course, entry: "ab-initio", place: "geometry.html" }), "index.html?lms=scorm12");
  // a chapter's or a demo's package opens at its own page whatever the LMS recorded
  const chapter = { page: "why-order.html", query: "lms=scorm12&sco=why-order", entry: "resume", place: "geometry.html" };
  assert.equal(lessonAddress(chapter), "why-order.html?lms=scorm12&sco=why-order");
});

test("a page records its place as the launch page reopens it: its file, its language's folder, the section", () => {
  assert.equal(placeOf("alibi", "/mod/scorm/content/7/inside-attention.html", "en"), "inside-attention.html#alibi");
  assert.equal(placeOf("", "/mod/scorm/content/7/zh/geometry.html", "zh"), "zh/geometry.html");
  assert.equal(placeOf("", "/mod/scorm/content/7/embed.html", "es"), "embed.html"); // one embed, at the root
  assert.equal(placeOf("", "/mod/scorm/content/7/", "en"), "index.html");
  for (const [path, language] of [["/c/why-order.html", "en"], ["/c/es/longer.html", "es"]]) {
    const place = placeOf("extrapolation", path, language);
    assert.equal(lessonAddress({ page: "index.html", query: "lms=scorm12", entry: "resume", place }).split("?")[0], place.split("#")[0]);
  }
});

/** An LMS's API that, like SCORM 1.2, takes one LMSInitialize and nothing after LMSFinish. */
function strictLms() {
  const calls = [];
  let state = "new";
  const values = {};
  const act = (name, ok) => {
    calls.push(name);
    return ok ? "true" : "false";
  };
  return {
    calls,
    values,
    LMSInitialize: () => act("LMSInitialize", state === "new" && (state = "open")),
    LMSFinish: () => act("LMSFinish", state === "open" && (state = "ended")),
    LMSGetValue: (element) => (state === "open" ? (values[element] ?? "") : ""),
    LMSSetValue: (element, value) => act(`set ${element}`, state === "open" && ((values[element] = value), true)),
    LMSCommit: () => act("LMSCommit", state === "open"),
    LMSGetLastError: () => (state === "open" ? "0" : "101"),
    LMSGetErrorString: () => "",
  };
}

test("each page starts and ends a session of its own, the LMS's goes on until the package leaves", () => {
  const lms = strictLms();
  assert.equal(lms.LMSInitialize(""), "true"); // the launch page's, once
  let ended = false;
  const save = () => lms.LMSSetValue("cmi.core.session_time", "0000:05:00.00") === "true" && lms.LMSCommit("") === "true";
  const api = pageApi(lms, { save, ended: () => ended });
  for (const place of ["index.html", "why-order.html", "geometry.html"]) {
    assert.equal(api.LMSInitialize(""), "true", place);
    assert.equal(api.LMSSetValue("cmi.core.lesson_location", place), "true");
    assert.equal(api.LMSSetValue("cmi.core.session_time", "0000:00:01.00"), "true"); // the visit's counts
    assert.equal(api.LMSFinish(""), "true"); // saved, not ended
  }
  assert.equal(lms.values["cmi.core.lesson_location"], "geometry.html");
  assert.equal(lms.values["cmi.core.session_time"], "0000:05:00.00");
  assert.equal(lms.calls.filter((c) => c === "LMSInitialize").length, 1);
  assert.equal(lms.calls.filter((c) => c === "LMSFinish").length, 0);
  // the LMS unloads the package: the launch page ends the session; a page's late calls are refused
  lms.LMSFinish("");
  ended = true;
  assert.equal(api.LMSCommit(""), "false");
  assert.equal(api.LMSGetLastError(), "101");
  assert.equal(lms.calls.filter((c) => c === "LMSFinish").length, 1);
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
