/**
 * A value several demos look at, such as the position the learner is studying: the waves'
 * dial sets it and the heatmap highlights that position's row, and the other way round.
 */
export function sharedValue(initial) {
  const target = new EventTarget();
  let current = initial;
  return {
    get value() {
      return current;
    },
    set(value) {
      if (value === current) return;
      current = value;
      target.dispatchEvent(new CustomEvent("change", { detail: value }));
    },
    subscribe(listener) {
      target.addEventListener("change", (event) => listener(/** @type {CustomEvent} */ (event).detail));
    },
  };
}
