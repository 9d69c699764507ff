/**
 * The bridge: the only module that owns the Python worker and sees its messages. Workers are
 * started and ended by start-python.js's factory (`pelabPython`), which says why it is there.
 *
 * The rest of the page calls plain async functions (`await python.call("relative", {k, dModel})`,
 * `await python.heatmap({...}, canvas)`, `await python.run(cell, code)`, `await python.stop()`)
 * and listens for events ("progress", "ready", "fatal", "restart", "canvasreplaced", "status",
 * "stdout", "stderr", "display"). When the runtime dies after boot, the bridge restarts it by
 * itself and says so ("restart").
 */
import { BOOT_STAGES, EVENT, REPLY, REQUEST } from "./protocol.js";
import { MARK } from "../page-protocol.js";
import { t, tSaid } from "../i18n.js";

/**
 * @template T
 * @template {PropertyKey} K
 * @typedef {T extends unknown ? Omit<T, K> : never} DistributiveOmit
 */

/** How long one boot stage may take before the page gives up and says so. */
const STAGE_TIMEOUT_MS = 60_000;
/** How long Stop waits for an interrupted run to end before it restarts Python instead. */
const INTERRUPT_GRACE_MS = 1_500;
const SIGINT = 2;

/** The worker factory of start-python.js, a classic script every page with Python loads first. */
function workers() {
  if (!globalThis.pelabPython) throw new Error("app/python/start-python.js, which starts Python, is not on this page");
  return globalThis.pelabPython;
}

/** Ends the Python start-python.js started, on a page that turns out not to need it. */
export function discardStartedPython() {
  globalThis.pelabPython?.adopt()?.end();
}

/**
 * A performance mark at `at` (ms since the epoch, from the worker's clock), or now: a message
 * from a worker started early (start-python.js) is only read once the bridge exists.
 */
function mark(name, at) {
  const startTime = at === undefined ? performance.now() : Math.max(0, at - performance.timeOrigin);
  performance.mark(name, { startTime });
}

/**
 * Hand an event a worker posted before its owner listened to the listener of its type. (A
 * script that fails to load fires a plain Event "error", not an ErrorEvent.)
 *
 * @param {MessageEvent | ErrorEvent} event
 * @param {(event: MessageEvent) => void} onMessage
 * @param {(event: ErrorEvent) => void} onError
 */
function replay(event, onMessage, onError) {
  if (event.type === "error") onError(/** @type {ErrorEvent} */ (event));
  else onMessage(/** @type {MessageEvent} */ (event));
}

/** `dModel` -> `d_model`: a page's name for a parameter, in Python's spelling. */
export function snakeCase(key) {
  return key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/**
 * A demo's parameters as an entry point's keyword arguments: keys in snake_case, undefined
 * values left out (Python's default applies).
 *
 * @param {Record<string, unknown>} params
 * @returns {Record<string, unknown>}
 */
export function pythonArguments(params) {
  return Object.fromEntries(
    Object.entries(params)
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => [snakeCase(key), value]),
  );
}

/** An error raised by Python, with its traceback. */
export class PythonError extends Error {
  /** @param {import("./protocol.js").ErrorInfo} error */
  constructor({ type, message, traceback }) {
    super(message);
    this.name = "PythonError";
    this.type = type;
    this.traceback = traceback ?? message;
  }
}

export class PythonBridge extends EventTarget {
  /**
   * The running worker, from start-python.js's factory: {worker, interrupt, release, end}.
   *
   * @type {StartedPython | null}
   */
  #python = null;
  /**
   * Requests waiting for their reply, by id.
   *
   * @type {Map<number, {resolve: (value: any) => void, reject: (error: Error) => void}>}
   */
  #pending = new Map();
  #runs = new Set();
  #nextId = 1;
  /** Canvases handed to the running worker to paint on: canvas -> id. */
  #handedOver = new Map();
  /** Canvases handed to an earlier worker, which took them along: never handed over again. */
  #lost = new WeakSet();
  #nextCanvasId = 1;
  /** The last two heatmap results per canvas, [before, latest]: see heatmap. */
  #heatmaps = new WeakMap();
  #liveHeatmap = false;
  #settle;
  #watchdog = null;
  #stage = BOOT_STAGES[0];
  #failed = false;
  #booted = false;

  constructor() {
    super();
    this.#start();
  }

  /** True while Python is up and answering: from "ready" until it fails or restarts. */
  get isReady() {
    return this.#booted;
  }

