/**
 * The links of a demo shown alone (embed.html), which lives in someone else's frame: a course
 * page's iframe, or an LMS's, where a SCORM package plays it. A link to another page would take
 * that frame away from the course (the LMS's frame loses the package, its session and its
 * score). So a link to the lesson opens in a new tab and says so, visibly and to a screen reader;
 * where there is no lesson to open (the quiz's package, `lesson=none`: tools/scorm.py), the link
 * is left out and its words stay as text. A link within the page (`#id` of something shown
 * here) stays as it is.
 *
 * Links come later too (a test's explanations after Submit, feedback): each is fitted as it is
 * added.
 */
import { t } from "../i18n.js";

/**
 * @param {Element} root the embed's demo section
 * @param {{base: string, lesson: boolean}} options `base`: the address the section's links were
 *   written for (its chapter's page); `lesson`: whether there is a lesson to open
 */
export function keepLinksInTheFrame(root, { base, lesson }) {
  const doc = root.ownerDocument;
  const fit = (/** @type {HTMLAnchorElement} */ link) => {
    const href = link.getAttribute("href");
    if (href === null || link.dataset.outside) return;
    if (href.startsWith("#") && doc.getElementById(href.slice(1))) return; // shown here
    if (!lesson) {
      link.replaceWith(...link.childNodes);
      return;
    }
    link.href = new URL(href, base).href;
    inNewTab(link);
  };
  const fitAll = (/** @type {ParentNode} */ node) => {
    if (node instanceof HTMLAnchorElement) fit(node);
    node.querySelectorAll?.("a[href]").forEach((link) => fit(/** @type {HTMLAnchorElement} */ (link)));
  };
  fitAll(root);
  new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) if (node instanceof Element) fitAll(node);
      if (record.type === "attributes" && record.target instanceof HTMLAnchorElement) fit(record.target);
    }
  }).observe(root, { subtree: true, childList: true, attributes: true, attributeFilter: ["href"] });
}

/**
 * `link` opens in a new tab, and says so, visibly and to a screen reader.
 * @param {HTMLAnchorElement} link
 */
export function inNewTab(link) {
  if (link.dataset.outside) return;
  link.dataset.outside = "new-tab";
  link.target = "_blank";
  link.rel = "noopener";
  const note = link.ownerDocument.createElement("span");
  note.className = "new-tab-note";
  // Translators: added after a link that opens the lesson in a new browser tab.
  note.textContent = ` ${t("(opens in a new tab)")}`;
  link.append(note);
}

/**
 * A page of a SCORM package, in the LMS's frame: its links to other sites (the footer's) open in
 * a new tab, and say so, rather than take the frame to a site that may refuse to be framed.
 * Links to the package's own pages stay: the package's launch page keeps the LMS's session
 * while its frame goes from page to page (app/lms/launch.js).
 * @param {ParentNode} root
 */
export function otherSitesInNewTabs(root, origin = location.origin) {
  for (const link of root.querySelectorAll("a[href]")) {
    const anchor = /** @type {HTMLAnchorElement} */ (link);
    if (/^https?:$/.test(anchor.protocol) && anchor.origin !== origin) inNewTab(anchor);
  }
}
