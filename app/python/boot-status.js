/**
 * The boot panel: named stages with a progress bar while Python starts, and a clear message
 * with a Retry button when it cannot. `<html data-state>` says loading, ready or error.
 * Its list of stages is made here, from BOOT_STAGES: the page's markup has an empty
 * `<ol class="boot-stages">` (without JavaScript, or when preflight.js stops, there is nothing
 * to list).
 */
import { BOOT_STAGES } from "./protocol.js";
import { t } from "../i18n.js";

/**
 * What each of BOOT_STAGES is called: in the panel's list (`compact` in an embed's small panel,
 * `.boot-compact`) and in its message while under way; in the page's language, read when used.
 */
export const STAGE_LABELS = Object.freeze({
  get runtime() {
    return {
      // Translators: a stage of Python's start, in the list of stages.
      item: t("Python runtime (Pyodide: downloaded on a first visit, kept for later ones)"),
      compact: t("Python runtime"),
      doing: t("Loading the Python runtime…"),
    };
  },
  get numpy() {
    return { item: "numpy", compact: "numpy", doing: t("Loading numpy…") };
  },
  get pelab() {
    return { item: t("pelab, this lesson’s Python package"), compact: "pelab", doing: t("Installing the lesson's Python package…") };
  },
  get render() {
    // Translators: the last stage of Python's start, in the list of stages: drawing the demos (a page's), or the demo (an embed's).
    return { item: t("the demos"), compact: t("the demo"), doing: t("Drawing the demos…") };
  },
});

/** The panel's list items, one per stage of BOOT_STAGES, all pending. */
export function stageItems(document, { compact = false } = {}) {
  return BOOT_STAGES.map((name) => {
    const item = document.createElement("li");
    item.dataset.stage = name;
    item.dataset.status = "pending";
    item.textContent = STAGE_LABELS[name][compact ? "compact" : "item"];
    return item;
  });
}

export function bootStatus(root) {
  const message = root.querySelector(".boot-message");
  const bar = root.querySelector("progress");
  const errorBox = root.querySelector(".boot-error");
  const started = performance.now();
  let current = null;

  bar.max = BOOT_STAGES.length;
  const compact = root.classList.contains("boot-compact");
  root.querySelector(".boot-stages").replaceChildren(...stageItems(root.ownerDocument, { compact }));
  root.querySelector(".boot-retry")?.addEventListener("click", () => location.reload());

  function stage(name) {
    const index = BOOT_STAGES.indexOf(name);
    current = name;
    bar.value = index;
    message.textContent = STAGE_LABELS[name].doing;
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
