// app/lms/scorm.js under Node, against the real SCORM 1.2 runtime scorm-again (the LMS side):
// what a quiz's progress becomes in the LMS, the time format, the API search, and a session
// that reports what the LMS refused instead of throwing.
import assert from "node:assert/strict";
import { test } from "node:test";

import { Scorm12API } from "scorm-again/scorm12";

import {
  DEFAULT_MASTERY_SCORE,
  findApi,
  masteryScore,
  quizReport,
  scormSession,
  sessionTime,
  launchedByLms,
  allowedAttempts,
  gradedTest,
  launchedTest,
} from "../../app/lms/scorm.js";

const quiet = { logLevel: 5 };

test("quizReport: incomplete until every question is answered, then passed or failed at the mastery score", () => {
  assert.deepEqual(quizReport({ answered: 3, correct: 3, total: 10 }), {
    "cmi.core.lesson_status": "incomplete",
    "cmi.core.score.raw": "30",
    "cmi.core.score.min": "0",
    "cmi.core.score.max": "100",
    "cmi.core.exit": "suspend",
  });
  assert.equal(DEFAULT_MASTERY_SCORE, 80);
  assert.equal(quizReport({ answered: 10, correct: 8, total: 10 })["cmi.core.lesson_status"], "passed"); // 80 reaches 80
  assert.equal(quizReport({ answered: 10, correct: 7, total: 10 })["cmi.core.lesson_status"], "failed");
  assert.equal(quizReport({ answered: 10, correct: 8, total: 10 }, 90)["cmi.core.lesson_status"], "failed");
  assert.equal(quizReport({ answered: 3, correct: 2, total: 3 })["cmi.core.score.raw"], "67"); // rounded percent
  assert.equal(quizReport({ answered: 10, correct: 10, total: 10 })["cmi.core.exit"], "");
  assert.equal(quizReport({ answered: 0, correct: 0, total: 0 })["cmi.core.lesson_status"], "incomplete");
});

test("sessionTime writes SCORM 1.2's CMITimespan, which the runtime accepts", () => {
  assert.equal(sessionTime(0), "0000:00:00.00");
  assert.equal(sessionTime(65_250), "0000:01:05.25");
  assert.equal(sessionTime(3_600_000 * 12 + 61_000), "0012:01:01.00");
  assert.equal(sessionTime(3_600_000 * 20_000), "9999:00:00.00"); // hours capped at four digits
  const api = new Scorm12API(quiet);
  api.LMSInitialize("");
  for (const ms of [0, 65_250, 3_600_000 * 12 + 61_000]) {
    assert.equal(api.LMSSetValue("cmi.core.session_time", sessionTime(ms)), "true", sessionTime(ms));
  }
});

test("every value quizReport sends is one the runtime accepts", () => {
  const api = new Scorm12API(quiet);
  api.LMSInitialize("");
  for (const progress of [{ answered: 1, correct: 0, total: 7 }, { answered: 7, correct: 7, total: 7 }]) {
    for (const [element, value] of Object.entries(quizReport(progress))) {
      assert.equal(api.LMSSetValue(element, value), "true", `${element}=${value}`);
    }
  }
  assert.equal(api.cmi.core.lesson_status, "passed");
});

test("masteryScore reads the LMS's, or falls back to ours when it has none or nonsense", () => {
  const api = new Scorm12API(quiet);
  api.loadFromJSON({ student_data: { mastery_score: "65" } });
  api.LMSInitialize("");
  assert.equal(masteryScore(scormSession(api, () => {})), 65);
  const none = new Scorm12API(quiet);
  none.LMSInitialize("");
  assert.equal(masteryScore(scormSession(none, () => {})), DEFAULT_MASTERY_SCORE);
  assert.equal(masteryScore({ get: () => "lots" }), DEFAULT_MASTERY_SCORE);
});

test("findApi walks up the parents, skips a cross-origin one, then tries the opener", () => {
  const api = { name: "the LMS" };
  const top = { API: api };
  top.parent = top;
  const middle = { parent: top };
  Object.defineProperty(middle, "API", { get: () => { throw new Error("SecurityError"); } });
  const sco = { parent: middle, top };
  assert.equal(findApi(sco), api);
  const popupTop = {};
  popupTop.parent = popupTop;
  popupTop.opener = top;
  popupTop.top = popupTop;
  assert.equal(findApi(popupTop), api); // launched in a new window
  const alone = {};
  alone.parent = alone;
  alone.top = alone;
  assert.equal(findApi(alone), null);
});

