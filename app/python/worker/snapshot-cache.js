/**
 * Where this build's memory snapshot of a fresh Python is kept: written by the snapshot maker
 * (snapshot.js), read by the learner's Python as it boots (boot.js).
 */
import { BUILD_ID } from "../../config.js";

/** Its key in the cache: one per build, beside the build's own files. */
export const SNAPSHOT_URL = new URL(`../../../py/python-snapshot-${BUILD_ID}.bin`, import.meta.url).href;

/**
 * Snapshots live in the service worker's cache of this build, so a newer build drops them; never
 * create that cache here (without the service worker nothing would ever delete it).
 */
export async function snapshotCache() {
  const name = `pelab-${BUILD_ID}`;
  try {
    return (await globalThis.caches?.has(name)) ? await caches.open(name) : null;
  } catch {
    return null; // storage blocked
  }
}
