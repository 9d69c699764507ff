// Which folders of app/ may import which: the layers of docs/architecture.md, as a test.
//
// A module may always import from its own folder. Across folders, only these arrows exist; the
// files at app/'s root (config.js, written by build.py, and page-protocol.js) are leaves that
// every folder may import and that import nothing. A folder of app/ missing here fails the test,
// so a new one is given its place on purpose.
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const APP = resolve(dirname(fileURLToPath(import.meta.url)), "../../app");
const ROOT = "(app root)";

/** folder -> the folders its modules may import (besides its own and app's root files). */
export const MAY_IMPORT = Object.freeze({
  // one entry module per page: they wire everything together
  pages: ["python", "demos", "cells", "controls", "figures", "lms", "offline", "scheduling", "course", "quiz", "report"],
  // the demos: they are handed the bridge; they draw with figures, read sliders, offer code to cells
  demos: ["python", "cells", "controls", "figures", "scheduling", "quiz"],
  // the checks and tests: questions marked against keys fetched when needed; no Python
  quiz: [],
  // code cells: editors and their output (drawn with figures); they are handed the bridge
  cells: ["figures", "scheduling"],
  // sliders and shared links: a demo's cell is handed to them, never imported
  controls: ["figures", "course"],
  // the course: its outline (which page holds which section), the map, the learner's progress
  course: [],
  // the only code that knows a worker exists; the worker paints results with figures/paint.js
  python: ["figures"],
  // a test in a course: messages, and the test's grading and controller
  lms: ["quiz"],
  // the class report: an LMS's export of a class's answers, parsed and summed up (pure)
  report: [],
  offline: [],
  // drawing: pure functions of numbers and elements; drawing never imports Python
  figures: [],
  // when work runs: the next task, the next frame
  scheduling: [],
});

function modules(folder) {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return modules(path);
    return path.endsWith(".js") ? [path] : [];
  });
}

/** The folder of app/ a path is in, or ROOT for app's own files. */
function folderOf(path) {
  const parts = relative(APP, path).split("/");
  return parts.length === 1 ? ROOT : parts[0];
}

/** The relative specifiers a module imports (static, re-exports and dynamic), comments aside. */
function importsOf(source) {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  const found = [];
  for (const pattern of [/^\s*(?:import|export)\s[^;]*?\sfrom\s+"([^"]+)"/gm, /^\s*import\s+"([^"]+)"/gm, /\bimport\(\s*"([^"]+)"\s*\)/g]) {
    for (const match of code.matchAll(pattern)) found.push(match[1]);
  }
  return found.filter((specifier) => specifier.startsWith("."));
}

/** Every import from one folder of app/ into another: [{from, to, file, target}]. */
function crossings() {
  return modules(APP).flatMap((file) =>
    importsOf(readFileSync(file, "utf8"))
      .map((specifier) => resolve(dirname(file), specifier))
      .filter((target) => folderOf(target) !== folderOf(file))
      .map((target) => ({ from: folderOf(file), to: folderOf(target), file: relative(APP, file), target: relative(APP, target) })),
  );
}

test("every folder of app/ has a rule", () => {
  const folders = readdirSync(APP).filter((name) => statSync(join(APP, name)).isDirectory()).sort();
  assert.deepEqual(folders, Object.keys(MAY_IMPORT).sort());
});

test("the rule is a hierarchy: no two folders may import each other, even through others", () => {
  const reaches = (from, to, seen = new Set()) =>
    MAY_IMPORT[from].some((next) => next === to || (!seen.has(next) && (seen.add(next), reaches(next, to, seen))));
  for (const folder of Object.keys(MAY_IMPORT)) assert.ok(!reaches(folder, folder), `${folder} can reach itself`);
});

test("the importer finds what the modules import", () => {
  // guards the parsing above: these arrows exist today, so a test that finds none is broken
  const arrows = new Set(crossings().map(({ from, to }) => `${from} -> ${to}`));
  for (const arrow of ["pages -> python", "demos -> figures", "python -> figures", "cells -> scheduling"]) {
    assert.ok(arrows.has(arrow), `${arrow} not found`);
  }
});

test("every import across folders follows the rule", () => {
  const broken = crossings().filter(({ from, to }) => to !== ROOT && !(from !== ROOT && MAY_IMPORT[from].includes(to)));
  assert.deepEqual(
    broken.map(({ file, target }) => `${file} imports ${target}`),
    [],
    "an import against the layers; see MAY_IMPORT for where each folder stands",
  );
});

test("app's root files are leaves", () => {
  const fromRoot = crossings().filter(({ from }) => from === ROOT);
  assert.deepEqual(fromRoot.map(({ file, target }) => `${file} imports ${target}`), []);
});
