// The boot panel's list of stages (boot-status.js), made from BOOT_STAGES, their one owner.
import assert from "node:assert/strict";
import { test } from "node:test";

import { STAGE_LABELS, stageItems } from "../../app/python/boot-status.js";
import { BOOT_STAGES } from "../../app/python/protocol.js";

test("the boot panel lists exactly BOOT_STAGES, each with its labels", () => {
  assert.deepEqual(Object.keys(STAGE_LABELS), [...BOOT_STAGES]);
  const document = { createElement: (tag) => ({ tag, dataset: {}, textContent: "" }) };
  for (const compact of [false, true]) {
    const items = stageItems(document, { compact });
    assert.deepEqual(items.map((item) => item.dataset.stage), [...BOOT_STAGES]);
    assert.ok(items.every((item) => item.tag === "li" && item.dataset.status === "pending" && item.textContent));
  }
  assert.equal(stageItems(document, { compact: true }).at(-1).textContent, "the demo");
});
