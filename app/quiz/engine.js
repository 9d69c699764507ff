/**
 * The quizzes of a page: each section's check (form.quiz[data-quiz=check], right after the
 * section) and the tests (form.quiz[data-quiz=test]: a chapter's end test, the whole-lesson
 * test), as tools/lesson.py writes them. The page holds the questions but not their keys,
 * which come from app/quiz-keys.json (keys.js) when first needed.
 *
 * A check is always practice, and teaches by a second try: a first wrong answer gets the hint
 * written for it (its "why") and another try; the right answer, its explanation and a link back
 * to what it tests show after a right answer, a second wrong one, or "Show answer". Once each
 * question has its answer shown, the check tells the course map (CHECK_EVENT) whether every
 * question was right at the first try. A test is practice too unless the page says it is graded (a SCORM launch, or
 * ?graded: app/lms/scorm.js `gradedTest`): then answers stay open and unmarked until Submit,
 * the keys are fetched only then, and "Start again" begins a new attempt only while attempts
 * remain (0 = unlimited). Options are shuffled for each attempt; answers are kept and restored
 * by their value, never their position. Plain radios and text inputs, so it all works from the
 * keyboard.
 *
 * A test announces itself as a QUIZ_EVENT on its form at start and after every change
 * (QuizDetail below), which app/lms/ passes on to a host page or an LMS; it stores and sends
 * nothing itself. An answer chosen from outside (a restored one) is taken like one clicked,
 * through the input's change event.
 */
import { CHECK_EVENT, QUIZ_EVENT } from "../page-protocol.js";
import { interaction, judge, readNumber, score, shuffled } from "./grading.js";
import { loadKeys, richText } from "./keys.js";
import { arrangeAttempt, gradedVersions, newSeed } from "./versions.js";
import { t } from "../i18n.js";
import { sentences, withNodes } from "../words.js";

/** @typedef {import("./grading.js").QuizKey} QuizKey */
/** @typedef {import("../page-protocol.js").QuizDetail} QuizDetail */

/**
 * What app/lms/ may do with a test: learn how many attempts it allows and how many were used,
 * and show a restored attempt as submitted.
 * @typedef {{
 *   graded: boolean,
 *   setAttempts: (allowed: number, used: number) => void,
 *   showSubmitted: () => Promise<void>,
 *   state: () => {attempt: number, used: number, allowed: number, submitted: boolean, seed: number},
 *   redraw: (seed: number, attempt: number) => void,
 * }} TestController
 */

/** @type {WeakMap<HTMLFormElement, TestController | null>} */
const wired = new WeakMap();

/**
 * Wire every quiz form under `root` not wired yet. `graded(test)` says whether the test named
 * `test` (its form's data-test: a chapter's name, or "lesson") is graded on this page.
 * @param {ParentNode} root
 * @param {{graded?: (test: string) => boolean}} [options]
 */
export function wireQuizzes(root, { graded = () => false } = {}) {
  for (const form of /** @type {NodeListOf<HTMLFormElement>} */ (root.querySelectorAll("form.quiz"))) {
    if (wired.has(form)) continue;
    wired.set(form, form.dataset.quiz === "test" ? testQuiz(form, graded(form.dataset.test ?? "")) : checkQuiz(form));
  }
}

/** The controller of a wired test form, or null. @param {Element} form */
export function quizController(form) {
  return wired.get(/** @type {HTMLFormElement} */ (form)) ?? null;
}

/** @param {HTMLFormElement} form @returns {HTMLFieldSetElement[]} */
const questionsOf = (form) => [...form.querySelectorAll("fieldset.quiz-question")].map((q) => /** @type {HTMLFieldSetElement} */ (q));
/** @param {Element} question */
const inputsOf = (question) => /** @type {HTMLInputElement[]} */ ([...question.querySelectorAll("input")]);
const nameOf = (question) => inputsOf(question)[0]?.name ?? "";
/** The id a question's key and its LMS record go by: a template's variant is NAME.vK. */
const idOf = (question) => question.dataset.id || nameOf(question);

