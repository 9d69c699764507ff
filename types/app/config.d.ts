// The types of dist/app/config.js, which tools/site.py writes at build time (there is no
// app/config.js in the sources): jsconfig.json's rootDirs finds this file for the worker's
// `import ... from "../../config.js"`. Keep it in step with site.py's list.
export const PYODIDE_VERSION: string;
export const PYODIDE_INDEX_URL: string;
export const PELAB_WHEEL_URL: string;
export const FONT_CACHE_URL: string;
export const BYTECODE_URL: string;
export const FIRST_PACKAGES: string[];
export const PREFETCH_WHEELS: { file: string; integrity: string }[];
export const BUILD_ID: string;
