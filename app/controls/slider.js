/**
 * A labelled native range slider with its live value in the <output for=id> beside it.
 * Previews on `input` (every step while dragging) and commits on `change` (on release).
 *
 * A slider's scale is written once, in the HTML: `data-scale="log10"` makes its position the
 * exponent (position 4 stands for 10000). Everything that reads a slider, the demos, shared
 * links and the teachers' guide, goes through valueAt and positionFor here.
 */
import { formatNumber, roundSignificant } from "../figures/format.js";

/** True for a slider whose position is the base-10 exponent of its value. */
export function isLogScale(input) {
  return input.dataset.scale === "log10";
}

/**
 * The value a slider position stands for. On a log scale it is rounded to 3 significant figures,
 * so that the value shown is the value computed (10^4.05 is shown and used as 11200).
 */
export function valueAt(input, position = Number(input.value)) {
  return isLogScale(input) ? roundSignificant(10 ** position) : position;
}

/** The slider position of a value: the inverse of valueAt, before rounding. */
export function positionFor(input, value) {
  return isLogScale(input) ? Math.log10(value) : value;
}

/** The text a slider position is shown as. */
export function valueText(input, position = Number(input.value)) {
  return formatNumber(valueAt(input, position));
}

/**
 * Show `input`'s value in its <output> and aria-valuetext, and report each move as the value it
 * stands for.
 *
 * @param {HTMLInputElement} input
 * @param {{onInput?: (value: number) => void, onChange?: (value: number) => void}} [on]
 */
export function slider(input, { onInput, onChange } = {}) {
  const output = input.ownerDocument.querySelector(`output[for="${input.id}"]`);
  const read = () => valueAt(input);

  function show() {
    const text = valueText(input);
    // The page is served with each value in place: the same text again would relayout the page.
    if (output && output.textContent !== text) output.textContent = text;
    input.setAttribute("aria-valuetext", text);
  }

  input.addEventListener("input", () => {
    show();
    onInput?.(read());
  });
  input.addEventListener("change", () => {
    show();
    onChange?.(read());
  });
  show();

  return {
    get value() {
      return read();
    },
  };
}
