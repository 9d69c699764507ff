/**
 * The snapshot maker: the entry of a short-lived worker of its own, which the page starts once it
 * is idle (bridge.js prepareSnapshot). Its one request, REQUEST.SNAPSHOT, starts a fresh Python
 * and puts its memory snapshot in this build's cache, so that later visits start seconds sooner
 * (see startPython in boot.js). It never boots the learner's Python, nor announces stages: a
 * runtime started for a snapshot is not fit for use (its `js` module is a recording proxy, and
 * fetch from Python fails), so the learner's Python never is one.
 */
import { PYODIDE_INDEX_URL } from "../../config.js";
import { REPLY, REQUEST } from "../protocol.js";
import { describeError, post } from "./messages.js";
import { SNAPSHOT_URL, snapshotCache } from "./snapshot-cache.js";

self.addEventListener("message", ({ data }) => {
  if (data?.type !== REQUEST.SNAPSHOT) return;
  makeSnapshot().then(
    (outcome) => post({ type: REPLY.RESULT, id: data.id, value: outcome }),
    (error) => post({ type: REPLY.ERROR, id: data.id, error: describeError(error) }),
  );
});

/** "made", or "kept" when this build has one, or why not. */
async function makeSnapshot() {
  // Several embeds on one course page each ask: one at a time, and the later ones find it made.
  return navigator.locks ? navigator.locks.request(SNAPSHOT_URL, snapshotOnce) : snapshotOnce();
}

async function snapshotOnce() {
  const cache = await snapshotCache();
  if (!cache) return "no cache of this build";
  if (await cache.match(SNAPSHOT_URL)) return "kept";
  const { loadPyodide } = await import(`${PYODIDE_INDEX_URL}pyodide.mjs`);
  const python = await loadPyodide({ indexURL: PYODIDE_INDEX_URL, _makeSnapshot: true });
  const headers = { "Content-Type": "application/octet-stream" };
  await cache.put(SNAPSHOT_URL, new Response(python.makeMemorySnapshot(), { headers }));
  return "made";
}
