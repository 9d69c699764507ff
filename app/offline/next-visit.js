/**
 * Prepare the next visit once this one has rendered, so that none of it slows the first one:
 * 1. the service worker (service-worker.js at the site root, made by build.py) caches the whole
 *    build, so the lesson works offline and loads without the network;
 * 2. then, once the learner has left the page alone for a moment, a memory snapshot of a fresh
 *    Python goes into that cache, so Python starts in a fraction of the time.
 * <html data-next-visit> says "ready" when both are done (the benchmark and tests wait on it).
 * When a newer build takes over an open page, offer a reload.
 */
import { t } from "../i18n.js";

export function prepareNextVisit(rendered, python) {
  const html = document.documentElement;
  const workers = navigator.serviceWorker; // undefined in old browsers and insecure contexts
  const hadController = Boolean(workers?.controller);
  workers?.addEventListener("controllerchange", () => hadController && offerReload());
  rendered
    .finally(async () => {
      if (workers) await registerWorker();
      html.dataset.nextVisit = "snapshot";
      // Booting a second Python takes a core for seconds: not while the learner is using the page.
      await quiet(QUIET_MS);
      const outcome = await python.prepareSnapshot();
      html.dataset.nextVisit = outcome === "made" || outcome === "kept" ? "ready" : `no snapshot (${outcome})`;
    })
    .catch(() => {});
}

/** How long the learner must leave the page alone before the snapshot is made. */
const QUIET_MS = 2_000;
const INPUTS = ["pointerdown", "pointermove", "keydown", "wheel", "input", "touchstart"];

/** Resolves once `ms` have passed with no input from the learner. */
function quiet(ms) {
  return new Promise((resolve) => {
    let timer;
    const wait = () => {
      clearTimeout(timer);
      timer = setTimeout(done, ms);
    };
    const done = () => {
      for (const type of INPUTS) removeEventListener(type, wait, true);
      resolve();
    };
    for (const type of INPUTS) addEventListener(type, wait, { capture: true, passive: true });
    wait();
  });
}

/** Register the service worker and wait until it has cached the build (or could not). */
async function registerWorker() {
  try {
    await navigator.serviceWorker.register(new URL("../../service-worker.js", import.meta.url));
    // ready never settles when filling the cache fails: give up waiting after a minute
    await Promise.race([navigator.serviceWorker.ready, new Promise((resolve) => setTimeout(resolve, 60_000))]);
  } catch {
    // private mode, blocked storage, a test that blocks service workers: next time needs the network
  }
}

function offerReload() {
  if (document.querySelector(".update-notice")) return;
  const notice = Object.assign(document.createElement("p"), {
    className: "update-notice notice",
    textContent: t("A newer version of this lesson has been downloaded.") + " ", // the button follows
  });
  notice.setAttribute("role", "status");
  const reload = Object.assign(document.createElement("button"), { type: "button", textContent: t("Reload to use it") });
  reload.addEventListener("click", () => location.reload());
  notice.append(reload);
  document.body.prepend(notice);
}
