/**
 * The Python worker: the only code that touches Pyodide.
 *
 * Boots in named stages (runtime, numpy, pelab) that every request awaits, then runs requests
 * one at a time: pelab.adapter entry points for the demos, and code cells through
 * pelab.notebook for the learner. Plain data in, plain data out (see protocol.js).
 */
import { BUILD_ID, BYTECODE_URL, FONT_CACHE_URL, PELAB_WHEEL_URL, PYODIDE_INDEX_URL } from "../config.js";
import { paintPixels } from "../figures/paint.js";
import { EVENT, OUTPUT_LIMIT, REPLY, REQUEST } from "./protocol.js";

const post = (message, transfer = []) => self.postMessage(message, transfer);

let pyodide = null;
let adapter = null;
let notebook = null;
let initialise;
const init = new Promise((resolve) => (initialise = resolve));
const ready = boot();
ready.catch(() => {}); // reported as a "fatal" event; requests see the rejection themselves
let queue = ready; // requests run one at a time, in the order they came
let crashed = false;
let fromSnapshot = false;
let distinctRuntime = false; // this worker compiled a copy of the runtime unlike the cached one

/**
 * The runtime died under a request (os.abort(), os._exit(), a C stack overflow, a wasm trap):
 * Pyodide cannot be used again, and the request may never settle. Say so once; the page
 * replaces this worker.
 */
function crash(error) {
  if (crashed) return;
  crashed = true;
  post({ type: EVENT.CRASH, message: String(error?.message ?? error) });
}
const died = (error) => error?.pyodide_fatal_error || error?.name === "ExitStatus" || /fatally failed/.test(error?.message);
self.addEventListener("error", (event) => pyodide && crash(event.error ?? event.message));
self.addEventListener("unhandledrejection", (event) => pyodide && died(event.reason) && crash(event.reason));

self.addEventListener("message", ({ data }) => {
  if (data?.type === REQUEST.SNAPSHOT) {
    return makeSnapshot().then(
      (outcome) => post({ type: REPLY.RESULT, id: data.id, value: outcome }),
      (error) => post({ type: REPLY.ERROR, id: data.id, error: describeError(error) }),
    );
  }
  if (data?.type === REQUEST.INIT) return initialise(data);
  if (data?.type === REQUEST.RECYCLE) return spare.keep(data.buffers);
  const handler = { [REQUEST.CALL]: handleCall, [REQUEST.RUN]: handleRun }[data?.type];
  if (handler) queue = queue.then(() => handler(data), () => handler(data));
});

async function boot() {
  let stage = "runtime";
  const enter = (name) => {
    stage = name;
    post({ type: EVENT.PROGRESS, stage, at: performance.timeOrigin + performance.now() });
  };
  try {
    enter("runtime");
    const { interruptBuffer, uncontrolled } = await init;
    const { loadPyodide } = await import(`${PYODIDE_INDEX_URL}pyodide.mjs`);
    // Later visits get the runtime from the service worker only when it is on this site (not
    // in a --pyodide-cdn build).
    const cachedLater = uncontrolled && new URL(PYODIDE_INDEX_URL).origin === self.location.origin;
    pyodide = await startPython(cachedLater ? withDistinctRuntime(loadPyodide) : loadPyodide);
    pyodide.setStdout({ batched: (text) => output.write(EVENT.STDOUT, text) });
    pyodide.setStderr({ batched: (text) => output.write(EVENT.STDERR, text) });
    if (interruptBuffer) {
      // Pyodide 0.27 reads then clears the flag without atomics and can lose a Stop;
      // reading through Atomics.exchange makes every Stop count.
      const flag = new Int32Array(interruptBuffer);
      const atomic = {};
      Object.defineProperty(atomic, 0, { get: () => Atomics.exchange(flag, 0, 0), set() {} });
      pyodide.setInterruptBuffer(atomic);
    }

    enter("numpy");
    // fetched while numpy loads
    const wheel = download(PELAB_WHEEL_URL);
    const bytecode = download(BYTECODE_URL);
    await loadPackages("numpy");

    enter("pelab");
    const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
    pyodide.unpackArchive(await wheel, "wheel", { extractDir: sitePackages });
    // numpy's and pelab's modules compiled at build time (tools/jobs/bytecode.py): without
    // them, importing numpy compiles it first, every visit. Only a speed-up, so not fatal.
    try {
      pyodide.unpackArchive(await bytecode, "zip", { extractDir: sitePackages });
    } catch (error) {
      console.warn(`Python compiles numpy on import: ${error.message}`);
    }
    adapter = pyodide.pyimport("pelab.adapter");

    post({ type: EVENT.READY, versions: versions(), at: performance.timeOrigin + performance.now() });
  } catch (error) {
    post({ type: EVENT.FATAL, stage, message: String(error?.message ?? error) });
    throw error;
  }
}

