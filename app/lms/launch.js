/*
 * A SCORM package's launch page (launch.html, written by tools/scorm.py) opening its lesson page:
 * the page it names in `data-page`, with `data-query` added to whatever query the LMS gave.
 * Some LMSes drop the manifest's launch `parameters`; the page needs them (`lms=scorm12` tells it
 * an LMS launched it, `demo=` which demo to show), so the package carries them here too.
 * `location.replace` loads the page in this same frame, where it still finds the LMS's API up
 * `window.parent`, and leaves no entry in the frame's history that Back would land on.
 * A classic script, in a file of its own: launch.html holds no inline script, so the strict CSP
 * (script-src 'self') allows it, and it runs before anything of the page loads.
 */
(function () {
  "use strict";
  var script = /** @type {HTMLScriptElement | null} */ (document.currentScript);
  if (!script) return;
  var page = script.getAttribute("data-page") || "index.html";
  var query = new URLSearchParams(location.search);
  new URLSearchParams(script.getAttribute("data-query") || "").forEach(function (value, name) {
    query.set(name, value); // the package's own say wins over a stale or altered one
  });
  location.replace(page + "?" + query.toString() + location.hash);
})();
