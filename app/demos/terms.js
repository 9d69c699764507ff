/**
 * Demo: four terms in one score. With positions added to the tokens, the score q_i · k_j is
 * content·content + content·position + position·content + position·position. Each is drawn as
 * a live matrix with its measured spread along diagonals: only position·position can depend on
 * i − j alone, and only when A commutes with the rotations (A = I, not the toy W_Q W_Kᵀ).
 * Computed by pelab.four_terms in the worker. Each square has its own colour scale: the terms
 * differ several times over in size, and on one shared scale position·position faded to white.
 */
import { liveRender } from "./live-render.js";
import { bindSliders, paramsFrom } from "../controls/bind-sliders.js";
import { colourBarUnder } from "../figures/colour-bar.js";
import { difference } from "../figures/format.js";
import { axisTitle, matrixAxes } from "../figures/matrix-axes.js";
import { corner, listed, matrixRows, numbersFor } from "../figures/numbers.js";
import { paintPixels } from "../figures/paint.js";
import { showPython } from "./show-python.js";
import { t } from "../i18n.js";

/** The four terms and their sum, by the names pelab gives them, with what the page calls them. */
const TERMS = () => ({
  // Translators: the four terms of an attention score, and their sum.
  content_content: t("content·content"),
  content_position: t("content·position"),
  position_content: t("position·content"),
  position_position: t("position·position"),
  total: t("the whole score"),
});

/** A spread along the diagonals below this is rounding: the matrix depends on i − j only. */
const ROUNDING = 1e-9;

/** The demo's slider: {param: input name}. */
const SLIDERS = { dModel: "d_model" };

/**
 * The Python behind the squares: the four terms of the sentence's scores, their spreads along
 * the diagonals, and position·position drawn.
 *
 * @param {{sentence: string, dModel: number, identity: boolean}} settings
 */
export function pythonCode({ sentence, dModel, identity }) {
  return `import pelab

result = pelab.four_terms(${JSON.stringify(sentence)}, identity=${identity ? "True" : "False"}, d_model=${dModel})
for name, matrix in result.scores.terms():
    print(f"{name:18} spread along diagonals: {result.toeplitz[name]:.2e}")
print("sum of the four terms minus the score:", result.sum_gap)
pelab.show(result.scores.position_position, title="position·position")`;
}

/**
 * The code the cell shows at first paint, for the section's controls at their first values.
 *
 * @param {Record<string, any>} controls
 */
export const firstCode = (controls) =>
  pythonCode({ sentence: controls.sentence, ...paramsFrom(SLIDERS, controls), identity: controls.identity });

export function termsDemo(root, python) {
  const input = root.querySelector("[name=sentence]");
  const identity = root.querySelector("[name=identity]");
  const notice = root.querySelector(".terms-notice");
  const params = bindSliders(root, SLIDERS, () => update());
  const render = liveRender(root, python, "terms", show);
  const canvasOf = (name) => root.querySelector(`.terms-${name.replace("_", "-")}`);
  const terms = TERMS();
  const numbers = Object.fromEntries(Object.entries(terms).map(([name, title]) => [name, numbersFor(canvasOf(name), title)]));
  const axes = Object.keys(terms).map((name) =>
    // Translators: a matrix's axis titles: query token i, key token j ({i} and {j} are the variables).
    matrixAxes(canvasOf(name), { rowTitle: axisTitle(t("query {i}"), { i: "i" }), columnTitle: axisTitle(t("key {j}"), { j: "j" }) }),
  );
  // Each square its own colour scale, under it: on one scale shared by all five, the smallest
  // term (position·position, for the toy head) was near white and its diagonals could not be seen.
  const bars = Object.fromEntries(Object.keys(terms).map((name) => [name, colourBarUnder(canvasOf(name).closest(".matrix-plot"))]));

  function update() {
    const request = { sentence: input.value, dModel: params.dModel, identity: identity.checked };
    showPython(root, pythonCode(request));
    return render(request);
  }

  function show(result, request) {
    const n = result.n;
    const shown = corner(n);
    for (const show of axes) show({ rows: result.tokens, columns: result.tokens });
    const aName = result.identity ? "A = I" : t("A = W_Q W_Kᵀ of the toy head");
    for (const [name, title] of Object.entries(terms)) {
      const canvas = canvasOf(name);
      paintPixels(canvas, { width: n, height: n, rgba: result[`${name}_rgba`] });
      // Translators: what a colour bar measures: "Colour scale of the values of content·content"; {term} is a term's name.
      bars[name]({ limit: result[`${name}_scale`], title: t("values of {term}", { term: title }) });
      const toeplitz = result[`${name}_toeplitz`];
      const relative = toeplitz < ROUNDING;
      root.querySelector(`.terms-verdict[data-term="${name}"]`).textContent = relative
        ? t("depends on i − j only (spread {spread})", { spread: difference(toeplitz) })
        : t("not a function of i − j (spread {spread})", { spread: difference(toeplitz) });
      const values = { term: `${title[0].toUpperCase()}${title.slice(1)}`, n, dModel: result.d_model, a: aName, spread: difference(toeplitz) };
      canvas.setAttribute(
        "aria-label",
        relative
          ? // Translators: {term} is a term of the score, such as "Content·position"; {a} such as "A = I".
            t("{term} for {n} tokens, d_model {dModel}, {a}: constant along every diagonal, so it depends on the positions only through i − j.", values)
          : t(
              "{term} for {n} tokens, d_model {dModel}, {a}: not constant along its diagonals (largest spread {spread}), so it is not a function of i − j alone.",
              values,
            ),
      );
      numbers[name].show({
        caption: t("{term}, query tokens i (rows) against key tokens j (columns) {shown} of {n}, {a}", { term: title, shown: listed(shown), n, a: aName }),
        corner: "i \\ j",
        columns: shown.map((j) => `${j}: ${result.tokens[j]}`),
        rows: matrixRows(result[name], n, shown, shown.length, (i) => `${i}: ${result.tokens[i]}`),
        note: shown.length < n ? t("The top-left corner of the {n} × {n} matrix.", { n }) : "",
      });
    }
    root.querySelector(".terms-pp-toeplitz").textContent = difference(result.position_position_toeplitz);
    root.querySelector(".terms-cp-toeplitz").textContent = difference(result.content_position_toeplitz);
    root.querySelector(".terms-sum-gap").textContent = difference(result.sum_gap);
    notice.hidden = !result.truncated;
    notice.textContent = result.truncated
      ? t("Only the first {count} words are used; the rest of the sentence was left out.", { count: result.max_tokens })
      : "";
    Object.assign(root.dataset, {
      rendered: `${request.dModel}/${request.identity ? "I" : "WQWK"}/${n}`,
      positionPosition: result.position_position_toeplitz,
      contentPosition: result.content_position_toeplitz,
      positionContent: result.position_content_toeplitz,
      sumGap: result.sum_gap,
    });
  }

  input.addEventListener("input", update);
  identity.addEventListener("change", update);
  return { firstRender: update() };
}
