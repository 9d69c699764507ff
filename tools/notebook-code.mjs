// The code each demo's cell shows at first paint, for the lesson's notebook: computed by the demo's
// own module (app/demos/NAME.js's firstCode, which calls the pythonCode the page calls), under
// Node and without a page, so that the notebook and the page cannot drift apart.
//
//   node tools/notebook-code.mjs < CONTROLS > CODE
//
// CONTROLS  on stdin, a JSON object {"NAME": controls, ...}: each demo's named controls at their
//           first values, as tools/first_results.py's controls() reads its section: {name: value},
//           sliders as numbers, checkboxes as booleans, a radio group as its checked value
// CODE      on stdout, a JSON object {"NAME": code, ...}, in the same order: the string
//           firstCode(controls) returns (the cell shows it trimmed, with one newline at its end)
//
// PELAB_MESSAGES  in the environment, a JSON file of translations (app/i18n.js's catalog): the
//                 code's comments in that language; the code itself is the same
//
// A demo without a module, or whose module exports no firstCode, fails the run, naming the demo.
import { readFileSync } from "node:fs";

/** A demo's public name: the id of its section and the name of its module (no path in it). */
const DEMO_NAME = /^[a-z][a-z0-9-]*$/;

/** The module of demo `name`, app/demos/NAME.js, beside this script's folder. */
const moduleOf = (name) => new URL(`../app/demos/${name}.js`, import.meta.url).href;

/** @param {string} name @param {Record<string, unknown>} controls */
async function firstCodeOf(name, controls) {
  if (!DEMO_NAME.test(name)) throw new Error(`${JSON.stringify(name)} is not a demo's name`);
  let module;
  try {
    module = await import(moduleOf(name));
  } catch (error) {
    throw new Error(`demo ${name}: app/demos/${name}.js did not import (${error.message})`);
  }
  if (typeof module.firstCode !== "function") {
    throw new Error(`demo ${name}: app/demos/${name}.js exports no firstCode(controls), the code its cell shows at first paint`);
  }
  let code;
  try {
    code = module.firstCode(controls);
  } catch (error) {
    throw new Error(`demo ${name}: firstCode(${JSON.stringify(controls)}) failed: ${error.message}`);
  }
  if (typeof code !== "string") throw new Error(`demo ${name}: firstCode returned ${typeof code}, not the code as a string`);
  return code;
}

try {
  if (process.env.PELAB_MESSAGES) {
    const { useMessages } = await import("../app/i18n.js");
    useMessages(JSON.parse(readFileSync(process.env.PELAB_MESSAGES, "utf8")));
  }
  const asked = JSON.parse(readFileSync(0, "utf8"));
  if (asked === null || typeof asked !== "object" || Array.isArray(asked)) {
    throw new Error('stdin must be a JSON object {"NAME": controls, ...}');
  }
  const codes = {};
  for (const [name, controls] of Object.entries(asked)) codes[name] = await firstCodeOf(name, controls);
  process.stdout.write(JSON.stringify(codes));
} catch (error) {
  process.stderr.write(`notebook-code: ${error.message}\n`);
  process.exitCode = 1;
}
