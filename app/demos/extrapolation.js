/**
 * Demo: past the training length. How close the two most alike positions' vectors come as the
 * sequence grows, for a chosen d_model and base, with a training length marked on the chart
 * (nothing is trained here: see the section's text for what trained models do).
 */
import { liveRender } from "./live-render.js";
import { bindSliders } from "../controls/bind-sliders.js";
import { fixed, formatNumber } from "../figures/format.js";
import { lineChart } from "../figures/line-chart.js";
import { numbersFor } from "../figures/numbers.js";
import { showPython } from "./show-python.js";
import { ticks } from "../figures/ticks.js";

export function extrapolationDemo(root, python) {
  const params = bindSliders(
    root,
    { trainLen: "train_len", seqLen: "seq_len", dModel: "d_model", base: "base" },
    () => update(),
  );
  const render = liveRender(root, python, "extrapolation", show);
  const numbers = numbersFor(root.querySelector(".extrapolation-chart"), "the closest distances");

  function update() {
    const notice = root.querySelector(".extrapolation-notice");
    notice.hidden = params.trainLen <= params.seqLen;
    notice.textContent = notice.hidden
      ? ""
      : `The training length ${params.trainLen} is longer than the sequence: it is shown as ${params.seqLen}.`;
    const trainLen = Math.min(params.trainLen, params.seqLen);
    showPython(
      root,
      `import numpy as np
import pelab

nearest = pelab.nearest_distances(seq_len=${params.seqLen}, d_model=${params.dModel}, base=${formatNumber(params.base)})
print("closest two positions within ${trainLen}:", nearest[${trainLen - 1}].round(4))
print("closest two positions within ${params.seqLen}:", nearest[-1].round(4))
# How close two vectors come, not how well a model does there: no model is trained here.`,
    );
    return render({ ...params, trainLen });
  }

  function show(result, request) {
    const n = result.nearest.length;
    lineChart(root.querySelector(".extrapolation-chart"), {
      series: [{ x: [...Array(n).keys()].map((k) => k + 1), y: result.nearest, className: "pair-0" }],
      markers: [{ x: Math.min(request.trainLen, n), label: `training length ${request.trainLen}`, className: "now" }],
      xLabel: "sequence length",
      yLabel: "closest two positions",
      yDomain: [0, Math.max(...[...result.nearest].filter(Number.isFinite), 1e-9)],
    });
    root.querySelector(".extrapolation-chart").setAttribute(
      "aria-label",
      `Smallest distance between two different positions, for sequence lengths 2 to ${n}: ` +
        `${fixed(result.at_train, 4)} within the training length ${request.trainLen}, ${fixed(result.beyond, 4)} at length ${n}.`,
    );
    // Sequence lengths at the chart's labels, the training length and the last one (1 has no pair).
    const lengths = [...new Set([...ticks(n + 1), request.trainLen, n])].filter((L) => L >= 2 && L <= n).sort((a, b) => a - b);
    numbers.show({
      caption: `Smallest distance |PE(p) − PE(q)| between two positions of a sequence, d_model ${request.dModel}, base ${formatNumber(request.base)}`,
      corner: "sequence length",
      columns: ["closest two positions"],
      rows: lengths.map((L) => ({ label: L === request.trainLen ? `${L} (training length)` : String(L), values: [result.nearest[L - 1]] })),
    });
    root.querySelector(".extrapolation-at-train").textContent = fixed(result.at_train, 4);
    root.querySelector(".extrapolation-beyond").textContent = fixed(result.beyond, 4);
    Object.assign(root.dataset, {
      rendered: `${request.trainLen}/${request.seqLen}/${request.dModel}@${request.base}`,
      atTrain: result.at_train,
      beyond: result.beyond,
    });
  }

  return { firstRender: python.ready.then(update) };
}
