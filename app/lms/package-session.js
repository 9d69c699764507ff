/**
 * The session a SCORM package's launch page (app/lms/launch.js) holds with the LMS while the
 * learner walks through the package's pages, and what it offers each page: pure functions of
 * their arguments, so that Node tests them (tests/js/scorm-launch.test.mjs).
 *
 * SCORM 1.2 allows one LMSInitialize per launch: scorm-again, like the standard, refuses a
 * second, even after LMSFinish (error 101). The whole course's package is many pages (entrance,
 * chapters, the quiz), each of which starts and ends a session of its own
 * (app/lms/page-session.js). So the launch page starts the LMS's session once, offers each page
 * a session API of its own (`pageApi`), in which a page's LMSInitialize and LMSFinish open and
 * close only that page's, and ends the LMS's session once, when the LMS unloads it.
 */

/** A lesson_location the package may reopen: a page of its own, in its folder or a language's. */
const PLACE = /^(?:[a-z]{2}\/)?[\w-]+\.html(?:#[\w-]+)?$/;

/**
 * The address the launch page opens in its frame: `page` with the package's `query` added to
 * whatever query the LMS gave (`search`; the package's own say wins over a stale or altered one)
 * and the LMS's fragment. A return visit (`entry` "resume") to a package that opens at an
 * entrance goes back to the page the LMS last recorded (`place`, cmi.core.lesson_location), if
 * it is one of the package's.
 * @param {{page: string, query: string, search?: string, hash?: string, entry?: string, place?: string}} launch
 */
export function lessonAddress({ page, query, search = "", hash = "", entry = "", place = "" }) {
  const wanted = new URLSearchParams(search);
  new URLSearchParams(query).forEach((value, name) => wanted.set(name, value));
  if (/(^|\/)index\.html$/.test(page) && entry === "resume" && PLACE.test(place)) {
    const [where, section] = place.split("#");
    return `${where}?${wanted}${section ? `#${section}` : ""}`;
  }
  return `${page}?${wanted}${hash}`;
}

/**
 * The API a package's pages find up window.parent, over `lms`, the LMS's own, whose session is
 * started: a page's LMSInitialize opens the page's session and its LMSFinish saves (LMSCommit)
 * without ending the LMS's; every value a page sets goes to the LMS as it is set, but the session
 * time is the visit's, which `save` writes (a page's own would count only its own minutes). Once
 * `ended()` says the LMS's session is over, every call is refused (error 101).
 * @param {any} lms
 * @param {{save: () => boolean, ended: () => boolean}} session
 */
export function pageApi(lms, { save, ended }) {
  const refused = () => {
    refused.error = "101";
    return "false";
  };
  refused.error = "0";
  const live = (/** @type {() => string} */ act) => (ended() ? refused() : act());
  return {
    LMSInitialize: () => live(() => "true"),
    LMSFinish: () => live(() => String(save())),
    LMSGetValue: (element) => (ended() ? (refused(), "") : lms.LMSGetValue(element)),
    LMSSetValue: (element, value) => live(() => (element === "cmi.core.session_time" ? "true" : lms.LMSSetValue(element, value))),
    LMSCommit: () => live(() => String(save())),
    LMSGetLastError: () => (ended() ? refused.error : lms.LMSGetLastError()),
    LMSGetErrorString: (code) => (ended() ? "The course package’s session has ended" : lms.LMSGetErrorString(code)),
    LMSGetDiagnostic: (code) => (ended() ? "" : (lms.LMSGetDiagnostic?.(code) ?? "")),
  };
}
