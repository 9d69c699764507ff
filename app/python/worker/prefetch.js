/**
 * The first screen's downloads, all started at once when the worker starts, then handed to
 * whoever asks for them: Pyodide's runtime (pyodide.asm.js and .wasm), its standard library and
 * lock, the first screen's wheels (numpy), pelab's wheel and the bytecode.
 *
 * Why: left to itself, Pyodide fetches the lock and numpy's wheel only once Python has started,
 * and the boot fetched pelab's wheel and the bytecode then too; on a real network the link sat
 * idle for the 1.5 to 2 s that Python's start took, then carried 4 MB (docs/performance.md has
 * the waterfall). Pyodide fetches with the global `fetch`, so `prefetch()` puts a `fetch` in
 * front of it that answers the first request for each of these URLs with the response already
 * under way (once: a body can be read once), and passes every other request on. Wheels are
 * fetched with the served lock's hash, as Pyodide asks for them (subresource integrity), and a
 * request that asks for another hash is passed on. pyodide.asm.js is a script Pyodide imports
 * unless it already ran: importing it here starts it early, and Pyodide's import of the same
 * URL waits for this one.
 */
import { BYTECODE_URL, PELAB_WHEEL_URL, PREFETCH_WHEELS, PYODIDE_INDEX_URL } from "../../config.js";

/** URL: {integrity, response: a promise of the Response}, until its first request takes it. */
const waiting = new Map();
let installed = false;

/** The URLs started, in order: the biggest and most urgent first (a browser opens only a few
 * connections to a host at a time on HTTP/1.1; HTTP/2 hosts take them all at once). */
export function firstScreenFiles() {
  const runtime = (name) => new URL(name, PYODIDE_INDEX_URL).href;
  return [
    { url: runtime("pyodide.asm.wasm") },
    { url: runtime("pyodide-lock.json") },
    { url: runtime("python_stdlib.zip") },
    ...PREFETCH_WHEELS.map(({ file, integrity }) => ({ url: runtime(file), integrity })),
    { url: BYTECODE_URL },
    { url: PELAB_WHEEL_URL },
  ];
}

/** Start every first-screen download now, and answer the first request for each with it. */
export function prefetch() {
  if (installed) return;
  installed = true;
  const realFetch = self.fetch.bind(self);
  const [wasm, ...rest] = firstScreenFiles();
  start(wasm);
  import(new URL("pyodide.asm.js", PYODIDE_INDEX_URL).href).catch(() => {}); // Pyodide reports failures
  rest.forEach(start);

  function start({ url, integrity }) {
    const response = realFetch(url, integrity ? { integrity } : {});
    response.catch(() => {}); // not unhandled: whoever takes it sees the failure
    waiting.set(url, { integrity, response });
  }
  self.fetch = (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    const started = waiting.get(url);
    const sameCheck = !init?.integrity || init.integrity === started?.integrity;
    if (!started || !sameCheck || (init?.method ?? "GET") !== "GET") return realFetch(input, init);
    waiting.delete(url);
    return started.response;
  };
}
