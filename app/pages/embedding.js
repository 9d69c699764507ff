/**
 * embedding.html: the theme buttons of the live example, what its quiz example posts (pelab:quiz),
 * the reference table of every demo's name and settings, read from the lesson itself so it
 * cannot go out of date, and the SCORM packages' download links, read from the build's list.
 */
import { DEMOS, titleOf } from "../demos/registry.js";
import { isLogScale, valueText } from "../controls/slider.js";
import { NOT_SETTINGS } from "../controls/share.js";
import { HOST_MESSAGE } from "../page-protocol.js";
import { PAGE_OF } from "../course/outline.js";
import { showPackageDownloads } from "./package-downloads.js";
import { scrollableByKeyboard } from "../figures/scroll-region.js";
import { keepPlace } from "../course/language-menu.js";
import { pageLanguage, t } from "../i18n.js";
import { isTranslatedPage } from "../site-languages.js";

keepPlace(document);

for (const button of document.querySelectorAll(".theme-button")) {
  button.addEventListener("click", () => window.PelabEmbed?.setTheme(/** @type {HTMLElement} */ (button).dataset.theme));
}

// The quiz example: show each pelab:quiz message it posts, as a host page would receive it.
const quizFrame = /** @type {HTMLIFrameElement | null} */ (document.querySelector(".quiz-example-frame"));
const received = document.querySelector(".quiz-example-received");
window.addEventListener("message", (event) => {
  // Believe only our own frame, from our own site: any page can post a message.
  if (event.source !== quizFrame?.contentWindow || event.origin !== location.origin) return;
  const { type, answered, correct, total } = event.data ?? {};
  if (type !== HOST_MESSAGE.QUIZ) return;
  // Translators: {type} is the message's type, "pelab:quiz".
  received.textContent = t("Received {type}: {answered} of {total} answered, {correct} right.", { type, answered, total, correct });
});

const downloads = /** @type {HTMLTableSectionElement | null} */ (document.querySelector(".scorm-downloads tbody"));
// The packages are the English site's, at its root: a translated guide's are a folder up.
if (downloads) showPackageDownloads(downloads, isTranslatedPage(location.pathname, pageLanguage()) ? "../scorm/" : "scorm/");

// Both tables are wider than a phone: their boxes scroll, reachable from the keyboard.
for (const box of document.querySelectorAll(".scorm-downloads, .reference-table")) scrollableByKeyboard(box.closest(".table-scroll"));

const body = document.querySelector(".reference-table tbody");
try {
  body.replaceChildren(...referenceRows(await readLesson()));
} catch (error) {
  const row = document.createElement("tr");
  const cell = document.createElement("td");
  cell.colSpan = 3;
  cell.className = "problem";
  cell.setAttribute("role", "alert");
  cell.textContent = t("Could not read the lesson's demos and settings ({error}). Reload this page; if it keeps failing, the site is missing a chapter page.", {
    error: error.message,
  });
  row.append(cell);
  body.replaceChildren(row);
}

/** The course's chapter pages, parsed: the one source of every demo's settings. */
async function readLesson() {
  const pages = [...new Set(Object.values(PAGE_OF))];
  const documents = await Promise.all(
    pages.map(async (page) => {
      const response = await fetch(new URL(page, document.baseURI));
      // Translators: said inside "Could not read the lesson's demos and settings (...)"; {status} is an HTTP status such as "404 Not Found".
      if (!response.ok) throw new Error(t("{file} answered {status}", { file: page, status: `${response.status} ${response.statusText}`.trim() }));
      return new DOMParser().parseFromString(await response.text(), "text/html");
    }),
  );
  return { getElementById: (id) => documents.map((d) => d.getElementById(id)).find(Boolean) ?? null };
}

function referenceRows(lesson) {
  return Object.keys(DEMOS).map((name) => {
    const section = lesson.getElementById(name);
    if (!section) throw new Error(t("no chapter page has a section #{name} for the demo “{name}”", { name }));
    const inputs = [...section.querySelectorAll("input[name]")].filter((input) => !input.closest(NOT_SETTINGS));
    const settings = inputs
      // a radio group is one setting: describe it at its first option
      .filter((input) => input.type !== "radio" || inputs.find((other) => other.name === input.name) === input)
      .map((input) => describe(input, inputs));
    // Translators: a demo's setting in a shared link: "code", the cell's Python, as the reference table describes it.
    if (section.querySelector(".cell")) settings.push(t("code: the cell’s Python"));
    const row = document.createElement("tr");
    // Translators: a demo with no settings, in the reference table.
    for (const text of [name, titleOf(section), settings.join("; ") || t("none")]) {
      const cell = document.createElement("td");
      cell.textContent = text;
      row.append(cell);
    }
    row.cells[0].className = "reference-name";
    return row;
  });
}

function describe(input, inputs) {
  // Translators: a setting of a shared link as the reference table describes it: its name in links, then what it takes.
  if (input.type === "checkbox") return t("{name}: 0 or 1", { name: input.name });
  if (input.type === "radio") {
    return `${input.name}: ${inputs.filter((other) => other.name === input.name).map((other) => other.value).join(", ")}`;
  }
  if (input.type !== "range") return t("{name}: text", { name: input.name });
  const range = { name: input.name, low: valueText(input, Number(input.min)), high: valueText(input, Number(input.max)) };
  return isLogScale(input) ? t("{name}: {low} to {high}, log scale", range) : t("{name}: {low} to {high}", range);
}
