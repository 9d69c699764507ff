// start-python.js (a classic script, run here in a sandbox with a stand-in Worker: objects it
// makes are of the sandbox's realm, hence the copies before deepEqual): the one factory of
// Python workers, and the message it spells out that protocol.js owns.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import vm from "node:vm";

import { REQUEST } from "../../app/python/protocol.js";

const SCRIPT = new URL("../../app/python/start-python.js", import.meta.url);
const SRC = "http://lesson.test/app/python/start-python.js";

/** Run start-python.js on a page whose <html data-state> is `state`; every worker it made. */
function runStartPython({ state = "loading", isolated = false } = {}) {
  const made = [];
  class Worker {
    constructor(url, options) {
      Object.assign(this, { url: String(url), options, posted: [], listeners: [], terminated: false });
      made.push(this);
    }
    addEventListener(type, listener) {
      this.listeners.push([type, listener]);
    }
    removeEventListener(type, listener) {
      this.listeners = this.listeners.filter(([t, l]) => t !== type || l !== listener);
    }
    postMessage(message) {
      this.posted.push(message);
    }
    terminate() {
      this.terminated = true;
    }
    emit(type, event) {
      for (const [t, listener] of this.listeners) if (t === type) listener({ type, ...event });
    }
  }
  const self = {
    crossOriginIsolated: isolated,
    SharedArrayBuffer,
    Int32Array,
    URL,
    Worker,
    navigator: { serviceWorker: { controller: null } },
    document: {
      currentScript: { src: SRC },
      documentElement: { getAttribute: (name) => (name === "data-state" ? state : null) },
    },
  };
  self.self = self;
  vm.runInNewContext(readFileSync(SCRIPT, "utf8"), self);
  return { pelabPython: self.pelabPython, made };
}

test("the page's Python starts while the page parses, once, with the init message of protocol.js", () => {
  const { pelabPython, made } = runStartPython();
  assert.equal(made.length, 1);
  const [worker] = made;
  assert.equal(worker.url, "http://lesson.test/app/python/worker/main.js");
  assert.deepEqual({ ...worker.options }, { type: "module", name: "python" });
  assert.equal(worker.posted.length, 1);
  assert.equal(worker.posted[0].type, REQUEST.INIT);
  assert.equal(worker.posted[0].interruptBuffer, null); // not isolated: Stop restarts instead
  assert.equal(worker.posted[0].uncontrolled, true);
  const started = pelabPython.adopt();
  assert.equal(started.worker, worker);
  assert.equal(pelabPython.adopt(), null, "adopted once; restarts start their own");
});

test("when isolated, the learner's Python gets a shared interrupt buffer", () => {
  const { pelabPython, made } = runStartPython({ isolated: true });
  const started = pelabPython.adopt();
  assert.ok(started.interrupt instanceof Int32Array);
  assert.equal(made[0].posted[0].interruptBuffer, started.interrupt.buffer);
});

test("events before adoption are kept, in order, and released once", () => {
  const { pelabPython, made } = runStartPython();
  made[0].emit("message", { data: 1 });
  made[0].emit("error", { preventDefault() {} });
  const started = pelabPython.adopt();
  assert.deepEqual(Array.from(started.release(), (event) => event.type), ["message", "error"]);
  made[0].emit("message", { data: 2 });
  assert.equal(made[0].listeners.length, 0, "no longer kept once released");
});

test("the snapshot maker starts from its own entry, with no init message", () => {
  const { pelabPython, made } = runStartPython();
  const maker = pelabPython.start("snapshot");
  assert.equal(made.length, 2);
  assert.equal(made[1].url, "http://lesson.test/app/python/worker/snapshot.js");
  assert.deepEqual({ ...made[1].options }, { type: "module", name: "python-snapshot" });
  assert.deepEqual(made[1].posted, []);
  assert.equal(maker.interrupt, null);
  maker.end();
  assert.equal(made[1].terminated, true);
});

test("every entry's script exists", () => {
  const { pelabPython } = runStartPython();
  for (const entry of ["python", "snapshot"]) {
    const { worker } = pelabPython.start(entry);
    const path = fileURLToPath(new URL(worker.url.replace("http://lesson.test/", "../../"), import.meta.url));
    assert.ok(existsSync(path), path);
  }
});

test("after preflight stopped the page, nothing starts, but the factory is there", () => {
  const { pelabPython, made } = runStartPython({ state: "error" });
  assert.equal(made.length, 0);
  assert.equal(pelabPython.adopt(), null);
});
