/*
 * Positional Encoding Lab: the host page's side of embedding. Include it once on a page with
 * embed.html iframes:
 *
 *   <script src="https://YOUR-SITE/static/embed-host.js" defer></script>
 *
 * It sizes each iframe to its demo (the demo posts {type: "pelab:resize", height}, also when
 * asked with {type: "pelab:measure"}) and offers
 * PelabEmbed.setTheme("light" | "dark" | "auto") to switch every embedded demo's theme.
 */
(function () {
  "use strict";
  // HOST_MESSAGE of app/page-protocol.js, spelt out: a host page includes this file as a
  // classic script, which cannot import a module. tests/js/page-protocol.test.mjs keeps the two
  // equal.
  var MESSAGE = { RESIZE: "pelab:resize", MEASURE: "pelab:measure", THEME: "pelab:theme" };
  function frames() {
    return Array.prototype.slice.call(document.querySelectorAll("iframe[src*='embed.html']"));
  }
  window.addEventListener("message", function (event) {
    var data = event.data;
    if (!data || data.type !== MESSAGE.RESIZE || typeof data.height !== "number" || !isFinite(data.height)) return;
    frames().forEach(function (frame) {
      if (frame.contentWindow === event.source) {
        frame.style.height = Math.max(80, Math.min(Math.round(data.height), 20000)) + "px";
      }
    });
  });
  // A demo may have told its height before this script ran: ask every demo again, now and
  // whenever an iframe (re)loads.
  function measure(frame) {
    if (frame.contentWindow) frame.contentWindow.postMessage({ type: MESSAGE.MEASURE }, "*");
  }
  frames().forEach(function (frame) {
    measure(frame);
    frame.addEventListener("load", function () { measure(frame); });
  });
  window.PelabEmbed = {
    setTheme: function (theme) {
      frames().forEach(function (frame) {
        if (frame.contentWindow) frame.contentWindow.postMessage({ type: MESSAGE.THEME, theme: theme }, "*");
      });
    },
  };
})();
