/** Named sliders bound to a params object. */
import { slider } from "./slider.js";

/**
 * Bind sliders `{key: "input name"}` inside `root`; returns the params object, kept current,
 * and calls `onInput(params)` whenever one moves. Each slider reads its own scale (slider.js).
 */
export function bindSliders(root, names, onInput) {
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
