/** The lesson page: start Python, show its progress, wire the code cells and the demos. */
import { addedDemo } from "./added.js";
import { bootStatus } from "./boot-status.js";
import { PythonBridge } from "./bridge.js";
import { notebookCells } from "./cells.js";
import { compareDemo } from "./compare.js";
import { extrapolationDemo } from "./extrapolation.js";
import { formulaDemo } from "./formula.js";
import { heatmapDemo } from "./heatmap.js";
import { orderBlindDemo } from "./order-blind.js";
import { quiz } from "./quiz.js";
import { relativeDemo } from "./relative.js";
import { sharedValue } from "./shared-value.js";
import { similarityDemo } from "./similarity.js";
import { wavesDemo } from "./waves.js";

quiz(document.querySelector("#quiz form")); // plain JavaScript: works even when Python cannot start

if (document.documentElement.dataset.state !== "error") {
  const status = bootStatus(document.querySelector("#boot"));
  const python = new PythonBridge();
  python.addEventListener("progress", ({ detail }) => status.stage(detail.stage));
  python.addEventListener("fatal", ({ detail }) => status.fail(detail.message));
  python.addEventListener("restart", ({ detail }) => {
    status.restarting(detail.reason);
    python.ready.then(() => status.ready(), () => {});
  });
  status.stage("runtime");

  notebookCells(document, python); // first, so the demos can offer their code to the cells
  const position = sharedValue(3); // the position whose dial and heatmap row are shown
  const demos = [
    orderBlindDemo(document.querySelector("#order-blind"), python),
    formulaDemo(document.querySelector("#formula"), python),
    wavesDemo(document.querySelector("#waves"), python, position),
    heatmapDemo(document.querySelector("#heatmap-demo"), python, position),
    addedDemo(document.querySelector("#added"), python),
    relativeDemo(document.querySelector("#relative"), python),
    similarityDemo(document.querySelector("#similarity"), python),
    compareDemo(document.querySelector("#learned"), python),
    extrapolationDemo(document.querySelector("#extrapolation"), python),
  ];
  python.ready
    .then(() => {
      status.stage("render");
      // A demo that fails shows its own message; Python itself is up.
      return Promise.allSettled(demos.map((demo) => demo.firstRender));
    })
    .then(() => status.ready(), (error) => status.fail(error.message));
}
