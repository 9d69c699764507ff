// app/python/bridge.js against a fake worker factory (what start-python.js provides): the
// generic call and its key converter, requests and replies, the boot watchdog, restart, close,
// the canvas handed over once, and the heatmap's result buffers given back for reuse.
import assert from "node:assert/strict";
import { afterEach, beforeEach, mock, test } from "node:test";
import { PythonBridge, PythonError, pythonArguments, snakeCase } from "../../app/python/bridge.js";
import { BOOT_STAGES, EVENT, REPLY, REQUEST } from "../../app/python/protocol.js";
import { MARK } from "../../app/page-protocol.js";

/** A worker as the bridge sees one: it posts to it and listens to it. */
class FakeWorker extends EventTarget {
  sent = [];
  ended = false;
  postMessage(message, transfer = []) {
    this.sent.push({ message, transfer });
  }
  /** The worker says `data`. */
  say(data) {
    this.dispatchEvent(new MessageEvent("message", { data }));
  }
  /** The worker fails (a plain Event, as when its script does not load). */
  fail(message) {
    this.dispatchEvent(Object.assign(new Event("error", { cancelable: true }), { message }));
  }
  requests(type) {
    return this.sent.map(({ message }) => message).filter((message) => message.type === type);
  }
}

/** start-python.js's factory, making fake workers; `early` is what the first one said before. */
function installFactory({ early = [], isolated = false } = {}) {
  const started = [];
  const make = (entry, said = []) => {
    const worker = new FakeWorker();
    const python = {
      entry,
      worker,
      interrupt: isolated ? new Int32Array(new SharedArrayBuffer(4)) : null,
      release: () => said.map((data) => new MessageEvent("message", { data })),
      end() {
        worker.ended = true;
      },
    };
    started.push(python);
    return python;
  };
  let first = make("python", early);
  globalThis.pelabPython = {
    start: (entry) => make(entry),
    adopt() {
      const adopted = first;
      first = null;
      return adopted;
    },
  };
  return started;
}

const ready = (worker) => worker.say({ type: EVENT.READY, versions: { pyodide: "0.27.7" }, at: Date.now() });
const flush = () => new Promise((resolve) => setImmediate(resolve));

let savedDocument;
beforeEach(() => {
  // the boot watchdog and Stop's grace are timeouts: the tests move the clock themselves
  mock.timers.enable({ apis: ["setTimeout"] });
  savedDocument = globalThis.document;
  // getElementById: app/i18n.js looks for the page's translations (an English page has none)
  globalThis.document = { activeElement: null, getElementById: () => null };
});
afterEach(() => {
  delete globalThis.pelabPython;
  globalThis.document = savedDocument;
  mock.timers.reset();
});

test("one key converter: camelCase to Python's snake_case, undefined left out", () => {
  assert.equal(snakeCase("dModel"), "d_model");
  assert.equal(snakeCase("maxTrainLen"), "max_train_len");
  assert.equal(snakeCase("seed"), "seed");
  assert.deepEqual(pythonArguments({ withPe: true, nHeads: 8, order: null, base: undefined }), { with_pe: true, n_heads: 8, order: null });
});

test("call(name, params) waits for Python, sends one call request, and resolves with its reply", async () => {
  const [python] = installFactory();
  const bridge = new PythonBridge();
  const answer = bridge.call("relative", { k: 3, dModel: 16 });
  await flush();
  assert.deepEqual(python.worker.requests(REQUEST.CALL), [], "nothing is sent before Python is ready");
  ready(python.worker);
  await flush();
  const [request] = python.worker.requests(REQUEST.CALL);
  assert.deepEqual(request, { type: REQUEST.CALL, fn: "relative", args: { k: 3, d_model: 16 }, canvas: undefined, id: request.id });
  python.worker.say({ type: REPLY.RESULT, id: request.id, value: { ok: 1 } });
  assert.deepEqual(await answer, { ok: 1 });
});

