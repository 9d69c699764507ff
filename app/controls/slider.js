/**
 * A labelled native range slider with its live value in the <output for=id> beside it.
 * Previews on `input` (every step while dragging) and commits on `change` (on release).
 */
export function slider(input, { toValue = Number, format = String, onInput, onChange } = {}) {
  const output = input.ownerDocument.querySelector(`output[for="${input.id}"]`);
  const read = () => toValue(Number(input.value));

  function show() {
    const text = format(read());
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
