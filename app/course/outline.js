/**
 * The course's outline: the page of each section of the lesson, by the section's id (a demo's
 * section is named as the demo). build.py writes the table from index.html's chapters
 * (tools/lesson.py), so a new section or chapter adds no line here.
 */

/** @type {Readonly<Record<string, string>>} */
export const PAGE_OF = Object.freeze({}); // written by build.py

/** The page that holds section (or demo) `name`; the entrance for a name it does not know. */
export function pageOf(name) {
  return Object.hasOwn(PAGE_OF, name) ? PAGE_OF[name] : "index.html";
}
