/**
 * Resolves in a later task, so that the browser can handle input (and draw) in between: long work
 * made of steps yields with `await nextTask()` between them, so that no single task runs long.
 * Where the browser has scheduler.yield(), the work continues ahead of the page's other queued
 * tasks; elsewhere it queues behind them (a 0 ms timeout).
 */
export function nextTask() {
  return globalThis.scheduler?.yield ? globalThis.scheduler.yield() : new Promise((resolve) => setTimeout(resolve));
}
