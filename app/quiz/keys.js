/**
 * The questions' keys: app/quiz-keys.json, written by the build (tools/lesson.py) so that the
 * right answers are not in the page's HTML, and sealed (sealed.js) so that the file itself shows
 * none at a glance. Keyed by interaction id: a question's name, a graded version's NAME.b, a
 * template's variant NAME.vK. Fetched once, on first need: in practice at the
 * first answer, in a graded test only after Submit. A failed fetch is forgotten, so the next
 * answer tries again. The explanations are the lesson's own short markup (italic variables,
 * indices, links to sections); they are rebuilt here from a short list of harmless elements,
 * everything else kept as its text, so nothing in the file can run or restyle the page. A
 * translated page reads its language's keys (app/quiz-keys.LANG.json), their explanations and
 * "why" lines translated.
 */
import { pageLanguage, t } from "../i18n.js";
import { TRANSLATIONS } from "../site-languages.js";
import { unseal } from "./sealed.js";

/** @typedef {import("./grading.js").QuizKey} QuizKey */

/**
 * The name of the keys' file for a page in `language`, beside app/: quiz-keys.LANG.json for a
 * language the build translates them into, else quiz-keys.json (the English, and the same
 * answers: a page in any other language still gets its keys).
 *
 * @param {string} language the page's <html lang>
 */
export function keysFile(language) {
  return TRANSLATIONS.includes(language) ? `quiz-keys.${language}.json` : "quiz-keys.json";
}

/** @type {Promise<Record<string, QuizKey>> | null} */
let loading = null;

/** Every question's key by its inputs' name, in the page's language. */
export function loadKeys() {
  const file = keysFile(pageLanguage());
  loading ??= fetch(new URL(`../${file}`, import.meta.url))
    .then((response) => {
      // Translators: said inside "The answers could not be loaded (...)"; {file} is a file's name, {status} an HTTP status such as 404.
      if (!response.ok) throw new Error(t("{file} answered {status}", { file, status: response.status }));
      return response.json();
    })
    .then(unseal)
    .catch((error) => {
      loading = null;
      throw error;
    });
  return loading;
}

/** The elements an explanation may use; anything else becomes its text. */
const KEPT = new Set(["VAR", "SUB", "SUP", "EM", "STRONG", "I", "B", "CODE", "A"]);
/** Where a link in an explanation may go: a place in the course. */
const COURSE_LINK = /^([\w-]+\.html)?#[\w-]+$/;

/**
 * An explanation's markup as nodes of `doc`: only KEPT elements, without attributes but a
 * link's href into the course.
 * @param {string} markup
 * @param {Document} [doc]
 * @returns {Node[]}
 */
export function richText(markup, doc = document) {
  const parsed = new DOMParser().parseFromString(`<body>${markup}</body>`, "text/html").body;
  const copy = (node) => {
    if (node.nodeType === Node.TEXT_NODE) return [doc.createTextNode(node.textContent)];
    if (node.nodeType !== Node.ELEMENT_NODE) return [];
    const children = [...node.childNodes].flatMap(copy);
    if (!KEPT.has(node.nodeName)) return children;
    const element = doc.createElement(node.nodeName.toLowerCase());
    const href = node.getAttribute("href");
    if (node.nodeName === "A" && href && COURSE_LINK.test(href)) element.setAttribute("href", href);
    element.append(...children);
    return [element];
  };
  return [...parsed.childNodes].flatMap(copy);
}
