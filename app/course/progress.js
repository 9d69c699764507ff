/**
 * Where the learner has been, kept in this browser only (localStorage; nothing is sent): the
 * sections they have visited, those whose check they have answered right, and the
 * last place they were, for the entrance's "Continue where you left off". Storage may be
 * blocked (private modes, some iframes): then nothing is kept and nothing breaks.
 */

const KEY = "pelab:progress";

/**
 * @typedef {{visited: string[], checked: string[], last: {page: string, section: string} | null}} Progress
 */

/** @returns {Progress} */
function empty() {
  return { visited: [], checked: [], last: null };
}

/** What this browser has kept; an empty record when nothing is (or can be) read. */
export function readProgress() {
  try {
    const kept = JSON.parse(window.localStorage.getItem(KEY) ?? "null");
    if (!kept || typeof kept !== "object") return empty();
    const names = (list) => (Array.isArray(list) ? list.filter((n) => typeof n === "string") : []);
    const last = kept.last;
    return {
      visited: names(kept.visited),
      checked: names(kept.checked),
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

/** Every question of these sections' checks was answered right. */
export function check(sections) {
  update((progress) => {
    for (const section of sections) if (!progress.checked.includes(section)) progress.checked.push(section);
  });
}

/** The "Continue where you left off" address, or null before any visit. */
export function resumeHref(progress = readProgress()) {
  const { last } = progress;
  if (!last || !/^[\w-]+\.html$/.test(last.page) || !/^[\w-]+$/.test(last.section)) return null;
  return `${last.page}#${last.section}`;
}
