/** Axis ticks shared by the figures. */

/** Tick positions 0, step, 2 step, ... below n, with step 1, 2 or 5 times a power of ten. */
export function ticks(n, target = 6) {
  const raw = Math.max(1, n / target);
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw);
  const positions = [];
  for (let t = 0; t < n; t += step) positions.push(t);
  return positions;
}
