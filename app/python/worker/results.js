/**
 * Results on their way to the page: Python dicts to plain data (typed arrays copied into buffers
 * the page gave back when one fits), and a result's pixels painted straight on a page canvas
 * handed to this worker (an OffscreenCanvas), never sent.
 */
import { paintPixels } from "../../figures/paint.js";

/**
 * Buffers the page has sent back (REQUEST.RECYCLE), by size, for toPlain to copy arrays into:
 * the heatmap at 512 x 512 sends 3 MB a frame, and writing fresh memory costs more than the
 * copy itself. A few per size, and only up to SPARE_BYTES in all.
 */
const SPARE_BYTES = 32 * 2 ** 20;
const spare = {
  bySize: new Map(),
  bytes: 0,
  keep(buffers) {
    for (const buffer of buffers ?? []) {
      const size = buffer?.byteLength;
      if (!size || this.bytes + size > SPARE_BYTES) continue;
      const kept = this.bySize.get(size) ?? [];
      if (kept.length >= 4) continue;
      kept.push(buffer);
      this.bySize.set(size, kept);
      this.bytes += size;
    }
  },
  /** A typed array like `data` holding a copy of it, in a spare buffer when one fits. */
  copy(data) {
    const buffer = this.bySize.get(data.byteLength)?.pop();
    if (!buffer) return data.slice();
    this.bytes -= buffer.byteLength;
    const copy = new data.constructor(buffer);
    copy.set(data);
    return copy;
  },
};

/** Keep `buffers` (ArrayBuffers the page is done with) to copy later results into. */
export const recycle = (buffers) => spare.keep(buffers);

/** The page's canvases this worker paints on (REQUEST.CALL's `canvas`), by id. */
const canvases = new Map();

/** The OffscreenCanvas a call's `canvas` ({id, offscreen}) names, taking it when it comes. */
export function canvasFor({ id, offscreen }) {
  if (offscreen) canvases.set(id, offscreen);
  return canvases.get(id);
}

/**
 * Paint a result's `rgba` (width x height) on `offscreen`, straight from wasm memory, and take it
 * out of the result: the page is not sent pixels it would only copy onto its canvas. The
 * heatmap at 512 x 512 repaints 60 times a second while a slider is dragged, and this way
 * neither its 1 MB copy nor the page's main thread is on the path from input to pixels.
 * Returns when it painted (ms since the epoch), or null if there was nothing to paint on.
 */
export function paintResult(result, offscreen) {
  if (!offscreen || !result.has("rgba")) return null;
  const rgba = result.pop("rgba");
  const buffer = rgba.getBuffer();
  try {
    const width = result.get("width");
    const height = result.get("height");
    if (!buffer.c_contiguous || buffer.data.length !== width * height * 4) {
      throw new Error("pelab returned rgba that is not width x height pixels");
    }
    paintPixels(offscreen, { width, height, rgba: buffer.data });
  } finally {
    buffer.release();
    rgba.destroy();
  }
  return performance.timeOrigin + performance.now();
}

/**
 * A Python dict -> {value: a plain object, transfer: its arrays' buffers}. numpy arrays become
 * typed arrays, copied out of wasm memory (a view would break when the heap grows); lists and
 * dicts become plain JS values. Every proxy is freed.
 */
export function toPlain(pyodide, dict) {
  const shallow = dict.toJs({ depth: 1, dict_converter: Object.fromEntries });
  const value = {};
  const transfer = [];
  for (const [key, item] of Object.entries(shallow)) {
    if (!(item instanceof pyodide.ffi.PyProxy)) {
      value[key] = item;
      continue;
    }
    try {
      if (item.type !== "numpy.ndarray") {
        value[key] = item.toJs({ dict_converter: Object.fromEntries, create_pyproxies: false });
        continue;
      }
      const buffer = item.getBuffer();
      try {
        if (!buffer.c_contiguous) throw new Error(`pelab returned a non-contiguous array for "${key}"`);
        value[key] = spare.copy(buffer.data);
        transfer.push(value[key].buffer);
      } finally {
        buffer.release();
      }
    } finally {
      item.destroy();
    }
  }
  return { value, transfer };
}
