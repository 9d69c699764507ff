// What the page's globals hold beyond lib.dom, for tsc (jsconfig.json).

/** A worker made by the factory of app/python/start-python.js. */
interface StartedPython {
  worker: Worker;
  /** Shared with the worker for Stop (SIGINT), where the page is cross-origin isolated. */
  interrupt: Int32Array | null;
  /** What the worker said before its owner listened, in order; kept no longer. */
  release(): (MessageEvent | ErrorEvent)[];
  end(): void;
}

/** app/python/start-python.js's worker factory, a classic script every page with Python loads first. */
interface PelabPython {
  start(entry: "python" | "snapshot"): StartedPython;
  /** The learner's Python started while the page was parsed, once; then (or without it) null. */
  adopt(): StartedPython | null;
}

declare var pelabPython: PelabPython | undefined;

/** static/embed-host.js's API, on a host page that includes it (embedding.html does). */
declare var PelabEmbed: { setTheme(theme: string): void } | undefined;
