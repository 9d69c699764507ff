/*
 * Preflight: a classic script, because ES modules cannot load from file:// or in browsers
 * too old for this lesson; it explains either case on the page instead of failing silently.
 * It also watches the lesson's own modules start: if one cannot be fetched or parsed, or throws
 * as it runs, no module is left to say so, and the page would say "Starting Python…" for ever.
 */
(function () {
  "use strict";
  var problem = null;
  if (location.protocol === "file:") {
    problem =
      "This page was opened from a file. Browsers do not run Python workers from file:// pages: " +
      "serve the folder instead, for example with  python3 build.py serve  and open http://127.0.0.1:8000/.";
  } else if (
    typeof WebAssembly !== "object" ||
    typeof Worker !== "function" ||
    !("noModule" in document.createElement("script"))
  ) {
    problem =
      "This browser is too old for the lesson: it needs WebAssembly, Web Workers and JavaScript modules. " +
      "Use a current version of Firefox, Chrome, Edge or Safari.";
  }
  if (problem) {
    document.documentElement.setAttribute("data-state", "error");
    document.addEventListener("DOMContentLoaded", function () {
      show(problem, false); // reloading would not help
    });
    return;
  }

  // Module scripts are fetched, parsed and run before the window's load event (a chapter page's
  // is async, so before load, not DOMContentLoaded; an entrance or embed's before both). Only
  // errors from app/ (this script's parent folder) count: a browser extension's script failing
  // is none of the lesson's business.
  var folder = new URL("../", /** @type {HTMLScriptElement} */ (document.currentScript).src).href;
  var failure = null;
  function watch(event) {
    var script = event.target && event.target.tagName === "SCRIPT" ? event.target : null;
    if (script && script.src.indexOf(folder) === 0) {
      failure = "a script could not be loaded (" + script.src.slice(folder.length) + " or a module it imports)";
    } else if (!script && event.filename && event.filename.indexOf(folder) === 0) {
      failure = event.filename.slice(folder.length) + ": " + event.message;
    }
  }
  window.addEventListener("error", watch, true); // script load errors do not bubble
  window.addEventListener("load", function () {
    window.removeEventListener("error", watch, true);
    if (!failure) return;
    document.documentElement.setAttribute("data-state", "error");
    // start-python.js's Python: no page will ever use it
    var started = self.pelabPython ? self.pelabPython.adopt() : null;
    if (started) started.end();
    show(
      "The lesson's scripts could not start: " + failure + ". Reload the page; if this keeps " +
        "happening, the site may be half-updated, or this browser too old for it.",
      true
    ); // no trailing commas or newer syntax in this file: it must parse in old browsers
  });

  function show(text, canRetry) {
    var box = /** @type {HTMLElement | null} */ (document.querySelector(".boot-error"));
    if (!box) return;
    box.querySelector(".boot-error-detail").textContent = text;
    var retry = /** @type {HTMLButtonElement | null} */ (box.querySelector(".boot-retry"));
    if (retry) {
      retry.hidden = !canRetry;
      retry.addEventListener("click", function () {
        location.reload();
      });
    }
    box.hidden = false;
    var message = document.querySelector(".boot-message");
    if (message) message.textContent = "The lesson could not start.";
  }
})();
