/**
 * Demo: attention is order-blind. One attention head (fixed, seeded weights) reads a
 * sentence and a shuffle of it; without positional encoding every token's output is the
 * same vector in both orders (only its row moves) and the mean-pooled sentence vectors are
 * identical. With the encoding added, they differ. Computed by pelab.attention in the worker.
 */
import { liveRender } from "./live-render.js";
import { difference } from "../figures/format.js";
import { plainWords } from "./plain-words.js";
import { showPython } from "./show-python.js";
import { vectorTable } from "../figures/vector-table.js";
import { t } from "../i18n.js";

/** A random order of 0..n-1 that differs from the identity whenever n > 1. */
export function shuffledOrder(n) {
  const order = [...Array(n).keys()];
  if (n < 2) return order;
  do {
    for (let k = n - 1; k > 0; k--) {
      const m = Math.floor(Math.random() * (k + 1));
      [order[k], order[m]] = [order[m], order[k]];
    }
  } while (order.every((value, k) => value === k));
  return order;
}

/**
 * The Python behind the tables: the sentence and its shuffle through the toy head, compared.
 *
 * @param {{sentence: string, order: number[], withPe: boolean, causal: boolean}} settings
 *   `order` the shuffle Python used (the page's first, null, is the sentence read backwards)
 */
export function pythonCode({ sentence, order, withPe, causal }) {
  return `import pelab

result = pelab.order_blindness(${pythonString(sentence)}, order=[${order.join(", ")}], with_pe=${withPe ? "True" : "False"}, causal=${causal ? "True" : "False"})
print(result.tokens, "->", result.shuffled)
print("largest change of any token's output:", result.token_match)
print("mean-pooled sentence vectors differ by:", result.pooled_diff)
pelab.show(result.outputs, title="attention outputs, one row per token")`;
}

/**
 * The code the cell shows at first paint, for the section's controls at their first values: the
 * first shuffle reads the sentence backwards, its words as pelab.tokenize splits them (plainWords,
 * for a first sentence of plain words).
 *
 * @param {Record<string, any>} controls
 */
export function firstCode({ sentence, with_pe: withPe, causal }) {
  const order = plainWords(sentence).map((_, k, words) => words.length - 1 - k);
  return pythonCode({ sentence, order, withPe, causal });
}

export function attentionDemo(root, python) {
  const input = root.querySelector("[name=sentence]");
  const withPe = root.querySelector("[name=with_pe]");
  const causal = root.querySelector("[name=causal]");
  const summary = root.querySelector(".attention-summary");
  const notice = root.querySelector(".attention-notice");
  let order = null; // null: the reversed sentence; otherwise the learner's last shuffle
  let tokenCount = 0;

  const render = liveRender(root, python, "attention", (result, request) => show(result, request));

  function update() {
    const request = { sentence: input.value, order, withPe: withPe.checked, causal: causal.checked };
    return render(request);
  }

  async function show(result, request) {
    showPython(
      root,
      pythonCode({ sentence: request.sentence, order: result.order, withPe: request.withPe, causal: request.causal }),
    );
    tokenCount = result.tokens.length;
    const d = result.d_model;
    const rows = (tokens, outputs) => tokens.map((token, k) => ({ label: token, values: outputs.slice(k * d, (k + 1) * d) }));
    const original = rows(result.tokens, result.outputs);
    const shuffled = rows(result.shuffled, result.shuffled_outputs).map((row, k) => ({
      ...row,
      // Translators: a table row compared with a row of the table above it ("= row 2 above": the same numbers).
      note: sameRow(result, k) ? t("= row {row} above", { row: result.order[k] }) : t("≠ row {row} above", { row: result.order[k] }),
    }));
    root.querySelector(".attention-original-title").textContent = result.tokens.join(" ");
    root.querySelector(".attention-shuffled-title").textContent = result.shuffled.join(" ");
    // Translators: a table's corner: its rows are the sentence's tokens.
    vectorTable(root.querySelector(".attention-original"), original, { limit: 1.5, caption: t("token") });
    vectorTable(root.querySelector(".attention-shuffled"), shuffled, {
      limit: 1.5,
      caption: t("token"),
      noteTitle: t("compared with"),
    });
    const identical = result.pooled_diff < 1e-9;
    summary.querySelector(".attention-token-match").textContent = difference(result.token_match);
    summary.querySelector(".attention-pooled-diff").textContent = difference(result.pooled_diff);
    summary.querySelector(".attention-verdict").textContent = verdict(request, identical);
    Object.assign(summary.dataset, {
      tokenMatch: result.token_match,
      pooledDiff: result.pooled_diff,
      withPe: request.withPe,
      causal: request.causal,
    });
    notice.hidden = !result.truncated;
    notice.textContent = result.truncated
      ? t("Only the first {count} words are used; the rest of the sentence was left out.", { count: result.max_tokens })
      : "";
  }

  function sameRow(result, k) {
    const d = result.d_model;
    const a = result.shuffled_outputs.subarray(k * d, (k + 1) * d);
    const b = result.outputs.subarray(result.order[k] * d, (result.order[k] + 1) * d);
    return a.every((value, j) => Math.abs(value - b[j]) < 1e-12);
  }

  input.addEventListener("input", () => {
    order = null;
    update();
  });
  withPe.addEventListener("change", update);
  causal.addEventListener("change", update);
  root.querySelector(".attention-shuffle").addEventListener("click", () => {
    order = shuffledOrder(tokenCount);
    update();
  });
  root.querySelector(".attention-classic").addEventListener("click", () => {
    input.value = "dog bites man";
    order = [2, 1, 0];
    update();
  });

  return { firstRender: update() };
}

/** What the two sentences' numbers say, in words. */
function verdict({ withPe, causal }, identical) {
  if (!withPe && !causal) {
    return t("The same. Without positions, attention only moved the rows: it cannot tell the two orders apart.");
  }
  if (identical) return t("Still the same: this shuffle put every word back where it was, or the words are all alike.");
  return withPe
    ? t("Different. With positions added, the order changes what attention computes.")
    : t("Different, with no positions at all: under the causal mask each token sees only itself and the words before it.");
}

/** A Python string literal for `text` (JSON's escapes are valid Python escapes). */
function pythonString(text) {
  return JSON.stringify(text);
}
