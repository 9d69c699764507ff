/**
 * Charts drawn at the size they are shown. An SVG chart's text scales with its viewBox: a chart
 * drawn 640 units wide and shown 300 px wide on a phone had 6 px labels. So a chart's viewBox
 * is its own width in CSS pixels (its height stays the one its markup gives), its labels are the
 * page's own text size at every width, and it is drawn again when its width changes.
 */
const shown = new WeakMap(); // chart -> {width, height, redraw}

const observer =
  typeof ResizeObserver === "undefined"
    ? null
    : new ResizeObserver((entries) => {
        for (const { target, contentRect } of entries) {
          const entry = shown.get(target);
          const width = Math.round(contentRect.width);
          if (!entry || !width || width === entry.width) continue;
          entry.width = width;
          entry.redraw?.();
        }
      });

/**
 * The box to draw `chart` (an <svg>) in: {width, height} in CSS pixels, with the viewBox set to
 * match. `redraw` is called when the chart's width changes (it should draw the chart again,
 * calling chartBox again). A chart not laid out yet (hidden) is drawn 640 wide meanwhile.
 *
 * @param {SVGSVGElement} chart
 * @param {() => void} [redraw]
 */
export function chartBox(chart, redraw) {
  let entry = shown.get(chart);
  if (!entry) {
    const height = chart.viewBox?.baseVal?.height || 240; // the height the markup gives it
    entry = { width: 0, height, redraw };
    shown.set(chart, entry);
    observer?.observe(chart);
  }
  entry.redraw = redraw;
  // Measured once; then the observer keeps it (a slider's frame then forces no layout).
  if (!entry.width) entry.width = Math.round(chart.getBoundingClientRect().width);
  const width = entry.width || 640;
  const box = `0 0 ${width} ${entry.height}`;
  if (chart.getAttribute("viewBox") !== box) chart.setAttribute("viewBox", box);
  return { width, height: entry.height };
}