test("an error reply rejects with a PythonError carrying Python's type and traceback", async () => {
  const [python] = installFactory();
  const bridge = new PythonBridge();
  ready(python.worker);
  const answer = bridge.call("relative", { k: -1 });
  await flush();
  const [{ id }] = python.worker.requests(REQUEST.CALL);
  python.worker.say({ type: REPLY.ERROR, id, error: { type: "ValueError", message: "k must be >= 0", traceback: "Traceback…" } });
  await assert.rejects(answer, (error) => error instanceof PythonError && error.type === "ValueError" && error.traceback === "Traceback…");
});

test("what the started worker said before the bridge existed is replayed in order, as marks", async () => {
  const early = [
    { type: EVENT.PROGRESS, stage: BOOT_STAGES[0], at: performance.timeOrigin + 1 },
    { type: EVENT.PROGRESS, stage: BOOT_STAGES[1], at: performance.timeOrigin + 2 },
  ];
  installFactory({ early });
  const stages = [];
  const bridge = new PythonBridge();
  assert.equal(bridge.stage, BOOT_STAGES[1]);
  bridge.addEventListener("progress", ({ detail }) => stages.push(detail.stage));
  assert.ok(performance.getEntriesByName(`${MARK.STAGE}${BOOT_STAGES[0]}`).length > 0);
  assert.deepEqual(stages, [], "replayed before anyone could listen");
});

test("the watchdog fails the boot after 60 s without progress, naming the stage; progress re-arms it", async () => {
  const [python] = installFactory();
  const bridge = new PythonBridge();
  const fatal = [];
  bridge.addEventListener("fatal", ({ detail }) => fatal.push(detail));
  mock.timers.tick(59_000);
  python.worker.say({ type: EVENT.PROGRESS, stage: "numpy", at: Date.now() });
  mock.timers.tick(59_000);
  assert.deepEqual(fatal, [], "progress re-armed it");
  mock.timers.tick(1_000);
  assert.equal(fatal.length, 1);
  assert.equal(fatal[0].stage, "numpy");
  assert.match(fatal[0].message, /no progress for 60 s while loading numpy/);
  await assert.rejects(bridge.ready, /no progress/);
});

test("once ready, the watchdog is off", async () => {
  const [python] = installFactory();
  const bridge = new PythonBridge();
  const fatal = [];
  bridge.addEventListener("fatal", ({ detail }) => fatal.push(detail));
  ready(python.worker);
  mock.timers.tick(120_000);
  assert.deepEqual(fatal, []);
  assert.equal((await bridge.ready).pyodide, "0.27.7");
});

test("restart ends the worker, rejects what was pending, starts a fresh one and says so", async () => {
  const started = installFactory();
  const bridge = new PythonBridge();
  ready(started[0].worker);
  const restarts = [];
  bridge.addEventListener("restart", ({ detail }) => restarts.push(detail.reason));
  const pending = bridge.call("heatmap", {});
  await flush();
  const [{ id }] = started[0].worker.requests(REQUEST.CALL);
  bridge.restart("testing");
  await assert.rejects(pending, (error) => error instanceof PythonError && error.type === "Restarted");
  assert.ok(started[0].worker.ended);
  assert.equal(started.length, 2);
  assert.equal(started[1].entry, "python");
  assert.deepEqual(restarts, ["testing"]);
  // the old worker's late reply is ignored; the new one answers new requests
  started[0].worker.say({ type: REPLY.RESULT, id, value: "late" });
  ready(started[1].worker);
  const again = bridge.call("formula", { pos: 1 });
  await flush();
  const [request] = started[1].worker.requests(REQUEST.CALL);
  started[1].worker.say({ type: REPLY.RESULT, id: request.id, value: "fresh" });
  assert.equal(await again, "fresh");
});

test("a crash after boot, or a worker error, restarts Python by itself", async () => {
  const started = installFactory();
  const bridge = new PythonBridge();
  const restarts = [];
  bridge.addEventListener("restart", ({ detail }) => restarts.push(detail.reason));
  ready(started[0].worker);
  started[0].worker.say({ type: EVENT.CRASH, message: "Fatal Python error: Aborted\nmore" });
  assert.deepEqual(restarts, ["it stopped working (Fatal Python error: Aborted)"]);
  ready(started[1].worker);
  started[1].worker.fail("out of memory");
  assert.deepEqual(restarts.slice(1), ["it stopped working (out of memory)"]);
  assert.equal(started.length, 3);
});