/**
 * Start Pyodide from a memory snapshot of a freshly started interpreter when this build has one
 * (it skips starting Python and importing its standard library: seconds), else start it
 * normally. Pyodide 0.27 can only snapshot before any package is loaded, so the snapshot holds
 * Python alone; numpy and pelab load after it.
 */
async function startPython(loadPyodide) {
  const cache = await snapshotCache();
  const saved = await cache?.match(SNAPSHOT_URL).catch(() => null);
  if (saved) {
    try {
      const snapshot = new Uint8Array(await saved.arrayBuffer());
      const restored = await loadPyodide({ indexURL: PYODIDE_INDEX_URL, _loadSnapshot: snapshot });
      fromSnapshot = true;
      return restored;
    } catch {
      await cache.delete(SNAPSHOT_URL); // unusable: start normally; the page makes a new one
    }
  }
  return loadPyodide({ indexURL: PYODIDE_INDEX_URL });
}

/**
 * loadPyodide, for a first visit (no service worker serves the page yet), compiling the runtime
 * with an empty custom section at its end, which WebAssembly skips.
 *
 * Why: V8 keeps optimised code with the cached response it was compiled from, and within a page
 * it answers a compile of bytes it already holds with that module, keeping nothing new. Later
 * visits compile the service worker's copy, first compiled by the snapshot worker (makeSnapshot
 * below). Only when this worker's bytes differ is that compile a fresh one, whose code V8 keeps
 * with the cached copy, so the second visit starts on ready-made code instead of compiling the
 * runtime again (about 20% sooner here: warm_ms of python3 build.py bench).
 */
function withDistinctRuntime(loadPyodide) {
  return async (options) => {
    const runtime = new URL("pyodide.asm.wasm", options.indexURL).href;
    const realFetch = self.fetch;
    self.fetch = (input, init) => {
      if (String(input) !== runtime) return realFetch(input, init);
      distinctRuntime = true;
      return realFetch(input, init).then(withEmptyCustomSection);
    };
    try {
      return await loadPyodide(options);
    } finally {
      self.fetch = realFetch;
    }
  };
}

/** The same WebAssembly module plus an empty custom section named "pelab", still streamed. */
function withEmptyCustomSection(response) {
  if (!response.ok || !response.body) return response;
  // section id 0 (custom), section size 6, name size 5, "pelab"
  const section = new Uint8Array([0, 6, 5, 0x70, 0x65, 0x6c, 0x61, 0x62]);
  const body = response.body.pipeThrough(new TransformStream({ flush: (stream) => stream.enqueue(section) }));
  return new Response(body, { headers: { "Content-Type": "application/wasm" } });
}

/**
 * Make this build's snapshot, in a worker of its own that the page starts once it is idle: a
 * runtime started for a snapshot is not fit for use (its `js` module is a recording proxy, and
 * fetch from Python fails), so the learner's Python never is one.
 */
async function makeSnapshot() {
  // Several embeds on one course page each ask: one at a time, and the later ones find it made.
  return navigator.locks ? navigator.locks.request(SNAPSHOT_URL, snapshotOnce) : snapshotOnce();
}

async function snapshotOnce() {
  const cache = await snapshotCache();
  if (!cache) return "no cache of this build";
  if (await cache.match(SNAPSHOT_URL)) return "kept";
  const { loadPyodide } = await import(`${PYODIDE_INDEX_URL}pyodide.mjs`);
  const python = await loadPyodide({ indexURL: PYODIDE_INDEX_URL, _makeSnapshot: true });
  const headers = { "Content-Type": "application/octet-stream" };
  await cache.put(SNAPSHOT_URL, new Response(python.makeMemorySnapshot(), { headers }));
  return "made";
}

/**
 * Snapshots live in the service worker's cache of this build, so a newer build drops them; never
 * create that cache here (without the service worker nothing would ever delete it).
 */
async function snapshotCache() {
  const name = `pelab-${BUILD_ID}`;
  try {
    return (await globalThis.caches?.has(name)) ? await caches.open(name) : null;
  } catch {
    return null; // storage blocked
  }
}
const SNAPSHOT_URL = new URL(`../../py/python-snapshot-${BUILD_ID}.bin`, import.meta.url).href;

