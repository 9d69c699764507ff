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
   * {judge, slowAfterMs, light}: `judge` is the runtime's lock, a small file of the first group;
   * if it takes longer than `slowAfterMs` from its request to its last byte, the link is slow
   * (a round trip of a few hundred ms, or a thin one). On a slow link each URL of `light` is
   * fetched from its stand-in instead and handed to the worker under its own URL; null stands
   * for none, an empty zip. There the bytecode's bytes cost more time than Python saves by not
   * compiling (docs/performance.md).
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
    var judge = SLOW_LINK ? new URL(SLOW_LINK.judge, here).href : null;
    var light = {}; // by absolute URL, as in `groups`
    for (var file in SLOW_LINK ? SLOW_LINK.light : {}) light[new URL(file, here).href] = SLOW_LINK.light[file];
    var slow = SLOW_LINK ? judgeLink(groups, judge) : null;
    function post(url, response, blob) {
      // the body is decoded: of the headers only its type still holds (the wasm's matters)
      var type = response.headers.get("Content-Type");
      var headers = type ? [["Content-Type", type]] : [];
      var file = { status: response.status, statusText: response.statusText, headers: headers, blob: blob };
      worker.postMessage({ type: "file", url: url, response: file });
    }
    function failed(url, error) {
      if (signal && signal.aborted) throw error; // the worker is gone
      worker.postMessage({ type: "file", url: url, error: String((error && error.message) || error) });
    }
    /** Fetch `url` (from `from`, its stand-in, if given) and hand it over as `url`. */
    function hand(url, from) {
      var began = performance.now();
      return fetch(from || url, { signal: signal })
        .then(function (response) {
          return response.blob().then(function (blob) {
            if (slow && url === judge) slow.settle(took(url, began) > SLOW_LINK.slowAfterMs);
            post(url, response, blob);
          });
        })
        .catch(function (error) {
          if (slow && url === judge) slow.settle(false); // nothing to judge by: as before
          failed(url, error);
        });
    }
    /** A file with a lighter stand-in waits for the link's judgement (the lock's arrival). */
    function handJudged(url) {
      if (!slow || !(url in light)) return hand(url);
      function handFor(isSlow) {
        if (!isSlow) return hand(url);
        if (light[url]) return hand(url, new URL(light[url], here).href);
        var none = new Blob([new Uint8Array(EMPTY_ZIP)], { type: "application/zip" });
        post(url, { status: 200, statusText: "OK", headers: { get: function () { return "application/zip"; } } }, none);
      }
      // judged already: at once, so that a group's files start in their order
      return slow.isSlow === null ? slow.promise.then(handFor) : Promise.resolve(handFor(slow.isSlow));
    }
    function fetchGroup(index) {
      if (index === groups.length) return;
      Promise.all(groups[index].map(handJudged)).then(function () {
        fetchGroup(index + 1);
      }, function () {}); // ended: nothing left to hand
    }
    fetchGroup(0);
  }

  /**
   * How long the download of `url` took, request to last byte, by the browser's own timing of it
   * (Resource Timing: a busy page thread sees the end late); else since `began`.
   */
  function took(url, began) {
    var entries = typeof performance.getEntriesByName === "function" ? performance.getEntriesByName(url) : [];
    var entry = entries[entries.length - 1];
    return entry && entry.responseEnd > 0 ? entry.responseEnd - entry.startTime : performance.now() - began;
  }

  /**
   * The link's judgement: {promise, settle(isSlow)}, settled once, and said on <html
   * data-python-link> ("fast" or "slow"). Without the judged file in the first group (a service
   * worker serves the page: all is local) the link counts as fast at once.
   */
  function judgeLink(groups, judge) {
    var settle;
    var promise = new Promise(function (resolve) {
      settle = resolve;
    });
    var done = false;
    var judged = {
      promise: promise,
      isSlow: /** @type {boolean | null} */ (null), // null until judged
      settle: function (isSlow) {
        if (done) return;
        done = true;
        judged.isSlow = isSlow;
        document.documentElement.setAttribute("data-python-link", isSlow ? "slow" : "fast");
        settle(isSlow);
      },
    };
    if (!groups.length || groups[0].indexOf(judge) === -1) judged.settle(false);
    return judged;
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
