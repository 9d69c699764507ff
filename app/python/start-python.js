/*
 * Starts the Python worker while the page is still being parsed. A classic script runs at once;
 * a module script, however early, waited for the page's first style and layout passes (about
 * 300 ms here), and Python's boot with it. The page's first PythonBridge (bridge.js) adopts this
 * worker, its interrupt buffer and whatever it has said meanwhile. Runs after preflight.js.
 */
(function () {
  "use strict";
  if (document.documentElement.getAttribute("data-state") === "error") return; // preflight said why
  var isolated = self.crossOriginIsolated === true && typeof SharedArrayBuffer === "function";
  var interrupt = isolated ? new Int32Array(new SharedArrayBuffer(4)) : null;
  var worker = new Worker(new URL("worker.js", document.currentScript.src), { type: "module", name: "python" });
  var events = [];
  function keep(event) {
    if (event.type === "error") event.preventDefault(); // the bridge reports it
    events.push(event);
  }
  worker.addEventListener("message", keep);
  worker.addEventListener("error", keep);
  // A first visit: this browser has service workers, but none serves this page yet.
  var uncontrolled = "serviceWorker" in navigator && !navigator.serviceWorker.controller;
  // REQUEST.INIT of protocol.js, which a classic script cannot import.
  worker.postMessage({ type: "init", interruptBuffer: interrupt ? interrupt.buffer : null, uncontrolled: uncontrolled });
  self.pelabStartedPython = {
    worker: worker,
    interrupt: interrupt,
    /** Stop keeping events; returns those kept so far, in order. */
    release: function () {
      worker.removeEventListener("message", keep);
      worker.removeEventListener("error", keep);
      return events;
    },
  };
})();
