/**
 * Resolves in a later task, after the browser has had its turn (input, a frame): long work made
 * of steps yields with `await nextTask()` between them, so that no single task runs long.
 * scheduler.yield() continues before other queued tasks of the page where the browser has it.
 */
export function nextTask() {
  return globalThis.scheduler?.yield ? globalThis.scheduler.yield() : new Promise((resolve) => setTimeout(resolve));
}
