/**
 * The heatmap demo: the sinusoidal encoding of every (position, dimension), computed by
 * pelab in the worker as RGBA pixels; this module only paints, labels and reads values.
 *
 * Rows are positions (pos), columns are embedding dimensions (j). Sliders for d_model,
 * sequence length and base repaint while dragging: one request is in flight at a time and
 * the newest slider values replace any that are still waiting (latest value wins).
 */
import { slider } from "./slider.js";

/** Round to `digits` significant figures, so the base shown is exactly the base computed. */
export function roundSignificant(value, digits = 3) {
  return Number(value.toPrecision(digits));
}

/** A readable number: integers as they are, others with up to 6 significant figures. */
export function formatNumber(value) {
  if (Number.isInteger(value)) return String(value);
  return String(Number(value.toPrecision(6)));
}

/** Tick positions 0, step, 2 step, ... below n, with step 1, 2 or 5 times a power of ten. */
export function ticks(n, target = 6) {
  const raw = Math.max(1, n / target);
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw);
  const positions = [];
  for (let t = 0; t < n; t += step) positions.push(t);
  return positions;
}

/** What one cell of the encoding is, with the formula filled in. */
export function describeCell({ pos, dim, dModel, base, value }) {
  const pair = Math.floor(dim / 2);
  const fn = dim % 2 === 0 ? "sin" : "cos";
  const angle = pos / base ** ((2 * pair) / dModel);
  return {
    where: `pos ${pos}, dimension j = ${dim}: pair i = ${pair}, ${fn === "sin" ? "even j, sine" : "odd j, cosine"}`,
    formula:
      `PE(${pos}, ${dim}) = ${fn}(${pos} / ${formatNumber(base)}^(${2 * pair}/${dModel}))` +
      ` = ${fn}(${formatNumber(angle)}) = ${value.toFixed(5)}`,
  };
}

export function heatmapDemo(root, python) {
  const canvas = root.querySelector(".heatmap-canvas");
  const context = canvas.getContext("2d");
  const cursor = root.querySelector(".heatmap-cursor");
  const readout = root.querySelector(".heatmap-readout");
  const problem = root.querySelector(".heatmap-problem");

  const params = {};
  const controls = {
    dModel: slider(root.querySelector("[name=d_model]"), { onInput: (v) => update({ dModel: v }) }),
    seqLen: slider(root.querySelector("[name=seq_len]"), { onInput: (v) => update({ seqLen: v }) }),
    base: slider(root.querySelector("[name=base]"), {
      toValue: (exponent) => roundSignificant(10 ** exponent),
      format: formatNumber,
      onInput: (v) => update({ base: v }),
    }),
  };
  for (const [key, control] of Object.entries(controls)) params[key] = control.value;

  let shown = null; // {params, values} of what is on the canvas
  let active = null; // the cell under the pointer or the keyboard cursor
  let inFlight = false;
  let waiting = null;
  let firstPaint;
  const firstRender = new Promise((resolve, reject) => (firstPaint = { resolve, reject }));

  function update(change) {
    Object.assign(params, change);
    waiting = { ...params };
    if (!inFlight) pump();
  }

  async function pump() {
    inFlight = true;
    while (waiting) {
      const request = waiting;
      waiting = null;
      try {
        paint(request, await python.heatmap(request));
        problem.hidden = true;
        firstPaint.resolve();
      } catch (error) {
        problem.textContent = `Could not compute the heatmap: ${error.message}`;
        problem.hidden = false;
        firstPaint.reject(error);
      }
    }
    inFlight = false;
  }

  function paint(request, { width, height, rgba, values }) {
    canvas.width = width;
    canvas.height = height;
    context.putImageData(new ImageData(new Uint8ClampedArray(rgba.buffer), width, height), 0, 0);
    shown = { params: request, values };
    canvas.dataset.rendered = `${request.seqLen}x${request.dModel}@${request.base}`;
    canvas.setAttribute(
      "aria-label",
      `Heatmap of the sinusoidal positional encoding: ${height} positions (rows) by ${width} ` +
        `dimensions (columns), base ${formatNumber(request.base)}. Colours run from blue (-1) through ` +
        "white (0) to red (+1). Focus it and use the arrow keys to read values.",
    );
    drawTicks(root.querySelector(".heatmap-x-ticks"), width);
    drawTicks(root.querySelector(".heatmap-y-ticks"), height);
    if (active) select(clampCell(active));
  }

  function drawTicks(container, n) {
    container.replaceChildren(
      ...ticks(n).map((t) => {
        const label = document.createElement("span");
        label.textContent = t;
        label.style.setProperty("--at", `${((t + 0.5) / n) * 100}%`);
        return label;
      }),
    );
  }

  function clampCell({ pos, dim }) {
    const { seqLen, dModel } = shown.params;
    return { pos: Math.min(Math.max(pos, 0), seqLen - 1), dim: Math.min(Math.max(dim, 0), dModel - 1) };
  }

  function select(cell) {
    if (!shown) return;
    active = cell;
    const { seqLen, dModel, base } = shown.params;
    const value = shown.values[cell.pos * dModel + cell.dim];
    const { where, formula } = describeCell({ ...cell, dModel, base, value });
    readout.querySelector(".heatmap-where").textContent = where;
    readout.querySelector(".heatmap-formula").textContent = formula;
    Object.assign(readout.dataset, { pos: cell.pos, dim: cell.dim, value });
    cursor.style.setProperty("--x", `${(cell.dim / dModel) * 100}%`);
    cursor.style.setProperty("--y", `${(cell.pos / seqLen) * 100}%`);
    cursor.style.setProperty("--w", `${100 / dModel}%`);
    cursor.style.setProperty("--h", `${100 / seqLen}%`);
    cursor.hidden = false;
  }

  canvas.addEventListener("pointermove", (event) => {
    if (!shown) return;
    const box = canvas.getBoundingClientRect();
    select(
      clampCell({
        dim: Math.floor(((event.clientX - box.left) / box.width) * shown.params.dModel),
        pos: Math.floor(((event.clientY - box.top) / box.height) * shown.params.seqLen),
      }),
    );
  });
  canvas.addEventListener("pointerleave", () => {
    if (document.activeElement !== canvas) cursor.hidden = true;
  });
  canvas.addEventListener("focus", () => select(active ?? { pos: 1, dim: 0 }));
  canvas.addEventListener("blur", () => (cursor.hidden = true));
  canvas.addEventListener("keydown", (event) => {
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
    if (!(event.key in moves)) return;
    event.preventDefault();
    select(clampCell(moves[event.key]));
  });

  async function drawLegend() {
    const strip = root.querySelector(".heatmap-legend-strip");
    const { width, height, rgba } = await python.legend();
    strip.width = width;
    strip.height = height;
    strip.getContext("2d").putImageData(new ImageData(new Uint8ClampedArray(rgba.buffer), width, height), 0, 0);
  }

  python.ready.then(() => {
    update({});
    drawLegend().catch(() => {});
  }, () => {});

  return { firstRender };
}
