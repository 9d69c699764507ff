/**
 * What the page says to the world outside it, in one place: the messages it exchanges with a
 * host page (an iframe's parent, a course's relay page) and the performance marks it leaves for
 * python3 build.py bench. Its messages with the Python worker are app/python/protocol.js's.
 *
 * Read by app/ (an import), by static/embed-host.js (a classic script host pages include,
 * which cannot import: it spells out the names it uses, and tests/js/page-protocol.test.mjs
 * keeps them equal to these), and by bench/run.py (tools/page_protocol.py reads the objects
 * below as written: one `NAME: "string",` per line).
 */

/**
 * Messages between an embedded demo or lesson (embed.html, index.html in an iframe) and its
 * host page, sent with postMessage to any origin:
 *   {type: QUIZ, ...QuizDetail}             page -> host: a test's progress and, once marked,
 *                                           each answer (app/lms/quiz-progress.js;
 *                                           app/lms/relay.js reads the counts)
 *   {type: RESIZE, height}                  embed -> host: the demo's height in CSS pixels
 *   {type: MEASURE}                         host -> embed: tell your height again
 *   {type: THEME, theme}                    host -> embed: "light", "dark" or "auto"
 */
export const HOST_MESSAGE = Object.freeze({
  QUIZ: "pelab:quiz",
  RESIZE: "pelab:resize",
  MEASURE: "pelab:measure",
  THEME: "pelab:theme",
});

/**
 * One answer as SCORM 1.2 records it (cmi.interactions.n): the question's name, its type
 * ("choice", "true-false", "numeric"), the learner's response and the right one in SCORM's
 * format, "correct" or "wrong", and the objective it tests (the misconception it probes).
 * @typedef {{
 *   id: string,
 *   type: "choice" | "true-false" | "numeric",
 *   response: string,
 *   result: "correct" | "wrong",
 *   correct: string,
 *   objective: string,
 * }} QuizInteraction
 */

/**
 * Where a test stands (app/quiz/engine.js). `test` is its form's data-test: a chapter's name,
 * or "lesson" for the whole-lesson test. `finished`: every answer marked (practice) or the
 * attempt submitted (graded); `justSubmitted` only on the event a Submit caused. `correct` is 0
 * in a graded attempt not yet submitted: nothing is marked before. `questions` holds the marked
 * answers (practice) or, once submitted, every question's (graded).
 * @typedef {{
 *   test: string,
 *   mode: "practice" | "graded",
 *   answered: number,
 *   correct: number,
 *   total: number,
 *   finished: boolean,
 *   submitted: boolean,
 *   justSubmitted: boolean,
 *   attempt: number,
 *   questions: QuizInteraction[],
 * }} QuizDetail
 */

/**
 * The DOM event a test dispatches on its form at start and after every change, detail a
 * QuizDetail: named like the message it becomes for a host page.
 */
export const QUIZ_EVENT = HOST_MESSAGE.QUIZ;

/**
 * The DOM event a section's check dispatches on its form once every question has its answer
 * shown, detail {section, firstTry}: firstTry is true when every first answer was right. The
 * course map marks the section checked, or helped (app/course/map.js).
 */
export const CHECK_EVENT = "pelab:check";

/**
 * The DOM event the course map dispatches on the document when a section comes into view,
 * detail {page, section}: a page launched by an LMS records it as the learner's place
 * (app/lms/page-session.js, cmi.core.lesson_location).
 */
export const PLACE_EVENT = "pelab:place";

/**
 * Performance marks and measures the page leaves for the benchmark (bench/run.py,
 * bench/waterfall.py) and the tests. STAGE is a prefix: the bridge marks when each boot stage
 * began, STAGE + a name of BOOT_STAGES (app/python/protocol.js), and STAGE + "ready".
 */
export const MARK = Object.freeze({
  STAGE: "pelab:stage-",
  FIRST_LIVE_HEATMAP: "pelab:first-live-heatmap",
  ALL_FIGURES: "pelab:all-figures",
  HEATMAP_LATENCY: "pelab:heatmap-latency",
  TRAINING_START: "pelab:training-start",
  TRAINING_BOOTED: "pelab:training-booted",
  TRAINING_STRUCTURED: "pelab:training-structured",
  EXPERIMENT_START: "pelab:experiment-start",
  EXPERIMENT_DONE: "pelab:experiment-done",
  STRETCH_EXPERIMENT_START: "pelab:stretch-experiment-start",
  STRETCH_EXPERIMENT_DONE: "pelab:stretch-experiment-done",
});
