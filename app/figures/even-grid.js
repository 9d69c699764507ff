/**
 * Small multiples (a dial per pair, a square per head) in rows that end evenly. A grid that fits
 * as many as it can per row leaves orphans: 8 dials wrapped 6 + 2, 8 heads 7 + 1. Here the
 * number of columns is chosen for the count and the width: a divisor of the count when one fits
 * (8 as 4 + 4 or 2 + 2 + 2 + 2), otherwise rows as full as each other (7 as 4 + 3). It is
 * chosen again when the container's width or its number of children changes.
 */

/**
 * How many columns `count` items take when at most `fit` fit in a row: all of them in one row
 * if they fit; else the largest divisor of `count` that is at least half of `fit` (every row
 * full); else as few rows as fit them, as full as each other (the last short by less than the
 * number of rows).
 *
 * @param {number} count
 * @param {number} fit
 */
export function evenColumns(count, fit) {
  if (count <= fit) return Math.max(1, count);
  for (let d = fit; d >= Math.ceil(fit / 2); d--) if (count % d === 0) return d;
  return Math.ceil(count / Math.ceil(count / fit));
}

/**
 * Lay out the children of `container` (a CSS grid) in columns at least `min` rem wide and at
 * most `max` rem wide (if given; else they share the row).
 *
 * @param {HTMLElement} container
 * @param {{min: number, max?: number}} sizes in rem
 */
export function evenGrid(container, { min, max }) {
  const update = () => {
    const width = container.clientWidth;
    if (!width) return;
    const rem = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
    const [minWidth, maxWidth] = [min * rem, max && max * rem];
    const gap = parseFloat(getComputedStyle(container).columnGap) || 0;
    const fit = Math.max(1, Math.floor((width + gap) / (minWidth + gap)));
    const count = container.children.length;
    const columns = evenColumns(count, fit);
    // Items keep to their largest size rather than stretch across a row with room to spare.
    const track = maxWidth ? `minmax(0, ${maxWidth}px)` : "minmax(0, 1fr)";
    const template = `repeat(${columns}, ${track})`;
    if (container.dataset.template === template) return;
    container.dataset.template = template;
    container.style.gridTemplateColumns = template;
    container.dataset.columns = String(columns);
  };
  if (typeof ResizeObserver !== "undefined") new ResizeObserver(update).observe(container);
  if (typeof MutationObserver !== "undefined") new MutationObserver(update).observe(container, { childList: true });
  update();
}