/** The learner's answer: the chosen option's value, or the text typed; "" if none. */
function responseOf(question) {
  const inputs = inputsOf(question);
  if (inputs[0]?.type === "text") return inputs[0].value.trim();
  return inputs.find((input) => input.checked)?.value ?? "";
}

/**
 * The question as grading.js's `interaction` wants it. A true/false question's "True" is the
 * option that says so, in English; on a translated page, where it says it in another language,
 * its first option: the lesson writes True, then False, and that order is never shuffled.
 */
function describe(question) {
  const inputs = inputsOf(question);
  const truth =
    inputs.find((input) => input.closest("label")?.textContent.trim() === "True") ??
    (question.dataset.kind === "truefalse" ? inputs[0] : undefined);
  // its objective: the source's, else the item's, the same whichever version is shown
  return { name: idOf(question), objective: question.dataset.objective || question.dataset.item, trueValue: truth?.value };
}

/** Choice options in a new random order (true or false keeps its order: True, then False). */
function shuffleOptions(form) {
  for (const question of questionsOf(form)) {
    if (question.dataset.kind !== "choice") continue;
    const labels = [...question.querySelectorAll(".quiz-option")];
    const feedback = question.querySelector(".quiz-feedback");
    for (const label of shuffled(labels)) question.insertBefore(label, feedback);
  }
}

/** Copies of an option's words: its label's content without the radio button, trimmed. */
function wordsOf(label) {
  const nodes = [...label.childNodes].filter((node) => node.nodeName !== "INPUT").map((node) => node.cloneNode(true));
  const [first, last] = [nodes[0], nodes[nodes.length - 1]];
  if (first?.nodeType === Node.TEXT_NODE) first.textContent = first.textContent.trimStart();
  if (last?.nodeType === Node.TEXT_NODE) last.textContent = last.textContent.trimEnd();
  return nodes;
}

/** A question back to unanswered-looking: no marks, no feedback. */
function clear(question) {
  delete question.dataset.result;
  for (const label of question.querySelectorAll("label")) /** @type {HTMLElement} */ (label).dataset.mark = "";
  for (const selector of [".quiz-feedback", ".quiz-refers", ".quiz-explain"]) {
    const element = /** @type {HTMLElement} */ (question.querySelector(selector));
    if (element) element.hidden = true;
  }
}

/** Say something in a question's feedback line that is not a verdict (a number unreadable). */
function say(question, text) {
  clear(question); // a mark left from an earlier answer no longer applies
  const feedback = /** @type {HTMLElement} */ (question.querySelector(".quiz-feedback"));
  feedback.textContent = text;
  feedback.hidden = false;
}

/** The explanation of a question's answer, and its link back to what it tests, shown. */
function showExplanation(question, key) {
  const explain = /** @type {HTMLElement} */ (question.querySelector(".quiz-explain"));
  explain.replaceChildren(...richText(key.explain));
  explain.hidden = false;
  const refers = /** @type {HTMLElement | null} */ (question.querySelector(".quiz-refers"));
  if (refers) refers.hidden = false;
}

/**
 * Mark a question against its key: right or wrong, why a wrong answer is wrong, the right
 * answer, the explanation and the link back to what it tests. Returns the result.
 * @param {HTMLFieldSetElement} question
 * @param {QuizKey} key
 */
