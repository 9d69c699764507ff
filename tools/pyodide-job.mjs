// One build-time job in Pyodide under Node, booted the way the browser's worker boots it.
//
//   node tools/pyodide-job.mjs INDEX JOB ARGUMENTS [WHEEL]
//
// INDEX     a folder with Pyodide's runtime files and the wheels the job may load
// JOB       a Python file that defines main(**arguments) returning bytes (tools/jobs/)
// ARGUMENTS a JSON object, passed to main as keyword arguments
// WHEEL     optional: a wheel to unpack into site-packages first, where the worker puts pelab
//
// numpy is loaded first, then the wheel installed, then whatever else the job imports from the
// lock (matplotlib, say). main's bytes go to stdout; anything Python prints goes to stderr.
// A fixed hash seed makes set order, and so the output, the same on every run: without it
// matplotlib's font cache lists its fonts in a new order each time.
import { readFileSync } from "node:fs";
import { loadPyodide } from "pyodide";

const [index, job, argumentsJson, wheel] = process.argv.slice(2);
// Run in the job's namespace, after its source: main's keyword arguments are the JSON object's.
const CALL_MAIN = `
import json as _json
_output = main(**_json.loads(arguments_json))
assert isinstance(_output, bytes), f"main() returned {type(_output).__name__}, not bytes"
_output
`;
try {
  const quiet = { messageCallback: () => {} };
  const pyodide = await loadPyodide({
    indexURL: index,
    env: { PYTHONHASHSEED: "0" },
    stdout: (line) => process.stderr.write(line + "\n"),
  });
  await pyodide.loadPackage("numpy", quiet);
  if (wheel) {
    const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
    pyodide.unpackArchive(new Uint8Array(readFileSync(wheel)), "wheel", { extractDir: sitePackages });
  }
  const source = readFileSync(job, "utf8");
  await pyodide.loadPackagesFromImports(source, quiet);
  const namespace = pyodide.toPy({ __name__: "job", __file__: job, arguments_json: argumentsJson });
  pyodide.runPython(source, { globals: namespace, filename: job });
  const output = pyodide.runPython(CALL_MAIN, { globals: namespace });
  process.stdout.write(output.toJs());
  output.destroy();
  namespace.destroy();
} catch (error) {
  // A Python exception's message is its traceback: print that, not Node's dump of the bundle.
  process.stderr.write(`${error.message ?? error}\n`);
  process.exitCode = 1;
}
