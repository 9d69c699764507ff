/**
 * The contract between the page and the Python worker: every message type, in one place.
 *
 * Requests (page -> worker) carry an `id` and get exactly one reply with that `id`:
 *   {type: "call", id, fn, args}          run the pelab entry point `fn` with keyword `args`
 * Replies (worker -> page):
 *   {type: "result", id, value}           a plain object; arrays arrive as typed arrays
 *   {type: "error", id, error}            error = {type, message, traceback}
 * Events (worker -> page) carry no `id`:
 *   {type: "progress", stage}             a boot stage (see BOOT_STAGES) has started
 *   {type: "ready", versions}             Python is up; versions = {pyodide, python, numpy}
 *   {type: "fatal", stage, message}       boot failed at `stage`; nothing will run
 *   {type: "stdout" | "stderr", text}     a line Python printed
 */

export const REQUEST = Object.freeze({ CALL: "call" });
export const REPLY = Object.freeze({ RESULT: "result", ERROR: "error" });
export const EVENT = Object.freeze({
  PROGRESS: "progress",
  READY: "ready",
  FATAL: "fatal",
  STDOUT: "stdout",
  STDERR: "stderr",
});

/** Boot stages in order: the worker announces the first three, the page does the last. */
export const BOOT_STAGES = Object.freeze(["runtime", "numpy", "pelab", "render"]);
