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

/** The line build.py replaces with the files to download first (tools/generated_scripts.py). */
const FIRST_FILES_LINE = "  var FIRST_FILES = []; // written by build.py\n";
const SLOW_LINK_LINE = "  var SLOW_LINK = null; // written by build.py\n";

/**
 * Run start-python.js on a page whose <html data-state> is `state`, built with `firstFiles` (as
 * build.py writes them; none, as in the source, by default); every worker it made, and every
 * fetch it made: {url, signal, answer(status, type), fail(message)}, each answering once.
 */
function runStartPython({ state = "loading", isolated = false, firstFiles = null, controller = null, search = "", withoutPython = null, slowLink = null, sheetMs = 5 } = {}) {
  const made = [];
  const fetched = [];
  function fetch(url, options) {
    return new Promise((resolve, reject) => {
      const headers = (type) => ({ get: (name) => (name === "Content-Type" ? type : null) });
      fetched.push({
        url: String(url),
        signal: options?.signal,
        answer: (status = 200, type = "application/octet-stream") =>
          resolve({ status, statusText: status === 200 ? "OK" : "Not Found", headers: headers(type), blob: async () => `blob of ${url}` }),
        fail: (message) => reject(new TypeError(message)),
      });
      options?.signal?.addEventListener("abort", () => reject(new Error("aborted")));
    });
  }
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
    fetch,
    AbortController,
    Promise,
    navigator: { serviceWorker: { controller } },
    location: { search },
    URLSearchParams,
    document: {
      currentScript: { src: SRC, getAttribute: (name) => (name === "data-without-python" ? withoutPython : null) },
      documentElement: {
        attributes: {},
        getAttribute(name) {
          return name === "data-state" ? state : (this.attributes[name] ?? null);
        },
        setAttribute(name, value) {
          this.attributes[name] = value;
        },
      },
    },
    // the page's stylesheet, in `sheetMs` from its request to its last byte, and an image
    performance: {
      getEntriesByType: (type) =>
        type === "resource"
          ? [
              { name: "http://lesson.test/py/first-heatmap.png", initiatorType: "link", requestStart: 5, responseEnd: 9000 },
              { name: "http://lesson.test/static/lab.css", initiatorType: "link", requestStart: 10, responseEnd: 10 + sheetMs },
            ]
          : [],
    },
    Blob,
    Uint8Array,
  };
  self.self = self;
  let script = readFileSync(SCRIPT, "utf8");
  assert.ok(script.includes(FIRST_FILES_LINE), "the line build.py writes the files into");
  if (firstFiles) script = script.replace(FIRST_FILES_LINE, `  var FIRST_FILES = ${JSON.stringify(firstFiles)};\n`);
  assert.ok(script.includes(SLOW_LINK_LINE), "the line build.py writes the slow link's files into");
  if (slowLink) script = script.replace(SLOW_LINK_LINE, `  var SLOW_LINK = ${JSON.stringify(slowLink)};\n`);
  vm.runInNewContext(script, self);
  return { pelabPython: self.pelabPython, made, fetched, html: self.document.documentElement };
}

