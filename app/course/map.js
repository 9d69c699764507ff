/**
 * The course map every chapter page keeps in view (tools/lesson.py writes it, as a <nav> of
 * the chapters and their sections with minutes): a side column on wide screens, a bar that
 * opens it on narrow ones. Here it learns where the learner is: the section in view is marked
 * (aria-current="location") and named in the bar with the minutes left in the chapter; each
 * section read is marked visited; each whose check (its questions) was all answered right at
 * the first try, checked; and each whose check was finished after a hint or a shown answer,
 * helped. All are kept in this browser (progress.js), and the map shows them on every page.
 */
import { CHECK_EVENT, PLACE_EVENT } from "../page-protocol.js";
import { check, readProgress, visit } from "./progress.js";
import { t } from "../i18n.js";

/** Where the map is a side column (static/lab.css and preflight.js, which closes it before the first paint, use the same width). */
const WIDE = "(min-width: 85rem)";

/** @param {HTMLElement} nav the page's .course-map */
export function courseMap(nav) {
  const page = location.pathname.split("/").pop() || "index.html";
  const panel = /** @type {HTMLDetailsElement} */ (nav.querySelector("details"));
  const where = nav.querySelector(".map-where");
  const left = nav.querySelector(".map-left");
  const items = new Map(
    [...nav.querySelectorAll("li[data-section]")].map((item) => [/** @type {HTMLElement} */ (item).dataset.section, /** @type {HTMLElement} */ (item)]),
  );
  const here = [...items.keys()].map((name) => document.getElementById(name)).filter(Boolean);

  // Wide: always open, a column beside the lesson. Narrow: a bar, opened on demand, closed
  // again once a link in it is followed.
  const wide = window.matchMedia(WIDE);
  const fit = () => {
    panel.open = wide.matches;
  };
  fit();
  wide.addEventListener("change", fit);
  nav.addEventListener("click", (event) => {
    if (!wide.matches && /** @type {Element} */ (event.target).closest("a")) panel.open = false;
  });

  const mark = () => {
    const progress = readProgress();
    for (const [name, item] of items) {
      item.toggleAttribute("data-visited", progress.visited.includes(name));
      item.toggleAttribute("data-checked", progress.checked.includes(name));
      item.toggleAttribute("data-helped", progress.helped.includes(name));
    }
  };
  mark();

  /** @param {HTMLElement} section */
  function show(section) {
    const name = section.id;
    for (const [other, item] of items) {
      const link = item.querySelector("a");
      if (other === name) link.setAttribute("aria-current", "location");
      else link.removeAttribute("aria-current");
    }
    const item = items.get(name);
    const step = item.querySelector(".map-step")?.textContent;
    const title = item.querySelector("a").textContent.replace(/^\s*\d+\s*/, "").trim();
    // Translators: the section in view, in the course map's bar: its number, then its title.
    where.textContent = t("{step}. {title}", { step, title });
    const rest = here.slice(here.indexOf(section));
    const minutes = rest.reduce((sum, s) => sum + Number(items.get(s.id).dataset.minutes), 0);
    left.textContent = t("about {minutes} min left in this chapter", { minutes });
    visit(page, name);
    document.dispatchEvent(new CustomEvent(PLACE_EVENT, { detail: { page, section: name } }));
    mark();
  }

  // The section in view is the last one whose top has passed a line a third of the way down.
  let current = null;
  const pick = () => {
    const line = window.innerHeight / 3;
    const passed = here.filter((section) => section.getBoundingClientRect().top <= line);
    const section = passed.at(-1) ?? here[0];
    if (section && section !== current) {
      current = section;
      show(section);
    }
  };
  let pending = false;
  const soon = () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      pick();
    });
  };
  addEventListener("scroll", soon, { passive: true });
  addEventListener("resize", soon);
  addEventListener("hashchange", soon);
  pick();

  followQuiz(mark);
}

/**
 * Mark each section whose check (app/quiz/engine.js) has every answer shown: checked when all
 * were right at the first try, else helped.
 */
function followQuiz(mark) {
  document.addEventListener(CHECK_EVENT, (event) => {
    const detail = /** @type {CustomEvent} */ (event).detail;
    if (typeof detail?.section !== "string") return;
    check([detail.section], detail.firstTry === true);
    mark();
  });
}
