// Every message type of app/python/protocol.js has its typedef there (the contract tsc checks,
// jsconfig.json), and the typedefs name no type the constants lack.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { EVENT, REPLY, REQUEST } from "../../app/python/protocol.js";

const source = readFileSync(new URL("../../app/python/protocol.js", import.meta.url), "utf8");

/** The literal `type`s the typedefs give: `@property {"x"} type`, `{"x" | "y"} type`, `{type: "x", ...}`. */
function typedTypes() {
  const found = new Set();
  for (const [, union] of source.matchAll(/@property \{([^}]+)\} type\b/g)) {
    for (const [, name] of union.matchAll(/"([a-z]+)"/g)) found.add(name);
  }
  for (const [, name] of source.matchAll(/\{type: "([a-z]+)"/g)) found.add(name);
  return found;
}

test("every message type has a typedef, and no typedef a type of its own", () => {
  const constants = new Set([...Object.values(REQUEST), ...Object.values(REPLY), ...Object.values(EVENT)]);
  assert.deepEqual([...typedTypes()].sort(), [...constants].sort());
});

test("requests carry an id and notices and events none", () => {
  const typedef = (name) => {
    const match = source.match(new RegExp(`@typedef \\{object\\} ${name}\\n([\\s\\S]*?)\\*/`));
    assert.ok(match, `no typedef ${name}`);
    return match[1];
  };
  for (const name of ["CallRequest", "RunRequest", "SnapshotRequest", "ResultReply", "ErrorReply"]) {
    assert.match(typedef(name), /@property \{number\} id\b/, name);
  }
  for (const name of ["InitMessage", "RecycleMessage", "ProgressEvent", "ReadyEvent", "FatalEvent", "CrashEvent", "StatusEvent", "OutputEvent", "DisplayEvent"]) {
    assert.doesNotMatch(typedef(name), /@property \{[^}]+\} id\b/, name);
  }
});
