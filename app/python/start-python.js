/*
 * The one place a Python worker is made and ended: `self.pelabPython`, a factory that the bridge
 * (bridge.js) calls for every worker it needs, the learner's Python and the snapshot maker alike;
 * and the first start of the learner's Python, while the page is still being parsed.
 *
 * Why a classic script owns the factory, not a module: a classic script runs at once, while a
 * module script, however early, waits for the page's first style and layout passes (about 300 ms
 * here), and Python's boot with it. So the first start must happen here, init message included
 * (the worker loads nothing before it). Were the factory a module, this script would spell out
 * the worker's URL, the isolation check and that message a second time; instead the modules call
 * it. The price: it cannot import protocol.js, so the one message it sends is spelled out here,
 * and tests/js/start-python.test.mjs checks it against REQUEST.INIT.
 * Runs after preflight.js. It must parse in old browsers: no modules, no newer syntax.
 */
(function () {
  "use strict";
  var here = document.currentScript.src;
  /** What a worker can be started as: its script (beside this one) and its name in dev tools. */
  var ENTRIES = {
    python: { script: "worker/main.js", name: "python" }, // the learner's Python
    snapshot: { script: "worker/snapshot.js", name: "python-snapshot" }, // see worker/snapshot.js
  };
  /** Stop can interrupt Python only through memory shared with its worker. */
  var isolated = self.crossOriginIsolated === true && typeof SharedArrayBuffer === "function";

  /**
   * Start a worker for `entry` (a key of ENTRIES). The learner's Python gets its interrupt buffer
   * (when isolated) and its "init" message. Returns {worker, interrupt, release(), end()}: until
   * release() is called, what the worker says is kept, for its owner to replay in order.
   */
  function start(entry) {
    var worker = new Worker(new URL(ENTRIES[entry].script, here), { type: "module", name: ENTRIES[entry].name });
    var interrupt = entry === "python" && isolated ? new Int32Array(new SharedArrayBuffer(4)) : null;
    var events = [];
    function keep(event) {
      if (event.type === "error") event.preventDefault(); // its owner reports it
      events.push(event);
    }
    worker.addEventListener("message", keep);
    worker.addEventListener("error", keep);
    if (entry === "python") {
      // A first visit: this browser has service workers, but none serves this page yet.
      var uncontrolled = "serviceWorker" in navigator && !navigator.serviceWorker.controller;
      // REQUEST.INIT of protocol.js
      worker.postMessage({ type: "init", interruptBuffer: interrupt ? interrupt.buffer : null, uncontrolled: uncontrolled });
    }
    return {
      worker: worker,
      interrupt: interrupt,
      /** Stop keeping events; returns those kept so far, in order. */
      release: function () {
        worker.removeEventListener("message", keep);
        worker.removeEventListener("error", keep);
        return events;
      },
      /** End the worker: the only place one is terminated. */
      end: function () {
        worker.terminate();
      },
    };
  }

  var first = null;
  self.pelabPython = {
    start: start,
    /** The learner's Python started while the page was parsed, once; then (or without it) null. */
    adopt: function () {
      var started = first;
      first = null;
      return started;
    },
  };
  if (document.documentElement.getAttribute("data-state") === "error") return; // preflight said why
  first = start("python");
})();
