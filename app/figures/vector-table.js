/**
 * Vectors as a table of coloured numbers: one row per vector, one column per dimension.
 * Used by the attention demo (one row per token) and the "added, not concatenated" demo.
 */
import { colorFor } from "./colors.js";
import { fixed } from "./format.js";
import { scrollableByKeyboard } from "./scroll-region.js";

/**
 * Fill `table` with rows [{label, values, note?, shape?}]; values are numbers in [-limit, limit].
 * Text goes in through textContent only: tokens typed by the learner are never parsed as HTML.
 */
export function vectorTable(table, rows, { limit = 1, decimals = 2, caption = "", noteTitle = "note" } = {}) {
  const width = Math.max(...rows.map((row) => row.values.length));
  const body = document.createElement("tbody");
  for (const row of rows) {
    const tr = document.createElement("tr");
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = row.label;
    tr.append(th);
    for (let j = 0; j < width; j++) {
      const td = document.createElement("td");
      if (j < row.values.length) {
        const value = row.values[j];
        const { background, ink } = colorFor(value, limit);
        td.textContent = fixed(value, decimals);
        td.style.backgroundColor = background;
        td.style.color = ink;
        td.title = `dimension ${j}: ${value}`;
      }
      tr.append(td);
    }
    if (row.note !== undefined) {
      const note = document.createElement("td");
      note.className = "vector-note";
      note.textContent = row.note;
      tr.append(note);
    }
    body.append(tr);
  }
  const head = document.createElement("thead");
  const headRow = document.createElement("tr");
  const corner = document.createElement("th");
  corner.scope = "col";
  corner.textContent = caption;
  headRow.append(corner);
  for (let j = 0; j < width; j++) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = String(j);
    headRow.append(th);
  }
  if (rows.some((row) => row.note !== undefined)) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = noteTitle;
    headRow.append(th);
  }
  head.append(headRow);
  table.replaceChildren(head, body);
  scrollableByKeyboard(table.closest(".table-scroll"));
}
