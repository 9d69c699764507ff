/**
 * The language menu keeps the reader's place. Every page but the embed has one right after its
 * skip link (tools/languages.py writes it): a link to the same page in each other language, the
 * same file in that language's folder. Switching language should not throw the reader back to
 * the top: when a link of the menu is about to be followed (pressed, focused, or Enter on it),
 * its fragment becomes the reader's place, the lesson section at the top third of the screen
 * (as the course map marks the section in view, app/course/map.js), else the page's own
 * fragment. The sections' ids are the same in every language, so the other page opens there. A
 * query goes along too: the link's own if it has one, else the page's (?graded, an LMS's
 * launch), so that the other page is what this one is. Without JavaScript the links lead to each
 * page's top.
 *
 * The menu is at the top of the page: by the time it is pressed, or focused (a browser scrolls
 * a focused link into view), the screen shows the page's top, not what the reader was reading.
 * So the place is the one the reader was at when the menu was last out of sight, read as they
 * scroll; the screen's own only when the menu has been in sight all along.
 */

/** Where the reader is reading: the line a third of the way down the viewport. */
const READING_LINE = 1 / 3;

/**
 * The id of the section the reader is in: of `sections` (in the page's order, each with its id
 * and its box's top and bottom relative to the viewport), the one that holds the line at
 * `line` px from the viewport's top; of sections nested in one another, the innermost. Null when
 * none holds it (the reader is above the first, below the last or between two).
 *
 * @param {{id: string, top: number, bottom: number}[]} sections
 * @param {number} line
 * @returns {string | null}
 */
export function sectionAt(sections, line) {
  const holding = sections.filter(({ top, bottom }) => top <= line && line < bottom);
  return holding.at(-1)?.id ?? null;
}

/**
 * The place a menu link takes along: the section the reader was in when the menu was last out of
 * sight (`reading`: undefined when it has been in sight all along, null when they were outside
 * every section), else the section on the screen now (`now`), else the page's fragment
 * (`fragment`, without "#"); null for none.
 *
 * @param {string | null | undefined} reading
 * @param {string | null} now
 * @param {string} fragment
 * @returns {string | null}
 */
export function placeToKeep(reading, now, fragment) {
  return (reading === undefined ? now : reading) ?? (fragment || null);
}

/**
 * `href` (a menu link's address, relative as written or absolute) with its fragment set to
 * `place` (without "#"; empty or null: no fragment) and, when it has no query of its own, the
 * page's query `search` ("?graded", or ""). Its path is kept as it is written.
 *
 * @param {string} href
 * @param {string | null} place
 * @param {string} [search]
 */
export function withPlace(href, place, search = "") {
  const at = href.indexOf("#");
  let base = at < 0 ? href : href.slice(0, at);
  if (!base.includes("?") && search && search !== "?") base += search.startsWith("?") ? search : `?${search}`;
  return place ? `${base}#${place}` : base;
}

/**
 * The id of `page`'s lesson section at the reading line now, or null.
 *
 * @param {Document} page
 */
function sectionInView(page) {
  const sections = [...page.querySelectorAll("main section[id]:not(.boot)")].map((section) => {
    const { top, bottom } = section.getBoundingClientRect();
    return { id: section.id, top, bottom };
  });
  return sectionAt(sections, (page.defaultView?.innerHeight ?? 0) * READING_LINE);
}

/**
 * Make `page`'s language menu (nav.language-menu) take the reader's place along: each link's
 * fragment is set to it just before the link is followed.
 *
 * @param {Document} page
 */
export function keepPlace(page) {
  const links = /** @type {HTMLAnchorElement[]} */ ([...page.querySelectorAll(".language-menu a[href]")]);
  const view = page.defaultView;
  if (!links.length || !view) return;

  const menu = /** @type {HTMLElement} */ (page.querySelector(".language-menu"));
  /** @type {string | null | undefined} where the reader was when the menu was last out of sight */
  let reading;
  const read = () => {
    if (menu.getBoundingClientRect().bottom <= 0) reading = sectionInView(page);
  };
  // A scroll event comes at most once a frame; the one that brings the menu into sight reads nothing.
  view.addEventListener("scroll", read, { passive: true });
  read(); // the page may open scrolled, at a #fragment

  for (const link of links) {
    const written = link.getAttribute("href") ?? "";
    const update = () => {
      const fragment = view.location.hash.replace(/^#/, "");
      link.setAttribute("href", withPlace(written, placeToKeep(reading, sectionInView(page), fragment), view.location.search));
    };
    link.addEventListener("pointerdown", update);
    link.addEventListener("focus", update);
    link.addEventListener("keydown", (event) => event.key === "Enter" && update());
  }
}