/** Let every settled promise's callbacks run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

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
  assert.deepEqual([...worker.posted[0].handed], [], "the source lists no files: Pyodide fetches its own");
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

const BUILT = [
  ["../../pyodide/x/pyodide.asm.wasm", "../../pyodide/x/pyodide-lock.json"],
  ["../../pyodide/x/numpy.whl"],
  ["../../py/bytecode.zip", "../../py/pelab.whl"],
];
const url = (file) => new URL(file, SRC).href;

test("built, the first Python's files are fetched in groups, each once the one before is in", async () => {
  const { made, fetched } = runStartPython({ firstFiles: BUILT });
  const [worker] = made;
  assert.deepEqual([...worker.posted[0].handed], BUILT.flat().map(url), "the init message lists them all");
  const urls = () => fetched.map((f) => f.url);
  assert.deepEqual(urls(), BUILT[0].map(url), "the runtime's files at once, nothing else yet");

  fetched[0].answer(200, "application/wasm");
  await settle();
  assert.equal(worker.posted.length, 2, "the wasm is handed over as soon as it is in");
  const [, file] = worker.posted;
  assert.equal(file.type, REQUEST.FILE);
  assert.equal(file.url, url(BUILT[0][0]));
  assert.deepEqual(JSON.parse(JSON.stringify(file.response)), {
    status: 200,
    statusText: "OK",
    headers: [["Content-Type", "application/wasm"]],
    blob: `blob of ${url(BUILT[0][0])}`,
  });
  assert.equal(fetched.length, 2, "numpy waits for the whole first group");

  fetched[1].answer();
  await settle();
  assert.deepEqual(urls().slice(2), [url(BUILT[1][0])], "then numpy's wheel alone");
  fetched[2].answer();
  await settle();
  assert.deepEqual(urls().slice(3), BUILT[2].map(url), "then the last group");
  fetched[3].answer(404);
  fetched[4].answer();
  await settle();
  const handed = worker.posted.slice(1);
  assert.deepEqual(handed.map((m) => m.url), BUILT.flat().map(url), "each handed over once, in order");
  assert.equal(handed[3].response.status, 404, "a failed response is handed over as it is: Pyodide reports it");
});

test("a file that cannot be fetched is handed over as its error, and the next group still starts", async () => {
  const { made, fetched } = runStartPython({ firstFiles: BUILT });
  fetched[0].fail("Failed to fetch");
  fetched[1].answer();
  await settle();
  const error = made[0].posted.find((m) => m.url === url(BUILT[0][0]));
  assert.deepEqual({ ...error }, { type: REQUEST.FILE, url: url(BUILT[0][0]), error: "Failed to fetch" });
  assert.equal(fetched.length, 3, "numpy's wheel follows: the worker says which file failed");
});

test("ending a Python ends its downloads: nothing more is fetched or handed over", async () => {
  const { pelabPython, made, fetched } = runStartPython({ firstFiles: BUILT });
  const started = pelabPython.adopt();
  started.end();
  assert.ok(fetched.every((f) => f.signal.aborted), "the downloads under way are aborted");
  await settle();
  assert.equal(fetched.length, 2, "no later group starts");
  assert.equal(made[0].posted.length, 1, "only the init message was sent");
  assert.equal(made[0].terminated, true);
});

test("every Python the page starts gets the files; the snapshot maker fetches its own", async () => {
  const { pelabPython, made, fetched } = runStartPython({ firstFiles: BUILT });
  pelabPython.start("python"); // a restart, or the training's Python
  assert.equal(fetched.length, 4, "a second Python's runtime files too");
  assert.deepEqual([...made[1].posted[0].handed], BUILT.flat().map(url));
  pelabPython.start("snapshot");
  assert.equal(fetched.length, 4, "none for the snapshot maker");
});

test("when a service worker serves the page, the worker's Pyodide fetches the wasm itself", async () => {
  // from the service worker's cache, where V8 keeps the runtime's compiled code; a blob has none
  const { made, fetched } = runStartPython({ firstFiles: BUILT, controller: {} });
  const rest = [[BUILT[0][1]], ...BUILT.slice(1)];
  assert.deepEqual([...made[0].posted[0].handed], rest.flat().map(url), "all but the wasm");
  assert.equal(made[0].posted[0].uncontrolled, false);
  assert.deepEqual(fetched.map((f) => f.url), [url(BUILT[0][1])]);
  fetched[0].answer();
  await settle();
  assert.deepEqual(fetched.map((f) => f.url).slice(1), [url(BUILT[1][0])], "then the groups as before");
});

test("an embed of a demo its tag lists as needing no Python starts none, and fetches nothing", () => {
  const quiz = runStartPython({ firstFiles: BUILT, search: "?demo=quiz&lms=scorm12", withoutPython: "quiz" });
  assert.equal(quiz.made.length, 0);
  assert.equal(quiz.fetched.length, 0);
  assert.equal(quiz.pelabPython.adopt(), null);
  const heatmap = runStartPython({ firstFiles: BUILT, search: "?demo=heatmap", withoutPython: "quiz" });
  assert.equal(heatmap.made.length, 1, "any other demo starts its Python as the page parses");
  const lesson = runStartPython({ search: "?demo=quiz" });
  assert.equal(lesson.made.length, 1, "a page whose tag lists nothing always starts Python");
});

/** A runtime as build.py lists it with a stdlib, and its lighter files for a slow link. */
const WITH_STDLIB = [
  ["../../pyodide/x/pyodide.asm.wasm", "../../pyodide/x/pyodide-lock.json", "../../pyodide/x/python_stdlib.zip"],
  ["../../py/bytecode.zip", "../../py/pelab.whl"],
];
const SLOW_LINK = {
  slowAfterMs: 400,
  light: { "../../pyodide/x/python_stdlib.zip": "../../py/python_stdlib-sources.zip", "../../py/bytecode.zip": null },
};

for (const [speed, sheetMs, slow] of [
  ["slow", 720, true], // as on Slow 4G
  ["fast", 200, false], // as on Fast 4G
]) {
  test(`on a ${speed} link, judged from how long the stylesheet took, ${slow ? "the lighter files are handed over instead" : "the files are the usual ones"}`, async () => {
    const { made, fetched, html } = runStartPython({ firstFiles: WITH_STDLIB, slowLink: SLOW_LINK, sheetMs });
    const [worker] = made;
    assert.equal(html.getAttribute("data-python-link"), speed);
    assert.deepEqual([...worker.posted[0].handed], WITH_STDLIB.flat().map(url), "the init message lists the usual URLs");
    const stdlib = slow ? url("../../py/python_stdlib-sources.zip") : url(WITH_STDLIB[0][2]);
    assert.deepEqual(fetched.map((f) => f.url), [...WITH_STDLIB[0].slice(0, 2).map(url), stdlib], "the runtime at once");
    for (const file of fetched) file.answer();
    await settle();
    await settle();
    const handed = (file) => worker.posted.find((m) => m.url === url(file));
    assert.ok(handed(WITH_STDLIB[0][2]), "handed over under the stdlib's own URL, whichever was fetched");
    if (slow) {
      assert.deepEqual(fetched.slice(3).map((f) => f.url), [url("../../py/pelab.whl")], "no bytecode.zip is fetched");
      const none = handed("../../py/bytecode.zip").response;
      assert.equal(none.status, 200);
      assert.deepEqual([...new Uint8Array(await none.blob.arrayBuffer())].slice(0, 4), [80, 75, 5, 6], "an empty zip");
    } else {
      assert.deepEqual(fetched.slice(3).map((f) => f.url), WITH_STDLIB[1].map(url));
    }
  });
}
