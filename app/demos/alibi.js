/**
 * Demo: ALiBi, a penalty for distance. No position vector: each head adds −m·(i − j) to its
 * scores. Shows every head's bias side by side (slopes from pelab.alibi_slopes), and what the
 * bias of one head does to a sentence's causal attention weights, against the same head with no
 * bias, with how far back each head looks on average. Computed by pelab in the worker.
 */
import { liveRender } from "./live-render.js";
import { bindSliders, paramsFrom } from "../controls/bind-sliders.js";
import { colourBar, colourBarUnder } from "../figures/colour-bar.js";
import { evenGrid } from "../figures/even-grid.js";
import { fixed, formatNumber } from "../figures/format.js";
import { axisTitle, matrixAxes } from "../figures/matrix-axes.js";
import { lineChart } from "../figures/line-chart.js";
import { corner, listed, matrixRows, numbersFor } from "../figures/numbers.js";
import { paintPixels } from "../figures/paint.js";
import { showPython } from "./show-python.js";
import { t } from "../i18n.js";
import { sentences } from "../words.js";

/** The demo's sliders: {param: input name}. */
const SLIDERS = { nHeads: "n_heads", head: "head" };

/** The head shown: the one asked for, or the last there is. */
const shownHead = ({ nHeads, head }) => Math.min(head, nHeads);

/**
 * The Python behind the figures: the sentence's attention weights under every head's bias, how
 * far back each head looks, and the shown head drawn.
 *
 * @param {{sentence: string, nHeads: number, head: number}} settings `head` as shown
 */
export function pythonCode({ sentence, nHeads, head }) {
  // The code's comments are the reader's, in the page's language (outside the template: the
  // extractor of messages reads no template literal).
  const comment = t("no position vector: ALiBi adds none");
  return `import pelab

tokens, _ = pelab.tokenize(${JSON.stringify(sentence)})
x = pelab.embed(tokens, 8)                        # ${comment}
w_q, w_k, _ = pelab.projections(8)
print("slopes:", pelab.alibi_slopes(${nHeads}))
weights = pelab.alibi_weights(pelab.attention_scores(x, w_q, w_k), n_heads=${nHeads})
for h, w in enumerate(weights, start=1):
    print(f"head {h}: looks {pelab.attention_distance(w):.2f} tokens back on average")
pelab.show(weights[${head - 1}], title="head ${head}", vmin=-1, vmax=1)`;
}

/**
 * The code the cell shows at first paint, for the section's controls at their first values.
 *
 * @param {Record<string, any>} controls
 */
export function firstCode(controls) {
  const params = paramsFrom(SLIDERS, controls);
  return pythonCode({ sentence: controls.sentence, nHeads: params.nHeads, head: shownHead(params) });
}

