/**
 * A value several demos look at, such as the position the learner is studying: the waves'
 * dial sets it and the heatmap highlights that position's row, and the other way round.
 */

/**
 * The position a page opens on (lesson.js, embed.js): the heatmap outlines its row from the
 * start, and the waves' pos slider starts there too (lesson/waves.html), so a chapter page holding
 * both opens on one position.
 */
export const FIRST_POSITION = 3;
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
