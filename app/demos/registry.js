/**
 * Every demo of the lesson by its public name: the name in embed.html?demo=NAME and in shared
 * links, the id of its <section> in lesson/NAME.html, and its module here (NAME.js).
 *
 * The demo contract. A demo module exports one factory, `NAMEDemo(root, python, context)`:
 * - `root` is its <section id=NAME>; its <h2> is its title (titleOf). A live demo's section holds
 *   its named inputs (which shared links and embeds set), a `.problem` line, and its Python as a
 *   code cell; tests/browser/test_lesson.py checks that every live demo's section has them.
 * - `python` is the bridge (app/python/bridge.js); `context.position` is the position the waves
 *   and the heatmap share.
 * - It returns `{firstRender}`, a promise settled once its first result is shown or has failed.
 * - A demo that offers its Python (show-python.js) also exports `pythonCode(settings)`, the code
 *   for its settings as plain data, which the page calls with its live settings, and
 *   `firstCode(controls)`, the code its cell shows at first paint, for its section's controls at
 *   their first values: tools/notebook-code.mjs calls it under Node for the lesson's notebook.
 * A live demo renders through liveRender (live-render.js), which gives it: the latest value wins,
 * a note while a code cell keeps Python busy, failures in its `.problem`, the first results drawn
 * a frame apart, and `data-live` on its section ("shown" or "failed") for tests and embeds.
 */
/**
 * @typedef {(root: HTMLElement, python: any, context: any) => {firstRender: Promise<unknown>}} DemoFactory
 */
import { DEMOS } from "./demos.js";

// Every demo by name, in the lesson's order: one per section of class "demo" in lesson/, whose
// module is ./NAME.js exporting NAMEDemo. build.py writes their imports and this table into
// ./demos.js from the lesson's sources (tools/wiring.py), so a new demo adds no line by hand.
export { DEMOS };

/**
 * The demos that need no Python at all: an embed of one starts none, and downloads none of it.
 * embed.html lists them too, on its start-python.js tag (which cannot import this module);
 * tests/browser/test_embed.py checks that the two lists agree.
 */
export const WITHOUT_PYTHON = Object.freeze(["quiz"]);

/**
 * The demos that pelab does not compute live: those without Python, and the free code cell, whose
 * Python is the learner's. Every other demo is live: it renders through liveRender, has its
 * entry points in py/pelab/browser/demos/NAME.py and its first request in its section. The one
 * place this is said: tools/demo_lists.py reads it for the build and the tests.
 */
export const NOT_LIVE = Object.freeze([...WITHOUT_PYTHON, "cell"]);

/** The demos computed live by Python through liveRender, in the lesson's order. */
export const LIVE_DEMOS = Object.freeze(Object.keys(DEMOS).filter((name) => !NOT_LIVE.includes(name)));

/** A demo's title: its section's <h2>, without the step number. */
export function titleOf(section) {
  const heading = section.querySelector("h2").cloneNode(true);
  heading.querySelector(".step")?.remove();
  return heading.textContent.trim();
}
