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
 * it. The price: it cannot import protocol.js, so the messages it sends are spelled out here,
 * and tests/js/python-start.test.mjs checks them against REQUEST.
 *
 * It also downloads the files a Python needs first (FIRST_FILES), for the worker, which answers
 * Pyodide's requests with them (worker/prefetch.js). Why here: this script runs about 0.5 s
 * before the worker's own modules have all arrived (each level of imports a round trip, queued
 * behind the page's modules), and on a real network that half second is the download's. In
 * groups, each once the one before is in: Pyodide's runtime (all Python's start needs), then
 * numpy's wheel, which arrives while Python starts, then pelab's wheel and the bytecode, while
 * numpy loads: one after another, each has the whole link (docs/performance.md measures it).
 * Each is read as a blob, which the browser fills without this thread, and handed over whole.
 * When a service worker serves the page, all but the wasm (below).
 * Runs after preflight.js. It must parse in old browsers: no modules, no newer syntax.
 */
(function () {
  "use strict";
  var here = /** @type {HTMLScriptElement} */ (document.currentScript).src;
  /** What a worker can be started as: its script (beside this one) and its name in dev tools. */
  var ENTRIES = {
    python: { script: "worker/main.js", name: "python" }, // the learner's Python
    snapshot: { script: "worker/snapshot.js", name: "python-snapshot" }, // see worker/snapshot.js
  };
  /**
   * The files a Python needs first, in groups fetched one after another (see above), relative to
   * this script or absolute. build.py writes them into dist/'s copy; empty, the worker's Pyodide
   * fetches everything itself.
   */
  var FIRST_FILES = []; // written by build.py
  /**
   * Lighter first files for a slow link, and how it is judged (written by build.py; null: none).
   * {slowAfterMs, light}: if the page's stylesheet took more than `slowAfterMs` from its request
   * to its last byte (about a round trip and 10 kB), the link is slow. There each URL of
   * `light` is fetched from its stand-in instead, and handed to the worker under its own URL;
   * null stands for none, an empty zip. On such a link the bytecode's bytes cost more time than
   * Python saves by not compiling (docs/performance.md). Judged at once: nothing waits for it.
   */
  var SLOW_LINK = null; // written by build.py
  /** A zip with no member (its end-of-central-directory record alone). */
  var EMPTY_ZIP = [80, 75, 5, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
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
    var downloads = null;
    worker.addEventListener("message", keep);
    worker.addEventListener("error", keep);
    if (entry === "python") {
      // A first visit: this browser has service workers, but none serves this page yet.
      var uncontrolled = "serviceWorker" in navigator && !navigator.serviceWorker.controller;
      // With a service worker serving the page, the worker's Pyodide must fetch the wasm itself:
      // V8 keeps compiled code only for a fetched response, not for one made from a blob (see
      // worker/boot.js withDistinctRuntime). The rest still comes sooner from here.
      var served = "serviceWorker" in navigator && !!navigator.serviceWorker.controller;
      var groups = FIRST_FILES.map(function (group) {
        return group
          .map(function (file) {
            return new URL(file, here).href;
          })
          .filter(function (url) {
            return !(served && /\.wasm$/.test(url));
          });
      }).filter(function (group) {
        return group.length > 0;
      });
      // REQUEST.INIT of protocol.js; `handed`: the files this page fetches for the worker
      worker.postMessage({
        type: "init",
        interruptBuffer: interrupt ? interrupt.buffer : null,
        uncontrolled: uncontrolled,
        handed: [].concat.apply([], groups),
      });
      downloads = typeof AbortController === "function" ? new AbortController() : null;
      fetchInGroups(worker, groups, downloads);
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
      /** End the worker, and its downloads: the only place one is terminated. */
      end: function () {
        if (downloads) downloads.abort();
        worker.terminate();
      },
    };
  }

  /**
   * Fetch each group of `groups` once the one before has arrived in full, handing each file to
   * `worker` as it arrives: REQUEST.FILE of protocol.js, with the response's status and headers
   * and its body as a blob, or with `error` if it could not be fetched (the worker's Pyodide then
   * reports it as its own fetch failing). `downloads` (an AbortController) stops them.
   */
  function fetchInGroups(worker, groups, downloads) {
    var signal = downloads ? downloads.signal : undefined;
    var light = {}; // on a slow link: each lighter file's stand-in, by absolute URL as in `groups`
    if (SLOW_LINK && linkIsSlow()) {
      for (var file in SLOW_LINK.light) light[new URL(file, here).href] = SLOW_LINK.light[file];
    }
    function post(url, response, blob) {
      // the body is decoded: of the headers only its type still holds (the wasm's matters)
      var type = response.headers.get("Content-Type");
      var headers = type ? [["Content-Type", type]] : [];
      var file = { status: response.status, statusText: response.statusText, headers: headers, blob: blob };
      worker.postMessage({ type: "file", url: url, response: file });
    }
    /** Fetch `url`, or its stand-in on a slow link, and hand it over as `url`. */
    function hand(url) {
      if (light[url] === null) {
        var none = new Blob([new Uint8Array(EMPTY_ZIP)], { type: "application/zip" });
        var file = { status: 200, statusText: "OK", headers: [["Content-Type", "application/zip"]], blob: none };
        worker.postMessage({ type: "file", url: url, response: file });
        return Promise.resolve();
      }
      return fetch(light[url] ? new URL(light[url], here).href : url, { signal: signal })
        .then(function (response) {
          return response.blob().then(function (blob) {
            post(url, response, blob);
          });
        })
        .catch(function (error) {
          if (signal && signal.aborted) throw error; // the worker is gone
          worker.postMessage({ type: "file", url: url, error: String((error && error.message) || error) });
        });
    }
    function fetchGroup(index) {
      if (index === groups.length) return;
      Promise.all(groups[index].map(hand)).then(function () {
        fetchGroup(index + 1);
      }, function () {}); // ended: nothing left to hand
    }
    fetchGroup(0);
  }

  /**
   * True if the page's stylesheet took more than SLOW_LINK.slowAfterMs from its request to its
   * last byte, said on <html data-python-link>. A classic script runs only once the stylesheets
   * before it are in, so its timing is there; it is the network's own (Resource Timing), which a
   * busy page thread does not stretch. No stylesheet, or one from a cache: fast.
   */
  function linkIsSlow() {
    var entries = typeof performance.getEntriesByType === "function" ? performance.getEntriesByType("resource") : [];
    var sheet = null;
    for (var i = 0; i < entries.length && !sheet; i++) {
      var entry = /** @type {PerformanceResourceTiming} */ (entries[i]);
      if (entry.initiatorType === "link" && /\.css(\?|$)/.test(entry.name)) sheet = entry;
    }
    var slow = !!sheet && sheet.responseEnd > 0 && sheet.responseEnd - sheet.requestStart > SLOW_LINK.slowAfterMs;
    document.documentElement.setAttribute("data-python-link", slow ? "slow" : "fast");
    return slow;
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
  // An embed of a demo that needs no Python (its tag lists them, as registry.js WITHOUT_PYTHON)
  var without = (document.currentScript.getAttribute("data-without-python") || "").split(" ");
  var demo = new URLSearchParams(location.search).get("demo");
  if (demo && without.indexOf(demo) !== -1) return;
  first = start("python");
})();
