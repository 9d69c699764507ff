/**
 * Vectors as a table of coloured numbers: one row per vector, one column per dimension.
 * Used by the attention demo (one row per token) and the "added, not concatenated" demo.
 *
 * A table that may turn (`turn: true`) is drawn the other way round, one column per vector and
 * one row per dimension, while its box is too narrow for it: on a phone the added demo showed 2
 * of its 8 dimensions, the rest behind a sideways scroll.
 */
import { colorFor } from "./colors.js";
import { fixed } from "./format.js";
import { scrollableByKeyboard } from "./scroll-region.js";
import { t } from "../i18n.js";

/** Tables that turn: table -> {rows, options, box}, to redraw when their box's width changes. */
const turning = new WeakMap();

/**
 * Fill `table` with rows [{label, values, note?, shape?}]; values are numbers in [-limit, limit].
 * Text goes in through textContent only: tokens typed by the learner are never parsed as HTML.
 *
 * @param {HTMLTableElement} table
 * @param {{label: string, values: ArrayLike<number>, note?: string}[]} rows
 * @param {{limit?: number, decimals?: number, caption?: string, noteTitle?: string, turn?: boolean}} [options]
 */
export function vectorTable(table, rows, options = {}) {
  const box = table.closest(".table-scroll");
  if (!options.turn) {
    fill(table, rows, options);
    scrollableByKeyboard(box);
    return;
  }
  if (!turning.has(table) && box && typeof ResizeObserver !== "undefined") {
    let width = 0;
    new ResizeObserver(([entry]) => {
      const now = Math.round(entry.contentRect.width);
      if (now === width) return;
      width = now;
      const last = turning.get(table);
      if (last) fitTable(table, last.rows, last.options, box);
    }).observe(box);
  }
  turning.set(table, { rows, options });
  fitTable(table, rows, options, box);
  scrollableByKeyboard(box);
}

/** Drawn as usual if it fits its box, else turned. */
function fitTable(table, rows, options, box) {
  fill(table, rows, options);
  const turned = box && box.clientWidth > 0 && table.offsetWidth > box.clientWidth;
  if (turned) fill(table, rows, options, true);
  table.toggleAttribute("data-turned", Boolean(turned));
}

function fill(table, rows, { limit = 1, decimals = 2, caption = "", noteTitle = t("note") } = {}, turned = false) {
  const width = Math.max(...rows.map((row) => row.values.length));
  const notes = rows.some((row) => row.note !== undefined);
  const value = (row, j) => {
    const td = document.createElement("td");
    if (j < row.values.length) {
      const v = row.values[j];
      const { background, ink } = colorFor(v, limit);
      td.textContent = fixed(v, decimals);
      td.style.backgroundColor = background;
      td.style.color = ink;
      // Translators: a table cell's tooltip: which dimension of the vector, and its value in full.
      td.title = t("dimension {j}: {value}", { j, value: String(v) });
    }
    return td;
  };
  const note = (row) => {
    const td = document.createElement("td");
    td.className = "vector-note";
    td.textContent = row.note ?? "";
    return td;
  };
  const head = document.createElement("thead");
  const headRow = document.createElement("tr");
  headRow.append(header(caption, "col"));
  const body = document.createElement("tbody");
  if (!turned) {
    for (let j = 0; j < width; j++) headRow.append(header(String(j), "col"));
    if (notes) headRow.append(header(noteTitle, "col"));
    for (const row of rows) {
      const tr = document.createElement("tr");
      tr.append(header(row.label, "row"));
      for (let j = 0; j < width; j++) tr.append(value(row, j));
      if (row.note !== undefined) tr.append(note(row));
      body.append(tr);
    }
  } else {
    for (const row of rows) headRow.append(header(row.label, "col"));
    for (let j = 0; j < width; j++) {
      const tr = document.createElement("tr");
      tr.append(header(String(j), "row"));
      for (const row of rows) tr.append(value(row, j));
      body.append(tr);
    }
    if (notes) {
      const tr = document.createElement("tr");
      tr.append(header(noteTitle, "row"));
      for (const row of rows) tr.append(note(row));
      body.append(tr);
    }
  }
  head.append(headRow);
  table.replaceChildren(head, body);
}

function header(text, scope) {
  const th = document.createElement("th");
  th.scope = scope;
  th.textContent = text;
  return th;
}
