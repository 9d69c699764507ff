/** Named sliders bound to a params object. */
import { slider } from "./slider.js";

/**
 * Bind sliders `{key: "input name"}` inside `root`; returns the params object, kept current,
 * and calls `onInput(params)` whenever one moves. Each slider reads its own scale (slider.js).
 *
 * @template {Record<string, string>} Names
 * @param {ParentNode} root
 * @param {Names} names
 * @param {(params: {[Key in keyof Names]: any}) => void} onInput
 * @returns {{[Key in keyof Names]: any}}
 */
export function bindSliders(root, names, onInput) {
  /** @type {any} */
  const params = {};
  for (const [key, name] of Object.entries(names)) {
    const control = slider(root.querySelector(`[name="${name}"]`), {
      onInput: (value) => {
        params[key] = value;
        onInput(params);
      },
    });
    params[key] = control.value;
  }
  return params;
}

/**
 * The params bindSliders gives for `names` when the sliders stand at `values` ({"input name":
 * value}, each as its slider reads it): a demo's settings from plain data, without a page, such
 * as its first settings for the code its cell shows at first paint (the demos' firstCode).
 *
 * @template {Record<string, string>} Names
 * @param {Names} names
 * @param {Record<string, unknown>} values
 * @returns {{[Key in keyof Names]: any}}
 */
export function paramsFrom(names, values) {
  return /** @type {any} */ (Object.fromEntries(Object.entries(names).map(([key, name]) => [key, values[name]])));
}
