/** The lesson page: start Python, show its progress, wire the demos. */
import { bootStatus } from "./boot-status.js";
import { PythonBridge } from "./bridge.js";
import { heatmapDemo } from "./heatmap.js";

if (document.documentElement.dataset.state !== "error") {
  const status = bootStatus(document.querySelector("#boot"));
  const python = new PythonBridge();
  python.addEventListener("progress", ({ detail }) => status.stage(detail.stage));
  python.addEventListener("fatal", ({ detail }) => status.fail(detail.message));
  status.stage("runtime");

  const heatmap = heatmapDemo(document.querySelector("#heatmap-demo"), python);
  python.ready
    .then(() => {
      status.stage("render");
      return heatmap.firstRender;
    })
    .then(status.ready, (error) => status.fail(error.message));
}