export function alibiDemo(root, python) {
  const input = root.querySelector("[name=sentence]");
  const notice = root.querySelector(".alibi-notice");
  const heads = root.querySelector(".alibi-heads");
  const params = bindSliders(root, SLIDERS, () => update());
  const render = liveRender(root, python, "alibi", show);
  // Translators: a matrix's axis titles: query token i, key token j ({i} and {j} are the variables).
  const titles = { rowTitle: axisTitle(t("query {i}"), { i: "i" }), columnTitle: axisTitle(t("key {j}"), { j: "j" }) };
  const squares = Object.fromEntries(
    ["plain", "weights"].map((kind) => {
      const canvas = root.querySelector(`.alibi-${kind}`);
      return [kind, { axes: matrixAxes(canvas, titles), bar: colourBarUnder(canvas.closest(".matrix-plot")) }];
    }),
  );
  const headsBar = colourBar(root.querySelector(".alibi-heads-bar"));
  evenGrid(heads, { min: 6.25, max: 9 });
  const numbers = {
    bias: numbersFor(heads, t("the bias of every head")),
    plain: numbersFor(root.querySelector(".alibi-plain"), t("the weights with no bias")),
    weights: numbersFor(root.querySelector(".alibi-weights"), t("the weights with the bias")),
    chart: numbersFor(root.querySelector(".alibi-chart"), t("how far back each head looks")),
  };

  function update() {
    const head = shownHead(params);
    showPython(root, pythonCode({ sentence: input.value, nHeads: params.nHeads, head }));
    notice.hidden = head === params.head;
    notice.textContent = head === params.head ? "" : t("There are only {count} heads: showing head {head}.", { count: params.nHeads, head });
    return render({ sentence: input.value, nHeads: params.nHeads, head });
  }

  function show(result, request) {
    const { n, n_heads: count, head } = result;
    const slopes = [...result.slopes];
    drawHeads(result);
    heads.setAttribute(
      "aria-label",
      sentences(
        t("The bias of each of {count} heads over {n} tokens: 0 on the diagonal, more negative further below it, and masked above it (grey).", { count, n }),
        t("Slopes {slopes}: a steeper head is darker further from the diagonal.", { slopes: slopes.map(formatNumber).join(", ") }),
      ),
    );
    // Translators: what a colour bar measures ("Colour scale of the biases, every head"), and what its grey stands for.
    headsBar({ limit: result.bias_scale, part: "negative", title: t("biases, every head"), missing: t("masked (j > i)") });
    const last = n - 1;
    const keys = corner(n).map((k) => last - k).filter((j) => j >= 0);
    numbers.bias.show({
      caption: t("Bias −m·(i − j) of the last query, i = {last}, on the keys j = {keys}, for each head", { last, keys: keys.join(", ") }),
      // Translators: a table's corner: its rows are attention heads.
      corner: t("head"),
      columns: [t("slope m"), ...keys.map((j) => `j = ${j}`)],
      rows: slopes.map((m, h) => ({
        label: String(h + 1),
        values: [m, ...keys.map((j) => result.bias[h * n * n + last * n + j])],
      })),
      note: t("Every row of a head’s bias holds the same values, shifted: it depends on i − j only."),
    });

    paintPixels(root.querySelector(".alibi-plain"), { width: n, height: n, rgba: result.plain_rgba });
    paintPixels(root.querySelector(".alibi-weights"), { width: n, height: n, rgba: result.weights_rgba });
    root.querySelector(".alibi-weights-caption").textContent = t("Causal weights with the bias of head {head} (m = {slope})", {
      head,
      slope: formatNumber(slopes[head - 1]),
    });
    for (const { axes, bar } of Object.values(squares)) {
      axes({ rows: result.tokens, columns: result.tokens });
      // Weights lie in [0, 1], coloured over [−1, 1]: the bar shows the half they use.
      // Translators: what a colour bar measures ("Colour scale of the weights"), and what its grey stands for.
      bar({ limit: 1, part: "positive", title: t("weights"), missing: t("masked") });
    }
    root.querySelector(".alibi-plain").setAttribute(
      "aria-label",
      t(
        "Causal attention weights of the toy head over {n} tokens with no bias: each row spreads its weight over the tokens up to itself by content alone; on average {distance} tokens back.",
        { n, distance: fixed(result.plain_distance, 2) },
      ),
    );
    root.querySelector(".alibi-weights").setAttribute(
      "aria-label",
      t(
        "Causal attention weights over {n} tokens with the bias of head {head}, slope {slope}: weight pulled towards the diagonal; on average {distance} tokens back.",
        { n, head, slope: formatNumber(slopes[head - 1]), distance: fixed(result.distances[head - 1], 2) },
      ),
    );
    const shown = corner(n);
    const captions = {
      plain: t("Attention weights, no bias: query tokens i (rows) against key tokens j (columns) {shown} of {n}", { shown: listed(shown), n }),
      weights: t("Attention weights, with the bias of head {head}: query tokens i (rows) against key tokens j (columns) {shown} of {n}", {
        head,
        shown: listed(shown),
        n,
      }),
    };
    for (const kind of ["plain", "weights"]) {
      numbers[kind].show({
        caption: captions[kind],
        corner: "i \\ j",
        columns: shown.map((j) => `${j}: ${result.tokens[j]}`),
        rows: matrixRows(result[kind], n, shown, shown.length, (i) => `${i}: ${result.tokens[i]}`),
        note: sentences(
          shown.length < n ? t("The top-left corner of the {n} × {n} matrix.", { n }) : "",
          t("Each row sums to 1; keys after the query get 0."),
        ),
      });
    }

    const x = slopes.map((_, h) => h + 1);
    const chart = root.querySelector(".alibi-chart");
    lineChart(chart, {
      series: [
        { x, y: result.distances, className: "pair-0", label: t("each head, with its bias") },
        { x, y: x.map(() => result.plain_distance), className: "pair-1", label: t("the same head, no bias") },
      ],
      // Translators: a chart's marker at the head shown, such as "head 3".
      markers: [{ x: head, label: t("head {head}", { head }), className: "now" }],
      // Translators: a chart's x axis: the attention heads, numbered.
      xLabel: t("head"),
      yLabel: t("tokens back, on average"),
      xDomain: [1, Math.max(count, 2)],
      yDomain: [0, Math.max(result.plain_distance, ...result.distances) || 1], // widened to a round top
    });
    chart.setAttribute(
      "aria-label",
      t(
        "How far back each of {count} heads looks on average (blue), from {low} to {high} tokens, against {plain} with no bias (orange): the steeper the slope, the nearer it looks.",
        {
          count,
          low: fixed(Math.min(...result.distances), 2),
          high: fixed(Math.max(...result.distances), 2),
          plain: fixed(result.plain_distance, 2),
        },
      ),
    );
    numbers.chart.show({
      caption: t("Mean distance i − j weighted by attention, per head, and with no bias"),
      corner: t("head"),
      columns: [t("slope m"), t("tokens back with the bias"), t("with no bias")],
      rows: slopes.map((m, h) => ({ label: String(h + 1), values: [m, result.distances[h], result.plain_distance] })),
    });
    root.querySelector(".alibi-distance").textContent = t("{distance} tokens (head {head})", { distance: fixed(result.distances[head - 1], 2), head });
    root.querySelector(".alibi-plain-distance").textContent = t("{distance} tokens", { distance: fixed(result.plain_distance, 2) });
    Object.assign(root.dataset, {
      rendered: `${request.nHeads}/${head}/${n}`,
      distance: result.distances[head - 1],
      plainDistance: result.plain_distance,
    });
  }

  /** One small canvas per head, made or removed as the number of heads changes. */
  function drawHeads(result) {
    const { n, n_heads: count } = result;
    while (heads.children.length > count) heads.lastElementChild.remove();
    while (heads.children.length < count) {
      const cell = Object.assign(document.createElement("div"), { className: "alibi-head" });
      const canvas = Object.assign(document.createElement("canvas"), { className: "matrix", width: 1, height: 1 });
      cell.append(canvas, Object.assign(document.createElement("span"), { className: "alibi-head-label" }));
      heads.append(cell);
    }
    [...heads.children].forEach((cell, h) => {
      const size = n * n * 4;
      paintPixels(cell.querySelector("canvas"), { width: n, height: n, rgba: result.bias_rgba.subarray(h * size, (h + 1) * size) });
      cell.querySelector(".alibi-head-label").textContent = t("head {head}: m = {slope}", { head: h + 1, slope: formatNumber(result.slopes[h]) });
      cell.dataset.shown = String(h + 1 === result.head);
    });
  }

  input.addEventListener("input", update);
  return { firstRender: update() };
}
