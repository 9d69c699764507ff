/**
 * What Python shows the page: the text it prints (stdout, stderr) and rich output from
 * pelab.notebook (figures, heatmaps), each tagged with the cell that is running.
 */
import { EVENT, OUTPUT_LIMIT } from "../protocol.js";
import { post } from "./messages.js";
import { toPlain } from "./results.js";

/**
 * What cells print, streamed as it comes but batched in a flood (at most 20 messages per 50 ms;
 * the worker cannot use timers while Python runs, so a batch leaves with the next line or at the
 * end) and capped per run at OUTPUT_LIMIT, so a million prints neither flood nor freeze the page.
 */
export const output = {
  cell: null,
  buffers: { [EVENT.STDOUT]: [], [EVENT.STDERR]: [] },
  chars: 0,
  lines: 0,
  dropped: 0,
  window: 0,
  sent: 0,
  start(cell) {
    Object.assign(this, { cell, chars: 0, lines: 0, dropped: 0, window: 0, sent: 0 });
  },
  write(stream, text) {
    if (this.cell === null) return post({ type: stream, cell: null, text });
    if (this.chars >= OUTPUT_LIMIT.chars || this.lines >= OUTPUT_LIMIT.lines) {
      this.dropped++;
      return;
    }
    this.chars += text.length + 1;
    this.lines++;
    this.buffers[stream].push(text);
    const now = performance.now();
    if (now - this.window > 50) Object.assign(this, { window: now, sent: 0 });
    if (this.sent < 20) {
      this.sent++;
      this.flush();
    }
  },
  flush() {
    for (const [stream, lines] of Object.entries(this.buffers)) {
      if (lines.length) post({ type: stream, cell: this.cell, text: lines.join("\n") });
      this.buffers[stream] = [];
    }
  },
  finish() {
    this.flush();
    if (this.dropped) {
      post({
        type: EVENT.STDERR,
        cell: this.cell,
        text: `… output truncated: ${this.dropped.toLocaleString("en")} more lines were not shown`,
      });
    }
    this.cell = null;
  },
};

/**
 * The function pelab.notebook hands rich output (figures, heatmaps) to the page through: sent
 * after the text printed before it.
 */
export function displayer(pyodide) {
  return (kind, payload) => {
    output.flush();
    const { value, transfer } = toPlain(pyodide, payload);
    post({ type: EVENT.DISPLAY, cell: output.cell, kind, payload: value }, transfer);
  };
}
