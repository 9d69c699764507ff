/**
 * A SCORM package's launch page (launch.html, written by tools/scorm.py): the SCO an LMS
 * launches, and the one page of the package that stays loaded while the learner reads it. It
 * starts the session with the LMS at launch (LMSInitialize), opens the lesson page it names in
 * `data-page` (with `data-query`) in the frame it holds, offers that page and every page after it
 * a session of its own (app/lms/package-session.js: `window.API`, which a page finds first on
 * its way up window.parent), and ends the LMS's session once, when the LMS unloads it (LMSCommit,
 * then LMSFinish, on pagehide). A walk from page to page inside the package loses nothing.
 *
 * Some LMSes drop the manifest's launch `parameters`; the pages need them (`lms=scorm12` tells a
 * page an LMS launched it, `demo=` which demo to show), so the package carries them here too.
 * Without an LMS, or with one that refuses the session, the page offers no session: the lesson
 * page then finds the LMS's own API (or none) and says so.
 */
import { findApi, sessionTime } from "./scorm.js";
import { lessonAddress, pageApi } from "./package-session.js";
import { HOST_MESSAGE } from "../page-protocol.js";

const script = /** @type {HTMLScriptElement} */ (document.querySelector("script[data-page]"));
const frame = /** @type {HTMLIFrameElement} */ (document.querySelector(".package-frame"));
const opening = /** @type {HTMLElement} */ (document.querySelector(".package-opening"));
const started = performance.now();

const lms = findApi(window);
const call = (name, ...args) => {
  try {
    return String(lms[name](...args)) === "true";
  } catch {
    return false;
  }
};
const read = (element) => {
  try {
    return String(lms.LMSGetValue(element) ?? "");
  } catch {
    return "";
  }
};
const usable = Boolean(lms) && ["LMSInitialize", "LMSGetValue", "LMSSetValue", "LMSCommit", "LMSFinish"].every((name) => typeof lms[name] === "function");
let open = usable && call("LMSInitialize", "");
const mode = open ? read("cmi.core.lesson_mode") : "";
const readOnly = mode === "review" || mode === "browse";

/** Save what the pages set, with the visit's session time (nothing in review or browse mode). */
function save() {
  if (readOnly) return true;
  call("LMSSetValue", "cmi.core.session_time", sessionTime(performance.now() - started));
  return call("LMSCommit", "");
}

if (open) {
  /** @type {any} */ (window).API = pageApi(lms, { save, ended: () => !open });
  window.addEventListener(
    "pagehide",
    () => {
      save();
      call("LMSFinish", "");
      open = false;
    },
    { once: true },
  );
}

// A host page (the LMS's) hears how the test goes, as it would from the page unframed.
window.addEventListener("message", (event) => {
  if (event.source === frame.contentWindow && event.data?.type === HOST_MESSAGE.QUIZ && window.parent !== window) {
    window.parent.postMessage(event.data, "*");
  }
});

frame.addEventListener("load", () => {
  try {
    document.title = frame.contentDocument?.title || document.title;
  } catch {
    // not ours to read: the title stays the package's
  }
});
frame.src = lessonAddress({
  page: script.dataset.page || "index.html",
  query: script.dataset.query || "",
  search: location.search,
  hash: location.hash,
  entry: open ? read("cmi.core.entry") : "",
  place: open ? read("cmi.core.lesson_location") : "",
});
frame.hidden = false;
opening.hidden = true;