test("a session reports a refusal with the LMS's error code and never throws", () => {
  const problems = [];
  const api = new Scorm12API(quiet);
  const session = scormSession(api, (text) => problems.push(text));
  assert.equal(session.set("cmi.core.score.raw", "50"), false); // before LMSInitialize: refused
  assert.match(problems[0], /^The course system refused to record cmi\.core\.score\.raw \(error 301: .+\)\.$/);
  assert.equal(session.start(), true);
  assert.equal(session.start(), false); // a second start is refused
  assert.match(problems[1], /refused to start the session \(error 101/);
  assert.equal(session.set("cmi.core.score.raw", "150"), false); // out of SCORM 1.2's 0 to 100
  assert.match(problems[2], /error 40\d/);
  const throwing = scormSession({ LMSInitialize() { throw new Error("boom"); }, LMSGetValue() {}, LMSSetValue() {}, LMSCommit() {}, LMSFinish() {} }, (t) => problems.push(t));
  assert.equal(throwing.start(), false);
  assert.equal(problems.at(-1), "The course system failed to start the session (boom).");
  assert.deepEqual(scormSession({ LMSInitialize() {} }, () => {}).broken, ["LMSGetValue", "LMSSetValue", "LMSCommit", "LMSFinish"]);
});

test("launchedByLms reads the launch parameter only", () => {
  assert.equal(launchedByLms("?lms=scorm12"), true);
  assert.equal(launchedByLms("?demo=quiz&lms=scorm12"), true);
  assert.equal(launchedByLms("?demo=quiz"), false);
  assert.equal(launchedByLms("?lms=scorm2004"), false);
});

test("launchedByLms remembers a launch for the visit's later pages", () => {
  const kept = new Map();
  const session = { getItem: (k) => kept.get(k) ?? null, setItem: (k, v) => kept.set(k, v) };
  assert.equal(launchedByLms("", session), false);
  assert.equal(launchedByLms("?lms=scorm12", session), true);
  assert.equal(launchedByLms("", session), true); // the next chapter's page, no parameter
  const blocked = { getItem: () => { throw new Error("denied"); }, setItem: () => { throw new Error("denied"); } };
  assert.equal(launchedByLms("?lms=scorm12", blocked), true);
  assert.equal(launchedByLms("", blocked), false);
});

test("quizReport: a graded test is finished when submitted, whatever is left unanswered", () => {
  const submitted = quizReport({ answered: 3, correct: 3, total: 4, finished: true });
  assert.equal(submitted["cmi.core.lesson_status"], "failed"); // 75% < 80%
  assert.equal(submitted["cmi.core.score.raw"], "75");
  assert.equal(quizReport({ answered: 4, correct: 0, total: 4, finished: false })["cmi.core.lesson_status"], "incomplete");
});

test("allowedAttempts reads attempts=N from cmi.launch_data: 0 (unlimited) when absent or nonsense", () => {
  assert.equal(allowedAttempts("attempts=3"), 3);
  assert.equal(allowedAttempts("x=1&attempts=1"), 1);
  assert.equal(allowedAttempts("attempts=0"), 0);
  for (const nonsense of ["", null, undefined, "attempts=", "attempts=-1", "attempts=2.5", "attempts=two"]) {
    assert.equal(allowedAttempts(nonsense), 0, String(nonsense));
  }
});

test("which tests are graded: all with ?graded, the launched one in an LMS launch, else none", () => {
  const kept = new Map();
  const session = { getItem: (k) => kept.get(k) ?? null, setItem: (k, v) => kept.set(k, v) };
  assert.equal(gradedTest("", session)("lesson"), false);
  assert.equal(gradedTest("?graded", session)("why-order"), true);
  assert.equal(launchedTest("?lms=scorm12", session), "lesson"); // the whole-lesson test by default
  const launched = gradedTest("?lms=scorm12&test=why-order", session);
  assert.deepEqual([launched("why-order"), launched("lesson")], [true, false]);
  assert.equal(launchedTest("", session), "why-order"); // remembered on the visit's next page
  assert.equal(gradedTest("", session)("why-order"), true);
});
