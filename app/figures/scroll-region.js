/**
 * A box that scrolls sideways (a wide table in a .table-scroll) must be reachable from the
 * keyboard, or keyboard users never see its right-hand columns (WCAG 2.1.1). While its content
 * overflows the box is a named, focusable region (arrow keys then scroll it); when the content
 * fits it leaves the tab order again, so narrow tables add no useless tab stops.
 */
const watched = new WeakSet();

export function scrollableByKeyboard(box) {
  if (!box || watched.has(box)) return;
  watched.add(box);
  const update = () => {
    if (box.scrollWidth > box.clientWidth) {
      box.tabIndex = 0;
      box.setAttribute("role", "region");
      box.setAttribute("aria-label", `${nameOf(box)} (scrolls sideways)`);
    } else {
      for (const name of ["tabindex", "role", "aria-label"]) box.removeAttribute(name);
    }
  };
  // A ResizeObserver also reports each box once when it starts observing, after the next
  // layout: the first check needs no layout of its own (a forced one per table cost ~60 ms at load).
  const observer = new ResizeObserver(update);
  observer.observe(box);
  // The table inside grows and shrinks with each render while the box keeps its width.
  for (const child of box.children) observer.observe(child);
}

function nameOf(box) {
  const caption = box.querySelector("caption") ?? box.closest("figure")?.querySelector("figcaption");
  return caption?.textContent.trim() || "Table";
}
