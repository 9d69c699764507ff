/**
 * What a session with the LMS says went wrong, in the page's language: the wording of
 * app/lms/scorm.js (SESSION_WORDS, in English, which the thin package's relay keeps, since it
 * imports nothing outside this folder), for a lesson's page (app/lms/page-session.js), and the
 * joint between a sentence and the next.
 */
import { t } from "../i18n.js";
import { sentences } from "../words.js";

export { sentences };

/**
 * What a session says it was asking the LMS for when it went wrong, in the page's language.
 * @returns {import("./scorm.js").SessionWords}
 */
export function sessionWords() {
  return {
    // Translators: what the course system (the LMS) was asked to do, put into "The course system refused to start the session."
    start: t("start the session"),
    // Translators: what the course system (the LMS) was asked to do, put into "The course system refused to save."
    save: t("save"),
    // Translators: what the course system (the LMS) was asked to do, put into "The course system refused to end the session."
    end: t("end the session"),
    // Translators: what the course system was asked to do; {element} is a SCORM field such as cmi.core.score.raw.
    record: (element) => t("record {element}", { element }),
    // Translators: {action} is what the course system was asked to do, such as "start the session".
    refused: (action) => t("The course system refused to {action}.", { action }),
    // Translators: {action} is what the course system was asked to do; {code} and {description} are its error's.
    refusedWith: (action, code, description) => t("The course system refused to {action} (error {code}: {description}).", { action, code, description }),
    // Translators: stands for the description of an error the course system gave none for.
    noDescription: t("no description"),
    failed: (action, message) => t("The course system failed to {action} ({error}).", { action, error: message }),
  };
}
