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

/** A demo's section: its .problem (hidden at first) and its .controls. */
function section() {
  const problem = element({ hidden: true });
  const controls = element();
  const root = {
    dataset: {},
    querySelector: (selector) => ({ ".problem": problem, ".controls": controls })[selector] ?? null,
  };
  return { root, problem, controls };
}

/** A Python whose calls the test answers one by one. */
function fakePython() {
  const calls = [];
  return {
    busy: false,
    calls,
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
  globalThis.document = { visibilityState: "hidden", createElement: () => element() };
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
