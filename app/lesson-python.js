/**
 * The lesson's Python, started by a <script> of its own ahead of main.js: booting it then does
 * not wait for the page's other modules (CodeMirror, the demos) to load, which took most of a
 * second. main.js imports `python` from here: one module, one worker.
 */
import { PythonBridge } from "./bridge.js";

/** null when preflight.js found that this browser or file:// cannot run the lesson. */
export const python = document.documentElement.dataset.state === "error" ? null : new PythonBridge();
