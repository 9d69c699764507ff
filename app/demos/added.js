/**
 * Demo: added, not concatenated. A word's embedding plus the encoding of its position gives
 * the vector attention reads, still d_model wide; concatenation would double the width.
 * The encoding row depends only on the position: change the word and it stays the same.
 */
import { liveRender } from "./live-render.js";
import { plainWords } from "./plain-words.js";
import { showPython } from "./show-python.js";
import { slider } from "../controls/slider.js";
import { vectorTable } from "../figures/vector-table.js";
import { t } from "../i18n.js";

const D_MODEL = 8;

/**
 * The Python behind the table: a token's embedding plus its position's encoding, added.
 *
 * @param {{word: string, pos: number}} settings `word` the token embedded, as Python split it
 */
export function pythonCode({ word, pos }) {
  // The code's comment, in the page's language (outside the template: the extractor of messages
  // reads no template literal).
  // Translators: a comment in Python code; {shape} is a vector's shape, such as (8,).
  const comment = t("added: still {shape}", { shape: `(${D_MODEL},)` });
  return `import numpy as np
import pelab

token = pelab.embed([${JSON.stringify(word)}], d_model=${D_MODEL})[0]    # (${D_MODEL},)
position = pelab.sinusoidal(seq_len=${pos + 1}, d_model=${D_MODEL})[${pos}]   # (${D_MODEL},)
x = token + position                                     # ${comment}
print(x.shape, np.concatenate([token, position]).shape)  # (${D_MODEL},) (${2 * D_MODEL},)
x.round(3)`;
}

/**
 * The code the cell shows at first paint, for the section's controls at their first values. The
 * demo shows the token Python embedded, the word's first: a first word of plain words is split
 * here as pelab.tokenize splits it (plainWords refuses any other).
 *
 * @param {Record<string, any>} controls
 */
export const firstCode = ({ word, pos }) => pythonCode({ word: plainWords(word)[0], pos });

export function addedDemo(root, python) {
  const word = root.querySelector("[name=word]");
  const params = { dModel: D_MODEL };
  const pos = slider(root.querySelector("[name=pos]"), { onInput: (v) => update({ pos: v }) });
  params.pos = pos.value;

  const render = liveRender(root, python, "added", (result, request) => show(result, request));

  function update(change) {
    Object.assign(params, change, { word: word.value });
    return render({ ...params });
  }

  async function show(result, request) {
    showPython(root, pythonCode({ word: result.word, pos: request.pos }));
    const label = result.word;
    vectorTable(
      root.querySelector(".added-table"),
      [
        { label: t("embedding of “{word}”", { word: label }), values: result.embedding, note: `(${result.d_model},)` },
        { label: `+ PE(pos = ${request.pos})`, values: result.encoding, note: `(${result.d_model},)` },
        // Translators: a table row's label, below "+ PE(pos = 3)": the sum, which attention reads.
        { label: t("= input to attention"), values: result.sum, note: `(${result.d_model},)` },
      ],
      // Translators: "dimension" heads a table's dimensions (0, 1, 2...); "shape" its vectors' shapes, such as (8,).
      { limit: 2, caption: t("dimension"), noteTitle: t("shape"), turn: true },
    );
    vectorTable(
      root.querySelector(".added-concat"),
      // Translators: a table row's label: the embedding and the encoding concatenated.
      [{ label: t("[embedding, PE]"), values: [...result.embedding, ...result.encoding], note: `(${result.concat_width},)` }],
      { limit: 2, caption: t("dimension"), noteTitle: t("shape"), turn: true },
    );
    root.querySelector(".added-table").dataset.rendered = `${request.word}@${request.pos}`;
  }

  word.addEventListener("input", () => update({}));
  return { firstRender: update({}) };
}
