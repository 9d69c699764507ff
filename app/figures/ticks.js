/** Axis ticks shared by the figures: every step is 1, 2 or 5 times a power of ten. */

/**
 * The smallest step of the 1/2/5 rule (1, 2 or 5 times a power of ten) that is at least `raw`.
 *
 * @param {number} raw a positive step
 */
export function niceStep(raw) {
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw);
}

/** Tick positions 0, step, 2 step, ... below n, about `target` of them, with a nice step. */
export function ticks(n, target = 6) {
  const step = niceStep(Math.max(1, n / target));
  const positions = [];
  for (let t = 0; t < n; t += step) positions.push(t);
  return positions;
}
