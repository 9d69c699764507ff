/**
 * The service worker: after one visit the whole lesson (Pyodide, its wheels, pelab, the pages)
 * is served from a cache, so it works with the network off and starts without a round trip.
 *
 * build.py writes it to the site's root (a service worker only controls pages at or below its
 * own folder), after two lines it generates:
 *   const BUILD_ID = "...";   changes whenever any built file changes
 *   const FILES = [...];      every file of the build, relative to the site root
 * A new build is a new script, so the browser installs it, it fills a new cache and deletes the
 * old one: a visit never mixes two builds' files. A classic script, not a module, so that every
 * browser with service workers runs it.
 */
/* global BUILD_ID, FILES */
const CACHE = `pelab-${BUILD_ID}`;
/** This script's global scope, as the service worker it is (for tsc: see jsconfig.worker.json). */
const worker = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));
const ROOT = new URL("./", worker.location.href).href;

worker.addEventListener("install", (event) => {
  // no-cache: revalidate with the server, so an older copy in the HTTP cache never slips in
  const requests = FILES.map((file) => new Request(new URL(file, ROOT), { cache: "no-cache" }));
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(requests))
      .then(() => worker.skipWaiting()),
  );
});

worker.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key.startsWith("pelab-") && key !== CACHE).map((key) => caches.delete(key))))
      .then(() => worker.clients.claim()),
  );
});

worker.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET" || !request.url.startsWith(ROOT)) return; // the network as usual
  // A page's query (embed.html?demo=heatmap) picks what it shows, not which file it is.
  const ignoreSearch = request.mode === "navigate";
  event.respondWith(
    caches
      .open(CACHE)
      .then((cache) => cache.match(request, { ignoreSearch }))
      .then((cached) => cached ?? fetch(request)),
  );
});
