/**
 * The course's outline: the page of each section of the lesson, by the section's id (a demo's
 * section is named as the demo). build.py writes the table into ./page-of.js from index.html's
 * chapters (tools/wiring.py), so a new section or chapter adds no line by hand.
 */
import { PAGE_OF } from "./page-of.js";

export { PAGE_OF };

/** The page that holds section (or demo) `name`; the entrance for a name it does not know. */
export function pageOf(name) {
  return Object.hasOwn(PAGE_OF, name) ? PAGE_OF[name] : "index.html";
}
