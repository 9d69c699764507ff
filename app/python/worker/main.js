/**
 * The learner's Python worker, its entry (the script start-python.js starts): it starts the
 * first screen's downloads (prefetch.js), then loads the rest of the worker (learner.js) and
 * hands it every message from the page, in order, those that came meanwhile included.
 *
 * Why a separate entry: a module runs only once every module it imports, however deep, has
 * arrived, and on a real network each level of imports is a round trip, queued behind the page's
 * own modules. The worker's full import tree was three levels deep, and the downloads started
 * only when all of it had come (0.8 s after navigation on the network profile of
 * docs/performance.md). This entry's tree is two levels: config.js is imported here, beside
 * prefetch.js, only so that it is requested at the same time as prefetch.js, not after it.
 */
import "../../config.js";
import { prefetch } from "./prefetch.js";

prefetch();
const early = []; // messages that came before learner.js was ready to take them
const keep = ({ data }) => early.push(data);
self.addEventListener("message", keep);
const { receive } = await import("./learner.js");
self.removeEventListener("message", keep);
early.forEach(receive);
self.addEventListener("message", ({ data }) => receive(data));
