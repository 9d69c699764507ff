/**
 * The bridge: the only module that creates the Python worker and sees its messages.
 *
 * The rest of the page calls plain async functions (`await python.heatmap({...})`,
 * `await python.run(cell, code)`, `await python.stop()`) and listens for events
 * ("progress", "ready", "fatal", "restart", "status", "stdout", "stderr", "display").
 * When the runtime dies after boot, the bridge restarts it by itself and says so ("restart").
 */
import { EVENT, REPLY, REQUEST } from "./protocol.js";

const WORKER_URL = new URL("./worker.js", import.meta.url);
/** How long one boot stage may take before the page gives up and says so. */
const STAGE_TIMEOUT_MS = 60_000;
/** How long Stop waits for an interrupted run to end before it restarts Python instead. */
const INTERRUPT_GRACE_MS = 1_500;
const SIGINT = 2;

/**
 * The worker start-python.js started while the page was parsed, taken by the first bridge that
 * starts (later ones, and restarts, make their own); null on pages without it.
 */
function adoptStartedPython() {
  const started = globalThis.pelabStartedPython ?? null;
  delete globalThis.pelabStartedPython;
  return started;
}

/** Ends the worker start-python.js started, on a page that turns out not to need Python. */
export function discardStartedPython() {
  adoptStartedPython()?.worker.terminate();
}

/**
 * A performance mark at `at` (ms since the epoch, from the worker's clock), or now: a message
 * from a worker started early (start-python.js) is only read once the bridge exists.
 */
function mark(name, at) {
  const startTime = at === undefined ? performance.now() : Math.max(0, at - performance.timeOrigin);
  performance.mark(name, { startTime });
}

/** An error raised by Python, with its traceback. */
export class PythonError extends Error {
  constructor({ type, message, traceback }) {
    super(message);
    this.name = "PythonError";
    this.type = type;
    this.traceback = traceback ?? message;
  }
}

export class PythonBridge extends EventTarget {
  #worker = null;
  #pending = new Map();
  #runs = new Set();
  #nextId = 1;
  /** Canvases handed to a worker to paint on: canvas -> {worker, id}. */
  #handedOver = new WeakMap();
  #nextCanvasId = 1;
  #settle;
  #watchdog = null;
  #stage = "runtime";
  #failed = false;
  #interrupt = null;
  #booted = false;

  constructor() {
    super();
    /** True when Stop can interrupt Python; otherwise Stop restarts it. */
    this.canInterrupt = globalThis.crossOriginIsolated === true && typeof SharedArrayBuffer === "function";
    this.#start();
  }

  /**
   * Run a pelab entry point in the worker; resolves with its result, rejects with a PythonError.
   * With a `canvas`, the worker paints the result's `rgba` on it itself, and the result has
   * `paintedAt` (ms since the epoch) instead, unless the canvas could not be handed over: see
   * paintingCanvas.
   */
  async call(fn, args = {}, canvas = null) {
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
    const handed = this.#handedOver.get(canvas);
    if (handed) return handed.worker === this.#worker ? { canvas: { id: handed.id }, transfer: [] } : null;
    if (typeof canvas.transferControlToOffscreen !== "function") return null;
    let offscreen;
    try {
      offscreen = canvas.transferControlToOffscreen();
    } catch {
      return null; // it has a context of its own
    }
    const id = this.#nextCanvasId++;
    this.#handedOver.set(canvas, { worker: this.#worker, id });
    return { canvas: { id, offscreen }, transfer: [offscreen] };
  }