  /** True when Stop can interrupt Python; otherwise Stop restarts it. */
  get canInterrupt() {
    return Boolean(this.#python?.interrupt);
  }

  /**
   * Run the pelab entry point `name` (its name in pelab.browser.entry_points.ENTRY_POINTS, e.g.
   * "training_reset") with `params`, whose camelCase keys become the entry point's snake_case
   * keyword arguments (`{dModel: 64}` -> `d_model=64`); a key whose value is undefined is left
   * out, so Python's default applies. Resolves with its result (plain data, arrays as typed
   * arrays), rejects with a PythonError.
   *
   * @param {string} name
   * @param {Record<string, unknown>} [params]
   * @returns {Promise<any>}
   */
  async call(name, params = {}) {
    return this.#call(name, pythonArguments(params));
  }

  /**
   * Send a `call` request with keyword arguments already in Python's spelling. With a `canvas`,
   * the worker paints the result's `rgba` on it itself, and the result has `paintedAt` (ms since
   * the epoch) instead, unless the canvas could not be handed over (see #handOver); then the
   * caller paints `rgba`.
   *
   * @param {string} fn
   * @param {Record<string, unknown>} args
   * @param {HTMLCanvasElement | null} [canvas]
   */
  async #call(fn, args, canvas = null) {
    await this.ready;
    const handover = canvas && this.#handOver(canvas);
    return this.#request({ type: REQUEST.CALL, fn, args, canvas: handover?.canvas }, handover?.transfer);
  }

  /**
   * Hand `canvas` to the worker to paint on, once per canvas (a canvas can only be handed over
   * once, ever): what the call message carries, or null where the page paints it itself, in
   * browsers without OffscreenCanvas and on a canvas the page has drawn on.
   */
  #handOver(canvas) {
    const id = this.#handedOver.get(canvas);
    if (id) return { canvas: { id }, transfer: [] };
    if (this.#lost.has(canvas) || typeof canvas.transferControlToOffscreen !== "function") return null;
    let offscreen;
    try {
      offscreen = canvas.transferControlToOffscreen();
    } catch {
      return null; // it has a context of its own
    }
    const newId = this.#nextCanvasId++;
    this.#handedOver.set(canvas, newId);
    return { canvas: { id: newId, offscreen }, transfer: [offscreen] };
  }

  /**
   * After a restart: the old worker took the canvases handed to it along. A copy of each
   * (attributes, not listeners) takes its place, showing what it last showed, and focused if it
   * was; the page paints that one itself from then on. A "canvasreplaced" event {canvas,
   * replacement} tells whoever holds the old one (before the copy takes the focus).
   */
  #replaceCanvases() {
    for (const canvas of this.#handedOver.keys()) {
      this.#lost.add(canvas);
      const copy = canvas.cloneNode(false);
      copy.width = canvas.width;
      copy.height = canvas.height;
      try {
        copy.getContext("2d").drawImage(canvas, 0, 0);
      } catch {
        // blank until the next result
      }
      const focused = document.activeElement === canvas;
      canvas.replaceWith(copy);
      if (this.#heatmaps.has(canvas)) this.#heatmaps.set(copy, this.#heatmaps.get(canvas));
      this.dispatchEvent(new CustomEvent("canvasreplaced", { detail: { canvas, replacement: copy } }));
      if (focused) copy.focus();
    }
    this.#handedOver.clear();
  }