function mark(question, key) {
  const response = responseOf(question);
  const judged = judge(key, response);
  if (judged.result === "unreadable") {
    say(question, judged.problem);
    return judged.result;
  }
  const right = judged.result === "correct";
  question.dataset.result = right ? "right" : "wrong";
  const feedback = /** @type {HTMLElement} */ (question.querySelector(".quiz-feedback"));
  if (key.kind === "numeric") {
    const values = { answer: key.answer, tolerance: key.tolerance, response };
    // Translators: {answer} is a quiz's right number, {tolerance} how far from it an answer may be.
    const answer = key.tolerance ? t("The answer is {answer}, give or take {tolerance}.", values) : t("The answer is {answer}.", values);
    feedback.replaceChildren(
      right
        ? key.tolerance
          ? t("Right: the answer is {answer}, give or take {tolerance}.", values)
          : t("Right: the answer is {answer}.", values)
        : sentences(
            response === ""
              ? t("Not answered.")
              : // Translators: {response} is the number the learner typed.
                t("Not quite: you gave {response}.", values),
            answer,
            response !== "" ? key.why["*"] : "",
          ),
    );
  } else {
    const answer = inputsOf(question).find((input) => input.value === key.correct)?.closest("label");
    for (const label of question.querySelectorAll("label")) {
      const value = label.querySelector("input")?.value;
      /** @type {HTMLElement} */ (label).dataset.mark = value === key.correct ? "answer" : value === response ? "wrong" : "";
    }
    // A wrong choice says what is wrong with it (its why), then which answer is right: the
    // answer's own words, copied with their markup (its variables stay italic, its indices low).
    const words = answer ? wordsOf(answer) : [];
    feedback.replaceChildren(
      ...(right
        ? [t("Right.")]
        : response === ""
          ? // Translators: {answer} is the right option's own words.
            withNodes(t("Not answered. The answer is “{answer}”."), { answer: words })
          : // Translators: {why} says why the chosen option is wrong; {answer} is the right option's own words.
            withNodes(t("Not quite. {why} The answer is “{answer}”."), { why: key.why[response] ?? "", answer: words })),
    );
  }
  feedback.hidden = false;
  showExplanation(question, key);
  return judged.result;
}

/** Mark one question once the keys are in; a failed fetch is said in its feedback. */
async function markOne(question) {
  if (responseOf(question) === "") return clear(question);
  try {
    const keys = await loadKeys();
    const key = keys[idOf(question)];
    if (!key) return say(question, t("This question has no answer in this version of the lesson."));
    mark(question, key);
  } catch (error) {
    say(question, t("The answers could not be loaded ({error}): check your connection, then answer again.", { error: error.message }));
  }
}

/** The question whose text input is focused (Enter in it submits the form). */
function typedIn(form) {
  const active = document.activeElement;
  return active instanceof HTMLInputElement && active.type === "text" && form.contains(active) ? active.closest(".quiz-question") : null;
}

/**
 * A first wrong answer to a check: marked wrong, with the hint written for it (its "why") and a
 * second try; neither the right answer nor the explanation is shown.
 * @param {HTMLFieldSetElement} question
 * @param {QuizKey} key
 * @param {string} response
 */
function hint(question, key, response) {
  clear(question);
  question.dataset.result = "wrong";
  const feedback = /** @type {HTMLElement} */ (question.querySelector(".quiz-feedback"));
  if (key.kind === "numeric") {
    // Translators: {response} is the number the learner typed.
    feedback.textContent = sentences(t("Not quite: you gave {response}.", { response }), key.why["*"] ?? "", t("Try again, or show the answer."));
  } else {
    for (const label of question.querySelectorAll("label")) {
      /** @type {HTMLElement} */ (label).dataset.mark = label.querySelector("input")?.value === response ? "wrong" : "";
    }
    feedback.textContent = sentences(t("Not quite."), key.why[response] ?? "", t("Try again, or show the answer."));
  }
  feedback.hidden = false;
}

/**
 * The answer shown at the learner's request: their answer marked if they gave one (mark), else
 * only the right answer, its explanation and the link back.
 * @param {HTMLFieldSetElement} question
 * @param {QuizKey} key
 */
