/**
 * Keep at most one request in flight per figure; while it runs, newer requests replace the
 * one waiting, so a dragged slider always ends on its last value and never queues stale work.
 *
 *   const render = latestWins(params => python.heatmap(params), (result, params) => paint(...));
 *   render(params);                 // returns a promise settled once `params` (or newer) is shown
 *
 * @template P, R
 * @param {(params: P) => Promise<R>} compute
 * @param {(result: R, params: P) => unknown} apply
 * @param {(error: any, params: P) => void} [onError]
 * @returns {(params: P) => Promise<void>}
 */
export function latestWins(compute, apply, onError = () => {}) {
  let inFlight = false;
  let waiting = null;
  let settled = [];

  async function pump() {
    inFlight = true;
    while (waiting) {
      const params = waiting;
      waiting = null;
      const callers = settled;
      settled = [];
      try {
        await apply(await compute(params), params);
        for (const { resolve } of callers) resolve();
      } catch (error) {
        onError(error, params);
        for (const { reject } of callers) reject(error);
      }
    }
    inFlight = false;
  }

  return function request(params) {
    waiting = params;
    const done = new Promise((resolve, reject) => settled.push({ resolve, reject }));
    if (!inFlight) pump();
    return done;
  };
}
