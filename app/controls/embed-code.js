/**
 * The <iframe> that "Copy embed code" gives a teacher to paste into a course page
 * (app/controls/share.js), the snippets of embedding.html written the same way. It is valid
 * HTML as it stands, which the suite checks with the Nu HTML Checker
 * (tests/build/test_valid_html.py): the full width is a style, because an iframe's `width`
 * attribute takes a number of pixels only, never "100%". Pure, so that Node runs it.
 */

/**
 * The snippet embedding `url` (embed.html with a demo and its settings), titled `title`, `height`
 * pixels tall until static/embed-host.js fits it to its demo.
 *
 * @param {string} url
 * @param {string} title
 * @param {number} height
 */
export function embedCode(url, title, height) {
  return (
    `<iframe src="${escapeAttribute(url)}" title="${escapeAttribute(title)}" ` +
    `height="${Math.max(1, Math.ceil(height))}" loading="lazy" style="width: 100%; border: 0"></iframe>`
  );
}

/** `text` as a double-quoted attribute's value. */
function escapeAttribute(text) {
  return text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}
