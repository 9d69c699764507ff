// app/page-protocol.js is the one owner of the host messages and the performance marks: the
// files that cannot import it (static/embed-host.js, a classic script; app/lms/relay.js, which
// the thin SCORM package ships alone) spell out equal names, bench/ reads it through
// tools/page_protocol.py, and no other file spells the names at all.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { HOST_MESSAGE, MARK, QUIZ_EVENT } from "../../app/page-protocol.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const read = (path) => readFileSync(join(ROOT, path), "utf8");

test("the names are distinct and namespaced", () => {
  const names = [...Object.values(HOST_MESSAGE), ...Object.values(MARK)];
  assert.equal(new Set(names).size, names.length);
  for (const name of names) assert.match(name, /^pelab:[a-z-]+$/);
  assert.equal(QUIZ_EVENT, HOST_MESSAGE.QUIZ);
});

test("static/embed-host.js spells the host messages as the module does", () => {
  const source = read("static/embed-host.js");
  const block = source.match(/var MESSAGE = (\{[^}]*\});/);
  assert.ok(block, "embed-host.js has no `var MESSAGE = {...};`");
  const spelt = Function(`return (${block[1]});`)();
  for (const [key, value] of Object.entries(spelt)) assert.equal(value, HOST_MESSAGE[key], key);
  // and its code uses no other spelling of them (its comments may)
  const code = source.replace(block[0], "").replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");
  assert.equal(code.match(/"pelab:[a-z-]+"/g), null);
});

test("app/lms/relay.js spells the quiz message as the module does", () => {
  const spelt = read("app/lms/relay.js").match(/^const QUIZ_MESSAGE = "([^"]+)";$/m);
  assert.ok(spelt, "relay.js has no QUIZ_MESSAGE line");
  assert.equal(spelt[1], HOST_MESSAGE.QUIZ);
});

test("bench/ reads what the module exports (tools/page_protocol.py)", () => {
  const python = process.env.PYTHON ?? "python3";
  const read = JSON.parse(execFileSync(python, ["tools/page_protocol.py"], { cwd: ROOT, encoding: "utf8" }));
  assert.deepEqual(read, { HOST_MESSAGE: { ...HOST_MESSAGE }, MARK: { ...MARK } });
});

function files(folder, ext) {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return files(path, ext);
    return ext.some((e) => path.endsWith(e)) ? [path] : [];
  });
}

test("no other code spells a host message or a mark", () => {
  const names = [...Object.values(HOST_MESSAGE), ...Object.values(MARK)];
  const owners = new Set(["app/page-protocol.js", "static/embed-host.js", "app/lms/relay.js"]);
  const strays = [];
  for (const folder of ["app", "static", "bench"]) {
    for (const file of files(join(ROOT, folder), [".js", ".py"])) {
      const path = relative(ROOT, file);
      if (owners.has(path)) continue;
      // comments may name them; code may not
      const code = readFileSync(file, "utf8")
        .replace(/\/\*[\s\S]*?\*\//g, "")
        .replace(/(^|\s)(\/\/|#).*$/gm, "")
        .replace(/"""[\s\S]*?"""/g, "");
      for (const name of names) {
        if (code.includes(`"${name}`) || code.includes(`'${name}`) || code.includes(`\`${name}`)) strays.push(`${path}: ${name}`);
      }
    }
  }
  assert.deepEqual(strays, []);
});
