/**
 * Where the site's languages live: the English pages at the site's root, each translation's in
 * a folder of its own (dist/zh/, dist/es/) with the same file names, sharing app/, static/, py/
 * and the embed with the English site (tools/languages.py). Pure functions of addresses, so
 * that Node tests them (tests/js/site-languages.test.mjs).
 */

/** The languages the site is translated into, each its folder's name (tools/i18n.py TRANSLATED). */
export const TRANSLATIONS = Object.freeze(["zh", "es"]);

/**
 * The site's language of a page whose <html lang> is `tag`: its primary subtag, the name of its
 * folder. A Chinese page declares "zh-Hans" (its script, for the right fonts: tools/i18n.py
 * LANGUAGE_TAGS), which is "zh" here.
 *
 * @param {string} tag the page's <html lang>, "" when it has none
 */
export function siteLanguage(tag) {
  return (tag || "en").split("-")[0].toLowerCase();
}

/**
 * Whether a page in `language` whose address has the path `pathname` is a translated copy: a
 * translation's page, in that language's folder.
 *
 * @param {string} pathname
 * @param {string} language the page's <html lang> (or its site language, "zh")
 */
export function isTranslatedPage(pathname, language) {
  return englishPath(pathname, language) !== pathname;
}

/**
 * `pathname`, a page's path or its folder's, as the English site has it: "/zh/why-order.html" is
 * "/why-order.html", "/course/es/" is "/course/". An English page's (or one outside its
 * language's folder) is left as it is.
 *
 * @param {string} pathname
 * @param {string} tag the page's <html lang> (or its site language, "zh")
 */
export function englishPath(pathname, tag) {
  const language = siteLanguage(tag);
  if (!TRANSLATIONS.includes(language)) return pathname;
  const folder = `/${language}/`;
  const at = pathname.lastIndexOf(folder);
  // the language's folder must be the page's own: the file name, if any, follows it directly
  if (at < 0 || pathname.slice(at + folder.length).includes("/")) return pathname;
  return pathname.slice(0, at + 1) + pathname.slice(at + folder.length);
}

/**
 * The address of embed.html showing demo `name`, seen from the page at `base` in `language`:
 * the site has one embed, at its root; a translated page's link goes up to it and asks for the
 * page's language (`&lang=zh`). `hash` is the demo's state.
 *
 * @param {string} name
 * @param {string} hash
 * @param {string} base the page's address (document.baseURI)
 * @param {string} tag the page's <html lang> (or its site language, "zh")
 */
export function embedAddress(name, hash, base, tag) {
  const language = siteLanguage(tag);
  const translated = isTranslatedPage(new URL(base).pathname, language);
  const demo = encodeURIComponent(name);
  const url = new URL(translated ? `../embed.html?demo=${demo}&lang=${language}` : `embed.html?demo=${demo}`, base);
  url.hash = hash;
  return url.href;
}

