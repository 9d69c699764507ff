/**
 * The Python worker: the only code that touches Pyodide.
 *
 * Boots in named stages (runtime, numpy, pelab) that every request awaits, then runs
 * pelab.adapter's entry points with plain data in and plain data out (see protocol.js).
 */
import { PELAB_WHEEL_URL, PYODIDE_INDEX_URL } from "./config.js";
import { EVENT, REPLY, REQUEST } from "./protocol.js";

const post = (message, transfer = []) => self.postMessage(message, transfer);

let pyodide = null;
let adapter = null;
const ready = boot();
ready.catch(() => {}); // reported as a "fatal" event; requests see the rejection themselves

self.addEventListener("message", ({ data }) => {
  if (data?.type === REQUEST.CALL) handleCall(data);
});

async function boot() {
  let stage = "runtime";
  const enter = (name) => {
    stage = name;
    post({ type: EVENT.PROGRESS, stage });
  };
  try {
    enter("runtime");
    const { loadPyodide } = await import(`${PYODIDE_INDEX_URL}pyodide.mjs`);
    pyodide = await loadPyodide({
      indexURL: PYODIDE_INDEX_URL,
      stdout: (text) => post({ type: EVENT.STDOUT, text }),
      stderr: (text) => post({ type: EVENT.STDERR, text }),
    });

    enter("numpy");
    await loadPackage("numpy");

    enter("pelab");
    const response = await fetch(PELAB_WHEEL_URL);
    if (!response.ok) throw new Error(`${PELAB_WHEEL_URL} answered ${response.status} ${response.statusText}`);
    pyodide.unpackArchive(await response.arrayBuffer(), "wheel");
    adapter = pyodide.pyimport("pelab.adapter");

    post({ type: EVENT.READY, versions: versions() });
  } catch (error) {
    post({ type: EVENT.FATAL, stage, message: String(error?.message ?? error) });
    throw error;
  }
}

/** pyodide.loadPackage reports failures through a callback, not a rejection: make them throw. */
async function loadPackage(name) {
  const errors = [];
  await pyodide.loadPackage(name, { messageCallback: () => {}, errorCallback: (text) => errors.push(text) });
  if (!(name in pyodide.loadedPackages)) {
    throw new Error(`could not load ${name}: ${errors.join(" ") || "unknown error"}`);
  }
}

function versions() {
  const sys = pyodide.pyimport("sys");
  const numpy = pyodide.pyimport("numpy");
  try {
    return { pyodide: pyodide.version, python: sys.version.split(" ")[0], numpy: numpy.__version__ };
  } finally {
    sys.destroy();
    numpy.destroy();
  }
}

async function handleCall({ id, fn, args }) {
  let result = null;
  try {
    await ready;
    const kwargs = pyodide.toPy(args ?? {});
    try {
      result = adapter.call(fn, kwargs);
    } finally {
      kwargs.destroy();
    }
    const { value, transfer } = toPlain(result);
    post({ type: REPLY.RESULT, id, value }, transfer);
  } catch (error) {
    post({ type: REPLY.ERROR, id, error: describeError(error) });
  } finally {
    result?.destroy();
  }
}

/**
 * A Python dict -> a plain object. Flat numpy arrays become typed arrays, copied out of wasm
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
        value[key] = buffer.data.slice();
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
