/**
 * The learner's Python: the entry of the worker bridge.js owns, and the only code, with the
 * modules beside it, that touches Pyodide.
 *
 * Boots in named stages (boot.js) that every request awaits, then runs requests one at a time,
 * in the order they came: pelab.browser entry points for the demos, and code cells through
 * pelab.notebook for the learner. Plain data in, plain data out (see protocol.js).
 */
import { FONT_CACHE_URL } from "../../config.js";
import { EVENT, REPLY, REQUEST } from "../protocol.js";
import { boot } from "./boot.js";
import { describeError, post } from "./messages.js";
import { displayer, output } from "./output.js";
import { received } from "./prefetch.js";
import { canvasFor, paintResult, recycle, toPlain } from "./results.js";

let initialise;
const init = new Promise((resolve) => (initialise = resolve));
let pyodide = null; // once the runtime is up, before the rest of the boot
const ready = boot(init, { started: (runtime) => (pyodide = runtime) });
ready.catch(() => {}); // reported as a "fatal" event; requests see the rejection themselves
let queue = ready; // requests run one at a time, in the order they came
let notebook = null;
let crashed = false;

self.addEventListener("message", (/** @type {MessageEvent<import("../protocol.js").ToWorker>} */ { data }) => {
  if (data?.type === REQUEST.INIT) return initialise(data);
  if (data?.type === REQUEST.FILE) return received(data);
  if (data?.type === REQUEST.RECYCLE) return recycle(data.buffers);
  const handler = { [REQUEST.CALL]: handleCall, [REQUEST.RUN]: handleRun }[data?.type];
  if (handler) queue = queue.then(() => handler(data), () => handler(data));
});

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

async function handleCall({ id, fn, args, canvas }) {
  let result = null;
  try {
    const offscreen = canvas ? canvasFor(canvas) : null; // taken even if the boot fails
    const { adapter } = await ready;
    const kwargs = pyodide.toPy(args ?? {});
    try {
      result = adapter.call(fn, kwargs);
    } finally {
      kwargs.destroy();
    }
    const paintedAt = canvas ? paintResult(result, offscreen) : null;
    const { value, transfer } = toPlain(pyodide, result);
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
    notebook ??= pyodide.pyimport("pelab.browser.notebook").Notebook(displayer(pyodide));
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
      // Pyodide says "Loading matplotlib, pillow": the page words it (app/cells/cells.js)
      if (text.startsWith("Loading ")) post({ type: EVENT.STATUS, cell, packages: text.slice("Loading ".length) });
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
  post({ type: EVENT.STATUS, cell, packages: "" });
}
