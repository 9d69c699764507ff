/**
 * Each live demo's first result, computed at build time by the same pelab entry point
 * (tools/first_results.py) and served as py/first-results/NAME.json, which a chapter page
 * preloads. liveRender shows it while the learner's Python is still starting, when the demo asks
 * for exactly that request: so every figure is there at first paint, and goes live once Python
 * is ready. Any other request waits for Python.
 */

/** @typedef {{entry: string, kwargs: Record<string, unknown>, result: Record<string, unknown>}} Shipped */

/**
 * The live demos whose first figure is a picture in the page instead (tools/first_results.py's
 * PICTURED, which the build checks against this list): they have no file to read.
 */
export const PICTURED = Object.freeze(["heatmap"]);

/** @type {Map<string, Promise<Shipped | null>>} demo name -> its file, read once */
const files = new Map();

/** The address of demo `name`'s first result. */
export const firstResultUrl = (name) => new URL(`../../py/first-results/${name}.json`, import.meta.url).href;

/**
 * Start reading the first results of the demos `names` (a page does it as soon as it knows
 * them). A file that is missing or unreadable counts as none: the demo waits for Python.
 *
 * @param {string[]} names
 */
export function loadFirstResults(names) {
  for (const name of names) {
    if (files.has(name) || PICTURED.includes(name)) continue;
    const file = fetch(firstResultUrl(name))
      .then((response) => (response.ok ? response.json() : null))
      .catch(() => null);
    files.set(name, file);
  }
}

const NOT_FINITE = { nan: NaN, inf: Infinity, "-inf": -Infinity };

/**
 * One value of a result as the worker would hand it over (see tools/jobs/first_results.py):
 * arrays as typed arrays, a float that is not finite as that float, null as undefined.
 */
function decoded(value) {
  if (value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value)) return value;
  if ("uint8" in value) return Uint8Array.from(value.uint8);
  if ("float64" in value) return Float64Array.from(value.float64, (item) => (typeof item === "string" ? NOT_FINITE[item] : item));
  if ("float" in value) return NOT_FINITE[value.float];
  return value;
}

/** True if the two plain values (numbers, strings, booleans, null, arrays of them) are the same. */
function same(a, b) {
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, k) => same(item, b[k]));
  }
  return a === b;
}

/**
 * Demo `name`'s first result if it is the answer to `entry` called with `args` (the keyword
 * arguments in Python's spelling), else null. Resolves with a fresh copy each time.
 *
 * @param {string} name
 * @param {string} entry
 * @param {Record<string, unknown>} args
 * @returns {Promise<Record<string, unknown> | null>}
 */
export async function firstResult(name, entry, args) {
  loadFirstResults([name]);
  const shipped = await (files.get(name) ?? null);
  if (!shipped || shipped.entry !== entry) return null;
  const keys = Object.keys(args);
  const asked = keys.length === Object.keys(shipped.kwargs).length && keys.every((key) => key in shipped.kwargs && same(args[key], shipped.kwargs[key]));
  if (!asked) return null;
  return Object.fromEntries(Object.entries(shipped.result).map(([key, value]) => [key, decoded(value)]));
}
