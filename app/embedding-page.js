/**
 * embedding.html: the theme buttons of the live example, and the reference table of every
 * demo's name and settings, read from the lesson itself so it cannot go out of date.
 */
import { DEMOS } from "./demos.js";
import { formatNumber, roundSignificant } from "./format.js";

for (const button of document.querySelectorAll(".theme-button")) {
  button.addEventListener("click", () => window.PelabEmbed?.setTheme(button.dataset.theme));
}

const body = document.querySelector(".reference-table tbody");
const response = await fetch(new URL("index.html", document.baseURI));
const lesson = new DOMParser().parseFromString(await response.text(), "text/html");
body.replaceChildren(
  ...Object.entries(DEMOS).map(([name, demo]) => {
    const section = lesson.getElementById(demo.section);
    const settings = [...section.querySelectorAll("input[name]")]
      .filter((input) => !input.closest(".quiz"))
      .map((input) => describe(input));
    if (section.querySelector(".cell")) settings.push("code: the cell’s Python");
    const row = document.createElement("tr");
    for (const text of [name, demo.title, settings.join("; ") || "none"]) {
      const cell = document.createElement("td");
      cell.textContent = text;
      row.append(cell);
    }
    row.firstChild.className = "reference-name";
    return row;
  }),
);

function describe(input) {
  if (input.type === "checkbox") return `${input.name}: 0 or 1`;
  if (input.type !== "range") return `${input.name}: text`;
  const value = (v) => (input.dataset.scale === "log10" ? formatNumber(roundSignificant(10 ** Number(v))) : v);
  const scale = input.dataset.scale === "log10" ? ", log scale" : "";
  return `${input.name}: ${value(input.min)} to ${value(input.max)}${scale}`;
}
