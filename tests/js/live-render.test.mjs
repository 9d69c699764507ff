// app/demos/live-render.js with a fake Python and the little of a page it touches: the latest
// value wins, the waiting note while a code cell keeps Python busy, failures as text in the
// demo's .problem, and data-live.
import assert from "node:assert/strict";
import { afterEach, beforeEach, mock, test } from "node:test";
import { liveRender } from "../../app/demos/live-render.js";

/** The fields of an element that live-render reads and writes. */
function element(props = {}) {
  return {
    hidden: false,
    textContent: "",
    className: "",
    attributes: {},
    setAttribute(name, value) {
      this.attributes[name] = value;
    },
    after(other) {
      this.next = other;
    },
    ...props,
  };
}

/** A demo's section, `<section id=NAME>`: its .problem (hidden at first) and its .controls. */
function section(name = "relative") {
  const problem = element({ hidden: true });
  const controls = element();
  const root = {
    id: name,
    dataset: {},
    querySelector: (selector) => ({ ".problem": problem, ".controls": controls })[selector] ?? null,
  };
  return { root, problem, controls };
}

/** A Python whose calls the test answers one by one: ready unless `{ready: false}`. */
function fakePython({ ready = true } = {}) {
  const calls = [];
  const target = new EventTarget();
  return {
    busy: false,
    isReady: ready,
    calls,
    addEventListener: (type, listener) => target.addEventListener(type, listener),
    /** Python is up: what the bridge says with its "ready" event. */
    becomeReady() {
      this.isReady = true;
      target.dispatchEvent(new Event("ready"));
    },
    call(name, params) {
      let answer;
      const promise = new Promise((resolve, reject) => (answer = { resolve, reject }));
      calls.push({ name, params, ...answer });
      return promise;
    },
  };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

let savedDocument;
beforeEach(() => {
  mock.timers.enable({ apis: ["setTimeout"] });
  savedDocument = globalThis.document;
  // a hidden page: the first-render turn does not wait for a frame
  // getElementById: app/i18n.js looks for the page's translations (an English page has none)
  globalThis.document = { visibilityState: "hidden", createElement: () => element(), getElementById: () => null };
});
afterEach(() => {
  globalThis.document = savedDocument;
  mock.timers.reset();
});

test("it calls the entry point by name with the params, and shows the result", async () => {
  const { root } = section();
  const python = fakePython();
  const shown = [];
  const render = liveRender(root, python, "relative", (result, params) => shown.push([result, params]));
  const done = render({ k: 1 });
  await flush();
  assert.deepEqual(python.calls.map(({ name, params }) => [name, params]), [["relative", { k: 1 }]]);
  python.calls[0].resolve("M_1");
  await done;
  assert.deepEqual(shown, [["M_1", { k: 1 }]]);
  assert.equal(root.dataset.live, "shown");
});

test("the latest value wins: while one request runs, newer ones replace the one waiting", async () => {
  const { root } = section();
  const python = fakePython();
  const shown = [];
  const render = liveRender(root, python, "heatmap-like", (result) => shown.push(result));
  const all = [1, 2, 3, 4].map((k) => render({ k }));
  await flush();
  assert.equal(python.calls.length, 1, "one request in flight");
  python.calls[0].resolve("for 1");
  await flush();
  assert.deepEqual(python.calls.map(({ params }) => params.k), [1, 4], "2 and 3 were never computed");
  python.calls[1].resolve("for 4");
  await Promise.all(all); // every caller learns its value (or a newer one) is shown
  assert.deepEqual(shown, ["for 1", "for 4"]);
});

test("the entry may be a function of params that asks Python itself", async () => {
  const { root } = section();
  const asked = [];
  const render = liveRender(root, { busy: false }, async (params) => (asked.push(params), "drawn"), () => {});
  await render({ seqLen: 8 });
  assert.deepEqual(asked, [{ seqLen: 8 }]);
  assert.equal(root.dataset.live, "shown");
});

test("while a code cell keeps Python busy past 400 ms, the demo says it is waiting, then hides it", async () => {
  const { root, controls } = section();
  const python = fakePython();
  python.busy = true;
  const render = liveRender(root, python, "relative", () => {});
  const done = render({ k: 1 });
  await flush();
  mock.timers.tick(399);
  assert.equal(controls.next, undefined, "not yet");
  mock.timers.tick(1);
  const note = controls.next;
  assert.ok(note, "a note under the controls");
  assert.equal(note.hidden, false);
  assert.match(note.textContent, /Waiting for Python: a code cell is running/);
  assert.equal(note.attributes.role, "status");
  python.calls[0].resolve("done");
  await done;
  assert.equal(note.hidden, true);
});

test("no waiting note when Python is merely slow (no cell running)", async () => {
  const { root, controls } = section();
  const python = fakePython();
  const render = liveRender(root, python, "relative", () => {});
  const done = render({ k: 1 });
  await flush();
  mock.timers.tick(5_000);
  assert.equal(controls.next, undefined);
  python.calls[0].resolve("done");
  await done;
});

test("a failure is written as text into .problem and data-live says failed; the next success clears it", async () => {
  const { root, problem } = section();
  const python = fakePython();
  const render = liveRender(root, python, "relative", () => {});
  const failed = render({ k: -1 });
  await flush();
  python.calls[0].reject(new Error("k must be at least 0, got -1"));
  await assert.rejects(failed, /k must be/);
  assert.equal(problem.hidden, false);
  assert.equal(problem.textContent, "Could not compute this: k must be at least 0, got -1");
  assert.equal(root.dataset.live, "failed");
  const fixed = render({ k: 1 });
  await flush();
  python.calls[1].resolve("M_1");
  await fixed;
  assert.equal(problem.hidden, true);
  assert.equal(root.dataset.live, "shown");
});

test("a failure while showing counts as a failure too", async () => {
  const { root, problem } = section();
  const python = fakePython();
  const render = liveRender(root, python, "relative", () => {
    throw new Error("cannot draw");
  });
  const done = render({ k: 1 });
  await flush();
  python.calls[0].resolve("M_1");
  await assert.rejects(done, /cannot draw/);
  assert.equal(problem.textContent, "Could not compute this: cannot draw");
  assert.equal(root.dataset.live, "failed");
});

/** Serve `files` ({demo name: its first-result file}) to first-results.js's fetch. */
function serveFirstResults(files) {
  const asked = [];
  globalThis.fetch = async (url) => {
    asked.push(String(url));
    const name = String(url).match(/first-results\/(\w+)\.json$/)?.[1];
    return name in files ? { ok: true, json: async () => files[name] } : { ok: false };
  };
  return asked;
}

test("before Python is ready, the result computed at build time answers the first request", async () => {
  const asked = serveFirstResults({
    shipped: {
      entry: "relative",
      kwargs: { k: 5, d_model: 8, order: null },
      result: { n: 8, matrix: { float64: [0.5, "nan", "-inf"] }, rgba: { uint8: [1, 2, 255] }, top: { float: "inf" }, gone: null },
    },
  });
  const { root } = section("shipped");
  const python = fakePython({ ready: false });
  const shown = [];
  const render = liveRender(root, python, "relative", (result) => shown.push(result));
  await render({ k: 5, dModel: 8, order: null, unset: undefined });
  assert.equal(python.calls.length, 0, "Python was not asked");
  assert.ok(asked[0].endsWith("/py/first-results/shipped.json"));
  const [result] = shown;
  assert.equal(result.n, 8);
  assert.ok(result.matrix instanceof Float64Array);
  assert.deepEqual([...result.matrix], [0.5, NaN, -Infinity]);
  assert.ok(result.rgba instanceof Uint8Array);
  assert.deepEqual([...result.rgba], [1, 2, 255]);
  assert.equal(result.top, Infinity);
  assert.equal(result.gone, undefined);
  assert.equal(root.dataset.live, "shipped");
  python.becomeReady();
  assert.equal(root.dataset.live, "shown", "live once Python is ready, with nothing recomputed");
  assert.equal(python.calls.length, 0);
});

test("any other request waits for Python, dimmed and saying so, and the latest is computed once it is ready", async () => {
  serveFirstResults({ waiting: { entry: "relative", kwargs: { k: 5 }, result: { n: 1 } } });
  const { root, controls } = section("waiting");
  const python = fakePython({ ready: false });
  const shown = [];
  const render = liveRender(root, python, "relative", (result) => shown.push(result));
  const first = render({ k: 6 });
  await flush();
  assert.equal(root.dataset.live, "waiting");
  assert.equal(root.dataset.stale, "", "its figures are dimmed");
  assert.match(controls.next.textContent, /Live in a moment: Python is still starting/);
  assert.equal(controls.next.hidden, false);
  const latest = render({ k: 7 });
  python.becomeReady();
  python.calls[0].resolve("for 6");
  await first;
  await flush();
  python.calls[1].resolve("for 7");
  await latest;
  assert.deepEqual(python.calls.map(({ params }) => params.k), [6, 7]);
  assert.deepEqual(shown, ["for 6", "for 7"]);
  assert.equal(root.dataset.live, "shown");
  assert.equal("stale" in root.dataset, false);
  assert.equal(controls.next.hidden, true);
});

test("another entry point, or no file, waits for Python too", async () => {
  serveFirstResults({ other: { entry: "absolute", kwargs: { k: 5 }, result: { n: 1 } } });
  for (const name of ["other", "missing"]) {
    const { root } = section(name);
    const python = fakePython({ ready: false });
    const done = liveRender(root, python, "relative", () => {})({ k: 5 });
    await flush();
    assert.equal(root.dataset.live, "waiting", name);
    python.becomeReady();
    python.calls[0].resolve("computed");
    await done;
    assert.equal(root.dataset.live, "shown", name);
  }
});

test("if Python cannot start, a waiting demo says its dimmed figures are not for its settings", async () => {
  serveFirstResults({});
  const { root, problem } = section("unstarted");
  const python = fakePython({ ready: false });
  const done = liveRender(root, python, "relative", () => {})({ k: 6 });
  await flush();
  python.calls[0].reject(new Error("the runtime could not be fetched"));
  await assert.rejects(done, /could not be fetched/);
  assert.equal(
    problem.textContent,
    "Python could not start, so the dimmed figures are not for these settings (the runtime could not be fetched).",
  );
  assert.equal(root.dataset.live, "failed");
  assert.equal(root.dataset.stale, "", "still dimmed");
});