  /**
   * Run a code cell in the page's shared namespace. Resolves with {ok, repr, error}; what it
   * prints and shows arrives meanwhile as events carrying `cell`.
   */
  async run(cell, code) {
    await this.ready;
    const done = this.#request({ type: REQUEST.RUN, cell, code });
    this.#runs.add(done);
    done.finally(() => this.#runs.delete(done)).catch(() => {});
    return done;
  }

  /**
   * Give the worker back the buffers of the typed arrays in `results`, which the page is done
   * with (they are detached here): it copies later results into them instead of fresh memory.
   */
  #recycle(...results) {
    const arrays = results.flatMap((result) => Object.values(result ?? {})).filter((item) => ArrayBuffer.isView(item));
    const buffers = [...new Set(arrays.map((array) => array.buffer))].filter((buffer) => buffer.byteLength);
    if (buffers.length && this.#booted) this.#python.worker.postMessage({ type: REQUEST.RECYCLE, buffers }, buffers);
  }

  /** The boot stage Python is in (see BOOT_STAGES), for a page that starts listening late. */
  get stage() {
    return this.#stage;
  }

  /** True while a cell runs or waits to run. */
  get busy() {
    return this.#runs.size > 0;
  }

  /**
   * Stop running code: interrupt it (KeyboardInterrupt) where the page is cross-origin
   * isolated, else, or if it does not stop in time, restart Python. Resolves with what it did:
   * "idle", "interrupted" or "restarted".
   */
  async stop() {
    if (!this.busy) return "idle";
    const interrupt = this.#python?.interrupt;
    if (interrupt) {
      Atomics.store(interrupt, 0, SIGINT);
      const settled = Promise.allSettled([...this.#runs]).then(() => true);
      const late = new Promise((resolve) => setTimeout(resolve, INTERRUPT_GRACE_MS, false));
      if (await Promise.race([settled, late])) return "interrupted";
    }
    this.restart(t("Stop could not interrupt the running code"));
    return "restarted";
  }

  /** End the worker and start a fresh one: variables from earlier cells are gone. */
  restart(reason) {
    this.#python?.end();
    this.#replaceCanvases();
    // Translators: said in a code cell's output; {reason} says why, such as "Stop could not interrupt the running code".
    const error = new PythonError({ type: "Restarted", message: t("Python was restarted: {reason}", { reason }) });
    for (const request of this.#pending.values()) request.reject(error);
    this.#pending.clear();
    this.#runs.clear();
    this.#start();
    this.dispatchEvent(new CustomEvent("restart", { detail: { reason } }));
  }

  /**
   * A bridge to a Python of its own, in a new worker (booted from scratch: a few seconds), for a
   * demo that computes for long enough to hold up the others (the training demo). End it with
   * close().
   */
  another() {
    return new PythonBridge();
  }

  /**
   * End this bridge's worker for good, at once, freeing its memory: whatever it was computing
   * is dropped and every pending request rejects with a PythonError of type "Closed". For a
   * bridge of its own that a demo made (a second `new PythonBridge()`), not the lesson's.
   */
  close(reason = "closed") {
    const python = this.#python;
    this.#python = null; // its late messages are ignored from now on
    python?.end();
    clearTimeout(this.#watchdog);
    this.#failed = true;
    const error = new PythonError({ type: "Closed", message: `Python was ended: ${reason}` });
    this.#settle.reject(error);
    for (const request of this.#pending.values()) request.reject(error);
    this.#pending.clear();
    this.#runs.clear();
  }

  /**
   * Make a memory snapshot of a fresh Python for this build, in a separate short-lived worker,
   * so that later visits start seconds sooner (see worker/snapshot.js). Call it once the page
   * is idle. Resolves with "made", "kept" (there is one), or why not.
   */
  prepareSnapshot() {
    if (!globalThis.caches) return Promise.resolve("no cache storage");
    return new Promise((resolve) => {
      const maker = workers().start("snapshot");
      const done = (outcome) => {
        clearTimeout(timer);
        maker.end();
        resolve(outcome);
      };
      const timer = setTimeout(done, STAGE_TIMEOUT_MS, "timed out");
      const onMessage = ({ data }) => {
        if (data.type === REPLY.RESULT) done(data.value);
        if (data.type === REPLY.ERROR) done(`failed: ${data.error.message}`);
      };
      const onError = (event) => done(`failed: ${event.message}`);
      maker.worker.addEventListener("message", onMessage);
      maker.worker.addEventListener("error", onError);
      for (const event of maker.release()) replay(event, onMessage, onError);
      maker.worker.postMessage({ type: REQUEST.SNAPSHOT, id: 0 });
    }).catch((error) => `failed: ${error.message}`);
  }

  /**
   * The sinusoidal encoding as RGBA pixels plus its values (see pelab.browser.demos.heatmap); with a
   * `canvas`, painted on it by the worker where it can (see #call), else the caller paints `rgba`.
   *
   * `requestedAt` (performance.now() of the input this answers, by default now) times it for
   * python3 build.py bench: the first result is marked MARK.FIRST_LIVE_HEATMAP, and each one
   * measured as MARK.HEATMAP_LATENCY (app/page-protocol.js), from input to pixels.
   *
   * On a canvas, the caller may use the arrays of the latest result it got (the one it shows)
   * until its next call returns: each call gives the worker back the arrays of the result
   * before that one, which are detached then (see #recycle).
   */
  async heatmap({ seqLen, dModel, base, concatenated = false, requestedAt = performance.now() }, canvas = null) {
    if (canvas) {
      const [before, latest] = this.#heatmaps.get(canvas) ?? [];
      this.#recycle(before);
      this.#heatmaps.set(canvas, [null, latest]);
    }
    const result = await this.#call("heatmap", pythonArguments({ seqLen, dModel, base, concatenated }), canvas);
    const painted = result.paintedAt ? result.paintedAt - performance.timeOrigin : performance.now();
    if (!this.#liveHeatmap) performance.mark(MARK.FIRST_LIVE_HEATMAP, { startTime: painted });
    this.#liveHeatmap = true;
    performance.measure(MARK.HEATMAP_LATENCY, { start: requestedAt, end: painted });
    if (canvas) {
      const [, latest] = this.#heatmaps.get(canvas) ?? [];
      this.#heatmaps.set(canvas, [latest, result]);
    }
    return result;
  }

  #start() {
    this.#failed = false;
    this.#booted = false;
    this.#stage = BOOT_STAGES[0];
    /** Resolves with {pyodide, python, numpy} versions once Python is up; rejects if boot fails. */
    this.ready = new Promise((resolve, reject) => (this.#settle = { resolve, reject }));
    this.ready.catch(() => {}); // the "fatal" event reports it
    let python;
    try {
      // The first bridge adopts the Python started while the page was parsed; restarts (and any
      // later bridge) start their own. Either way it has been sent "init".
      python = workers().adopt() ?? workers().start("python");
    } catch (error) {
      this.#python = null;
      return this.#fail(t("the Python worker could not start ({error})", { error: error.message }));
    }
    this.#python = python;
    const onMessage = ({ data }) => python === this.#python && this.#receive(data);
    const onError = (event) => {
      event.preventDefault();
      if (python !== this.#python) return;
      if (this.#booted) {
        const error = event.message || t("the worker failed");
        // Translators: why Python restarts, put into "Restarting Python (...)"; {error} is the browser's message.
        return this.restart(t("it stopped working ({error})", { error }));
      }
      const error = event.message || t("a script failed to load");
      // Translators: {command} is a command to type.
      this.#fail(t("the Python worker could not start ({error}). If you built the site yourself, run {command} and reload.", { error, command: "python3 build.py build" }));
    };
    python.worker.addEventListener("message", onMessage);
    python.worker.addEventListener("error", onError);
    // What it said before now is replayed, in order, before anything newer.
    for (const event of python.release()) replay(event, onMessage, onError);
    this.#armWatchdog();
  }

  /**
   * Send a request; resolves with its reply's value, rejects with a PythonError.
   *
   * @param {DistributiveOmit<import("./protocol.js").CallRequest | import("./protocol.js").RunRequest, "id">} message
   * @param {Transferable[]} [transfer]
   * @returns {Promise<any>}
   */
  #request(message, transfer = []) {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#python.worker.postMessage({ ...message, id }, transfer);
    });
  }

  /** @param {import("./protocol.js").FromWorker} message */
  #receive(message) {
    switch (message.type) {
      case REPLY.RESULT:
      case REPLY.ERROR: {
        const request = this.#pending.get(message.id);
        this.#pending.delete(message.id);
        if (message.type === REPLY.RESULT) request?.resolve(message.value);
        else request?.reject(new PythonError(message.error));
        return;
      }
      case EVENT.PROGRESS:
        mark(`${MARK.STAGE}${message.stage}`, message.at); // python3 build.py bench reports them
        this.#stage = message.stage;
        this.#armWatchdog();
        break;
      case EVENT.READY:
        mark(`${MARK.STAGE}ready`, message.at);
        this.#booted = true;
        clearTimeout(this.#watchdog);
        this.#settle.resolve(message.versions);
        break;
      case EVENT.FATAL:
        this.#fail(message.said ? tSaid(message.said) : message.message);
        return;
      case EVENT.CRASH:
        this.restart(t("it stopped working ({error})", { error: message.message.split("\n")[0] }));
        return;
    }
    this.dispatchEvent(new CustomEvent(message.type, { detail: message }));
  }

  #armWatchdog() {
    clearTimeout(this.#watchdog);
    this.#watchdog = setTimeout(
      // Translators: {stage} is the name of a stage of Python's start, such as "numpy".
      () => this.#fail(t("no progress for {seconds} s while loading {stage}", { seconds: STAGE_TIMEOUT_MS / 1000, stage: this.#stage })),
      STAGE_TIMEOUT_MS,
    );
  }

  #fail(message) {
    if (this.#failed) return;
    this.#failed = true;
    clearTimeout(this.#watchdog);
    const error = new Error(message);
    this.#settle.reject(error);
    for (const request of this.#pending.values()) request.reject(error);
    this.#pending.clear();
    this.dispatchEvent(new CustomEvent(EVENT.FATAL, { detail: { type: EVENT.FATAL, stage: this.#stage, message } }));
  }
}
