/**
 * Keep the lesson for offline use: register the service worker (service-worker.js at the site
 * root, made by build.py) once Python is up, so that filling its cache never slows the first
 * visit. When a newer build takes over an open page, offer a reload.
 */
/** `ready`: a promise that settles once the page is up and rendered. */
export function keepOffline(ready) {
  if (!("serviceWorker" in navigator)) return; // an old browser, or not a secure context
  const hadController = navigator.serviceWorker.controller !== null;
  navigator.serviceWorker.addEventListener("controllerchange", () => hadController && offerReload());
  ready
    .finally(() => navigator.serviceWorker.register(new URL("../service-worker.js", import.meta.url)))
    .catch(() => {}); // private mode, blocked storage: the lesson simply needs the network next time
}

function offerReload() {
  if (document.querySelector(".update-notice")) return;
  const notice = Object.assign(document.createElement("p"), {
    className: "update-notice notice",
    textContent: "A newer version of this lesson has been downloaded. ",
  });
  notice.setAttribute("role", "status");
  const reload = Object.assign(document.createElement("button"), { type: "button", textContent: "Reload to use it" });
  reload.addEventListener("click", () => location.reload());
  notice.append(reload);
  document.body.prepend(notice);
}
