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

self.addEventListener("message", (/** @type {MessageEvent<import("../protocol.js").ToWorker>} */ { data }) => {
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
  python.runPython(WARM_UP);
  return "made";
}

/**
 * Python run after the snapshot is stored, for the next visit's runtime: it compiles the source
 * of every standard library module this Python imported from bytecode.
 *
 * Why: V8 keeps a WebAssembly module's code with the cached response it compiled only once it
 * has optimised some of its functions, which only hot functions earn. This worker's compile of
 * the service worker's copy is the one the next visit loads (see withDistinctRuntime in
 * boot.js). When the standard library came as sources only, starting Python compiled them and
 * made the compiler hot; with its bytecode (tools/jobs/stdlib_bytecode.py), starting Python
 * alone optimises nothing, V8 kept no code, and every second visit compiled the runtime again
 * (tests/browser/test_offline.py traces it). Compiling those sources here gives V8 back the same
 * work, in a worker of its own that ends right after, once the snapshot is safe.
 */
const WARM_UP = `
def _compile_the_stdlib_sources():
    import sys
    import zipfile

    stdlib = "/lib/python312.zip/"
    with zipfile.ZipFile(stdlib[:-1]) as archive:
        for module in list(sys.modules.values()):
            origin = getattr(getattr(module, "__spec__", None), "origin", None) or ""
            if origin.startswith(stdlib) and origin.endswith(".pyc"):
                source = archive.read(origin[len(stdlib):-1])
                compile(source, origin[:-1], "exec", dont_inherit=True)

_compile_the_stdlib_sources()
`;
