/**
 * A clock dial: one sine-cosine pair drawn as a hand at its angle, 0 at the top, turning
 * clockwise. The waves demo shows a dial per pair at the chosen position; the stretching demo
 * shows the same dials with the part of the face a pair swept in training, so both sections draw
 * one picture of a pair. The caption is the dial's text; the drawing is hidden from screen readers.
 */
import { svg } from "./svg.js";

const R = 34;

/** The point at `angle` (radians, clockwise from the top) on a circle of radius `r`. */
function at(angle, r) {
  return [(Math.sin(angle) * r).toFixed(2), (-Math.cos(angle) * r).toFixed(2)];
}

/**
 * A <figure class="dial"> with its hand at `angle` (class `handClass`) and `caption` as text.
 * `sweep`, if given, shades the face from 0 to that angle (a full disc from 2π up), class
 * `sweepClass`; `data` goes into the figure's dataset.
 */
export function clockDial({ angle, handClass, caption, sweep = null, sweepClass = "dial-sweep", data = {} }) {
  const figure = document.createElement("figure");
  figure.className = "dial";
  Object.assign(figure.dataset, data);
  const parts = [svg("circle", { r: R, class: "dial-face" })];
  if (sweep !== null && sweep > 0) {
    const r = R - 1;
    if (sweep >= 2 * Math.PI) parts.push(svg("circle", { r, class: sweepClass }));
    else {
      const [x, y] = at(sweep, r);
      const large = sweep > Math.PI ? 1 : 0;
      parts.push(svg("path", { d: `M0,0 L0,${-r} A${r},${r} 0 ${large} 1 ${x},${y} Z`, class: sweepClass }));
    }
  }
  const [x2, y2] = at(angle, R - 5);
  parts.push(
    svg("line", { x1: 0, y1: -R, x2: 0, y2: -R + 6, class: "dial-tick" }),
    svg("line", { x1: 0, y1: 0, x2, y2, class: `dial-hand ${handClass}` }),
    svg("circle", { r: 3, class: "dial-hub" }),
  );
  figure.append(svg("svg", { viewBox: "-42 -42 84 84", "aria-hidden": "true" }, parts));
  const text = document.createElement("figcaption");
  text.textContent = caption;
  figure.append(text);
  return figure;
}