test("a worker error before boot is a failed start, not a restart", async () => {
  const started = installFactory();
  const bridge = new PythonBridge();
  started[0].worker.fail("");
  await assert.rejects(bridge.ready, /could not start \(a script failed to load\)/);
  assert.equal(started.length, 1);
});

test("close ends the worker at once, rejects everything pending as Closed, and ignores it after", async () => {
  const [python] = installFactory();
  const bridge = new PythonBridge();
  ready(python.worker);
  const pending = bridge.call("training_step", { steps: 25 });
  await flush();
  const [{ id }] = python.worker.requests(REQUEST.CALL);
  const events = [];
  bridge.addEventListener("stdout", () => events.push("stdout"));
  bridge.close("stopped");
  await assert.rejects(pending, (error) => error instanceof PythonError && error.type === "Closed" && /stopped/.test(error.message));
  assert.ok(python.worker.ended);
  python.worker.say({ type: REPLY.RESULT, id, value: "late" });
  python.worker.say({ type: EVENT.STDOUT, cell: null, text: "late" });
  assert.deepEqual(events, []);
});

test("a bridge closed while booting rejects its ready", async () => {
  installFactory();
  const bridge = new PythonBridge();
  bridge.close("a new run started");
  await assert.rejects(bridge.ready, (error) => error.type === "Closed");
});

/** A canvas the page can hand to the worker, once. */
function fakeCanvas() {
  const canvas = {
    width: 4,
    height: 2,
    handed: 0,
    transferControlToOffscreen() {
      this.handed++;
      return { offscreen: true };
    },
    cloneNode() {
      return { width: 0, height: 0, getContext: () => ({ drawImage() {} }), focus() {} };
    },
    replaceWith(copy) {
      this.replacedBy = copy;
    },
  };
  return canvas;
}

/** Answer the latest heatmap call on `worker` with `value`. */
async function answerHeatmap(worker, value) {
  await flush();
  const calls = worker.requests(REQUEST.CALL);
  worker.say({ type: REPLY.RESULT, id: calls[calls.length - 1].id, value });
}

test("the heatmap's canvas is handed over once, then named by id", async () => {
  const [python] = installFactory();
  const bridge = new PythonBridge();
  ready(python.worker);
  const canvas = fakeCanvas();
  for (let n = 0; n < 2; n++) {
    const done = bridge.heatmap({ seqLen: 4, dModel: 2, base: 10000, requestedAt: performance.now() }, canvas);
    await answerHeatmap(python.worker, { paintedAt: performance.timeOrigin + performance.now() });
    await done;
  }
  const [first, second] = python.worker.sent.filter(({ message }) => message.type === REQUEST.CALL);
  assert.deepEqual(first.message.args, { seq_len: 4, d_model: 2, base: 10000, concatenated: false });
  assert.deepEqual(first.message.canvas, { id: 1, offscreen: { offscreen: true } });
  assert.deepEqual(first.transfer, [{ offscreen: true }]);
  assert.deepEqual(second.message.canvas, { id: 1 });
  assert.deepEqual(second.transfer, []);
  assert.equal(canvas.handed, 1);
  assert.ok(performance.getEntriesByName(MARK.FIRST_LIVE_HEATMAP).length > 0);
  assert.ok(performance.getEntriesByName(MARK.HEATMAP_LATENCY).length >= 2);
});

