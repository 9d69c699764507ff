/**
 * Where the learner has been, kept in this browser only (localStorage; nothing is sent): the
 * sections they have visited, those whose check they have answered right at the first try
 * (`checked`), those whose check they finished with help, after a hint or a shown answer
 * (`helped`), and the last place they were, for the entrance's "Continue where you left off".
 * Storage may be blocked (private modes, some iframes): then nothing is kept and nothing breaks.
 *
 * A record from before checks gave a second try (no `version`) marked a section checked once
 * its answers were right, even after the answers had been shown: it loads with those sections
 * as helped, so that no first-try mark is one the learner may not have earned.
 */

const KEY = "pelab:progress";
/** The record's version: 2 since `checked` means right at the first try. */
const VERSION = 2;

/**
 * @typedef {{version: number, visited: string[], checked: string[], helped: string[],
 *   last: {page: string, section: string} | null}} Progress
 */

/** @returns {Progress} */
function empty() {
  return { version: VERSION, visited: [], checked: [], helped: [], last: null };
}

/** What this browser has kept; an empty record when nothing is (or can be) read. */
export function readProgress() {
  try {
    const kept = JSON.parse(window.localStorage.getItem(KEY) ?? "null");
    if (!kept || typeof kept !== "object") return empty();
    const names = (list) => (Array.isArray(list) ? list.filter((n) => typeof n === "string") : []);
    const last = kept.last;
    const current = kept.version === VERSION;
    const checked = current ? names(kept.checked) : [];
    const helped = current ? names(kept.helped) : names(kept.checked);
    return {
      version: VERSION,
      visited: names(kept.visited),
      checked,
      helped: helped.filter((name) => !checked.includes(name)),
      last: last && typeof last.page === "string" && typeof last.section === "string" ? last : null,
    };
  } catch {
    return empty(); // blocked, or not JSON: start afresh
  }
}

/** @param {(progress: Progress) => void} change */
function update(change) {
  const progress = readProgress();
  change(progress);
  try {
    window.localStorage.setItem(KEY, JSON.stringify(progress));
  } catch {
    // full or blocked: the learner's place simply is not kept
  }
}

/** Section `section` of page `page` is being read: it counts as visited and as the last place. */
export function visit(page, section) {
  update((progress) => {
    if (!progress.visited.includes(section)) progress.visited.push(section);
    progress.last = { page, section };
  });
}

/**
 * Every question of these sections' checks has its answer shown: right at the first try
 * (`firstTry`), or after a hint or a shown answer. A first-try mark, once earned, stays.
 * @param {string[]} sections
 * @param {boolean} [firstTry]
 */
export function check(sections, firstTry = true) {
  update((progress) => {
    for (const section of sections) {
      if (firstTry) {
        if (!progress.checked.includes(section)) progress.checked.push(section);
        progress.helped = progress.helped.filter((name) => name !== section);
      } else if (!progress.checked.includes(section) && !progress.helped.includes(section)) {
        progress.helped.push(section);
      }
    }
  });
}

/** The "Continue where you left off" address, or null before any visit. */
export function resumeHref(progress = readProgress()) {
  const { last } = progress;
  if (!last || !/^[\w-]+\.html$/.test(last.page) || !/^[\w-]+$/.test(last.section)) return null;
  return `${last.page}#${last.section}`;
}
