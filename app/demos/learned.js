/**
 * Demo: learned, sinusoidal and rotary. Cosine similarity between positions for a learned
 * table (random, as before training), the sinusoidal formula and RoPE scores. Asking the
 * learned table for a position past its length fails: that failure is the lesson, so the page
 * opens on it, and says it in the learned square's figure as what the square shows, not as an
 * error of the page's.
 */
import { liveRender } from "./live-render.js";
import { bindSliders, paramsFrom } from "../controls/bind-sliders.js";
import { colourBarUnder } from "../figures/colour-bar.js";
import { difference, formatNumber } from "../figures/format.js";
import { axisTitle, matrixAxes } from "../figures/matrix-axes.js";
import { corner, listed, matrixRows, numbersFor } from "../figures/numbers.js";
import { paintPixels } from "../figures/paint.js";
import { showPython } from "./show-python.js";

/** The width of the three encodings compared (the entry point's d_model). */
const D_MODEL = 64;

/** The demo's sliders: {param: input name}. */
const SLIDERS = { maxLen: "max_len", seqLen: "seq_len" };

/**
 * The Python behind the demo: a learned table asked for more rows than it has, and the formula,
 * which has any.
 *
 * @param {{maxLen: number, seqLen: number}} settings
 */
export function pythonCode({ maxLen, seqLen }) {
  return `import pelab

table = pelab.learned(max_len=${maxLen}, d_model=${D_MODEL})
try:
    table.lookup(range(${seqLen}))          # positions 0 .. ${seqLen - 1}
except IndexError as error:
    print("learned:", error)
pe = pelab.sinusoidal(seq_len=${seqLen}, d_model=${D_MODEL})   # any length works
print("sinusoidal:", pe.shape)`;
}

/**
 * The code the cell shows at first paint, for the section's controls at their first values.
 *
 * @param {Record<string, any>} controls
 */
export const firstCode = (controls) => pythonCode(paramsFrom(SLIDERS, controls));

export function learnedDemo(root, python) {
  const params = bindSliders(root, SLIDERS, () => update());
  const render = liveRender(root, python, "learned", show);
  const learnedError = root.querySelector(".learned-error");
  const KINDS = { learned: "learned table", sinusoidal: "sinusoidal encoding", rope: "RoPE scores" };
  const squares = Object.fromEntries(
    Object.keys(KINDS).map((kind) => {
      const canvas = root.querySelector(`.learned-panel-${kind}`);
      const titles =
        kind === "rope"
          ? { rowTitle: axisTitle("query position ", { v: "m" }), columnTitle: axisTitle("key position ", { v: "n" }) }
          : { rowTitle: "position", columnTitle: "position" };
      return [kind, { axes: matrixAxes(canvas, titles), bar: colourBarUnder(canvas.closest(".matrix-plot")) }];
    }),
  );
  const numbers = Object.fromEntries(
    Object.entries(KINDS).map(([kind, title]) => [kind, numbersFor(root.querySelector(`.learned-panel-${kind}`), `the ${title}`)]),
  );

  function update() {
    showPython(root, pythonCode(params));
    return render({ ...params, dModel: D_MODEL });
  }

  function show(result, request) {
    const n = result.n;
    for (const kind of ["learned", "sinusoidal", "rope"]) {
      paintPixels(root.querySelector(`.learned-panel-${kind}`), { width: n, height: n, rgba: result[`${kind}_rgba`] });
    }
    for (const square of Object.values(squares)) square.axes({ rows: n, columns: n });
    squares.learned.bar({ limit: 1, title: "cosine similarities", missing: n > request.maxLen ? "no row" : "" });
    squares.sinusoidal.bar({ limit: 1, title: "cosine similarities" });
    // A random q and k score far below |q| |k|: the square is coloured over what it reaches.
    squares.rope.bar({ limit: result.rope_scale, title: "scores" });
    const shown = corner(n);
    for (const [kind, title] of Object.entries(KINDS)) {
      numbers[kind].show({
        caption:
          kind === "rope"
            ? `RoPE score q_m · k_n / (|q| |k|), query positions m (rows) and key positions n ${listed(shown)} of ${n}`
            : `Cosine similarity, ${title}, positions ${listed(shown)} of ${n}`,
        corner: "position",
        columns: shown.map((q) => String(q)),
        rows: matrixRows(result[kind], n, shown, shown.length),
        note:
          (shown.length < n ? `The top-left corner of the ${n} × ${n} matrix.` : "") +
          (kind === "learned" && n > request.maxLen ? " “none”: the table has no row for that position." : ""),
      });
    }
    const rows = Math.min(request.maxLen, n);
    root.querySelector(".learned-panel-learned").setAttribute(
      "aria-label",
      `Untrained learned table: ${rows} of ${n} positions have a vector; similarities between different positions are near 0, since the rows are random before training` +
        (n > rows ? `; positions ${rows} to ${n - 1} have none (grey).` : "."),
    );
    root.querySelector(".learned-panel-sinusoidal").setAttribute(
      "aria-label",
      `Sinusoidal: all ${n} positions have a vector; similarity is 1 on the diagonal and falls, with ripples, as positions move apart.`,
    );
    root.querySelector(".learned-panel-rope").setAttribute(
      "aria-label",
      `RoPE scores of one query vector against a different key vector, for ${n} query and key positions, coloured from ` +
        `−${formatNumber(result.rope_scale)} (blue) to +${formatNumber(result.rope_scale)} (red): constant along every diagonal, ` +
        "since they depend on the positions only through m − n, but not symmetric and not largest on the main diagonal.",
    );
    // Not an error of the page: what the table does when asked for a row it lacks, which the grey shows.
    learnedError.hidden = !result.learned_error;
    learnedError.textContent = result.learned_error
      ? `Grey: positions ${rows} to ${n - 1} have no row. Asked for position ${n - 1}, the table says: “${result.learned_error}”.`
      : "";
    root.querySelector(".learned-rope-check").textContent =
      `RoPE check: shifting both query and key positions by the same amount changes the score by at most ${difference(result.rope_relative_residual)}, ` +
      "so the score depends on the positions only through m − n (the vectors’ content still matters).";
    Object.assign(root.dataset, { rendered: `${request.seqLen}/${request.maxLen}`, learnedError: result.learned_error ?? "" });
  }

  return { firstRender: update() };
}
