/**
 * The contract between the page and the Python worker: every message type, in one place.
 * The worker's entries are worker/main.js (the learner's Python) and worker/snapshot.js (the
 * snapshot maker); start-python.js starts either.
 *
 * Page -> worker/main.js, once, first (sent by start-python.js, which starts every worker):
 *   {type: "init", interruptBuffer, uncontrolled, handed}
 *                                         interruptBuffer: a SharedArrayBuffer for Stop, or null
 *                                         without isolation; uncontrolled: true when the browser
 *                                         has service workers but none serves the page yet (a
 *                                         first visit: see worker/boot.js withDistinctRuntime);
 *                                         handed: the URLs of the files the page is fetching for
 *                                         this worker (worker/prefetch.js), perhaps none
 * then, without an id or a reply, one for each of those URLs as its download ends:
 *   {type: "file", url, response}         response = {status, statusText, headers, blob}:
 *                                         the response, its body (decoded) a Blob, of its
 *                                         headers only [["Content-Type", type]]
 *   {type: "file", url, error}            or why it could not be fetched
 * Page -> worker/snapshot.js, its one request (it announces nothing, boots no learner's Python):
 *   {type: "snapshot", id}                make this build's memory snapshot of a fresh Python;
 *                                         the reply's value is "made" or "kept" (one exists)
 * Requests (page -> worker) carry an `id` and get exactly one reply with that `id`; the worker
 * runs them one at a time, in order:
 *   {type: "call", id, fn, args, canvas}  run the pelab entry point `fn` with keyword `args`.
 *                                         canvas (optional): {id, offscreen} of a page canvas
 *                                         the worker paints the result's RGBA on itself, as it
 *                                         is computed; `offscreen` (transferred) comes once, with
 *                                         the first call for that id. The reply then has no
 *                                         rgba but paintedAt (ms since the epoch): see bridge.js
 *   {type: "run", id, cell, code}         run a code cell in the page's shared namespace
 * And, without an id or a reply, handled at once:
 *   {type: "recycle", buffers}            ArrayBuffers of results the page is done with, sent
 *                                         back (transferred) for the worker to copy later arrays
 *                                         into: fresh memory costs a page fault per 4 KB, about
 *                                         1 ms per 2 MB here, on every frame of a dragged slider
 * Replies (worker -> page):
 *   {type: "result", id, value}           a plain object; arrays arrive as typed arrays. For "run":
 *                                         {ok: true, repr} or {ok: false, error}
 *   {type: "error", id, error}            error = {type, message, traceback}
 * Events (worker -> page) carry no `id`:
 *   {type: "progress", stage, at}         a boot stage (see BOOT_STAGES) has started, at `at`
 *                                         (ms since the epoch: timeOrigin + now in the worker)
 *   {type: "ready", versions, at}         Python is up (at `at`); versions = {pyodide, python, numpy,
 *                                         fromSnapshot: started from this build's snapshot,
 *                                         distinctRuntime: compiled a marked copy of the runtime}
 *   {type: "fatal", stage, message}       Python could not start (a boot stage failed)
 *   {type: "crash", message}              the runtime died after boot (abort, exit, C stack
 *                                         overflow): the page starts a fresh worker
 *   {type: "status", cell, text}          what a run is waiting for, e.g. "Loading matplotlib"
 *   {type: "stdout" | "stderr", cell, text}   text a cell printed (cell is null outside runs)
 *   {type: "display", cell, kind, payload}    rich output: kind "figure" (PNG) or "heatmap"
 */

export const REQUEST = Object.freeze({
  INIT: "init",
  FILE: "file",
  SNAPSHOT: "snapshot",
  CALL: "call",
  RUN: "run",
  RECYCLE: "recycle",
});
export const REPLY = Object.freeze({ RESULT: "result", ERROR: "error" });
export const EVENT = Object.freeze({
  PROGRESS: "progress",
  READY: "ready",
  FATAL: "fatal",
  CRASH: "crash",
  STATUS: "status",
  STDOUT: "stdout",
  STDERR: "stderr",
  DISPLAY: "display",
});

/**
 * Boot stages in order, the one list of their names: the worker announces all but the last
 * (worker/boot.js), the page does the last (drawing the demos); boot-status.js lists them in the
 * boot panel, and bench/run.py reads this line for its performance marks (pelab:stage-NAME).
 */
export const BOOT_STAGES = Object.freeze(["runtime", "numpy", "pelab", "render"]);

/** Output one run may print before the rest is dropped with a note (the page stays responsive). */
export const OUTPUT_LIMIT = Object.freeze({ chars: 200_000, lines: 5_000 });
