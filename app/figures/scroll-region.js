/**
 * A box that scrolls sideways (a wide table in a .table-scroll) must be reachable from the
 * keyboard, or keyboard users never see its right-hand columns (WCAG 2.1.1). While its content
 * overflows the box is a named, focusable region (arrow keys then scroll it); when the content
 * fits it leaves the tab order again, so narrow tables add no useless tab stops.
 *
 * It must also be seen to scroll: a table cut at a column edge looks complete. While columns are
 * hidden, the box says on which side (data-more: "right", "left" or "both"), the stylesheet
 * fades that edge, and a hint under the box says "scroll →" (hidden from screen readers, which
 * hear "scrolls sideways" in the region's name instead).
 */
import { t } from "../i18n.js";

const watched = new WeakSet();

export function scrollableByKeyboard(box) {
  if (!box || watched.has(box)) return;
  watched.add(box);
  const hint = Object.assign(document.createElement("p"), { className: "scroll-hint", hidden: true });
  hint.setAttribute("aria-hidden", "true");
  box.after(hint);
  const update = () => {
    const hidden = box.scrollWidth - box.clientWidth;
    if (hidden > 1) {
      box.tabIndex = 0;
      box.setAttribute("role", "region");
      // Translators: a wide table's name for screen readers; {name} is its caption.
      box.setAttribute("aria-label", t("{name} (scrolls sideways)", { name: nameOf(box) }));
    } else {
      for (const name of ["tabindex", "role", "aria-label"]) box.removeAttribute(name);
    }
    showMore(box, hint, hidden);
  };
  // A ResizeObserver also reports each box once when it starts observing, after the next
  // layout: the first check needs no layout of its own (a forced one per table cost ~60 ms at load).
  const observer = new ResizeObserver(update);
  observer.observe(box);
  // The table inside grows and shrinks with each render while the box keeps its width.
  for (const child of box.children) observer.observe(child);
  box.addEventListener("scroll", () => showMore(box, hint, box.scrollWidth - box.clientWidth), { passive: true });
}

/** Which sides of `box` hide columns, as data-more and as the hint's words. */
function showMore(box, hint, hidden) {
  const left = hidden > 1 && box.scrollLeft > 1;
  const right = hidden > 1 && box.scrollLeft < hidden - 1;
  const more = left && right ? "both" : left ? "left" : right ? "right" : "";
  if ((box.dataset.more ?? "") === more) return;
  if (more) box.dataset.more = more;
  else delete box.dataset.more;
  hint.hidden = !more;
  // The arrows point the way to scroll, in every language (and the extractor of messages reads
  // no template literal: the words are found outside them).
  const words = more === "left" ? t("scroll back") : t("scroll sideways for more columns");
  hint.textContent = { both: `← ${words} →`, left: `← ${words}`, right: `${words} →` }[more] ?? "";
}

function nameOf(box) {
  const labelledBy = box.querySelector("table[aria-labelledby]")?.getAttribute("aria-labelledby");
  const caption =
    box.querySelector("caption") ??
    box.closest("figure")?.querySelector("figcaption") ??
    (labelledBy ? box.ownerDocument.getElementById(labelledBy) : null);
  return caption?.textContent.trim() || t("Table");
}