function showAnswer(question, key) {
  const response = responseOf(question);
  if (response !== "" && judge(key, response).result !== "unreadable") return mark(question, key);
  clear(question);
  question.dataset.result = "shown";
  const feedback = /** @type {HTMLElement} */ (question.querySelector(".quiz-feedback"));
  if (key.kind === "numeric") {
    const values = { answer: key.answer, tolerance: key.tolerance };
    feedback.textContent = key.tolerance ? t("The answer is {answer}, give or take {tolerance}.", values) : t("The answer is {answer}.", values);
  } else {
    const answer = inputsOf(question).find((input) => input.value === key.correct)?.closest("label");
    for (const label of question.querySelectorAll("label")) {
      /** @type {HTMLElement} */ (label).dataset.mark = label.querySelector("input")?.value === key.correct ? "answer" : "";
    }
    // Translators: {answer} is the right option's own words.
    feedback.replaceChildren(...withNodes(t("The answer is “{answer}”."), { answer: answer ? wordsOf(answer) : [] }));
  }
  feedback.hidden = false;
  showExplanation(question, key);
  return "shown";
}

/**
 * A section's check: try, then learn. Each question keeps how its first try went ("right",
 * "wrong", or "shown" when the answer was asked for first) and whether its answer is shown;
 * once every answer is shown, the check says whether all first tries were right (CHECK_EVENT).
 */
function checkQuiz(form) {
  shuffleOptions(form);
  const questions = questionsOf(form);
  /** @type {Map<Element, {first: "right" | "wrong" | "shown" | null, settled: boolean, last: string}>} */
  const tries = new Map(questions.map((question) => [question, { first: null, settled: false, last: "" }]));
  const settle = (question, first) => {
    const state = tries.get(question);
    state.first ??= first;
    state.settled = true;
    question.querySelector(".quiz-show-answer")?.setAttribute("hidden", "");
    if ([...tries.values()].every((s) => s.settled)) {
      const section = form.closest("[data-section]")?.getAttribute("data-section");
      const firstTry = [...tries.values()].every((s) => s.first === "right");
      form.dispatchEvent(new CustomEvent(CHECK_EVENT, { bubbles: true, detail: { section, firstTry } }));
    }
  };
  /** The question's key, or null once its problem is said in its feedback. */
  const keyOf = async (question) => {
    try {
      const key = (await loadKeys())[idOf(question)];
      if (!key) say(question, t("This question has no answer in this version of the lesson."));
      return key ?? null;
    } catch (error) {
      say(question, t("The answers could not be loaded ({error}): check your connection, then answer again.", { error: error.message }));
      return null;
    }
  };
  const answer = async (question) => {
    const response = responseOf(question);
    const state = tries.get(question);
    // Enter in a number's box is both a change and a submit: one answer, one try
    if (response === state.last && !state.settled) return;
    state.last = response;
    if (response === "") return state.settled || clear(question);
    const key = await keyOf(question);
    if (!key) {
      state.last = ""; // not marked: the same answer may be given again
      return;
    }
    const judged = judge(key, response);
    if (judged.result === "unreadable") return say(question, judged.problem); // a slip, not a try
    const right = judged.result === "correct";
    if (right || state.settled || state.first === "wrong") {
      mark(question, key);
      settle(question, right ? "right" : "wrong");
    } else {
      state.first = "wrong";
      hint(question, key, response);
    }
  };
  for (const question of questions) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "quiz-show-answer";
    button.textContent = t("Show answer");
    question.querySelector(".quiz-feedback").after(button);
    button.addEventListener("click", async () => {
      const key = await keyOf(question);
      if (!key) return;
      showAnswer(question, key);
      settle(question, "shown");
      // the button is gone: the keyboard goes on from what it showed
      const feedback = /** @type {HTMLElement} */ (question.querySelector(".quiz-feedback"));
      feedback.tabIndex = -1;
      feedback.focus();
    });
  }
  form.addEventListener("change", ({ target }) => {
    const question = /** @type {Element} */ (target).closest(".quiz-question");
    if (question) answer(question);
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const question = typedIn(form);
    if (question) answer(question);
  });
  return null;
}

/**
 * A test: practice (marked at once) or graded (marked on Submit, with attempts).
 * @param {HTMLFormElement} form
 * @param {boolean} graded
 * @returns {TestController}
 */
