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
import { t } from "../i18n.js";
import { sentences } from "../words.js";

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
  // The code's comments, in the page's language (outside the template: the extractor of
  // messages reads no template literal).
  const comments = { range: t("positions 0 .. {last}", { last: seqLen - 1 }), any: t("any length works") };
  return `import pelab

table = pelab.learned(max_len=${maxLen}, d_model=${D_MODEL})
try:
    table.lookup(range(${seqLen}))          # ${comments.range}
except IndexError as error:
    print("learned:", error)
pe = pelab.sinusoidal(seq_len=${seqLen}, d_model=${D_MODEL})   # ${comments.any}
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
  const KINDS = ["learned", "sinusoidal", "rope"];
  const squares = Object.fromEntries(
    KINDS.map((kind) => {
      const canvas = root.querySelector(`.learned-panel-${kind}`);
      const titles =
        kind === "rope"
          ? // Translators: a matrix's axis titles: query position m, key position n ({m} and {n} are the variables).
            { rowTitle: axisTitle(t("query position {m}"), { m: "m" }), columnTitle: axisTitle(t("key position {n}"), { n: "n" }) }
          : // Translators: a matrix's axis title: its rows (and its columns) are positions.
            { rowTitle: t("position"), columnTitle: t("position") };
      return [kind, { axes: matrixAxes(canvas, titles), bar: colourBarUnder(canvas.closest(".matrix-plot")) }];
    }),
  );
  const what = { learned: t("the learned table"), sinusoidal: t("the sinusoidal encoding"), rope: t("the RoPE scores") };
  const numbers = Object.fromEntries(KINDS.map((kind) => [kind, numbersFor(root.querySelector(`.learned-panel-${kind}`), what[kind])]));

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
    // Translators: what a colour bar measures ("Colour scale of the cosine similarities"), and what its grey stands for.
    squares.learned.bar({ limit: 1, title: t("cosine similarities"), missing: n > request.maxLen ? t("no row") : "" });
    // All positive with the usual base: the bar shows the sequential white-to-red half it uses.
    squares.sinusoidal.bar({ limit: 1, part: result.sinusoidal_part, title: t("cosine similarities") });
    // A random q and k score far below |q| |k|: the square is coloured over what it reaches.
    squares.rope.bar({ limit: result.rope_scale, title: t("scores") });
    const shown = corner(n);
    const captions = {
      learned: t("Cosine similarity, learned table, positions {shown} of {n}", { shown: listed(shown), n }),
      sinusoidal: t("Cosine similarity, sinusoidal encoding, positions {shown} of {n}", { shown: listed(shown), n }),
      rope: t("RoPE score q_m · k_n / (|q| |k|), query positions m (rows) and key positions n {shown} of {n}", { shown: listed(shown), n }),
    };
    const none = t("none");
    for (const kind of KINDS) {
      const cornerNote = shown.length < n ? t("The top-left corner of the {n} × {n} matrix.", { n }) : "";
      numbers[kind].show({
        caption: captions[kind],
        corner: t("position"),
        columns: shown.map((q) => String(q)),
        rows: matrixRows(result[kind], n, shown, shown.length),
        note:
          kind === "learned" && n > request.maxLen
            ? // Translators: {none} is the table's word for a missing number ("none").
              sentences(cornerNote, t("“{none}”: the table has no row for that position.", { none }))
            : cornerNote,
      });
    }
    const rows = Math.min(request.maxLen, n);
    root.querySelector(".learned-panel-learned").setAttribute(
      "aria-label",
      n > rows
        ? t(
            "Untrained learned table: {rows} of {n} positions have a vector; similarities between different positions are near 0, since the rows are random before training; positions {rows} to {last} have none (grey).",
            { rows, n, last: n - 1 },
          )
        : t(
            "Untrained learned table: {rows} of {n} positions have a vector; similarities between different positions are near 0, since the rows are random before training.",
            { rows, n },
          ),
    );
    root.querySelector(".learned-panel-sinusoidal").setAttribute(
      "aria-label",
      t("Sinusoidal: all {n} positions have a vector; similarity is 1 on the diagonal and falls, with ripples, as positions move apart.", { n }),
    );
    root.querySelector(".learned-panel-rope").setAttribute(
      "aria-label",
      t(
        "RoPE scores of one query vector against a different key vector, for {n} query and key positions, coloured from {low} (blue) to {high} (red): constant along every diagonal, since they depend on the positions only through m − n, but not symmetric and not largest on the main diagonal.",
        { n, low: `−${formatNumber(result.rope_scale)}`, high: `+${formatNumber(result.rope_scale)}` },
      ),
    );
    // Not an error of the page: what the table does when asked for a row it lacks, which the grey shows.
    learnedError.hidden = !result.learned_error;
    learnedError.textContent = result.learned_error
      ? // Translators: {error} is pelab's own message, in English.
        t("Grey: positions {rows} to {last} have no row. Asked for position {last}, the table says: “{error}”.", {
          rows,
          last: n - 1,
          error: result.learned_error,
        })
      : "";
    root.querySelector(".learned-rope-check").textContent = t(
      "RoPE check: shifting both query and key positions by the same amount changes the score by at most {change}, so the score depends on the positions only through m − n (the vectors’ content still matters).",
      { change: difference(result.rope_relative_residual) },
    );
    Object.assign(root.dataset, { rendered: `${request.seqLen}/${request.maxLen}`, learnedError: result.learned_error ?? "" });
  }

  return { firstRender: update() };
}
