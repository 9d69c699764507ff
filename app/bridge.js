/**
 * The bridge: the only module that creates the Python worker and sees its messages.
 *
 * The rest of the page calls plain async functions (`await python.heatmap({...})`) and
 * listens for events ("progress", "ready", "fatal", "stdout", "stderr") on the bridge.
 */
import { EVENT, REPLY, REQUEST } from "./protocol.js";

/** How long one boot stage may take before the page gives up and says so. */
const STAGE_TIMEOUT_MS = 60_000;

/** An error raised by Python, with its traceback. */
export class PythonError extends Error {
  constructor({ type, message, traceback }) {
    super(message);
    this.name = "PythonError";
    this.type = type;
    this.traceback = traceback;
  }
}

export class PythonBridge extends EventTarget {
  #worker;
  #pending = new Map();
  #nextId = 1;
  #settle;
  #watchdog = null;
  #stage = "runtime";
  #failed = false;

  constructor() {
    super();
    /** Resolves with {pyodide, python, numpy} versions once Python is up; rejects if boot fails. */
    this.ready = new Promise((resolve, reject) => (this.#settle = { resolve, reject }));
    this.ready.catch(() => {}); // the "fatal" event reports it
    this.#worker = new Worker(new URL("./python-worker.js", import.meta.url), { type: "module", name: "python" });
    this.#worker.addEventListener("message", ({ data }) => this.#receive(data));
    this.#worker.addEventListener("error", (event) => {
      event.preventDefault();
      this.#fail(
        `the Python worker could not start (${event.message || "a script failed to load"}). ` +
          "If you built the site yourself, run python3 build.py build and reload.",
      );
    });
    this.#armWatchdog();
  }

  /** Run a pelab entry point in the worker; resolves with its result, rejects with a PythonError. */
  async call(fn, args = {}) {
    await this.ready;
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ type: REQUEST.CALL, id, fn, args });
    });
  }

  /** The sinusoidal encoding as RGBA pixels plus its values (see pelab.adapter.heatmap). */
  heatmap({ seqLen, dModel, base }) {
    return this.call("heatmap", { seq_len: seqLen, d_model: dModel, base });
  }

  /** The colour map as a 256 x 1 RGBA strip. */
  legend() {
    return this.call("legend");
  }

  /** One attention head over a sentence and a reordering of it, with or without positions. */
  attention({ sentence, order = null, withPe = false }) {
    return this.call("attention", { sentence, order, with_pe: withPe });
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
        this.#stage = message.stage;
        this.#armWatchdog();
        break;
      case EVENT.READY:
        clearTimeout(this.#watchdog);
        this.#settle.resolve(message.versions);
        break;
      case EVENT.FATAL:
        this.#fail(message.message);
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
