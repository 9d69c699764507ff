/**
 * Demo: images and video, rows, columns and time. Qwen2-VL's multimodal RoPE (M-RoPE) on text,
 * a still image of merged patches and more text: every token's three ids (time, row, column),
 * the picked patch's angle for each of the 64 pairs coloured by the id that turns it, and its
 * score against every patch as a square over the image, with a live check that the score of two
 * patches depends on their 2-D offset alone. Computed by pelab in the worker.
 */
import { liveRender } from "./live-render.js";
import { bindSliders, paramsFrom } from "../controls/bind-sliders.js";
import { colourBarUnder } from "../figures/colour-bar.js";
import { difference, fixed } from "../figures/format.js";
import { lineChart } from "../figures/line-chart.js";
import { matrixAxes } from "../figures/matrix-axes.js";
import { numbersFor } from "../figures/numbers.js";
import { paintPixels } from "../figures/paint.js";
import { showPython } from "./show-python.js";
import { t } from "../i18n.js";
import { sentences } from "../words.js";

/** The demo's sliders: {param: input name}. */
const SLIDERS = { textBefore: "text_before", rows: "rows", columns: "columns", row: "row", column: "column" };

/** Qwen2-VL's mrope_section for a head of 128: pairs turned by time, row and column. */
const SECTIONS = [16, 24, 24];
/** The pairs each choice of the radio group scores with, as a Python slice. */
const SLICES = { all: "0:64", time: "0:16", rows: "16:40", columns: "40:64" };

/** The patch shown: the one asked for, kept inside the image. */
const shownPatch = ({ rows, columns, row, column }) => ({ row: Math.min(row, rows - 1), column: Math.min(column, columns - 1) });

/**
 * The Python behind the figures: the ids, the angles, and the picked patch's scores.
 *
 * @param {{textBefore: number, rows: number, columns: number, row: number, column: number, pairs: string}} settings
 *   `row` and `column` as shown
 */
export function pythonCode({ textBefore, rows, columns, row, column, pairs }) {
  // The code's comments, in the page's language (outside the template: the extractor of
  // messages reads no template literal).
  const comments = {
    ids: t("(3, N): time, row and column ids"),
    angles: t("(N, 64): each pair turned by its id"),
    score: t("the same content vector for every token"),
  };
  return `import numpy as np
import pelab

segments = [("text", ${textBefore}), ("image", (1, ${rows}, ${columns})), ("text", 2)]
ids = pelab.mrope_position_ids(segments)          # ${comments.ids}
angles = pelab.mrope_angles(ids, 128, 10000, (16, 24, 24))   # ${comments.angles}
picked = ${textBefore} + ${row} * ${columns} + ${column}
print("picked patch (t, h, w):", ids[:, picked])
print("text after the image starts at:", ids[0, -2])
score = np.cos(angles - angles[picked])[:, ${SLICES[pairs]}].mean(axis=1)   # ${comments.score}
grid = score[${textBefore}:${textBefore + rows * columns}].reshape(${rows}, ${columns})
print("lowest score in the image:", grid.min())
pelab.show(grid - 1, title="score - 1")`;
}

/**
 * The code the cell shows at first paint, for the section's controls at their first values.
 *
 * @param {Record<string, any>} controls
 */
export function firstCode(controls) {
  const params = paramsFrom(SLIDERS, controls);
  return pythonCode({ ...params, ...shownPatch(params), pairs: controls.pairs });
}

