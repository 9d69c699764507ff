/**
 * The class report's numbers, from the answers a file holds (records.js) and the questions' keys
 * (app/quiz/keys.js's loadKeys(), by interaction id): a pure function, tested under Node
 * (tests/js/report.test.mjs).
 *
 * Which answers count: within one attempt, a learner who submitted twice ("Start again" in the
 * same LMS attempt) has each submission's answers in the record; the latest one per question
 * counts, as the LMS's score is the latest submission's. Per learner, the score of their latest
 * attempt (the highest number) and how many attempts they made. Per question, each learner once,
 * by their latest attempt: the share right, the wrong answer chosen most often (its version and
 * code, and the misconception its key gives for it), and each version's share right. A
 * question is an interaction id's item, the part before the first dot; its version the part
 * after it, "a" when there is none (the graded-test contract: NAME, NAME.b, NAME.v3).
 */

/** @typedef {import("./records.js").AnswerRecord} AnswerRecord */
/** @typedef {import("../quiz/grading.js").QuizKey} QuizKey */

/**
 * @typedef {{version: string, answered: number, right: number, percent: number}} VersionSummary
 * @typedef {{id: string, version: string, response: string, count: number, why: string | null}} WrongAnswer
 * @typedef {{
 *   item: string, answered: number, right: number, percent: number,
 *   wrong: WrongAnswer | null, unanswered: number, versions: VersionSummary[], known: boolean,
 * }} ItemSummary
 * @typedef {{learner: string, attempt: number, attempts: number, right: number, total: number, percent: number}} LearnerSummary
 * @typedef {{items: ItemSummary[], learners: LearnerSummary[], answers: number, unknown: string[]}} ClassSummary
 */

/** The item and the version of an interaction id: "NAME.b" is ["NAME", "b"], "NAME" ["NAME", "a"]. */
export function itemAndVersion(id) {
  const dot = id.indexOf(".");
  return dot < 0 ? [id, "a"] : [id.slice(0, dot), id.slice(dot + 1)];
}

/** A share in percent, rounded as the quiz rounds a score (JavaScript's Math.round). */
export function percentOf(part, whole) {
  return whole ? Math.round((100 * part) / whole) : 0;
}

/**
 * The misconception a key gives for a wrong `response`: a choice's option by its code, a
 * true/false question's one wrong option (its code is "t" or "f", the key's an option value), a
 * number's one "why"; null when the key says nothing for it.
 * @param {QuizKey | undefined} key
 * @param {string} response
 */
export function whyOf(key, response) {
  if (!key) return null;
  const why = key.why ?? {};
  if (key.kind === "numeric") return why["*"] ?? null;
  if (key.kind === "truefalse") return Object.values(why)[0] ?? null;
  return why[response] ?? null;
}

/**
 * @param {AnswerRecord[]} records in the file's order
 * @param {Record<string, QuizKey>} keys by interaction id
 * @returns {ClassSummary}
 */
export function summarise(records, keys) {
  /** learner -> attempt -> item -> its latest record */
  const byLearner = new Map();
  for (const record of records) {
    const [item] = itemAndVersion(record.id);
    if (!byLearner.has(record.learner)) byLearner.set(record.learner, new Map());
    const attempts = byLearner.get(record.learner);
    if (!attempts.has(record.attempt)) attempts.set(record.attempt, new Map());
    attempts.get(record.attempt).set(item, record); // a later submission's replaces an earlier
  }
  /** @type {LearnerSummary[]} */
  const learners = [];
  /** @type {Map<string, AnswerRecord[]>} each item's counted answers */
  const perItem = new Map();
  for (const [learner, attempts] of byLearner) {
    const latest = Math.max(...attempts.keys());
    const answers = [...attempts.get(latest).values()];
    const right = answers.filter((r) => r.result === "correct").length;
    learners.push({ learner, attempt: latest, attempts: attempts.size, right, total: answers.length, percent: percentOf(right, answers.length) });
    for (const answer of answers) {
      const [item] = itemAndVersion(answer.id);
      if (!perItem.has(item)) perItem.set(item, []);
      perItem.get(item).push(answer);
    }
  }
  const items = [...perItem].map(([item, answers]) => summariseItem(item, answers, keys));
  const unknown = [...new Set(records.map((r) => r.id).filter((id) => !keys[id]))].sort();
  return { items, learners, answers: records.length, unknown };
}

/**
 * @param {string} item
 * @param {AnswerRecord[]} answers one per learner
 * @param {Record<string, QuizKey>} keys
 * @returns {ItemSummary}
 */
function summariseItem(item, answers, keys) {
  const right = answers.filter((r) => r.result === "correct").length;
  /** @type {Map<string, VersionSummary>} */
  const versions = new Map();
  /** @type {Map<string, WrongAnswer>} by id and response */
  const wrongs = new Map();
  let unanswered = 0;
  for (const answer of answers) {
    const [, version] = itemAndVersion(answer.id);
    const shown = versions.get(version) ?? { version, answered: 0, right: 0, percent: 0 };
    shown.answered += 1;
    if (answer.result === "correct") shown.right += 1;
    versions.set(version, shown);
    if (answer.result !== "wrong") continue;
    if (answer.response === "") {
      unanswered += 1;
      continue;
    }
    const key = `${answer.id}\u0000${answer.response}`;
    const wrong = wrongs.get(key) ?? { id: answer.id, version, response: answer.response, count: 0, why: whyOf(keys[answer.id], answer.response) };
    wrong.count += 1;
    wrongs.set(key, wrong);
  }
  for (const shown of versions.values()) shown.percent = percentOf(shown.right, shown.answered);
  // the most chosen; a tie goes to the first in the order of versions, then of codes
  const wrong =
    [...wrongs.values()].sort((a, b) => b.count - a.count || a.version.localeCompare(b.version) || a.response.localeCompare(b.response))[0] ?? null;
  return {
    item,
    answered: answers.length,
    right,
    percent: percentOf(right, answers.length),
    wrong,
    unanswered,
    versions: [...versions.values()].sort((a, b) => a.version.localeCompare(b.version)),
    known: answers.some((answer) => Boolean(keys[answer.id])),
  };
}