/** The bytes at `url`, or a rejection that names it; started now, awaited when needed. */
function download(url) {
  const bytes = fetch(url).then((response) => {
    if (!response.ok) throw new Error(`${url} answered ${response.status} ${response.statusText}`);
    return response.arrayBuffer();
  });
  bytes.catch(() => {}); // not unhandled while the boot is still busy elsewhere; awaited later
  return bytes;
}

/** pyodide.loadPackage reports failures through a callback, not a rejection: make them throw. */
async function loadPackages(names, onMessage = () => {}) {
  const errors = [];
  await pyodide.loadPackage(names, { messageCallback: onMessage, errorCallback: (text) => errors.push(text) });
  if (errors.length) throw new Error(errors.join(" "));
}

function versions() {
  const sys = pyodide.pyimport("sys");
  const numpy = pyodide.pyimport("numpy");
  try {
    return {
      pyodide: pyodide.version,
      python: sys.version.split(" ")[0],
      numpy: numpy.__version__,
      fromSnapshot,
      distinctRuntime,
    };
  } finally {
    sys.destroy();
    numpy.destroy();
  }
}

async function handleCall({ id, fn, args, canvas }) {
  let result = null;
  try {
    if (canvas?.offscreen) canvases.set(canvas.id, canvas.offscreen);
    await ready;
    const kwargs = pyodide.toPy(args ?? {});
    try {
      result = adapter.call(fn, kwargs);
    } finally {
      kwargs.destroy();
    }
    const paintedAt = canvas ? paintResult(result, canvases.get(canvas.id)) : null;
    const { value, transfer } = toPlain(result);
    if (paintedAt !== null) value.paintedAt = paintedAt;
    post({ type: REPLY.RESULT, id, value }, transfer);
  } catch (error) {
    if (died(error)) return crash(error);
    post({ type: REPLY.ERROR, id, error: describeError(error) });
  } finally {
    if (!crashed) result?.destroy();
  }
}

async function handleRun({ id, cell, code }) {
  let result = null;
  output.start(cell);
  try {
    await ready;
    await loadImports(code, cell);
    notebook ??= pyodide.pyimport("pelab.notebook").Notebook(display);
    result = await notebook.run(code, String(cell));
    output.finish();
    post({ type: REPLY.RESULT, id, value: result.toJs({ dict_converter: Object.fromEntries }) });
  } catch (error) {
    output.finish();
    if (died(error)) return crash(error);
    post({ type: REPLY.ERROR, id, error: describeError(error) });
  } finally {
    if (!crashed) result?.destroy();
  }
}

/**
 * Load the Pyodide packages a cell imports (matplotlib on first use, micropip, ...), saying so.
 * matplotlib gets the font cache made at build time, so its first import does not rebuild it.
 */
async function loadImports(code, cell) {
  const hadMatplotlib = "matplotlib" in pyodide.loadedPackages;
  await pyodide.loadPackagesFromImports(code, {
    messageCallback: (text) => {
      if (text.startsWith("Loading ")) post({ type: EVENT.STATUS, cell, text: `${text}…` });
    },
    errorCallback: (text) => post({ type: EVENT.STDERR, cell, text }),
  });
  if (!hadMatplotlib && "matplotlib" in pyodide.loadedPackages) {
    const response = await fetch(FONT_CACHE_URL);
    if (response.ok) {
      // where Pyodide's matplotlib looks for it: fontlist.json inside its own package folder
      const folder = pyodide.runPython(
        "import importlib.util; importlib.util.find_spec('matplotlib').submodule_search_locations[0]",
      );
      pyodide.FS.writeFile(`${folder}/fontlist.json`, new Uint8Array(await response.arrayBuffer()));
    }
  }
  post({ type: EVENT.STATUS, cell, text: "" });
}

/** pelab.notebook hands rich output (figures, heatmaps) to the page through this function. */
function display(kind, payload) {
  output.flush();
  const { value, transfer } = toPlain(payload);
  post({ type: EVENT.DISPLAY, cell: output.cell, kind, payload: value }, transfer);
}

/**
 * What cells print, streamed as it comes but batched in a flood (at most 20 messages per 50 ms;
 * the worker cannot use timers while Python runs, so a batch leaves with the next line or at the
 * end) and capped per run at OUTPUT_LIMIT, so a million prints neither flood nor freeze the page.
 */