export function patchesDemo(root, python) {
  const notice = root.querySelector(".patches-notice");
  const grid = root.querySelector(".patches-grid");
  const chart = root.querySelector(".patches-angles");
  const params = bindSliders(root, SLIDERS, () => update());
  const choice = () => root.querySelector('input[name="pairs"]:checked').value;
  for (const radio of root.querySelectorAll('input[name="pairs"]')) radio.addEventListener("change", () => update());
  const render = liveRender(root, python, "patches", show);
  // Translators: a square's axis titles: the rows and columns of an image's patches.
  const axes = matrixAxes(grid, { rowTitle: t("row"), columnTitle: t("column") });
  const bar = colourBarUnder(grid.closest(".matrix-plot"));
  const numbers = {
    tokens: numbersFor(grid, t("every token’s ids and score")),
    angles: numbersFor(chart, t("the picked patch’s angle for each pair")),
  };
  const axisNames = () => [t("time"), t("row"), t("column")];

  function update() {
    const shown = shownPatch(params);
    const moved = shown.row !== params.row || shown.column !== params.column;
    notice.hidden = !moved;
    notice.textContent = moved
      ? t("The image has {rows} rows and {columns} columns (counted from 0): showing the patch at row {row}, column {column}.", {
          rows: params.rows,
          columns: params.columns,
          ...shown,
        })
      : "";
    const request = { ...params, ...shown, pairs: choice() };
    showPython(root, pythonCode(request));
    return render(request);
  }

  function show(result, request) {
    const { n, rows, columns, row, column, picked } = result;
    const ids = [0, 1, 2].map((axis) => result.ids.slice(axis * n, (axis + 1) * n));
    const idsOf = (k) => `(${ids[0][k]}, ${ids[1][k]}, ${ids[2][k]})`;
    const after = result.text_before + rows * columns;
    root.querySelector(".patches-picked").textContent = idsOf(picked);
    root.querySelector(".patches-after").textContent = t("{id} (the image starts at {start}, and max(rows, columns) = {longest})", {
      id: ids[0][after],
      start: ids[0][result.text_before],
      longest: Math.max(rows, columns),
    });
    root.querySelector(".patches-gap").textContent = t("{gap} (over {pairs} ordered pairs of patches)", {
      gap: difference(result.shift_gap),
      pairs: result.offset_pairs,
    });
    const scores = [...result.scores].map((s) => fixed(s, 6));
    root.querySelector(".patches-text-scores").textContent = t("before: {before}; after: {after}", {
      before: scores.slice(0, result.text_before).join(", "),
      after: scores.slice(after).join(", "),
    });

    grid.style.aspectRatio = `${columns} / ${rows}`;
    paintPixels(grid, { width: columns, height: rows, rgba: result.grid_rgba });
    axes({ rows, columns });
    // Translators: what a colour bar measures: a score minus the picked patch's own score, 1.
    bar({ limit: result.drop_scale, part: "negative", title: t("score − 1") });
    const which = { all: t("all 64 pairs"), time: t("the 16 time pairs"), rows: t("the 24 row pairs"), columns: t("the 24 column pairs") }[result.pairs];
    const patchScores = result.scores.slice(result.text_before, after);
    grid.setAttribute(
      "aria-label",
      sentences(
        t("The picked patch’s score minus 1 against each of the {rows} by {columns} patches, from {which}: white at the picked patch, row {row}, column {column}, bluer where the score is lower.", {
          rows,
          columns,
          which,
          row,
          column,
        }),
        t("The lowest score in the image is {low}.", { low: fixed(Math.min(...patchScores), 6) }),
      ),
    );
    numbers.tokens.show(() => ({
      caption: t("Every token’s ids (time, row, column) and its score with the picked patch, from {which}", { which }),
      corner: t("token"),
      columns: [t("time id"), t("row id"), t("column id"), t("score")],
      rows: [...Array(n).keys()].map((k) => ({
        label:
          k < result.text_before
            ? t("text {k}", { k })
            : k < after
              ? t("patch ({row}, {column})", { row: Math.floor((k - result.text_before) / columns), column: (k - result.text_before) % columns })
              : t("text {k}", { k }),
        values: [ids[0][k], ids[1][k], ids[2][k], result.scores[k]],
      })),
      format: (v) => (Number.isInteger(v) ? String(v) : fixed(v, 6)),
    }));

    drawAngles(result);
    Object.assign(root.dataset, {
      rendered: `${request.textBefore}/${rows}/${columns}/${row}/${column}/${result.pairs}`,
      ids: idsOf(picked),
      after: String(ids[0][after]),
      gap: String(result.shift_gap),
    });
  }

  function drawAngles(result) {
    const names = axisNames();
    let first = 0;
    const series = SECTIONS.map((count, axis) => {
      const x = [...Array(count).keys()].map((i) => first + i);
      first += count;
      return { x, y: x.map((i) => result.angles[i]), className: `pair-${axis}`, label: t("turned by the {axis} id", { axis: names[axis] }) };
    });
    lineChart(chart, {
      series,
      // Translators: a chart's x axis: the 64 frequency pairs of a head, numbered from 0.
      xLabel: t("pair i"),
      yLabel: t("angle, radians"),
      xDomain: [0, 63],
      yDomain: [0, Math.max(...result.angles) || 1],
    });
    const idsText = [0, 1, 2].map((axis) => result.ids[axis * result.n + result.picked]);
    chart.setAttribute(
      "aria-label",
      t(
        "The picked patch’s angle for each of the 64 pairs: pairs 0 to 15 turn by its time id {time}, pairs 16 to 39 by its row id {row}, pairs 40 to 63 by its column id {column}; each angle is the id times the pair’s frequency, from {high} radians at pair 0 down to {low} at pair 63.",
        { time: idsText[0], row: idsText[1], column: idsText[2], high: fixed(result.angles[0], 4), low: fixed(result.angles[63], 6) },
      ),
    );
    numbers.angles.show(() => ({
      caption: t("The picked patch’s angle for each pair, and the id that turns it"),
      corner: t("pair i"),
      columns: [t("turned by"), t("angle, radians")],
      rows: [...Array(64).keys()].map((i) => {
        const axis = i < SECTIONS[0] ? 0 : i < SECTIONS[0] + SECTIONS[1] ? 1 : 2;
        return { label: String(i), values: [names[axis], result.angles[i]] };
      }),
      format: (v) => (typeof v === "string" ? v : fixed(v, 6)),
    }));
  }

  return { firstRender: update() };
}
