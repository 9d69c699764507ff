/*
 * Old links to the lesson, from when it was one page, land on the section's chapter page: a
 * section (index.html#heatmap), an anchor a section kept (index.html#order-blind), and a shared
 * link (index.html#demo=heatmap&d_model=64). A classic script in the entrance's <head>, so the
 * entrance is never drawn first. tools/lesson.py writes which page holds which id into its
 * data-pages attribute.
 */
(function () {
  var hash = location.hash.slice(1);
  if (!hash) return;
  var pages = JSON.parse(document.currentScript.getAttribute("data-pages") || "{}");
  var target = new URLSearchParams(hash).get("demo");
  if (target === null) {
    try {
      target = decodeURIComponent(hash);
    } catch (error) {
      return;
    }
  }
  for (var page in pages) {
    if (pages[page].indexOf(target) >= 0) {
      location.replace(page + location.search + location.hash);
      return;
    }
  }
})();