function testQuiz(form, graded) {
  const every = questionsOf(form); // every version of every item, shown or not
  const scoreLine = /** @type {HTMLElement} */ (form.querySelector(".quiz-score"));
  const submitButton = /** @type {HTMLButtonElement} */ (form.querySelector(".quiz-submit"));
  const state = { attempt: 1, used: 0, allowed: 0, submitted: false, seed: newSeed() };
  /** @type {HTMLFieldSetElement[]} the questions this attempt shows, in order */
  let questions = [];

  const versions = gradedVersions(every);

  /** Show the questions of this attempt (versions.js `arrangeAttempt`). */
  function arrange() {
    if (graded) form.dataset.seed = String(state.seed); // in view for a tester or a teacher
    questions = arrangeAttempt(every, versions, graded ? state : null);
  }
  arrange();
  /** @type {Record<string, QuizKey> | null} */
  let keys = null;
  let note = "";
  let confirming = false; // Submit was pressed with questions unanswered, and said so
  form.dataset.mode = graded ? "graded" : "practice";
  submitButton.hidden = !graded;
  shuffleOptions(form);

  const resultOf = (question) =>
    question.dataset.result === "right" ? "correct" : question.dataset.result === "wrong" ? "wrong" : "unanswered";
  const attemptsLeft = () => (state.allowed > 0 ? Math.max(0, state.allowed - state.used) : Infinity);

  /** Announce where the test stands (and show it in the score line). */
  function update(justSubmitted = false) {
    const results = questions.map(resultOf);
    const counted = score(results);
    const answered = graded && !state.submitted ? questions.filter((q) => responseOf(q) !== "").length : counted.answered;
    const total = questions.length;
    const values = { answered, total, correct: counted.correct, attempt: state.attempt, allowed: state.allowed, percent: `${counted.percent}%` };
    let text;
    if (!graded) {
      text =
        answered === total
          ? sentences(t("All {total} answered: {correct} right.", values), counted.correct === total ? t("Well done.") : "")
          : t("{answered} of {total} answered, {correct} right.", values);
    } else if (!state.submitted) {
      text = sentences(
        t("{answered} of {total} answered. Your answers are marked when you submit them.", values),
        state.allowed ? t("This is attempt {attempt} of {allowed}.", values) : "",
      );
    } else {
      const left = attemptsLeft();
      const then =
        left === Infinity
          ? t("“Start again” begins a new attempt.")
          : left > 0
            ? t("“Start again” begins a new attempt: {left} left of {allowed}.", { ...values, left })
            : t("That was your last attempt of {allowed}.", values);
      // Translators: {percent} is the score as a percentage, such as "80%".
      text = sentences(t("Submitted: {correct} of {total} right ({percent}).", values), then);
    }
    scoreLine.textContent = sentences(text, note);
    const records =
      keys && (!graded || state.submitted)
        ? questions
            .filter((q) => (graded || resultOf(q) !== "unanswered") && keys[idOf(q)])
            .map((q) => interaction(describe(q), keys[idOf(q)], responseOf(q), resultOf(q)))
        : [];
    /** @type {QuizDetail} */
    const detail = {
      test: form.dataset.test ?? "",
      mode: graded ? "graded" : "practice",
      answered,
      correct: graded && !state.submitted ? 0 : counted.correct,
      total,
      finished: graded ? state.submitted : answered === total,
      submitted: state.submitted,
      justSubmitted,
      attempt: state.attempt,
      questions: records,
    };
    form.dispatchEvent(new CustomEvent(QUIZ_EVENT, { bubbles: true, detail }));
  }

  /** Grade every answer and show the feedback: the attempt is submitted. */
  async function submit(counts) {
    // A typed answer that is no number is said at once, not marked wrong: it is a slip.
    const unreadable = questions
      .filter((q) => q.dataset.kind === "numeric" && responseOf(q) !== "")
      .map((q) => /** @type {[HTMLFieldSetElement, string | undefined]} */ ([q, readNumber(responseOf(q)).problem]))
      .filter(([, problem]) => problem);
    if (unreadable.length) {
      for (const [question, problem] of unreadable) say(question, problem);
      scoreLine.textContent = t("Some answers are not numbers: correct them, then submit again.");
      return;
    }
    // An unanswered question counts as wrong and a submission may be the last attempt: say so
    // once, and submit when asked again (any change of answer asks afresh).
    const unanswered = questions.filter((q) => responseOf(q) === "").length;
    if (counts && unanswered && !confirming) {
      confirming = true;
      const numbers = { unanswered, total: questions.length };
      scoreLine.textContent = sentences(
        unanswered === 1
          ? t("{unanswered} of {total} question is not answered and would count as wrong.", numbers)
          : t("{unanswered} of {total} questions are not answered and would count as wrong.", numbers),
        t("Answer them, or press Submit again to hand in as it is."),
      );
      return;
    }
    confirming = false;
    try {
      keys = await loadKeys();
    } catch (error) {
      scoreLine.textContent = t("Your answers could not be marked: the answers did not load ({error}). Check your connection and submit again.", {
        error: error.message,
      });
      return;
    }
    for (const question of questions) {
      const key = keys[idOf(question)];
      if (key) mark(question, key);
    }
    state.submitted = true;
    if (counts) state.used += 1;
    for (const input of form.querySelectorAll("input")) /** @type {HTMLInputElement} */ (input).disabled = true;
    submitButton.disabled = true;
    note = "";
    update(counts);
  }

  form.addEventListener("change", async ({ target }) => {
    const question = /** @type {Element} */ (target).closest(".quiz-question");
    if (!question) return;
    if (!graded) {
      await markOne(question);
      if (!keys) keys = await loadKeys().catch(() => null);
    } else {
      clear(question); // a note on an earlier answer (not a number) no longer applies
      confirming = false;
    }
    update();
  });

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!graded) {
      const question = typedIn(form);
      if (question) question.querySelector("input").dispatchEvent(new Event("change", { bubbles: true }));
      return;
    }
    if (!state.submitted) await submit(true);
  });

  form.addEventListener("reset", (event) => {
    if (graded && state.submitted && attemptsLeft() === 0) {
      event.preventDefault();
      note = t("No attempts are left: your course allows {allowed}, and your score stays as submitted.", { allowed: state.allowed });
      update();
      return;
    }
    // The form puts its inputs back only after this event's listeners (and the microtasks
    // they queue) have run: do it here, so that what is announced is the cleared test.
    for (const input of form.querySelectorAll("input")) {
      const field = /** @type {HTMLInputElement} */ (input);
      if (field.type === "radio") field.checked = field.defaultChecked;
      else field.value = field.defaultValue;
    }
    for (const question of every) clear(question);
    confirming = false;
    if (state.submitted) {
      state.submitted = false;
      state.attempt = state.used + 1;
      for (const input of form.querySelectorAll("input")) /** @type {HTMLInputElement} */ (input).disabled = false;
      submitButton.disabled = false;
      arrange(); // a new attempt: the next version of each item
      shuffleOptions(form);
    }
    note = "";
    update();
  });

  /** @type {TestController} */
  const controller = {
    graded,
    setAttempts(allowed, used) {
      state.allowed = Math.max(0, Math.floor(allowed) || 0);
      state.used = Math.max(0, Math.floor(used) || 0);
      state.attempt = state.submitted ? state.used : state.used + 1;
      update();
    },
    showSubmitted: () => (graded && !state.submitted ? submit(false) : Promise.resolve()),
    state: () => ({ ...state }),
    redraw(seed, attempt) {
      state.seed = seed >>> 0;
      state.attempt = Math.max(1, Math.floor(attempt) || 1);
      arrange();
      update();
    },
  };
  // known before the first announcement: an LMS takes the test over on it (app/lms/)
  wired.set(form, controller);
  update();
  return controller;
}
