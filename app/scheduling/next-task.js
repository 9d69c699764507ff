/**
 * Resolves in a later task, so that the browser can handle input (and draw) in between: long work
 * made of steps yields with `await nextTask()` between them, so that no single task runs long.
 * Where the browser has scheduler.yield(), the work continues ahead of the page's other queued
 * tasks; elsewhere it queues behind them (a 0 ms timeout).
 */
export function nextTask() {
  return globalThis.scheduler?.yield ? globalThis.scheduler.yield() : new Promise((resolve) => setTimeout(resolve));
}

/**
 * Resolves once the browser has drawn the next frame (at once in a hidden page, after 100 ms at
 * most): steps that change the page's layout yield with it, so that each frame lays out one
 * step's changes rather than one frame laying out them all.
 */
export function nextFrame() {
  if (document.visibilityState === "hidden") return Promise.resolve();
  return new Promise((resolve) => {
    requestAnimationFrame(() => setTimeout(resolve));
    setTimeout(resolve, 100); // a frame the browser does not draw (an iframe off screen)
  });
}
