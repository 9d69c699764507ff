/*
 * Old links land where their target is now. On the entrance, links from when the lesson was one
 * page: a section (index.html#heatmap), an anchor a section kept (index.html#order-blind), an
 * exercise (index.html#exercise-shift) and a shared link (index.html#demo=heatmap&d_model=64).
 * On a chapter page, a link to a section or an exercise that another page holds now (the
 * exercises were once on review.html; a section may move to another chapter). A classic script
 * in the page's <head>, so the wrong page is never drawn first. tools/lesson.py (link_targets)
 * writes which page holds which id into its data-pages attribute, leaving out the page it runs
 * on.
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
