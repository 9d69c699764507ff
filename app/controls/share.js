/**
 * Shareable state: a demo's settings (its named inputs, and its cell's code when edited) as
 * the URL fragment, "#d_model=128&seq_len=64&base=10000". Reading a fragment clamps every value
 * to the input's documented range and says so, so a bad link never gives a blank demo.
 * Each demo gets "Copy link" and "Copy embed code" buttons.
 */
import { formatNumber } from "../figures/format.js";
import { isLogScale, positionFor, valueText } from "./slider.js";
import { pageOf } from "../course/outline.js";
import { pageLanguage, t } from "../i18n.js";
import { embedAddress } from "../site-languages.js";
import { embedCode } from "./embed-code.js";

/** The longest text a link may put into a text box. */
const MAX_TEXT = 1_000;

/** Inputs that are not a demo's settings: the quiz's answers, and a prediction's guess
 * (app/controls/prediction.js). */
export const NOT_SETTINGS = ".quiz, .prediction";

/** The inputs that make up a demo's state, by name. */
function inputs(root) {
  return [...root.querySelectorAll("input[name]")].filter((input) => !input.closest(NOT_SETTINGS));
}


/**
 * A demo's code cell as far as links go: whether the learner edited it, its code, and loading
 * code into it. The page hands it over (cellIn, app/cells/cells.js): controls know no cells.
 *
 * @typedef {object} LinkedCell
 * @property {boolean} edited
 * @property {{code: string}} editor
 * @property {(code: string) => void} load
 */

/**
 * The demo's current settings as URLSearchParams, with `cell`'s code when the learner edited it.
 *
 * @param {Element} root
 * @param {LinkedCell} [cell]
 */
export function readState(root, cell) {
  const state = new URLSearchParams();
  for (const input of inputs(root)) {
    if (input.type === "radio") {
      if (input.checked) state.set(input.name, input.value); // a group: the chosen one's value
    } else if (input.type === "checkbox") state.set(input.name, input.checked ? "1" : "0");
    else if (input.type === "range") state.set(input.name, valueText(input));
    else state.set(input.name, input.value);
  }
  if (cell?.edited) state.set("code", cell.editor.code);
  return state;
}

/**
 * Put `state` (URLSearchParams) into the demo's inputs, and its `code` into `cell`, before the
 * demo starts. Returns the notices to show: one per value that was malformed, out of range, cut
 * short or unknown.
 *
 * @param {Element} root
 * @param {URLSearchParams} state
 * @param {LinkedCell} [cell]
 * @returns {string[]}
 */
export function applyState(root, state, cell) {
  const notices = [];
  for (const [name, raw] of state) {
    if (name === "demo" || name === "theme") continue;
    if (name === "code") {
      const code = raw.length > 50_000 ? raw.slice(0, 50_000) : raw;
      if (code !== raw) notices.push(t("The code in the link was cut to 50,000 characters."));
      cell?.load(code);
      continue;
    }
    const input = inputs(root).find((candidate) => candidate.name === name);
    const label = input ? labelOf(input) : name;
    if (!input) {
      notices.push(t("The link’s setting “{name}” is not part of this demo and was ignored.", { name: short(name) }));
    } else if (input.type === "radio") {
      const group = inputs(root).filter((candidate) => candidate.name === name);
      const chosen = group.find((candidate) => candidate.value === raw);
      if (chosen) chosen.checked = true;
      else {
        // Translators: what a group of options says it stays at when none of them is chosen.
        const now = group.find((candidate) => candidate.checked)?.value ?? t("none");
        notices.push(
          // Translators: {label} names a setting; {value} is the link's value; {values} lists the allowed ones, as written in links.
          t("{label}: “{value}” is not one of {values}; it stays {now}.", {
            label,
            value: short(raw),
            values: group.map((r) => r.value).join(", "),
            now,
          }),
        );
      }
    } else if (input.type === "checkbox") {
      const on = ["1", "true", "on", "yes"].includes(raw.toLowerCase());
      const off = ["0", "false", "off", "no", ""].includes(raw.toLowerCase());
      if (on || off) input.checked = on;
      else {
        const value = short(raw);
        notices.push(
          input.checked
            ? t("{label}: “{value}” is not on or off; it stays on.", { label, value })
            : t("{label}: “{value}” is not on or off; it stays off.", { label, value }),
        );
      }
    } else if (input.type === "range") {
      const notice = applyNumber(input, raw, label);
      if (notice) notices.push(notice);
    } else {
      input.value = raw.length > MAX_TEXT ? raw.slice(0, MAX_TEXT) : raw;
      if (raw.length > MAX_TEXT) notices.push(t("{label}: the text in the link was cut to {count} characters.", { label, count: MAX_TEXT }));
    }
  }
  return notices;
}

