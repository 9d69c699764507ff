/**
 * Demo: the formula, term by term. For a chosen position and d_model, a table of every
 * dimension j: its pair i, the exponent 2i/d_model, the angle pos / 10000^(2i/d_model),
 * sine or cosine, and the value, computed by pelab.formula_terms in the worker.
 */
import { liveRender } from "./live-render.js";
import { fixed, formatNumber } from "../figures/format.js";
import { scrollableByKeyboard } from "../figures/scroll-region.js";
import { showPython } from "./show-python.js";
import { slider } from "../controls/slider.js";

export function formulaDemo(root, python) {
  const table = root.querySelector(".formula-table tbody");
  const vector = root.querySelector(".formula-vector");
  scrollableByKeyboard(root.querySelector(".table-scroll"));
  const params = {};
  const controls = {
    pos: slider(root.querySelector("[name=pos]"), { onInput: (v) => update({ pos: v }) }),
    dModel: slider(root.querySelector("[name=d_model]"), { onInput: (v) => update({ dModel: v }) }),
  };
  for (const [key, control] of Object.entries(controls)) params[key] = control.value;
  params.base = 10000;

  const render = liveRender(root, python, "formula", (result, request) => show(result, request));

  function update(change) {
    Object.assign(params, change);
    showPython(
      root,
      `import pelab

terms = pelab.formula_terms(pos=${params.pos}, d_model=${params.dModel}, base=10000)
for j, i, angle, value in zip(terms["j"], terms["i"], terms["angle"], terms["value"]):
    print(f"j={j:.0f}  i={i:.0f}  angle={angle:.6f}  value={value:.6f}")`,
    );
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
