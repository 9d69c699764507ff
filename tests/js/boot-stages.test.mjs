// The boot panel's stages: BOOT_STAGES (protocol.js) is their one owner; the pages' markup lists
// them, so that the panel has its size from the first paint, and boot-status.js says each one.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { STAGE_MESSAGES } from "../../app/python/boot-status.js";
import { BOOT_STAGES } from "../../app/python/protocol.js";

/** The items of a page's <ol class="boot-stages">: [stage, status, words] each. */
function listedStages(path) {
  const page = readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");
  const list = /<ol class="boot-stages">([\s\S]*?)<\/ol>/.exec(page);
  assert.ok(list, `${path} has no <ol class="boot-stages">`);
  return [...list[1].matchAll(/<li data-stage="([^"]*)" data-status="([^"]*)">([\s\S]*?)<\/li>/g)].map((m) => [
    m[1],
    m[2],
    m[3].replace(/<[^>]*>/g, "").trim(),
  ]);
}

test("a chapter page and an embed list exactly BOOT_STAGES, in order, each pending and named", () => {
  for (const path of ["lesson/pages/chapter.html", "embed.html"]) {
    const items = listedStages(path);
    assert.deepEqual(items.map(([stage]) => stage), [...BOOT_STAGES], path);
    assert.ok(items.every(([, status, words]) => status === "pending" && words), path);
  }
  assert.equal(listedStages("embed.html").at(-1)[2], "the demo");
});

test("the panel's message says each of BOOT_STAGES while it is under way", () => {
  assert.deepEqual(Object.keys(STAGE_MESSAGES), [...BOOT_STAGES]);
  assert.ok(Object.values(STAGE_MESSAGES).every((words) => typeof words === "string" && words.endsWith("…")));
});