/** Set a range input from a link's value, clamped to its range and step; a notice if it was changed. */
function applyNumber(input, raw, label) {
  const min = Number(input.min);
  const max = Number(input.max);
  const step = Number(input.step) || 1;
  const [low, high] = [valueText(input, min), valueText(input, max)];
  const number = Number(raw.trim() === "" ? NaN : raw);
  let value = positionFor(input, number);
  if (!Number.isFinite(value)) {
    // Translators: {label} names a slider; {low} to {high} is its range; {now} its value.
    return t("{label}: “{value}” is not a number from {low} to {high}; it stays {now}.", { label, value: short(raw), low, high, now: valueText(input) });
  }
  const clamped = Math.min(Math.max(value, min), max);
  value = Number((min + Math.round((clamped - min) / step) * step).toFixed(6));
  input.value = value;
  const used = valueText(input);
  if (clamped !== positionFor(input, number)) {
    // Translators: {label} names a slider; {value} is the link's value; {low} to {high} is the slider's range.
    return t("{label}: {value} is outside {low} to {high}; using {used}.", { label, value: short(raw), low, high, used });
  }
  if (used !== formatNumber(number) && !isLogScale(input)) {
    return t("{label}: {value} is not one of its steps; using {used}.", { label, value: short(raw), used });
  }
  return null;
}

function labelOf(input) {
  // A radio group is named by its fieldset's legend, not by one option's label.
  if (input.type === "radio") return (input.closest("fieldset")?.querySelector("legend")?.textContent ?? input.name).trim();
  const label = input.labels?.[0];
  // A toggle's label wraps its checkbox, which comes first: the label's words are all its text.
  if (input.type === "checkbox" && label) return label.textContent.trim() || input.name;
  return (label?.childNodes[0]?.textContent ?? input.name).trim();
}

function short(text) {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** Show `notices` in the demo, in a status region, as text. */
export function showNotices(root, notices) {
  const box = root.querySelector(".share-notices");
  box.replaceChildren(...notices.map((text) => Object.assign(document.createElement("li"), { textContent: text })));
  box.hidden = notices.length === 0;
}

/**
 * Add the share bar to a demo: "Copy link" copies `linkFor(state)`, "Copy embed code" an
 * <iframe> snippet for embed.html. The text is also shown, selected, for when the clipboard
 * is not available (an iframe without clipboard permission). Links carry `cell`'s code when the
 * learner edited it.
 *
 * @param {HTMLElement} root
 * @param {{name: string, title: string, linkFor: (state: URLSearchParams) => string, cell?: LinkedCell}} options
 */
export function shareBar(root, { name, title, linkFor, cell }) {
  const bar = document.createElement("div");
  bar.className = "share";
  const link = Object.assign(document.createElement("button"), { type: "button", textContent: t("Copy link"), className: "share-link" });
  const embed = Object.assign(document.createElement("button"), { type: "button", textContent: t("Copy embed code"), className: "share-embed" });
  const status = Object.assign(document.createElement("span"), { className: "share-status" });
  status.setAttribute("role", "status");
  const text = Object.assign(document.createElement("textarea"), { className: "share-text", readOnly: true, rows: 2, hidden: true });
  text.setAttribute("aria-label", t("Text to copy"));
  const notices = Object.assign(document.createElement("ul"), { className: "share-notices notice", hidden: true });
  notices.setAttribute("role", "status");
  bar.append(link, embed, status, text);
  const heading = root.querySelector("h2");
  if (heading) heading.after(notices);
  else root.prepend(notices);
  root.append(bar);

  /** Copy `value`; `copied` says it was, `by hand` what to copy when the browser would not. */
  async function copy(value, copied, byHand) {
    text.value = value;
    text.hidden = false;
    text.select();
    try {
      await navigator.clipboard.writeText(value);
      status.textContent = copied;
    } catch {
      status.textContent = byHand;
    }
  }

  link.addEventListener("click", () =>
    copy(linkFor(readState(root, cell)), t("Link copied."), t("Copy the link below (the browser did not allow copying).")),
  );
  embed.addEventListener("click", () => {
    const url = embedUrl(name, readState(root, cell));
    const height = root.getBoundingClientRect().height + 80;
    // Translators: the title of an embedded demo's frame on a course's page; {title} is the demo's.
    const frameTitle = t("Positional Encoding Lab: {title}", { title });
    copy(
      embedCode(url, frameTitle, height),
      t("Embed code copied."),
      t("Copy the embed code below (the browser did not allow copying)."),
    );
  });
}

/**
 * The address of embed.html showing demo `name` with `state`: the site's one embed, at its root,
 * in this page's language (see embedAddress).
 */
export function embedUrl(name, state) {
  return embedAddress(name, state.toString(), document.baseURI, pageLanguage());
}

/** The address of the lesson scrolled to demo `name`, with `state`: on its chapter's page. */
export function lessonUrl(name, state) {
  const url = new URL(pageOf(name), document.baseURI);
  url.hash = new URLSearchParams([["demo", name], ...state]).toString();
  return url.href;
}