  /**
   * The canvas to paint on in place of `canvas`: `canvas` itself, unless it was handed to a
   * worker that has since been replaced (restart), which took it along. Then a copy of it
   * (attributes, not listeners) takes its place, showing what it last showed, and the page
   * paints that one itself from then on.
   */
  paintingCanvas(canvas) {
    const handed = this.#handedOver.get(canvas);
    if (!handed || handed.worker === this.#worker) return canvas;
    const copy = canvas.cloneNode(false);
    copy.width = canvas.width;
    copy.height = canvas.height;
    try {
      copy.getContext("2d").drawImage(canvas, 0, 0);
    } catch {
      // blank until the next result
    }
    canvas.replaceWith(copy);
    return copy;
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
   * Give the worker back the buffers of typed arrays from earlier results, once the page is done
   * with them (they are detached here): it copies later results into them instead of fresh memory.
   */
  recycle(...arrays) {
    const buffers = [...new Set(arrays.map((array) => array?.buffer))].filter((buffer) => buffer?.byteLength);
    if (buffers.length && this.#booted) this.#worker.postMessage({ type: REQUEST.RECYCLE, buffers }, buffers);
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
    if (this.#interrupt) {
      Atomics.store(this.#interrupt, 0, SIGINT);
      const settled = Promise.allSettled([...this.#runs]).then(() => true);
      const late = new Promise((resolve) => setTimeout(resolve, INTERRUPT_GRACE_MS, false));
      if (await Promise.race([settled, late])) return "interrupted";
    }
    this.restart("Stop could not interrupt the running code");
    return "restarted";
  }

  /** End the worker and start a fresh one: variables from earlier cells are gone. */
  restart(reason) {
    this.#worker?.terminate();
    const error = new PythonError({ type: "Restarted", message: `Python was restarted: ${reason}` });
    for (const request of this.#pending.values()) request.reject(error);
    this.#pending.clear();
    this.#runs.clear();
    this.#start();
    this.dispatchEvent(new CustomEvent("restart", { detail: { reason } }));
  }

  /**
   * Make a memory snapshot of a fresh Python for this build, in a separate short-lived worker,
   * so that later visits start seconds sooner (see startPython in worker.js). Call it once
   * the page is idle. Resolves with "made", "kept" (there is one), or why not.
   */
  prepareSnapshot() {
    if (!globalThis.caches) return Promise.resolve("no cache storage");
    const worker = new Worker(WORKER_URL, { type: "module", name: "python-snapshot" });
    return new Promise((resolve) => {
      const done = (outcome) => {
        clearTimeout(timer);
        worker.terminate();
        resolve(outcome);
      };
      const timer = setTimeout(done, STAGE_TIMEOUT_MS, "timed out");
      worker.addEventListener("message", ({ data }) => {
        if (data.type === REPLY.RESULT) done(data.value);
        if (data.type === REPLY.ERROR) done(`failed: ${data.error.message}`);
      });
      worker.addEventListener("error", (event) => done(`failed: ${event.message}`));
      worker.postMessage({ type: REQUEST.SNAPSHOT, id: 0 });
    });
  }

  /**
   * The sinusoidal encoding as RGBA pixels plus its values (see pelab.adapter.heatmap); with a
   * `canvas`, painted on it by the worker (see call).
   */
  heatmap({ seqLen, dModel, base, concatenated = false }, canvas = null) {
    return this.call("heatmap", { seq_len: seqLen, d_model: dModel, base, concatenated }, canvas);
  }

  /** One attention head over a sentence and a reordering of it, with or without positions. */
  attention({ sentence, order = null, withPe = false, causal = false }) {
    return this.call("attention", { sentence, order, with_pe: withPe, causal });
  }

  /** Every term of the formula for one position: j, i, exponent, angle, value. */
  formula({ pos, dModel, base }) {
    return this.call("formula", { pos, d_model: dModel, base });
  }

  /** Chosen pairs' sin and cos against position, every pair's wavelength and angle at `pos`. */
  waves({ dModel, base, pairs, maxPos, pos }) {
    return this.call("waves", { d_model: dModel, base, pairs, max_pos: maxPos, pos });
  }

  /** A word's embedding, the encoding of its position, and their sum. */
  added({ word, pos, dModel, base = 10000 }) {
    return this.call("added", { word, pos, d_model: dModel, base });
  }

  /** M_k, the rotation taking PE(pos) to PE(pos + k), and how well it and a sine-only map fit. */
  relative({ k, dModel, base = 10000, seqLen = 64 }) {
    return this.call("relative", { k, d_model: dModel, base, seq_len: seqLen });
  }

  /** Dot products and cosine similarities between every pair of positions. */
  similarity({ seqLen, dModel, base, pos }) {
    return this.call("similarity", { seq_len: seqLen, d_model: dModel, base, pos });
  }

  /** Learned, sinusoidal and rotary encodings compared position by position. */
  compare({ seqLen, dModel = 64, maxLen, base = 10000 }) {
    return this.call("compare", { seq_len: seqLen, d_model: dModel, max_len: maxLen, base });
  }

  /** How close the two most alike positions come as the sequence grows. */
  extrapolation({ dModel, base, trainLen, seqLen }) {
    return this.call("extrapolation", { d_model: dModel, base, train_len: trainLen, seq_len: seqLen });
  }

  #start() {
    this.#failed = false;
    this.#booted = false;
    this.#stage = "runtime";
    /** Resolves with {pyodide, python, numpy} versions once Python is up; rejects if boot fails. */
    this.ready = new Promise((resolve, reject) => (this.#settle = { resolve, reject }));
    this.ready.catch(() => {}); // the "fatal" event reports it
    const started = adoptStartedPython();
    const worker = started?.worker ?? new Worker(WORKER_URL, { type: "module", name: "python" });
    this.#worker = worker;
    const onMessage = ({ data }) => worker === this.#worker && this.#receive(data);
    const onError = (event) => {
      event.preventDefault();
      if (worker !== this.#worker) return;
      if (this.#booted) return this.restart(`it stopped working (${event.message || "the worker failed"})`);
      this.#fail(
        `the Python worker could not start (${event.message || "a script failed to load"}). ` +
          "If you built the site yourself, run python3 build.py build and reload.",
      );
    };
    worker.addEventListener("message", onMessage);
    worker.addEventListener("error", onError);
    if (started) {
      // Already sent "init"; what it said before now is replayed, in order, before anything newer.
      this.#interrupt = started.interrupt;
      for (const event of started.release()) (event.type === "error" ? onError : onMessage)(event);
    } else {
      this.#interrupt = this.canInterrupt ? new Int32Array(new SharedArrayBuffer(4)) : null;
      const uncontrolled = "serviceWorker" in navigator && !navigator.serviceWorker.controller;
      worker.postMessage({ type: REQUEST.INIT, interruptBuffer: this.#interrupt?.buffer ?? null, uncontrolled });
    }
    this.#armWatchdog();
  }

  #request(message, transfer = []) {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ ...message, id }, transfer);
    });
  }

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
        mark(`pelab:stage-${message.stage}`, message.at); // python3 build.py bench reports them
        this.#stage = message.stage;
        this.#armWatchdog();
        break;
      case EVENT.READY:
        mark("pelab:stage-ready", message.at);
        this.#booted = true;
        clearTimeout(this.#watchdog);
        this.#settle.resolve(message.versions);
        break;
      case EVENT.FATAL:
        this.#fail(message.message);
        return;
      case EVENT.CRASH:
        this.restart(`it stopped working (${message.message.split("\n")[0]})`);
        return;
    }
    this.dispatchEvent(new CustomEvent(message.type, { detail: message }));
  }

  #armWatchdog() {
    clearTimeout(this.#watchdog);
    this.#watchdog = setTimeout(
      () => this.#fail(`no progress for ${STAGE_TIMEOUT_MS / 1000} s while loading ${this.#stage}`),
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
