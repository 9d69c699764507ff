/**
 * The heatmap demo: the sinusoidal encoding of every (position, dimension), computed by
 * pelab in the worker as RGBA pixels; this module only paints, labels and reads values.
 *
 * Rows are positions (pos), columns are embedding dimensions (j). Sliders for d_model,
 * sequence length and base repaint while dragging (latest value wins). The row of the
 * shared `position` is outlined as that position's fingerprint; clicking a row selects it.
 */
import { liveRender } from "./live-render.js";
import { bindSliders, paramsFrom } from "../controls/bind-sliders.js";
import { FIRST_POSITION } from "../controls/shared-value.js";
import { colourBar } from "../figures/colour-bar.js";
import { formatNumber } from "../figures/format.js";
import { corner, listed, matrixRows, numbersFor } from "../figures/numbers.js";
import { paintPixels } from "../figures/paint.js";
import { showPython } from "./show-python.js";
import { ticks } from "../figures/ticks.js";
import { t } from "../i18n.js";

/**
 * What one cell of the encoding is, with the formula filled in. In the paper's interleaved
 * layout column j is pair ⌊j/2⌋, sine for even j; in the concatenated layout (TensorFlow's
 * tutorial) the first ⌈d/2⌉ columns are the sines of pairs 0, 1, ... and the rest their cosines.
 */
export function describeCell({ pos, dim, dModel, base, value, concatenated = false }) {
  const sines = Math.ceil(dModel / 2);
  const pair = concatenated ? (dim < sines ? dim : dim - sines) : Math.floor(dim / 2);
  const fn = (concatenated ? dim < sines : dim % 2 === 0) ? "sin" : "cos";
  const angle = pos / base ** ((2 * pair) / dModel);
  const values = { pos, dim, pair };
  // Translators: which cell of the heatmap is read: its position, its dimension j, the pair i it belongs to, and whether it is a sine or a cosine.
  const where = concatenated
    ? fn === "sin"
      ? t("pos {pos}, dimension j = {dim}: pair i = {pair}, first half, sine", values)
      : t("pos {pos}, dimension j = {dim}: pair i = {pair}, second half, cosine", values)
    : fn === "sin"
      ? t("pos {pos}, dimension j = {dim}: pair i = {pair}, even j, sine", values)
      : t("pos {pos}, dimension j = {dim}: pair i = {pair}, odd j, cosine", values);
  return {
    where,
    formula:
      `PE(${pos}, ${dim}) = ${fn}(${pos} / ${formatNumber(base)}^(${2 * pair}/${dModel}))` +
      ` = ${fn}(${formatNumber(angle)}) = ${value.toFixed(5)}`,
  };
}

/** The heatmap's sliders: {param: input name}. */
const SLIDERS = { dModel: "d_model", seqLen: "seq_len", base: "base" };

/** The row outlined for the shared `position`: that position, or the last row if it lies below. */
const outlinedRow = (position, seqLen) => Math.min(Math.round(position), seqLen - 1);

/**
 * The Python behind the heatmap: the encoding at these settings, in its layout, drawn, and the
 * outlined row's numbers. Plain data in, the cell's code out.
 *
 * @param {{seqLen: number, dModel: number, base: number, concatenated: boolean, row: number}} settings
 */
export function pythonCode({ seqLen, dModel, base, concatenated, row }) {
  // The code's comments, in the page's language (outside the template: the extractor of
  // messages reads no template literal).
  const comments = {
    layout: t("sines first, then cosines: the same numbers, other columns"),
    drawn: t("drawn like the demo above"),
    row: t("the outlined row: that position's fingerprint"),
  };
  return `import pelab

pe = pelab.sinusoidal(seq_len=${seqLen}, d_model=${dModel}, base=${formatNumber(base)})   # (${seqLen}, ${dModel})${
    concatenated
      ? `
pe = pe[:, pelab.layout_permutation(${dModel})]   # ${comments.layout}`
      : ""
  }
pelab.show(pe, title="sinusoidal PE, base ${formatNumber(base)}")   # ${comments.drawn}
pe[${row}].round(3)   # ${comments.row}`;
}

/** The code the cell shows for the demo's `params` with the shared position at `position`. */
const codeFor = (params, position) => pythonCode({ ...params, row: outlinedRow(position, params.seqLen) });

