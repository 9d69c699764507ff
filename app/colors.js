/**
 * Colours for numbers shown in tables: the same cool-warm map as the heatmap, fetched once
 * from pelab.colormap (blue for -1, light grey-white for 0, red for +1).
 */
let table = null;

/** Fetch the 256-entry RGBA colour map once; later calls reuse it. */
export function loadColors(python) {
  table ??= python.legend();
  return table;
}

/** CSS background and ink colours for `value` on a scale from -limit to +limit. */
export async function colorFor(python, value, limit = 1) {
  const { rgba } = await loadColors(python);
  const t = Math.min(Math.max((value / limit + 1) / 2, 0), 1);
  const k = Math.round(t * 255) * 4;
  return {
    background: `rgb(${rgba[k]} ${rgba[k + 1]} ${rgba[k + 2]})`,
    ink: Math.abs(value / limit) > 0.55 ? "#fff" : "#111",
  };
}
