/**
 * The first screen's downloads, started early and handed to whoever asks for them: Pyodide's
 * runtime (pyodide.asm.js and .wasm), its standard library and lock, then the first screen's
 * wheels (numpy), pelab's wheel and the bytecode.
 *
 * Why: left to itself, Pyodide fetches the lock and numpy's wheel only once Python has started,
 * and the boot fetched pelab's wheel and the bytecode then too; on a real network the link sat
 * idle for the 1.5 to 2 s that Python's start took, then carried 4 MB (docs/performance.md has
 * the waterfall). Pyodide fetches with the global `fetch`, so `prefetch()` puts a `fetch` in
 * front of it that answers the first request for each of these URLs with the response already
 * under way (once: a body can be read once), and passes every other request on. pyodide.asm.js
 * is a script Pyodide imports unless it already ran: importing it here starts it early, and
 * Pyodide's import of the same URL waits for this one.
 *
 * In what order: the runtime's files first (Python cannot start without them), the rest
 * (`laterFiles()`) once the runtime has arrived, so that they download while Python starts
 * instead of sharing the link with the runtime. A response that nobody reads is held back, and this
 * worker's thread reads nothing while Python starts, so the later files are read as blobs
 * (the browser drains those without this thread) and Python's start waits until each of them
 * has answered: the standard library is handed to Pyodide only then. Numpy's wheel is checked
 * against the served lock's hash here (`check`): a fetch with an integrity hash is checked
 * by reading it on this thread, which would hold it back again.
 */
import { BYTECODE_URL, PELAB_WHEEL_URL, PREFETCH_WHEELS, PYODIDE_INDEX_URL } from "../../config.js";

/** URL: {integrity, response: a promise of the Response}, until its first request takes it. */
const waiting = new Map();
let installed = false;
let startLater = () => {};

const runtime = (name) => new URL(name, PYODIDE_INDEX_URL).href;

/** The files Python needs to start, started at once, the biggest first (with pyodide.asm.js). */
export function runtimeFiles() {
  return [runtime("pyodide.asm.wasm"), runtime("pyodide-lock.json"), runtime("python_stdlib.zip")];
}

/** The files the first screen needs once Python has started, each with the hash it must have. */
export function laterFiles() {
  return [
    ...PREFETCH_WHEELS.map(({ file, integrity }) => ({ url: runtime(file), integrity })),
    { url: BYTECODE_URL },
    { url: PELAB_WHEEL_URL },
  ];
}

/**
 * Start the runtime's downloads now, and answer the first request for each first-screen file
 * with its download. The later files start when `runtimeArrived` settles (pass a promise that
 * is already settled to start them at once), or when one of them is asked for, whichever comes
 * first; the standard library is handed over once they have all answered.
 */
export function prefetch(runtimeArrived) {
  if (installed) return;
  installed = true;
  const realFetch = self.fetch.bind(self);
  const [wasm, lock, stdlib] = runtimeFiles();
  waiting.set(wasm, { response: realFetch(wasm) });
  import(runtime("pyodide.asm.js")).catch(() => {}); // Pyodide reports failures
  waiting.set(lock, { response: realFetch(lock) });

  let answered;
  const laterAnswered = new Promise((resolve) => (answered = resolve));
  startLater = () => {
    startLater = () => {};
    const answers = laterFiles().map(({ url, integrity }) => {
      const answer = realFetch(url);
      const response = answer.then((got) => (got.ok ? readInBackground(got, url, integrity) : got));
      response.catch(() => {}); // not unhandled: whoever takes it sees the failure
      waiting.set(url, { integrity, response });
      return answer;
    });
    Promise.allSettled(answers).then(answered); // after each readInBackground has begun
  };
  runtimeArrived.then(startLater, startLater);
  // the standard library waits for the later files' answers (see above), not for their bodies
  const stdlibResponse = Promise.all([realFetch(stdlib), laterAnswered]).then(([got]) => got);
  waiting.set(stdlib, { response: stdlibResponse });

  for (const { response } of waiting.values()) response.catch(() => {}); // taken later
  self.fetch = (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    if (laterFiles().some((file) => file.url === url)) startLater();
    const started = waiting.get(url);
    const sameCheck = !init?.integrity || init.integrity === started?.integrity;
    if (!started || !sameCheck || (init?.method ?? "GET") !== "GET") return realFetch(input, init);
    waiting.delete(url);
    return started.response;
  };
}

/**
 * The same response, its body read by the browser into a blob while this thread may be busy,
 * and, with `integrity`, checked against that hash; rejects if it does not match.
 */
async function readInBackground(response, url, integrity) {
  const blob = response.blob(); // at once: from here the browser drains it without this thread
  const { status, statusText, headers } = response;
  const bytes = await (await blob).arrayBuffer();
  if (integrity) await check(bytes, url, integrity);
  return new Response(bytes, { status, statusText, headers });
}

/** Throws unless the sha256 of `bytes` is `integrity` ("sha256-" and base64, as in the lock). */
async function check(bytes, url, integrity) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  const actual = `sha256-${btoa(String.fromCharCode(...digest))}`;
  if (actual !== integrity) {
    throw new TypeError(`${url} does not match the served lock's hash (${integrity})`);
  }
}
