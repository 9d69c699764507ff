/**
 * The boot panel: named stages with a progress bar while Python starts, and a clear message
 * with a Retry button when it cannot. `<html data-state>` says loading, ready or error.
 * Its list of stages is in the page's markup (lesson/pages/chapter.html, embed.html), one item
 * per stage of BOOT_STAGES in its order (tests/js/boot-stages.test.mjs holds them to it), so the
 * panel has its final size from the first paint: made here, once the modules had run, the list
 * grew the panel and moved the chapter under it. Here each item is marked as its stage goes.
 */
import { BOOT_STAGES } from "./protocol.js";
import { t } from "../i18n.js";

/** What the panel's message says while each of BOOT_STAGES is under way, in the page's language, read when used. */
export const STAGE_MESSAGES = Object.freeze({
  get runtime() {
    return t("Loading the Python runtime…");
  },
  get numpy() {
    return t("Loading numpy…");
  },
  get pelab() {
    return t("Installing the lesson's Python package…");
  },
  get render() {
    return t("Drawing the demos…");
  },
});

export function bootStatus(root) {
  const message = root.querySelector(".boot-message");
  const bar = root.querySelector("progress");
  const errorBox = root.querySelector(".boot-error");
  const started = performance.now();
  let current = null;

  bar.max = BOOT_STAGES.length;
  root.querySelector(".boot-retry")?.addEventListener("click", () => location.reload());

  function stage(name) {
    const index = BOOT_STAGES.indexOf(name);
    current = name;
    bar.value = index;
    message.textContent = STAGE_MESSAGES[name];
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
      ? t("Python was restarted (ready again in {seconds} s). Variables from earlier cells are gone.", { seconds })
      : t("Python is ready (started in {seconds} s). Everything below is computed live in your browser.", { seconds });
    document.documentElement.dataset.state = "ready";
    // The panel keeps its size (static/lab.css), its message the lines it had: a longer "ready"
    // sentence runs into the room of the bar and the list of stages, which then leave it.
    root.toggleAttribute("data-overflows", message.scrollHeight > message.clientHeight + 1);
  }

  /** Python is being restarted (Stop without isolation, or a crash): say so while it boots. */
  function restarting(reason) {
    restarts++;
    since = performance.now();
    document.documentElement.dataset.state = "loading";
    stage(BOOT_STAGES[0]);
    // Translators: {reason} says why, such as "Stop could not interrupt the running code".
    message.textContent = t("Restarting Python ({reason})…", { reason });
  }

  /** Python is up: the page draws its demos, the last stage. */
  function rendering() {
    stage(BOOT_STAGES[BOOT_STAGES.length - 1]);
  }

  function fail(text) {
    if (current) root.querySelector(`[data-stage="${current}"]`)?.setAttribute("data-status", "failed");
    message.textContent = t("Python could not start.");
    errorBox.querySelector(".boot-error-detail").textContent = text;
    errorBox.hidden = false;
    document.documentElement.dataset.state = "error";
  }

  /** The page needs no Python (an embedded quiz): nothing to start, so no panel to show. */
  function notNeeded() {
    root.hidden = true;
    document.documentElement.dataset.state = "ready";
  }

  return { stage, rendering, ready, restarting, fail, notNeeded };
}

/** Show `python`'s boot, failures and restarts in `status` (a bootStatus). */
export function followPython(status, python) {
  python.addEventListener("progress", ({ detail }) => status.stage(detail.stage));
  python.addEventListener("fatal", ({ detail }) => status.fail(detail.message));
  const started = () =>
    python.ready.then((versions) => {
      // how Python started: "snapshot" (a saved fresh interpreter, see next-visit.js) or "fresh"
      document.documentElement.dataset.pythonStart = versions.fromSnapshot ? "snapshot" : "fresh";
      // which copy of the runtime it compiled: "distinct" on a first visit (see worker/boot.js)
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
