/**
 * Every demo of the lesson by its public name: the names used by embed.html?demo=NAME and in
 * shared links, and the id of its <section> in index.html, whose <h2> is its title (titleOf).
 * `create` wires it.
 */
import { addedDemo } from "./added.js";
import { learnedDemo } from "./learned.js";
import { extrapolationDemo } from "./extrapolation.js";
import { formulaDemo } from "./formula.js";
import { heatmapDemo } from "./heatmap.js";
import { attentionDemo } from "./attention.js";
import { quiz } from "./quiz.js";
import { relativeDemo } from "./relative.js";
import { similarityDemo } from "./similarity.js";
import { wavesDemo } from "./waves.js";

const done = { firstRender: Promise.resolve() };

export const DEMOS = Object.freeze({
  attention: { create: attentionDemo },
  formula: { create: formulaDemo },
  waves: { create: (root, python, { position }) => wavesDemo(root, python, position) },
  heatmap: { create: (root, python, { position }) => heatmapDemo(root, python, position) },
  added: { create: addedDemo },
  relative: { create: relativeDemo },
  similarity: { create: similarityDemo },
  learned: { create: learnedDemo },
  extrapolation: { create: extrapolationDemo },
  quiz: { create: (root) => (quiz(root.querySelector("form")), done) },
  cell: { create: () => done },
});

/** A demo's title: its section's <h2>, without the step number. */
export function titleOf(section) {
  const heading = section.querySelector("h2").cloneNode(true);
  heading.querySelector(".step")?.remove();
  return heading.textContent.trim();
}
