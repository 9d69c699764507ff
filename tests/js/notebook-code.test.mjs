// The code each demo's cell shows, as pure functions under Node: every demo that offers its Python
// exports pythonCode(settings) and firstCode(controls), tools/notebook-code.mjs hands the lesson's
// notebook what firstCode gives, and the heatmap's code is the lines its cell shows.
// tests/browser/test_notebook_code.py holds firstCode to what each page shows at first paint.
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";

import { plainWords } from "../../app/demos/plain-words.js";
import { NOT_LIVE } from "../../app/demos/registry.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const DEMOS = resolve(ROOT, "app/demos");

/** The demos that offer their Python: the modules of app/demos/ that import show-python.js. */
const OFFERING = readdirSync(DEMOS)
  .filter((file) => file.endsWith(".js") && file !== "show-python.js")
  .filter((file) => /from "\.\/show-python\.js"/.test(readFileSync(resolve(DEMOS, file), "utf8")))
  .map((file) => file.slice(0, -".js".length))
  .sort();

const demo = (name) => import(pathToFileURL(resolve(DEMOS, `${name}.js`)).href);

/** Each demo's controls at their first values, read by the build's own reader (tools/first_results.py). */
const READ_CONTROLS = `
import json, sys
from tools.first_results import controls
from tools.lesson import read_section
print(json.dumps({name: controls(read_section(name, 0).source_html) for name in sys.argv[1:]}))
`;
const python = process.env.PYTHON ?? "python3";
const FIRST = JSON.parse(execFileSync(python, ["-c", READ_CONTROLS, ...OFFERING], { cwd: ROOT, encoding: "utf8" }));

/** tools/notebook-code.mjs run on `input` (a string): {status, stdout, stderr}. */
const notebookCode = (input) =>
  spawnSync(process.execPath, ["tools/notebook-code.mjs"], { cwd: ROOT, input, encoding: "utf8" });

test("the demos that offer their Python are the lesson's live demos", () => {
  // the lesson's demo sections (the build's own reader), but those registry.js says are not live
  const sections = JSON.parse(
    execFileSync(python, ["-c", "import json; from tools.lesson import demo_sections; print(json.dumps(demo_sections()))"], {
      cwd: ROOT,
      encoding: "utf8",
    }),
  );
  const live = sections.filter((name) => !NOT_LIVE.includes(name));
  assert.ok(live.length > 0);
  assert.deepEqual(OFFERING, live.sort());
});

test("each demo's first code is a string naming pelab, and pure: the same controls give the same code", async () => {
  for (const name of OFFERING) {
    const module = await demo(name);
    assert.equal(typeof module.pythonCode, "function", `${name}.js exports no pythonCode`);
    assert.equal(typeof module.firstCode, "function", `${name}.js exports no firstCode`);
    const controls = structuredClone(FIRST[name]);
    const code = module.firstCode(controls);
    assert.equal(typeof code, "string", name);
    assert.match(code, /^import /, name);
    assert.match(code, /\bpelab\./, name);
    assert.deepEqual(controls, FIRST[name], `${name}: firstCode changed the controls it was given`);
    assert.equal(module.firstCode(structuredClone(FIRST[name])), code, `${name}: a second call gave other code`);
  }
});

test("tools/notebook-code.mjs prints each demo's firstCode, in the order asked", async () => {
  const asked = Object.fromEntries([...OFFERING].reverse().map((name) => [name, FIRST[name]]));
  const run = notebookCode(JSON.stringify(asked));
  assert.equal(run.status, 0, run.stderr);
  const codes = JSON.parse(run.stdout);
  assert.deepEqual(Object.keys(codes), Object.keys(asked));
  for (const name of OFFERING) assert.equal(codes[name], (await demo(name)).firstCode(FIRST[name]), name);
});

test("tools/notebook-code.mjs names the demo it cannot serve", () => {
  const withoutFirstCode = notebookCode(JSON.stringify({ formula: FIRST.formula, quiz: {} }));
  assert.equal(withoutFirstCode.status, 1);
  assert.equal(withoutFirstCode.stdout, "");
  assert.match(withoutFirstCode.stderr, /demo quiz: app\/demos\/quiz\.js exports no firstCode/);
  const missing = notebookCode(JSON.stringify({ nowhere: {} }));
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /demo nowhere: app\/demos\/nowhere\.js did not import/);
  const failing = notebookCode(JSON.stringify({ added: { word: "dog,", pos: 1 } }));
  assert.equal(failing.status, 1);
  assert.match(failing.stderr, /demo added: firstCode\(.*\) failed: "dog," is not plain words/);
  for (const input of ["[]", "null", "{", '{"../heatmap": {}}']) {
    const run = notebookCode(input);
    assert.equal(run.status, 1, input);
    assert.match(run.stderr, /^notebook-code: /, input);
  }
});

test("the heatmap's pythonCode is the lines its cell shows", async () => {
  const { pythonCode, firstCode } = await demo("heatmap");
  assert.equal(
    pythonCode({ seqLen: 64, dModel: 128, base: 10000, concatenated: false, row: 3 }),
    [
      "import pelab",
      "",
      "pe = pelab.sinusoidal(seq_len=64, d_model=128, base=10000)   # (64, 128)",
      'pelab.show(pe, title="sinusoidal PE, base 10000")   # drawn like the demo above',
      "pe[3].round(3)   # the outlined row: that position's fingerprint",
    ].join("\n"),
  );
  const concatenated = pythonCode({ seqLen: 5, dModel: 6, base: 11200, concatenated: true, row: 4 }).split("\n");
  assert.deepEqual(concatenated.slice(2), [
    "pe = pelab.sinusoidal(seq_len=5, d_model=6, base=11200)   # (5, 6)",
    "pe = pe[:, pelab.layout_permutation(6)]   # sines first, then cosines: the same numbers, other columns",
    'pelab.show(pe, title="sinusoidal PE, base 11200")   # drawn like the demo above',
    "pe[4].round(3)   # the outlined row: that position's fingerprint",
  ]);
  // A base that is not a whole number is written to 6 significant figures, as the page shows it.
  assert.match(pythonCode({ seqLen: 1, dModel: 2, base: 12345.678, concatenated: false, row: 0 }), /base=12345\.7\)/);
  // The first code outlines the row of the position a page opens on, or the last row above it.
  const first = { d_model: 128, seq_len: 64, base: 10000, concatenated: false };
  assert.match(firstCode(first), /^pe\[3\]\.round\(3\)/m);
  assert.match(firstCode({ ...first, seq_len: 2 }), /^pe\[1\]\.round\(3\)/m);
});

test("plainWords splits plain words as pelab.tokenize does, and refuses any other text", () => {
  assert.deepEqual(plainWords("dog"), ["dog"]);
  assert.deepEqual(plainWords("  Dog  bites man "), ["Dog", "bites", "man"]);
  assert.deepEqual(plainWords("été 2024 Straße"), ["été", "2024", "Straße"]);
  for (const text of ["", " ", "dog,", "don't", "dog\tbites", "dog\u00a0bites", "🐶", "a-b", "狗咬人", "犬 が"]) {
    assert.throws(() => plainWords(text), /only pelab\.tokenize can split it/, JSON.stringify(text));
  }
  assert.equal(plainWords(Array(24).fill("w").join(" ")).length, 24);
  assert.throws(() => plainWords(Array(25).fill("w").join(" ")), /has 25 words: pelab\.tokenize keeps 24/);
});
