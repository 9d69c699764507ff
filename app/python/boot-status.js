/**
 * The boot panel: named stages with a progress bar while Python starts, and a clear message
 * with a Retry button when it cannot. `<html data-state>` says loading, ready or error.
 */
import { BOOT_STAGES } from "./protocol.js";

const LABELS = {
  runtime: "Loading the Python runtime",
  numpy: "Loading numpy",
  pelab: "Installing the lesson's Python package",
  render: "Drawing the demos",
};

export function bootStatus(root) {
  const message = root.querySelector(".boot-message");
  const bar = root.querySelector("progress");
  const errorBox = root.querySelector(".boot-error");
  const started = performance.now();
  let current = null;

  root.querySelector(".boot-retry")?.addEventListener("click", () => location.reload());

  function stage(name) {
    const index = BOOT_STAGES.indexOf(name);
    current = name;
    bar.value = index;
    message.textContent = `${LABELS[name]}…`;
    for (const item of root.querySelectorAll("[data-stage]")) {
      const itemIndex = BOOT_STAGES.indexOf(item.dataset.stage);
      item.dataset.status = itemIndex < index ? "done" : itemIndex === index ? "active" : "pending";
    }
  }

  let since = started;
  let restarts = 0;

  function ready() {
    bar.value = BOOT_STAGES.length;
    for (const item of root.querySelectorAll("[data-stage]")) item.dataset.status = "done";
    const seconds = ((performance.now() - since) / 1000).toFixed(1);
    message.textContent = restarts
      ? `Python was restarted (ready again in ${seconds} s). Variables from earlier cells are gone.`
      : `Python is ready (started in ${seconds} s). Everything below is computed live in your browser.`;
    document.documentElement.dataset.state = "ready";
  }

  /** Python is being restarted (Stop without isolation, or a crash): say so while it boots. */
  function restarting(reason) {
    restarts++;
    since = performance.now();
    document.documentElement.dataset.state = "loading";
    stage("runtime");
    message.textContent = `Restarting Python (${reason})…`;
  }

  function fail(text) {
    if (current) root.querySelector(`[data-stage="${current}"]`)?.setAttribute("data-status", "failed");
    message.textContent = "Python could not start.";
    errorBox.querySelector(".boot-error-detail").textContent = text;
    errorBox.hidden = false;
    document.documentElement.dataset.state = "error";
  }

  return { stage, ready, restarting, fail };
}

/** Show `python`'s boot, failures and restarts in `status` (a bootStatus). */
export function followPython(status, python) {
  python.addEventListener("progress", ({ detail }) => status.stage(detail.stage));
  python.addEventListener("fatal", ({ detail }) => status.fail(detail.message));
  const started = () =>
    python.ready.then((versions) => {
      // how Python started: "snapshot" (a saved fresh interpreter, see next-visit.js) or "fresh"
      document.documentElement.dataset.pythonStart = versions.fromSnapshot ? "snapshot" : "fresh";
      // which copy of the runtime it compiled: "distinct" on a first visit (see worker.js)
      document.documentElement.dataset.pythonRuntime = versions.distinctRuntime ? "distinct" : "as served";
    }, () => {});
  started();
  python.addEventListener("restart", ({ detail }) => {
    status.restarting(detail.reason);
    started();
    python.ready.then(() => status.ready(), () => {});
  });
  status.stage(python.stage); // Python may have started before the page listened
}
