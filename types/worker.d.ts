// What the workers' globals hold beyond lib.webworker, for tsc (jsconfig.worker.json).

// The two lines tools/site.py writes above app/offline/service-worker.js in dist/.
declare const BUILD_ID: string;
declare const FILES: string[];
