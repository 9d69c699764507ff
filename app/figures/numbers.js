/**
 * "Show the numbers": a figure drawn from numbers (a canvas or an SVG chart) gets a
 * <details> holding those numbers as a real <table>, so they can be read exactly, with a screen
 * reader too, where the picture's accessible name can only summarise. The figure points to it
 * with aria-details. Big matrices show their top-left corner, and a note says so.
 */
import { fixed } from "./format.js";
import { htmlNotation } from "./notation.js";
import { scrollableByKeyboard } from "./scroll-region.js";
import { t } from "../i18n.js";

/** At most this many rows and columns of a matrix are listed. */
export const CORNER = 8;

let made = 0;

/**
 * The numbers box of `figure`: at the end of the <figure> around it, or right after it; for
 * figures side by side, which are too narrow for a table, under their row, in order. `what`
 * says whose numbers they are ("Show the numbers: the heatmap"). Returns show(numbers):
 * numbers = {caption, corner, columns, rows, note, format}, rows being [{label, values}] (NaN
 * shows as "none"), or a function returning them, called only when the table can be seen.
 */
export function numbersFor(figure, what) {
  const details = document.createElement("details");
  details.className = "numbers";
  details.id = `numbers-${++made}`;
  const summary = document.createElement("summary");
  // Translators: opens a table of a figure's numbers; {what} names the figure, such as "the heatmap".
  summary.textContent = t("Show the numbers: {what}", { what });
  const box = Object.assign(document.createElement("div"), { className: "table-scroll" });
  const table = Object.assign(document.createElement("table"), { className: "numbers-table" });
  const note = Object.assign(document.createElement("p"), { className: "note numbers-note" });
  box.append(table);
  details.append(summary, box, note);
  const sideBySide = figure.closest(".side-by-side");
  const host = figure.closest("figure");
  if (sideBySide) {
    let last = sideBySide;
    while (last.nextElementSibling?.matches("details.numbers")) last = last.nextElementSibling;
    last.after(details);
  } else if (host) host.append(details);
  else figure.after(details);
  figure.setAttribute("aria-details", details.id);
  scrollableByKeyboard(box);

  // Figures repaint on every slider step; the table is only built when it can be seen.
  let latest = null;
  details.addEventListener("toggle", () => details.open && latest && render(latest));

  return {
    details,
    show(numbers) {
      latest = numbers;
      if (details.open) render(numbers);
    },
  };

  function render(numbers) {
    const { caption, corner: cornerLabel = "", columns, rows, note: text = "", format = (v) => fixed(v, 6) } =
      typeof numbers === "function" ? numbers() : numbers;
    const head = row(cell("th", cornerLabel, "col"), ...columns.map((label) => cell("th", label, "col")));
    const body = rows.map(({ label, values }) =>
      // Translators: a table's cell that has no number (a position with no row, a run not made yet).
      row(cell("th", label, "row"), ...Array.from(values, (v) => cell("td", Number.isNaN(v) ? t("none") : format(v)))),
    );
    table.replaceChildren(
      captionOf(caption),
      section("thead", [head]),
      section("tbody", body),
    );
    note.textContent = text;
    note.hidden = !text;
  }
}

/** Up to CORNER indices from 0 (rows or columns of a matrix's top-left corner). */
export function corner(n) {
  return [...Array(Math.min(n, CORNER)).keys()];
}

/**
 * Rows for show() from a row-major matrix `width` values wide: row i of `rows` holds its first
 * `columns` values, copied (a demo may hand its buffers back for reuse), labelled label(i).
 *
 * @param {number[] | Float32Array | Float64Array} matrix
 * @param {number} width
 * @param {number[]} rows
 * @param {number} columns
 * @param {(i: number) => string} [label]
 */
export function matrixRows(matrix, width, rows, columns, label = String) {
  return rows.map((i) => ({ label: label(i), values: matrix.slice(i * width, i * width + columns) }));
}

/** Indices for a caption: "0–7" for consecutive ones from 0, "0–7 and 40" with one more. */
export function listed(indices) {
  const run = indices.filter((n, k) => n === k);
  const rest = indices.slice(run.length);
  const first = run.length > 1 ? `${run[0]}–${run[run.length - 1]}` : String(run[0]);
  return rest.length ? t("{list} and {last}", { list: first, last: rest.join(", ") }) : first;
}

function cell(tag, text, scope) {
  const element = document.createElement(tag);
  element.textContent = text;
  if (scope) element.scope = scope;
  return element;
}

function row(...cells) {
  const tr = document.createElement("tr");
  tr.append(...cells);
  return tr;
}

function section(tag, rows) {
  const element = document.createElement(tag);
  element.append(...rows);
  return element;
}

/** A table's caption, in the prose's notation: "S_j" with its j as a subscript (notation.js). */
function captionOf(text) {
  const caption = document.createElement("caption");
  caption.append(...htmlNotation(text));
  return caption;
}
