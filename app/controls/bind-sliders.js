/** Named sliders bound to a params object, and the log scale of the base sliders. */
import { formatNumber, roundSignificant } from "../figures/format.js";
import { slider } from "./slider.js";

/** A slider over log10(base): 4 is 10000; the base is rounded to 3 significant figures. */
export const LOG_BASE = { toValue: (exponent) => roundSignificant(10 ** exponent), format: formatNumber };

/**
 * Bind sliders `{key: "input name" | ["input name", options]}` inside `root`; returns the params
 * object, kept current, and calls `onInput(params)` whenever one moves.
 */
export function bindSliders(root, specs, onInput) {
  const params = {};
  for (const [key, spec] of Object.entries(specs)) {
    const [name, options] = Array.isArray(spec) ? spec : [spec, {}];
    const control = slider(root.querySelector(`[name="${name}"]`), {
      ...options,
      onInput: (value) => {
        params[key] = value;
        onInput(params);
      },
    });
    params[key] = control.value;
  }
  return params;
}
