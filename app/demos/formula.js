/**
 * Demo: the formula, term by term. For a chosen position and d_model, a table of every
 * dimension j: its pair i, the exponent 2i/d_model, the angle pos / 10000^(2i/d_model),
 * sine or cosine, and the value, computed by pelab.formula_terms in the worker.
 */
import { liveRender } from "./live-render.js";
import { bindSliders, paramsFrom } from "../controls/bind-sliders.js";
import { fixed, formatNumber } from "../figures/format.js";
import { scrollableByKeyboard } from "../figures/scroll-region.js";
import { showPython } from "./show-python.js";

/** The formula's sliders: {param: input name}. */
const SLIDERS = { pos: "pos", dModel: "d_model" };

/**
 * The Python behind the table: every term of PE(pos) at this d_model, base 10000, printed.
 *
 * @param {{pos: number, dModel: number}} settings
 */
export function pythonCode({ pos, dModel }) {
  return `import pelab

terms = pelab.formula_terms(pos=${pos}, d_model=${dModel}, base=10000)
for j, i, angle, value in zip(terms["j"], terms["i"], terms["angle"], terms["value"]):
    print(f"j={j:.0f}  i={i:.0f}  angle={angle:.6f}  value={value:.6f}")`;
}

/**
 * The code the cell shows at first paint, for the section's controls at their first values.
 *
 * @param {Record<string, any>} controls
 */
export const firstCode = (controls) => pythonCode(paramsFrom(SLIDERS, controls));

export function formulaDemo(root, python) {
  const table = root.querySelector(".formula-table tbody");
  const vector = root.querySelector(".formula-vector");
  scrollableByKeyboard(root.querySelector(".table-scroll"));
  const params = Object.assign(bindSliders(root, SLIDERS, () => update({})), { base: 10000 });

  const render = liveRender(root, python, "formula", (result, request) => show(result, request));

  function update(change) {
    Object.assign(params, change);
    showPython(root, pythonCode(params));
    return render({ ...params });
  }

  function show({ j, i, exponent, angle, value, is_sine: isSine }, request) {
    const rows = [...j].map((_, k) => {
      const tr = document.createElement("tr");
      const fn = isSine[k] ? "sin" : "cos";
      const cells = [
        String(j[k]),
        String(i[k]),
        `${2 * i[k]}/${request.dModel} = ${formatNumber(exponent[k])}`,
        `${request.pos} / 10000^${formatNumber(exponent[k])} = ${angle[k].toFixed(6)}`,
        `${fn}(${angle[k].toFixed(6)})`,
        fixed(value[k], 6),
      ];
      for (const text of cells) {
        const td = document.createElement("td");
        td.textContent = text;
        tr.append(td);
      }
      return tr;
    });
    table.replaceChildren(...rows);
    vector.textContent = `PE(${request.pos}) = [${[...value].map((v) => fixed(v, 6)).join(", ")}]`;
    root.querySelector(".formula-table").dataset.rendered = `${request.pos}/${request.dModel}`;
    root.querySelector(".formula-example").hidden = !(request.dModel === 4 && (request.pos === 1 || request.pos === 2));
  }

  return { firstRender: update({}) };
}
