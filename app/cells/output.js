/**
 * A cell's output area: printed text as it streams (stderr styled apart), figures as images,
 * heatmaps handed over with pelab.show, the last expression's value, or the traceback.
 * Everything is inserted as text or as pixels, never parsed as HTML.
 */
import { formatNumber } from "../figures/format.js";
import { corner, listed, matrixRows, numbersFor } from "../figures/numbers.js";
import { paintPixels } from "../figures/paint.js";
import { t } from "../i18n.js";

export function cellOutput(area, title) {
  let figures = 0;
  const urls = [];

  function block(kind, text) {
    const last = area.lastElementChild;
    if (last?.dataset.kind === kind && (kind === "stdout" || kind === "stderr")) {
      last.textContent += `\n${text}`;
      return last;
    }
    const pre = document.createElement("pre");
    pre.className = `out out-${kind}`;
    pre.dataset.kind = kind;
    pre.textContent = text;
    area.append(pre);
    return pre;
  }

  return {
    clear() {
      for (const url of urls.splice(0)) URL.revokeObjectURL(url);
      figures = 0;
      area.replaceChildren();
    },
    stream: (stream, text) => block(stream, text),
    result: (text) => block("result", text),
    error: (text) => block("error", text),
    display(kind, payload) {
      if (kind === "figure") {
        const url = URL.createObjectURL(new Blob([payload.png], { type: "image/png" }));
        urls.push(url);
        const image = Object.assign(document.createElement("img"), {
          src: url,
          // Translators: a figure's text alternative; {title} is the code cell's title.
          alt: t("Figure {number} drawn by the code in {title}", { number: ++figures, title }),
          width: payload.width,
          height: payload.height,
          className: "out-figure",
        });
        area.append(image);
      } else if (kind === "heatmap") {
        area.append(heatmapFigure(payload));
      }
    },
  };
}

function heatmapFigure({ title, width, height, rgba, values, vmin, vmax }) {
  const figure = document.createElement("figure");
  figure.className = "out-heatmap";
  const canvas = document.createElement("canvas");
  paintPixels(canvas, { width, height, rgba });
  // Translators: what a heatmap shown without a title is called.
  const name = title || t("array");
  canvas.setAttribute("role", "img");
  canvas.setAttribute(
    "aria-label",
    t("Heatmap of {name}: {height} rows by {width} columns, blue {low} to red {high}", {
      name,
      height,
      width,
      low: formatNumber(vmin),
      high: formatNumber(vmax),
    }),
  );
  const caption = document.createElement("figcaption");
  caption.textContent = t("{name}: {height} × {width}, colour scale {low} (blue) to {high} (red)", {
    name,
    height,
    width,
    low: formatNumber(vmin),
    high: formatNumber(vmax),
  });
  figure.append(canvas, caption);
  const rows = corner(height);
  const columns = corner(width);
  numbersFor(canvas, name).show({
    caption: t("{name}, rows {rows} of {height} and columns {columns} of {width}", {
      name,
      rows: listed(rows),
      height,
      columns: listed(columns),
      width,
    }),
    // Translators: the corner of a table whose rows are a matrix's rows.
    corner: t("row"),
    columns: columns.map(String),
    rows: matrixRows(values, width, rows, columns.length),
    note: rows.length < height || columns.length < width ? t("The top-left corner of the array: print it in the cell for more.") : "",
  });
  return figure;
}
