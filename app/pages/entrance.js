/**
 * The course's entrance (index.html): no Python here. It offers "Continue where you left off"
 * once the learner has been in a chapter, and marks on each chapter's list the sections they
 * have visited, those whose check they answered right at the first try, and those whose check
 * they finished after a hint or a shown answer (app/course/progress.js, kept in this browser
 * only).
 */
import { readProgress, resumeHref } from "../course/progress.js";
import { startPageSession } from "../lms/page-session.js";
import { launchedByLms } from "../lms/scorm.js";
import { otherSitesInNewTabs } from "../controls/outside-links.js";
import { keepPlace } from "../course/language-menu.js";
import { t } from "../i18n.js";

// A course package launched here (?lms=scorm12) is remembered for this visit, so the chapters'
// pages, reached through links, report to the LMS too; the entrance records the learner's place
// and that the course is under way, as each of them will.
startPageSession();
// in the LMS's frame, a link to another site opens a new tab (it might refuse to be framed)
if (launchedByLms()) otherSitesInNewTabs(document);
keepPlace(document);

const progress = readProgress();
const resume = /** @type {HTMLAnchorElement} */ (document.querySelector(".resume"));
const href = resumeHref(progress);
const item = href && document.querySelector(`.chapter-sections li[data-section="${progress.last.section}"]`);
if (item) {
  resume.href = href;
  // Translators: a link to the section the learner last read; {section} is its title.
  resume.textContent = t("Continue where you left off: {section}", { section: item.querySelector("a").textContent.trim() });
  resume.hidden = false;
}

for (const chapter of document.querySelectorAll(".chapter")) {
  const sections = [...chapter.querySelectorAll("li[data-section]")].map((li) => /** @type {HTMLElement} */ (li));
  for (const li of sections) {
    li.toggleAttribute("data-visited", progress.visited.includes(li.dataset.section));
    li.toggleAttribute("data-checked", progress.checked.includes(li.dataset.section));
    li.toggleAttribute("data-helped", progress.helped.includes(li.dataset.section));
  }
  const visited = sections.filter((li) => li.hasAttribute("data-visited")).length;
  if (visited) {
    const note = document.createElement("p");
    note.className = "chapter-progress";
    note.textContent = t("{visited} of {count} sections visited", { visited, count: sections.length });
    chapter.querySelector(".chapter-sections").before(note);
  }
}
