/*
 * Preflight: a classic script, because ES modules cannot load from file:// or in browsers
 * too old for this lesson; it explains either case on the page instead of failing silently.
 * It also watches the lesson's own modules start: if one cannot be fetched or parsed, or throws
 * as it runs, no module is left to say so, and the page would say "Starting Python…" for ever.
 *
 * Its words are in the page's language: a translated page carries its translations as JSON in
 * <script id="pelab-messages"> (app/i18n.js reads the same; this classic script cannot import it),
 * read once the page is parsed.
 *
 * The site's one embed is the English one at its root: a share link from a translated page asks it
 * for that page's language (`embed.html?demo=NAME&lang=zh`, app/site-languages.js embedAddress),
 * and here, before Python starts, it hands over to that language's copy (zh/embed.html), which
 * has the lesson's words and whose links lead to that language's chapters.
 */
(function () {
  "use strict";
  /** The site's translations, each in its folder (app/site-languages.js TRANSLATIONS). */
  var TRANSLATIONS = ["zh", "es"];
  var html = document.documentElement;
  var asked = (/[?&]lang=([^&]*)/.exec(location.search) || [])[1]; // no URLSearchParams in an old browser
  // the page's site language: its <html lang>'s primary subtag, "zh" for "zh-Hans"
  // (app/site-languages.js siteLanguage)
  var english = TRANSLATIONS.indexOf((html.lang || "en").split("-")[0].toLowerCase()) === -1;
  if (asked && english && html.classList.contains("embedded") && TRANSLATIONS.indexOf(asked) !== -1) {
    location.replace(asked + "/embed.html" + location.search + location.hash);
    html.setAttribute("data-state", "error"); // start-python.js starts no Python for a page that goes
    return;
  }

  closeMapWhenNarrow();

  var messages = null;
  /** `english` in the page's language, each {name} of `values` replaced (as app/i18n.js t()). */
  function t(english, values) {
    if (messages === null) {
      messages = {};
      var script = document.getElementById("pelab-messages");
      try {
        if (script && script.textContent) messages = JSON.parse(script.textContent) || {};
      } catch (error) {
        messages = {}; // a broken catalog leaves the page in English
      }
    }
    var text = Object.prototype.hasOwnProperty.call(messages, english) && messages[english] ? messages[english] : english;
    return text.replace(/\{(\w+)\}/g, function (whole, name) {
      return values && Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole;
    });
  }

  var problem = null;
  if (location.protocol === "file:") {
    problem = "file";
  } else if (
    typeof WebAssembly !== "object" ||
    typeof Worker !== "function" ||
    !("noModule" in document.createElement("script"))
  ) {
    problem = "old";
  }
  if (problem) {
    html.setAttribute("data-state", "error");
    document.addEventListener("DOMContentLoaded", function () {
      var text =
        problem === "file"
          ? t(
              "This page was opened from a file. Browsers do not run Python workers from file:// pages: serve the folder instead, for example with  {command}  and open {address}.",
              { command: "python3 build.py serve", address: "http://127.0.0.1:8000/" }
            )
          : t(
              "This browser is too old for the lesson: it needs WebAssembly, Web Workers and JavaScript modules. Use a current version of Firefox, Chrome, Edge or Safari."
            );
      show(text, false); // reloading would not help
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
      // Translators: said inside "The lesson's scripts could not start: ..."; {file} is a script's file name.
      failure = t("a script could not be loaded ({file} or a module it imports)", { file: script.src.slice(folder.length) });
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
      t(
        "The lesson's scripts could not start: {failure}. Reload the page; if this keeps happening, the site may be half-updated, or this browser too old for it.",
        { failure: failure }
      ),
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
    if (message) message.textContent = t("The lesson could not start.");
  }

  /**
   * A chapter page's course map (tools/lesson.py) ships open: beside the chapter, on a wide
   * screen, it is a column that is always open. On a narrower one it is a bar whose outline
   * opens on demand (app/course/map.js), so it is closed here, as the parser inserts it, before
   * the first paint: closed by map.js, once the page had painted, it moved the whole chapter up
   * by the outline's height (from 707 px down to 98 px at 360 px wide). A MutationObserver's
   * callback runs before the browser next renders, and this one stops at the map. Parsing can
   * end, and DOMContentLoaded fire, in the very task that inserted the map, before the observer
   * is called (a page from the cache, parsed at once): there the map is closed too.
   */
  function closeMapWhenNarrow() {
    var wide = "(min-width: 85rem)"; // as app/course/map.js WIDE and static/lab.css's map columns
    if (!window.MutationObserver || !window.matchMedia || window.matchMedia(wide).matches) return;
    function close() {
      var panel = document.querySelector(".course-map details.map-panel");
      if (!panel) return;
      panel.removeAttribute("open");
      watch.disconnect();
    }
    var watch = new MutationObserver(close);
    watch.observe(html, { childList: true, subtree: true });
    document.addEventListener("DOMContentLoaded", function () {
      close();
      watch.disconnect();
    });
  }
})();
