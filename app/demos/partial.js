/**
 * Demo: rotating part of each head (GPT-NeoX's rotary_pct, Phi's partial_rotary_factor). One
 * random query against one key at offsets 0 .. 127, its score drawn with its two parts: the
 * rotated dims' part moves with the offset, the others' is a flat line. Beside it, for every
 * rotated fraction 1/8 .. 1, the share of the score that moves with the offset, pooled over many
 * random pairs. Computed by pelab.apply_partial_rotary in the worker.
 */
import { liveRender } from "./live-render.js";
import { bindSliders, paramsFrom } from "../controls/bind-sliders.js";
import { fixed, formatNumber } from "../figures/format.js";
import { lineChart } from "../figures/line-chart.js";
import { numbersFor } from "../figures/numbers.js";
import { showPython } from "./show-python.js";
import { t } from "../i18n.js";
import { sentences } from "../words.js";

/** The demo's sliders: {param: input name}. */
const SLIDERS = { fraction: "fraction", d: "d", seed: "seed" };
/** Offsets shown in the table under the score chart. */
const TABLE_OFFSETS = [0, 1, 2, 4, 8, 16, 32, 64, 127];

/** A percentage with no decimals, such as "25%". */
const percent = (share) => t("{value}%", { value: fixed(100 * share, 0) });

/**
 * The Python behind the first chart: one query at every offset from its key, part of it rotated.
 *
 * @param {{fraction: number, d: number, seed: number}} settings
 */
export function pythonCode({ fraction, d, seed }) {
  // The code's comments, in the page's language (outside the template: the extractor of
  // messages reads no template literal).
  const comments = {
    rotated: t("rotated dims; the other d - r pass through"),
    offsets: t("the query at offsets 0 to 127 from the key, which stays at 0"),
  };
  return `import numpy as np
import pelab

fraction, d, seed = ${fraction}, ${d}, ${seed}
q, k = np.random.default_rng(seed).standard_normal((2, 1, d))
r = int(d * fraction)                             # ${comments.rotated}
t = np.arange(128)                                # ${comments.offsets}
y = pelab.apply_partial_rotary(np.repeat(q, len(t), axis=0), t, fraction)
rotated, passed = y[:, :r] @ k[0, :r], y[:, r:] @ k[0, r:]
print("rotated dims:", r, "of", d)
print("pass-through part at offsets 0, 1, 127:", passed[[0, 1, -1]].round(6))
print("score at offsets 0 to 4:", (rotated + passed)[:5].round(3))
print("max - min of the score over the offsets:", np.ptp(rotated + passed).round(3))`;
}

/**
 * The code the cell shows at first paint, for the section's controls at their first values.
 *
 * @param {Record<string, any>} controls
 */
export const firstCode = (controls) => pythonCode(paramsFrom(SLIDERS, controls));

export function partialDemo(root, python) {
  const params = bindSliders(root, SLIDERS, () => update());
  const render = liveRender(root, python, "partial", show);
  const scoreChart = root.querySelector(".partial-scores");
  const shareChart = root.querySelector(".partial-shares");
  const numbers = {
    scores: numbersFor(scoreChart, t("the score and its two parts")),
    shares: numbersFor(shareChart, t("the share that moves with the offset")),
  };

  function update() {
    showPython(root, pythonCode(params));
    return render({ ...params });
  }

  function show(result, request) {
    const { d, rotated: r } = result;
    const passed = [...result.offsets].map(() => result.passed_part);
    lineChart(scoreChart, {
      series: [
        { x: result.offsets, y: result.total, className: "pair-0", label: t("score q · k") },
        { x: result.offsets, y: result.rotated_part, className: "pair-1", label: t("part from the {r} rotated dims", { r }) },
        // With the whole head rotated there is no other part: no flat line to draw.
        ...(r < d ? [{ x: result.offsets, y: passed, className: "pair-2", label: t("part from the {rest} other dims", { rest: d - r }) }] : []),
      ],
      // Translators: a chart's x axis: how many positions the query is after the key.
      xLabel: t("offset (query position − key position)"),
      yLabel: t("score"),
    });
    scoreChart.setAttribute(
      "aria-label",
      sentences(
        t("The score of one random query and key over offsets 0 to 127, with {r} of {d} dims rotated: it swings by {swing} from lowest to highest.", {
          r,
          d,
          swing: fixed(result.swing, 2),
        }),
        r < d
          ? t("The part from the {rest} other dims is a flat line at {passed}.", { rest: d - r, passed: fixed(result.passed_part, 2) })
          : t("No dims pass through: the whole score is the rotated part."),
      ),
    );
    numbers.scores.show({
      caption: t("The score q · k and its two parts at some offsets, {r} of {d} dims rotated", { r, d }),
      // Translators: a table's corner: its rows are offsets (query position − key position).
      corner: t("offset"),
      columns: [t("score"), t("rotated part"), t("other part")],
      rows: TABLE_OFFSETS.map((offset) => ({
        label: String(offset),
        values: [result.total[offset], result.rotated_part[offset], result.passed_part],
      })),
      note: t("The other part is the same in every row: those dims are never turned."),
    });

    const dims = [...result.fractions].map((f) => f * d);
    lineChart(shareChart, {
      series: [
        { x: dims, y: dims.map((dim) => dim / d), className: "pair-7", label: t("rotated share of the head, r / d") },
        { x: dims, y: result.shares, className: "pair-0", label: t("share of the score that moves with the offset") },
      ],
      // Translators: a chart's marker at the rotated dims chosen, such as "r = 16".
      markers: [{ x: r, label: `r = ${r}`, className: "now" }],
      xLabel: t("rotated dims r (of {d})", { d }),
      yLabel: t("share"),
      xDomain: [0, d],
      yDomain: [0, 1],
    });
    const shareNow = result.shares[Math.round((r / d) * result.fractions.length) - 1];
    shareChart.setAttribute(
      "aria-label",
      t(
        "For each rotated width from {low} to {d} dims, the share of the score that moves with the offset, pooled over {draws} random pairs: from {first} to {last}, always below the rotated share r / d.",
        {
          low: dims[0],
          d,
          draws: result.draws,
          first: percent(result.shares[0]),
          last: percent(result.shares[result.shares.length - 1]),
        },
      ),
    );
    numbers.shares.show({
      caption: t("Share of the score that moves with the offset (its variance over offsets 0 to 127 over its mean square), pooled over {draws} random pairs q, k", {
        draws: result.draws,
      }),
      // Translators: a table's corner: its rows are numbers of rotated dims r.
      corner: t("rotated dims r"),
      columns: [t("r / d"), t("share that moves")],
      rows: dims.map((dim, i) => ({ label: String(dim), values: [dim / d, result.shares[i]] })),
    });

    root.querySelector(".partial-rotated").textContent = t("{r} of {d}", { r, d });
    root.querySelector(".partial-still").textContent = t("{rest} of {d}", { rest: d - r, d });
    root.querySelector(".partial-pooled").textContent =
      shareNow === undefined ? "–" : t("{share} (this pair: {one})", { share: percent(shareNow), one: percent(result.share) });
    Object.assign(root.dataset, {
      rendered: `${formatNumber(request.fraction)}/${d}/${request.seed}`,
      rotated: r,
      share: shareNow ?? "",
      swing: result.swing,
    });
  }

  return { firstRender: update() };
}
