/**
 * The contract between the page and the Python worker: every message type, in one place, as
 * the typedefs below (tsc checks them: see jsconfig.json). The worker's entries are
 * worker/main.js (the learner's Python) and worker/snapshot.js (the snapshot maker);
 * start-python.js starts either.
 *
 * Three kinds of message:
 * - requests (page -> worker) carry an `id` and get exactly one reply with that `id`
 *   (`Reply`); the worker runs them one at a time, in order: `CallRequest`, `RunRequest`, and
 *   `SnapshotRequest`, worker/snapshot.js's one request;
 * - notices (page -> worker) carry no `id` and get no reply, handled at once: `InitMessage`
 *   (once, first, sent by start-python.js), `FileMessage`, `RecycleMessage`;
 * - events (worker -> page) carry no `id`: `WorkerEvent`.
 */

/**
 * Sent once, first, by start-python.js, which starts every worker.
 *
 * @typedef {object} InitMessage
 * @property {"init"} type
 * @property {SharedArrayBuffer | null} interruptBuffer for Stop (SIGINT is written into it), or
 *   null without cross-origin isolation
 * @property {boolean} uncontrolled true when the browser has service workers but none serves the
 *   page yet (a first visit: see worker/boot.js withDistinctRuntime)
 * @property {string[]} handed the URLs of the files the page is fetching for this worker
 *   (worker/prefetch.js), perhaps none
 */

/**
 * A response as the page hands it over: its body (decoded) a Blob, of its headers only
 * [["Content-Type", type]].
 *
 * @typedef {object} HandedResponse
 * @property {number} status
 * @property {string} statusText
 * @property {[string, string][]} headers
 * @property {Blob} blob
 */

/**
 * One for each handed URL, as its download ends: the response, or why it could not be fetched.
 *
 * @typedef {{type: "file", url: string, response: HandedResponse}
 *   | {type: "file", url: string, error: string}} FileMessage
 */

/**
 * ArrayBuffers of results the page is done with, sent back (transferred) for the worker to copy
 * later arrays into: fresh memory costs a page fault per 4 KB, about 1 ms per 2 MB here, on
 * every frame of a dragged slider.
 *
 * @typedef {object} RecycleMessage
 * @property {"recycle"} type
 * @property {ArrayBuffer[]} buffers
 */

/**
 * A page canvas the worker paints a result's RGBA on itself, as it is computed; `offscreen`
 * (transferred) comes once, with the first call for that id.
 *
 * @typedef {object} CanvasHandle
 * @property {number} id
 * @property {OffscreenCanvas} [offscreen]
 */

/**
 * Run the pelab entry point `fn` with keyword `args` (Python's names: snake_case). With a
 * `canvas`, the reply's value has no `rgba` but `paintedAt` (ms since the epoch): see bridge.js.
 *
 * @typedef {object} CallRequest
 * @property {"call"} type
 * @property {number} id
 * @property {string} fn
 * @property {Record<string, unknown>} args
 * @property {CanvasHandle} [canvas]
 */

/**
 * Run a code cell in the page's shared namespace; the reply's value is a `RunOutcome`.
 *
 * @typedef {object} RunRequest
 * @property {"run"} type
 * @property {number} id
 * @property {string} cell the cell's name (its data-cell)
 * @property {string} code
 */

/**
 * worker/snapshot.js's one request: make this build's memory snapshot of a fresh Python; the
 * reply's value is "made" or "kept" (one exists).
 *
 * @typedef {object} SnapshotRequest
 * @property {"snapshot"} type
 * @property {number} id
 */

/**
 * Page -> worker, each with an `id` and exactly one `Reply`.
 *
 * @typedef {CallRequest | RunRequest | SnapshotRequest} Request
 */
/**
 * Page -> worker, without an `id` or a reply.
 *
 * @typedef {InitMessage | FileMessage | RecycleMessage} Notice
 */
/**
 * Everything the page posts to a worker.
 *
 * @typedef {Request | Notice} ToWorker
 */

/**
 * What a code cell's run comes back with.
 *
 * @typedef {{ok: true, repr: string | null} | {ok: false, error: ErrorInfo}} RunOutcome
 */

/**
 * An error as a reply carries it (worker/messages.js describeError).
 *
 * @typedef {object} ErrorInfo
 * @property {string} type the Python exception's type, e.g. "ValueError"
 * @property {string} message its last line
 * @property {string} [traceback]
 */

/**
 * A request's result: a plain object, arrays as typed arrays (for "run", a `RunOutcome`).
 *
 * @typedef {object} ResultReply
 * @property {"result"} type
 * @property {number} id
 * @property {any} value
 */

/**
 * @typedef {object} ErrorReply
 * @property {"error"} type
 * @property {number} id
 * @property {ErrorInfo} error
 */

/**
 * Exactly one per request, with its `id`.
 *
 * @typedef {ResultReply | ErrorReply} Reply
 */

/**
 * A boot stage (see BOOT_STAGES) has started, at `at` (ms since the epoch: timeOrigin + now in
 * the worker).
 *
 * @typedef {object} ProgressEvent
 * @property {"progress"} type
 * @property {string} stage
 * @property {number} at
 */

/**
 * @typedef {object} Versions
 * @property {string} pyodide
 * @property {string} python
 * @property {string} numpy
 * @property {boolean} fromSnapshot started from this build's snapshot
 * @property {boolean} distinctRuntime compiled a marked copy of the runtime
 */

/**
 * Python is up, at `at`.
 *
 * @typedef {object} ReadyEvent
 * @property {"ready"} type
 * @property {Versions} versions
 * @property {number} at
 */

/**
 * Python could not start: a boot stage failed. `message` is why, in English or in the words of
 * whatever failed; `said`, when the worker wrote it, is the same sentence for the page to word
 * in its language (worker/said.js, app/i18n.js tSaid).
 *
 * @typedef {object} FatalEvent
 * @property {"fatal"} type
 * @property {string} stage
 * @property {string} message
 * @property {{text: string, values: Record<string, string | number>}} [said]
 */

/**
 * The runtime died after boot (abort, exit, C stack overflow): the page starts a fresh worker.
 *
 * @typedef {object} CrashEvent
 * @property {"crash"} type
 * @property {string} message
 */

/**
 * What a run is waiting for: the packages it is loading, as Pyodide names them
 * ("matplotlib, pillow"), or "" when it is done waiting. The page words it.
 *
 * @typedef {object} StatusEvent
 * @property {"status"} type
 * @property {string | null} cell
 * @property {string} packages
 */

/**
 * Text a cell printed (cell is null outside runs).
 *
 * @typedef {object} OutputEvent
 * @property {"stdout" | "stderr"} type
 * @property {string | null} cell
 * @property {string} text
 */

/**
 * Rich output: kind "figure" (PNG bytes) or "heatmap".
 *
 * @typedef {object} DisplayEvent
 * @property {"display"} type
 * @property {string | null} cell
 * @property {"figure" | "heatmap"} kind
 * @property {any} payload
 */

/**
 * @typedef {ProgressEvent | ReadyEvent | FatalEvent | CrashEvent | StatusEvent | OutputEvent
 *   | DisplayEvent} WorkerEvent
 */
/**
 * Everything a worker posts to the page.
 *
 * @typedef {Reply | WorkerEvent} FromWorker
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