const output = {
  cell: null,
  buffers: { [EVENT.STDOUT]: [], [EVENT.STDERR]: [] },
  chars: 0,
  lines: 0,
  dropped: 0,
  window: 0,
  sent: 0,
  start(cell) {
    Object.assign(this, { cell, chars: 0, lines: 0, dropped: 0, window: 0, sent: 0 });
  },
  write(stream, text) {
    if (this.cell === null) return post({ type: stream, cell: null, text });
    if (this.chars >= OUTPUT_LIMIT.chars || this.lines >= OUTPUT_LIMIT.lines) {
      this.dropped++;
      return;
    }
    this.chars += text.length + 1;
    this.lines++;
    this.buffers[stream].push(text);
    const now = performance.now();
    if (now - this.window > 50) Object.assign(this, { window: now, sent: 0 });
    if (this.sent < 20) {
      this.sent++;
      this.flush();
    }
  },
  flush() {
    for (const [stream, lines] of Object.entries(this.buffers)) {
      if (lines.length) post({ type: stream, cell: this.cell, text: lines.join("\n") });
      this.buffers[stream] = [];
    }
  },
  finish() {
    this.flush();
    if (this.dropped) {
      post({
        type: EVENT.STDERR,
        cell: this.cell,
        text: `… output truncated: ${this.dropped.toLocaleString("en")} more lines were not shown`,
      });
    }
    this.cell = null;
  },
};

/**
 * Buffers the page has sent back (REQUEST.RECYCLE), by size, for toPlain to copy arrays into:
 * the heatmap at 512 x 512 sends 3 MB a frame, and writing fresh memory costs more than the
 * copy itself. A few per size, and only up to SPARE_BYTES in all.
 */
const SPARE_BYTES = 32 * 2 ** 20;
const spare = {
  bySize: new Map(),
  bytes: 0,
  keep(buffers) {
    for (const buffer of buffers ?? []) {
      const size = buffer?.byteLength;
      if (!size || this.bytes + size > SPARE_BYTES) continue;
      const kept = this.bySize.get(size) ?? [];
      if (kept.length >= 4) continue;
      kept.push(buffer);
      this.bySize.set(size, kept);
      this.bytes += size;
    }
  },
  /** A typed array like `data` holding a copy of it, in a spare buffer when one fits. */
  copy(data) {
    const buffer = this.bySize.get(data.byteLength)?.pop();
    if (!buffer) return data.slice();
    this.bytes -= buffer.byteLength;
    const copy = new data.constructor(buffer);
    copy.set(data);
    return copy;
  },
};

/** The page's canvases this worker paints on (REQUEST.CALL's `canvas`), by id. */
const canvases = new Map();

/**
 * Paint a result's `rgba` (width x height) on `offscreen`, straight from wasm memory, and take it
 * out of the result: the page is not sent pixels it would only copy onto its canvas. The
 * heatmap at 512 x 512 repaints 60 times a second while a slider is dragged, and this way
 * neither its 1 MB copy nor the page's main thread is on the path from input to pixels.
 * Returns when it painted (ms since the epoch), or null if there was nothing to paint on.
 */
function paintResult(result, offscreen) {
  if (!offscreen || !result.has("rgba")) return null;
  const rgba = result.pop("rgba");
  const buffer = rgba.getBuffer();
  try {
    const width = result.get("width");
    const height = result.get("height");
    if (!buffer.c_contiguous || buffer.data.length !== width * height * 4) {
      throw new Error("pelab returned rgba that is not width x height pixels");
    }
    paintPixels(offscreen, { width, height, rgba: buffer.data });
  } finally {
    buffer.release();
    rgba.destroy();
  }
  return performance.timeOrigin + performance.now();
}

/**
 * A Python dict -> a plain object. numpy arrays become typed arrays, copied out of wasm
 * memory (a view would break when the heap grows); lists and dicts become plain JS values.
 * Every proxy is freed.
 */
function toPlain(dict) {
  const shallow = dict.toJs({ depth: 1, dict_converter: Object.fromEntries });
  const value = {};
  const transfer = [];
  for (const [key, item] of Object.entries(shallow)) {
    if (!(item instanceof pyodide.ffi.PyProxy)) {
      value[key] = item;
      continue;
    }
    try {
      if (item.type !== "numpy.ndarray") {
        value[key] = item.toJs({ dict_converter: Object.fromEntries, create_pyproxies: false });
        continue;
      }
      const buffer = item.getBuffer();
      try {
        if (!buffer.c_contiguous) throw new Error(`pelab returned a non-contiguous array for "${key}"`);
        value[key] = spare.copy(buffer.data);
        transfer.push(value[key].buffer);
      } finally {
        buffer.release();
      }
    } finally {
      item.destroy();
    }
  }
  return { value, transfer };
}

function describeError(error) {
  const traceback = String(error?.message ?? error);
  const lines = traceback.trim().split("\n");
  return { type: error?.type ?? error?.name ?? "Error", message: lines[lines.length - 1], traceback };
}