/**
 * The code the heatmap's cell shows at first paint: `controls`, its section's controls at their
 * first values ({name: value}), and the shared position at its first, FIRST_POSITION.
 *
 * @param {Record<string, any>} controls
 */
export function firstCode(controls) {
  return codeFor({ ...paramsFrom(SLIDERS, controls), concatenated: controls.concatenated }, FIRST_POSITION);
}

export function heatmapDemo(root, python, { position }) {
  // Python paints it where it can (see bridge.js heatmap): from input to pixels without this thread.
  let canvas = root.querySelector(".heatmap-canvas");
  const cursor = root.querySelector(".heatmap-cursor");
  const row = root.querySelector(".heatmap-row");
  const readout = root.querySelector(".heatmap-readout");
  const numbers = numbersFor(canvas, t("the heatmap"));

  const layout = root.querySelector("[name=concatenated]");
  const params = Object.assign(bindSliders(root, SLIDERS, () => update({})), { concatenated: layout.checked });
  layout.addEventListener("change", () => update({ concatenated: layout.checked }));

  let shown = null; // {params, values} of what is on the canvas
  let active = null; // the cell under the pointer or the keyboard cursor

  const render = liveRender(
    root,
    python,
    (params) => python.heatmap(params, canvas),
    (result, request) => paint(request, result),
  );

  function update(change) {
    Object.assign(params, change);
    writeCode();
    return render({ ...params, requestedAt: performance.now() });
  }

  function writeCode() {
    showPython(root, codeFor(params, position.value));
  }

  function paint(request, { width, height, rgba, values }) {
    if (rgba) paintPixels(canvas, { width, height, rgba }); // where Python could not paint it
    shown = { params: request, values };
    canvas.dataset.rendered = `${request.seqLen}x${request.dModel}@${request.base}${request.concatenated ? " concatenated" : ""}`;
    canvas.setAttribute(
      "aria-label",
      t(
        "Heatmap of the sinusoidal positional encoding: {height} positions (rows) by {width} dimensions (columns), base {base}, values from −1 to 1. Colours run from blue (−1) through white (0) to red (+1). Focus it and use the arrow keys to read values.",
        { height, width, base: formatNumber(request.base) },
      ),
    );
    drawTicks(root.querySelector(".heatmap-x-ticks"), width);
    drawTicks(root.querySelector(".heatmap-y-ticks"), height);
    highlightRow();
    if (active) select(clampCell(active));
  }

  function drawTicks(container, n) {
    if (container.dataset.n === String(n)) return; // while the base is dragged, the axes stay
    container.dataset.n = String(n);
    container.replaceChildren(
      ...ticks(n).map((t) => {
        const label = document.createElement("span");
        label.textContent = String(t);
        label.style.setProperty("--at", `${((t + 0.5) / n) * 100}%`);
        return label;
      }),
    );
  }

  /**
   * The top-left corner of the encoding on the canvas, and the outlined row when it lies below
   * that corner. Read when the table is open: a drag repaints 60 times a second.
   */
  function numbersNow() {
    const { seqLen, dModel, base } = shown.params;
    const columns = corner(dModel);
    const positions = corner(seqLen);
    const outlined = Math.round(position.value);
    if (outlined >= positions.length && outlined < seqLen) positions.push(outlined);
    return {
      caption: t("PE(pos, j) for positions {positions} of {seqLen} and dimensions {columns} of {dModel}, base {base}", {
        positions: listed(positions),
        seqLen,
        columns: listed(columns),
        dModel,
        base: formatNumber(base),
      }),
      // Translators: a table's corner: its rows are positions.
      corner: t("position"),
      columns: columns.map((j) => `j = ${j}`),
      rows: matrixRows(shown.values, dModel, positions, columns.length, (pos) =>
        // Translators: a table row's label: a position, and that it is the one outlined on the heatmap.
        pos === outlined ? t("pos {pos} (outlined)", { pos }) : t("pos {pos}", { pos }),
      ),
      note:
        seqLen > positions.length || dModel > columns.length
          ? t("A corner of the matrix. Focus the heatmap and use the arrow keys to read any other value.")
          : "",
    };
  }

  function highlightRow() {
    if (!shown) return;
    numbers.show(numbersNow);
    const { seqLen } = shown.params;
    const pos = Math.round(position.value);
    row.hidden = pos >= seqLen;
    row.style.setProperty("--y", `${(pos / seqLen) * 100}%`);
    row.style.setProperty("--h", `${100 / seqLen}%`);
    row.dataset.pos = pos;
    // Called on every frame of a drag: rewriting the same text would relayout and repaint the page.
    const label = row.querySelector("span");
    // Translators: the label on the heatmap's outlined row.
    const text = t("pos {pos}: its fingerprint", { pos });
    if (label.textContent !== text) label.textContent = text;
  }

  function clampCell({ pos, dim }) {
    const { seqLen, dModel } = shown.params;
    return { pos: Math.min(Math.max(pos, 0), seqLen - 1), dim: Math.min(Math.max(dim, 0), dModel - 1) };
  }

  function select(cell) {
    if (!shown) return;
    active = cell;
    const { seqLen, dModel, base, concatenated } = shown.params;
    const value = shown.values[cell.pos * dModel + cell.dim];
    const { where, formula } = describeCell({ ...cell, dModel, base, value, concatenated });
    readout.querySelector(".heatmap-where").textContent = where;
    readout.querySelector(".heatmap-formula").textContent = formula;
    Object.assign(readout.dataset, { pos: cell.pos, dim: cell.dim, value });
    cursor.style.setProperty("--x", `${(cell.dim / dModel) * 100}%`);
    cursor.style.setProperty("--y", `${(cell.pos / seqLen) * 100}%`);
    cursor.style.setProperty("--w", `${100 / dModel}%`);
    cursor.style.setProperty("--h", `${100 / seqLen}%`);
    cursor.hidden = false;
  }

  function cellAt(event) {
    const box = canvas.getBoundingClientRect();
    return clampCell({
      dim: Math.floor(((event.clientX - box.left) / box.width) * shown.params.dModel),
      pos: Math.floor(((event.clientY - box.top) / box.height) * shown.params.seqLen),
    });
  }

  /** Reading values: hover, click, and the keyboard once focused. */
  function listen(canvas) {
    canvas.addEventListener("pointermove", (event) => shown && select(cellAt(event)));
    canvas.addEventListener("click", (event) => shown && position.set(cellAt(event).pos));
    canvas.addEventListener("pointerleave", () => {
      if (document.activeElement !== canvas) cursor.hidden = true;
    });
    canvas.addEventListener("focus", () => select(active ?? { pos: 1, dim: 0 }));
    canvas.addEventListener("blur", () => (cursor.hidden = true));
    canvas.addEventListener("keydown", onKey);
  }
  listen(canvas);
  // After a restart the page paints a copy of the canvas (see bridge.js): read and label that one.
  python.addEventListener("canvasreplaced", ({ detail }) => {
    if (detail.canvas !== canvas) return;
    canvas = detail.replacement;
    listen(canvas);
  });

  function onKey(event) {
    if (!shown) return;
    const { pos, dim } = active ?? { pos: 0, dim: 0 };
    const moves = {
      ArrowLeft: { pos, dim: dim - 1 },
      ArrowRight: { pos, dim: dim + 1 },
      ArrowUp: { pos: pos - 1, dim },
      ArrowDown: { pos: pos + 1, dim },
      PageUp: { pos: pos - 10, dim },
      PageDown: { pos: pos + 10, dim },
      Home: { pos, dim: 0 },
      End: { pos, dim: Infinity },
    };
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      position.set(active?.pos ?? 0);
      return;
    }
    if (!(event.key in moves)) return;
    event.preventDefault();
    select(clampCell(moves[event.key]));
  }
  position.subscribe(() => {
    highlightRow();
    writeCode();
  });

  // The colour scale under the heatmap: pelab's map, at once, without Python.
  // Translators: what the heatmap's colours measure: "Colour scale of the encoding".
  colourBar(root.querySelector(".heatmap-legend"))({ limit: 1, title: t("encoding") });

  // The code at once, as every demo offers it: the figure is the page's picture until Python is up.
  writeCode();
  const firstRender = python.ready.then(() => update({}));

  return { firstRender };
}