test("each heatmap call gives back the buffers of the result before the one shown", async () => {
  const [python] = installFactory();
  const bridge = new PythonBridge();
  ready(python.worker);
  const canvas = fakeCanvas();
  const results = [0, 1, 2].map(() => ({ values: new Float32Array(8), rgba: new Uint8ClampedArray(32), n: 4 }));
  for (const result of results) {
    const done = bridge.heatmap({ seqLen: 4, dModel: 2, base: 10000 }, canvas);
    await answerHeatmap(python.worker, result);
    await done;
  }
  // the first two calls had nothing to give back; the third gives back the first result's
  const recycled = python.worker.sent.filter(({ message }) => message.type === REQUEST.RECYCLE);
  assert.equal(recycled.length, 1);
  const { message, transfer } = recycled[0];
  assert.deepEqual(message.buffers, [results[0].values.buffer, results[0].rgba.buffer]);
  assert.deepEqual(transfer, message.buffers, "transferred, not copied");
  // the result shown and the one before it are the caller's until its next call
  assert.ok(!message.buffers.includes(results[1].values.buffer) && !message.buffers.includes(results[2].values.buffer));
});

test("without a canvas nothing is given back: the caller keeps its results", async () => {
  const [python] = installFactory();
  const bridge = new PythonBridge();
  ready(python.worker);
  for (let n = 0; n < 3; n++) {
    const done = bridge.heatmap({ seqLen: 4, dModel: 2, base: 10000 });
    await answerHeatmap(python.worker, { values: new Float32Array(8) });
    await done;
  }
  assert.deepEqual(python.worker.requests(REQUEST.RECYCLE), []);
});

test("after a restart a handed-over canvas is replaced by a copy the page paints itself", async () => {
  const started = installFactory();
  const bridge = new PythonBridge();
  ready(started[0].worker);
  const canvas = fakeCanvas();
  const done = bridge.heatmap({ seqLen: 4, dModel: 2, base: 10000 }, canvas);
  await answerHeatmap(started[0].worker, { paintedAt: performance.timeOrigin + performance.now() });
  await done;
  const replaced = [];
  bridge.addEventListener("canvasreplaced", ({ detail }) => replaced.push(detail));
  bridge.restart("testing");
  assert.equal(replaced.length, 1);
  assert.equal(replaced[0].canvas, canvas);
  assert.equal(canvas.replacedBy, replaced[0].replacement);
  assert.equal(replaced[0].replacement.width, 4);
  // the lost canvas is never handed over again: the new worker gets no canvas for it
  ready(started[1].worker);
  const again = bridge.heatmap({ seqLen: 4, dModel: 2, base: 10000 }, canvas);
  await answerHeatmap(started[1].worker, { rgba: new Uint8ClampedArray(32) });
  await again;
  const [call] = started[1].worker.requests(REQUEST.CALL);
  assert.equal(call.canvas, undefined);
  assert.equal(canvas.handed, 1);
});

test("stop: idle when no cell runs; without isolation it restarts Python", async () => {
  const started = installFactory();
  const bridge = new PythonBridge();
  ready(started[0].worker);
  assert.equal(await bridge.stop(), "idle");
  const run = bridge.run("scratch", "while True: pass");
  await flush();
  assert.ok(bridge.busy);
  assert.equal(await bridge.stop(), "restarted");
  await assert.rejects(run, (error) => error.type === "Restarted");
  assert.equal(started.length, 2);
  assert.ok(!bridge.busy);
});

test("stop with isolation writes SIGINT; a run still going 1.5 s later is ended by a restart", async () => {
  const started = installFactory({ isolated: true });
  const bridge = new PythonBridge();
  ready(started[0].worker);
  assert.ok(bridge.canInterrupt);
  // a run that ends when interrupted
  const first = bridge.run("scratch", "while True: pass");
  await flush();
  const stopping = bridge.stop();
  assert.equal(Atomics.load(started[0].interrupt, 0), 2, "SIGINT written");
  const [request] = started[0].worker.requests(REQUEST.RUN);
  started[0].worker.say({ type: REPLY.RESULT, id: request.id, value: { ok: false, error: { type: "KeyboardInterrupt" } } });
  assert.equal(await stopping, "interrupted");
  assert.equal((await first).ok, false);
  // a run that does not
  bridge.run("scratch", "ignore the interrupt").catch(() => {});
  await flush();
  const late = bridge.stop();
  await flush();
  mock.timers.tick(1_500);
  assert.equal(await late, "restarted");
  assert.equal(started.length, 2);
});
