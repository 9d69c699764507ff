/**
 * Demo: "k positions later" is one matrix. M_k (block-diagonal 2 x 2 rotations by k * w_i)
 * maps PE(pos) to PE(pos + k) for every pos; a map from the sines alone cannot.
 */
import { liveRender } from "./live-render.js";
import { bindSliders, paramsFrom } from "../controls/bind-sliders.js";
import { colourBarUnder } from "../figures/colour-bar.js";
import { difference } from "../figures/format.js";
import { matrixAxes } from "../figures/matrix-axes.js";
import { corner, listed, matrixRows, numbersFor } from "../figures/numbers.js";
import { paintPixels } from "../figures/paint.js";
import { showPython } from "./show-python.js";
import { vectorTable } from "../figures/vector-table.js";
import { t } from "../i18n.js";

/** The demo's sliders: {param: input name}. */
const SLIDERS = { k: "k", dModel: "d_model" };

/**
 * The Python behind the demo: M_k, checked against the encoding k positions later, and drawn.
 *
 * @param {{k: number, dModel: number}} settings
 */
export function pythonCode({ k, dModel }) {
  // The code's comment, in the page's language (outside the template: the extractor of messages
  // reads no template literal).
  const comment = t("2x2 rotations by k * w_i");
  return `import pelab

k, d_model = ${k}, ${dModel}
M = pelab.rotation(k, d_model)                    # (${dModel}, ${dModel}): ${comment}
pe = pelab.sinusoidal(seq_len=64 + abs(k), d_model=d_model)
start = max(0, -k)
print("PE(pos+k) - M @ PE(pos):", abs(pe[start + k:start + k + 5] - pe[start:start + 5] @ M.T).max())
pelab.show(M, title=f"M_{k}", vmin=-1, vmax=1)`;
}

/**
 * The code the cell shows at first paint, for the section's controls at their first values.
 *
 * @param {Record<string, any>} controls
 */
export const firstCode = (controls) => pythonCode(paramsFrom(SLIDERS, controls));

export function relativeDemo(root, python) {
  const params = bindSliders(root, SLIDERS, () => update());
  const render = liveRender(root, python, "relative", show);
  const numbers = numbersFor(root.querySelector(".relative-matrix"), t("the matrix M_k"));
  // Translators: a matrix's axis titles.
  const axes = matrixAxes(root.querySelector(".relative-matrix"), { rowTitle: t("row"), columnTitle: t("column") });
  // Translators: what a colour bar measures: "Colour scale of the entries" (of a matrix).
  colourBarUnder(root.querySelector(".relative-matrix").closest(".matrix-plot"))({ limit: 1, title: t("entries") });

  function update() {
    showPython(root, pythonCode(params));
    return render({ ...params });
  }

  async function show(result, request) {
    const d = result.d_model;
    const canvas = root.querySelector(".relative-matrix");
    paintPixels(canvas, { width: d, height: d, rgba: result.rotation_rgba });
    canvas.setAttribute(
      "aria-label",
      t("The {d} by {d} matrix M_{k}: {blocks} rotation blocks of 2 by 2 along the diagonal, zero elsewhere.", { d, k: request.k, blocks: d / 2 }),
    );
    axes({ rows: d, columns: d });
    const caption = root.querySelector(".relative-caption");
    const name = Object.assign(document.createElement("var"), { textContent: "M" });
    caption.replaceChildren(name, Object.assign(document.createElement("sub"), { textContent: String(request.k) }), ` (${d} × ${d})`);
    const shown = corner(d);
    numbers.show({
      caption:
        shown.length < d
          ? t("M_{k}, {d} × {d}: rows and columns {shown}", { k: request.k, d, shown: listed(shown) })
          : `M_${request.k}, ${d} × ${d}`,
      corner: t("row"),
      // Translators: a table's column and row headings: a matrix's column j and row i.
      columns: shown.map((j) => t("column {j}", { j })),
      rows: matrixRows(result.rotation, d, shown, shown.length, (i) => t("row {i}", { i })),
      note: shown.length < d ? t("The top-left corner of the {d} × {d} matrix; the other blocks down the diagonal are alike.", { d }) : "",
    });
    const rows = [];
    result.positions.forEach((pos, n) => {
      rows.push({ label: `PE(${pos} + ${request.k})`, values: result.shifted.subarray(n * d, (n + 1) * d) });
      rows.push({ label: `M · PE(${pos})`, values: result.mapped.subarray(n * d, (n + 1) * d) });
    });
    vectorTable(root.querySelector(".relative-table"), rows, { caption: t("dimension") });
    root.querySelector(".relative-residual").textContent = difference(result.residual);
    root.querySelector(".relative-independence").textContent = difference(result.independence);
    root.querySelector(".relative-sine-only").textContent = difference(result.sine_only_residual);
    Object.assign(root.dataset, {
      rendered: `${request.k}/${request.dModel}`,
      residual: result.residual,
      sineOnly: result.sine_only_residual,
    });
  }

  return { firstRender: update() };
}
