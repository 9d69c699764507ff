/**
 * The first files, downloaded by the page and answered from here: Pyodide's runtime (its wasm,
 * lock and standard library), numpy's wheel, pelab's wheel and the bytecode.
 *
 * Why: the page starts those downloads while it is still being parsed (start-python.js says why
 * there, and in what order), half a second before this worker's own modules have arrived. The
 * page lists them in its "init" message (`handed`) and sends each, whole, as a blob in a "file"
 * message (protocol.js) once it is in. Pyodide fetches with the global `fetch`, so `prefetch()`
 * puts a `fetch` in front of it that answers the first GET of each handed URL with the page's
 * download, once it has come (a body can be read once), and passes every other request on.
 * Numpy's wheel is checked here against the served lock's hash (the hash Pyodide asks for): a
 * response made from a blob is not one the browser can check.
 */
import { PREFETCH_WHEELS, PYODIDE_INDEX_URL } from "../../config.js";
import { said, saying } from "./said.js";

/** URL: a promise of its Response, for the first request that takes it. */
const handed = new Map();
/** URL: the function that settles its promise, until the page's "file" message comes. */
const waiting = new Map();
let installed = false;

const runtime = (name) => new URL(name, PYODIDE_INDEX_URL).href;

/**
 * Rejects, naming the file, if one of the runtime's files could not be had: Pyodide itself
 * then ends in "exit(1)" (no standard library) or waits for ever (no wasm) without saying why.
 */
let runtimeFailed;
export const runtimeFailure = new Promise((_, reject) => (runtimeFailed = reject));
runtimeFailure.catch(() => {}); // awaited by the boot, beside Python's start
const RUNTIME = ["pyodide.asm.wasm", "pyodide-lock.json", "python_stdlib.zip"].map(runtime);

/** The lock's hash of each first-screen wheel, by URL, as Pyodide passes it to fetch. */
const integrityOf = new Map(PREFETCH_WHEELS.map(({ file, integrity }) => [runtime(file), integrity]));

/**
 * Answer Pyodide's requests for `urls` (the init message's `handed`) with the page's downloads,
 * as `received` hands them over; every other request goes to the network as usual. Also starts
 * importing pyodide.asm.js, which Pyodide imports unless it already ran: Pyodide's import of the
 * same URL then waits for this one instead of starting after pyodide.mjs has loaded.
 */
export function prefetch(urls = []) {
  if (installed) return;
  installed = true;
  import(runtime("pyodide.asm.js")).catch(() => {}); // Pyodide reports failures
  for (const url of urls) {
    const response = new Promise((settle) => waiting.set(url, settle));
    response.catch(() => {}); // taken later: whoever takes it sees the failure
    handed.set(url, response);
  }
  const realFetch = self.fetch.bind(self);
  self.fetch = (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    const response = handed.get(url);
    const sameCheck = !init?.integrity || init.integrity === integrityOf.get(url);
    if (!response || !sameCheck || (init?.method ?? "GET") !== "GET") return realFetch(input, init);
    handed.delete(url);
    return response;
  };
}

/**
 * A "file" message from the page: the download of one handed URL, or why it failed. It comes
 * after the "init" message that listed it, so `prefetch()` is waiting for it.
 *
 * @param {{url: string, response?: import("../protocol.js").HandedResponse, error?: string}} message
 *   a FileMessage (protocol.js): one of `response` and `error`
 */
export function received({ url, response, error }) {
  const settle = waiting.get(url);
  if (!settle) return;
  waiting.delete(url);
  const answer = error ? Promise.reject(new TypeError(`${url}: ${error}`)) : asResponse(url, response);
  answer.catch((failure) => RUNTIME.includes(url) && runtimeFailed(failure));
  settle(answer);
}

/**
 * The page's download as a Response; a wheel with a hash in the lock is checked first. A file
 * the server did not send is a rejection that names it (see `runtimeFailure`).
 */
async function asResponse(url, { status, statusText, headers, blob }) {
  if (status !== 200) throw saying(said("{url} answered {status} {statusText}", { url, status, statusText }), TypeError);
  const integrity = integrityOf.get(url);
  if (integrity) await check(await blob.arrayBuffer(), url, integrity);
  return new Response(blob, { status, statusText, headers });
}

/** Throws unless the sha256 of `bytes` is `integrity` ("sha256-" and base64, as in the lock). */
async function check(bytes, url, integrity) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  const actual = `sha256-${btoa(String.fromCharCode(...digest))}`;
  if (actual !== integrity) {
    // Translators: why Python could not start; {url} is a file's address, {integrity} the hash it should have.
    throw saying(said("{url} does not match the served lock's hash ({integrity})", { url, integrity }), TypeError);
  }
}
