/**
 * Every demo of the lesson by its public name: the names used by embed.html?demo=NAME and in
 * shared links. `section` is the id of its <section> in index.html; `create` wires it.
 */
import { addedDemo } from "./added.js";
import { compareDemo } from "./compare.js";
import { extrapolationDemo } from "./extrapolation.js";
import { formulaDemo } from "./formula.js";
import { heatmapDemo } from "./heatmap.js";
import { orderBlindDemo } from "./order-blind.js";
import { quiz } from "./quiz.js";
import { relativeDemo } from "./relative.js";
import { similarityDemo } from "./similarity.js";
import { wavesDemo } from "./waves.js";

const done = { firstRender: Promise.resolve() };

export const DEMOS = Object.freeze({
  attention: { section: "order-blind", title: "Attention cannot see order", create: orderBlindDemo },
  formula: { section: "formula", title: "The formula, term by term", create: formulaDemo },
  waves: { section: "waves", title: "A clock with many hands", create: (root, python, { position }) => wavesDemo(root, python, position) },
  heatmap: { section: "heatmap-demo", title: "Every position gets its own fingerprint", create: (root, python, { position }) => heatmapDemo(root, python, position) },
  added: { section: "added", title: "Added, not concatenated", create: addedDemo },
  relative: { section: "relative", title: "k positions later is one matrix", create: relativeDemo },
  similarity: { section: "similarity", title: "How alike are two positions?", create: similarityDemo },
  learned: { section: "learned", title: "Learned, sinusoidal or rotary?", create: compareDemo },
  extrapolation: { section: "extrapolation", title: "Beyond the training length", create: extrapolationDemo },
  quiz: { section: "quiz", title: "Check your understanding", create: (root) => (quiz(root.querySelector("form")), done) },
  cell: { section: "scratch", title: "A Python cell", create: () => done },
});

/** The demo name of a section id, or undefined. */
export function demoOfSection(id) {
  return Object.keys(DEMOS).find((name) => DEMOS[name].section === id);
}
