/**
 * The learner's Python starting, in the named stages of BOOT_STAGES (protocol.js): each announced
 * to the page as it begins (a "progress" event), then "ready" with the versions, or "fatal" with
 * the stage that failed and why.
 */
import { BYTECODE_URL, FIRST_PACKAGES, PELAB_WHEEL_URL, PYODIDE_INDEX_URL } from "../../config.js";
import { BOOT_STAGES, EVENT } from "../protocol.js";
import { now, post } from "./messages.js";
import { output } from "./output.js";
import { said, saying } from "./said.js";
import { prefetch, runtimeFailure } from "./prefetch.js";
import { SNAPSHOT_URL, snapshotCache } from "./snapshot-cache.js";

/** The stages this worker announces: all but the last, which is the page's (drawing the demos). */
const [RUNTIME, NUMPY, PELAB] = BOOT_STAGES;

let fromSnapshot = false;
let distinctRuntime = false; // this worker compiled a copy of the runtime unlike the cached one

/**
 * Start Python once `init` (a promise of the page's "init" message) has come. Calls
 * `started(pyodide)` as soon as the runtime is up, and resolves with {pyodide, adapter} once
 * pelab.browser.entry_points is imported; rejects (after a "fatal" event) if a stage fails.
 *
 * @param {Promise<import("../protocol.js").InitMessage>} init
 * @param {{started?: (pyodide: any) => void}} [hooks]
 */
export async function boot(init, { started = () => {} } = {}) {
  let stage = RUNTIME;
  const enter = (name) => {
    stage = name;
    post({ type: EVENT.PROGRESS, stage, at: now() });
  };
  try {
    enter(RUNTIME);
    const loader = import(`${PYODIDE_INDEX_URL}pyodide.mjs`); // first: the smallest, needed first
    const { interruptBuffer, uncontrolled, handed } = await init;
    prefetch(handed); // the first files, which the page is downloading (prefetch.js)
    const { loadPyodide } = await loader;
    // Later visits get the runtime from the service worker only when it is on this site (not
    // in a --pyodide-cdn build).
    const cachedLater = uncontrolled && new URL(PYODIDE_INDEX_URL).origin === self.location.origin;
    const start = cachedLater ? withDistinctRuntime(loadPyodide) : loadPyodide;
    const starting = startPython(start);
    starting.catch(() => {}); // if a runtime file failed first, that is the reason given
    const pyodide = await Promise.race([starting, runtimeFailure]);
    started(pyodide);
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

    enter(NUMPY);
    // downloaded by the page, after numpy's wheel (prefetch.js)
    const wheel = download(PELAB_WHEEL_URL);
    const bytecode = download(BYTECODE_URL);
    await loadPackages(pyodide, FIRST_PACKAGES);

    enter(PELAB);
    const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
    pyodide.unpackArchive(await wheel, "wheel", { extractDir: sitePackages });
    // numpy's and pelab's modules compiled at build time (tools/jobs/bytecode.py): without
    // them, importing numpy compiles it first, every visit. Only a speed-up, so not fatal.
    try {
      pyodide.unpackArchive(await bytecode, "zip", { extractDir: sitePackages });
    } catch (error) {
      console.warn(`Python compiles numpy on import: ${error.message}`);
    }
    const adapter = pyodide.pyimport("pelab.browser.entry_points");

    post({ type: EVENT.READY, versions: versions(pyodide), at: now() });
    return { pyodide, adapter };
  } catch (error) {
    // `said`: the sentence for the page to word, when the worker itself wrote the message
    post({ type: EVENT.FATAL, stage, message: String(error?.message ?? error), ...(error?.said ? { said: error.said } : {}) });
    throw error;
  }
}

/**
 * Start Pyodide from a memory snapshot of a freshly started interpreter when this build has one
 * (it skips starting Python and importing its standard library: seconds), else start it
 * normally. Pyodide 0.27 can only snapshot before any package is loaded, so the snapshot holds
 * Python alone; numpy and pelab load after it. The snapshot maker (snapshot.js) makes it.
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
 * visits compile the service worker's copy, first compiled by the snapshot maker (snapshot.js).
 * Only when this worker's bytes differ is that compile a fresh one, whose code V8 keeps with the
 * cached copy, so the second visit starts on ready-made code instead of compiling the runtime
 * again (about 20% sooner here: warm_ms of python3 build.py bench).
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

/** The bytes at `url`, or a rejection that names it; started now, awaited when needed. */
function download(url) {
  const bytes = fetch(url).then((response) => {
    const { status, statusText } = response;
    // Translators: why Python could not start; {url} is a file's address, {status} an HTTP status such as 404, {statusText} its words (Not Found).
    if (!response.ok) throw saying(said("{url} answered {status} {statusText}", { url, status, statusText }));
    return response.arrayBuffer();
  });
  bytes.catch(() => {}); // not unhandled while the boot is still busy elsewhere; awaited later
  return bytes;
}

/** pyodide.loadPackage reports failures through a callback, not a rejection: make them throw. */
async function loadPackages(pyodide, names) {
  const errors = [];
  await pyodide.loadPackage(names, { messageCallback: () => {}, errorCallback: (text) => errors.push(text) });
  if (errors.length) throw new Error(errors.join(" "));
}

function versions(pyodide) {
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
