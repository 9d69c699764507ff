/**
 * "Going deeper" folds (<details class="deeper">) print open: paper has nothing to click. The
 * stylesheet opens them in print where the browser styles ::details-content (static/lab.css);
 * for the others, each fold closed when printing starts is opened on beforeprint and closed again
 * on afterprint, so the page on screen is left as the learner had it.
 */

/**
 * Open `page`'s closed folds while it prints.
 *
 * @param {Document} page
 */
export function openFoldsForPrint(page) {
  /** The folds this handler opened for the print in progress. */
  let opened = [];
  const view = page.defaultView;
  view?.addEventListener("beforeprint", () => {
    opened = [...page.querySelectorAll("details.deeper:not([open])")];
    for (const fold of opened) /** @type {HTMLDetailsElement} */ (fold).open = true;
  });
  view?.addEventListener("afterprint", () => {
    for (const fold of opened) /** @type {HTMLDetailsElement} */ (fold).open = false;
    opened = [];
  });
}
