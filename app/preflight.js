/*
 * Preflight: a classic script, because ES modules cannot load from file:// or in browsers
 * too old for this lesson; it explains either case on the page instead of failing silently.
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
  if (!problem) return;
  document.documentElement.setAttribute("data-state", "error");
  document.addEventListener("DOMContentLoaded", function () {
    var box = document.querySelector(".boot-error");
    if (!box) return;
    box.querySelector(".boot-error-detail").textContent = problem;
    box.hidden = false;
    var message = document.querySelector(".boot-message");
    if (message) message.textContent = "Python could not start.";
  });
})();
