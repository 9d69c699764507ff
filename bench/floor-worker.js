import { PYODIDE_INDEX_URL } from "../app/config.js";

const { loadPyodide } = await import(`${PYODIDE_INDEX_URL}pyodide.mjs`);
const pyodide = await loadPyodide({ indexURL: PYODIDE_INDEX_URL });
await pyodide.loadPackage("numpy", { messageCallback: () => {} });
pyodide.runPython("import numpy");
self.postMessage("ready");
