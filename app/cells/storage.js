/**
 * Where a cell's edits are kept: localStorage, one key per page and cell. Browsers can block
 * storage (private modes, third-party iframes); then nothing is kept and nothing breaks. An
 * edit kept under an older page name (`formerly`) is still read until the cell is saved again.
 */
import { englishPath } from "../site-languages.js";

export function cellStorage(page, formerly = null) {
  const key = (name, where = page) => `pelab:cell:${where}:${name}`;
  let store = null;
  try {
    store = window.localStorage;
    store.setItem("pelab:probe", "1");
    store.removeItem("pelab:probe");
  } catch {
    store = null;
  }
  const attempt = (action, fallback) => {
    try {
      return store ? action(store) : fallback;
    } catch {
      return fallback; // full, or blocked since: the edit simply is not kept
    }
  };
  return {
    blocked: store === null,
    get: (name) =>
      attempt((s) => s.getItem(key(name)) ?? (formerly === null ? null : s.getItem(key(name, formerly))), null),
    set: (name, code) => attempt((s) => s.setItem(key(name), code)),
    remove: (name) =>
      attempt((s) => {
        s.removeItem(key(name));
        if (formerly !== null) s.removeItem(key(name, formerly));
      }),
  };
}

/**
 * Where this page keeps its cells' edits: a chapter page keeps them under the lesson's address
 * (the folder's index.html), as the lesson did when it was one page, so edits made then are
 * still found; any other page (an embed) under its own. The second key is the lesson's other
 * old address (the folder itself, "/" for the site root), read when the first holds nothing.
 * A translated page (dist/zh/, dist/es/) keeps them under its English page's address, so that a
 * learner who switches language keeps their edits.
 *
 * @param {{body: {classList: {contains(name: string): boolean}}, baseURI: string,
 *   location: {pathname: string}, documentElement: {lang: string}}} document
 */
export function storageKeys(document) {
  const language = document.documentElement.lang || "en";
  if (!document.body.classList.contains("chapter-page")) return [englishPath(document.location.pathname, language)];
  const folder = englishPath(new URL("./", document.baseURI).pathname, language);
  return [`${folder}index.html`, folder];
}
