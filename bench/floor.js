// The benchmark's floor: what Pyodide itself costs on this bundle and server, with nothing of
// the lesson. Marks "floor:numpy-imported" when the worker reports numpy imported.
const worker = new Worker(new URL("./floor-worker.js", import.meta.url), { type: "module" });
worker.addEventListener("message", () => performance.mark("floor:numpy-imported"));
