/**
 * Which version of each test item a graded attempt shows: the draw as pure functions (tests/js
 * runs them under Node), and its showing in a test's form (`arrangeAttempt`). A test item has the version practice mode shows ("a") and its graded versions:
 * parallel versions of a choice or true/false item (NAME.b, NAME.c) and the variants of a
 * numeric item's template (NAME.v1 … NAME.vN, numbers drawn by pelab at build time:
 * py/pelab/browser/quiz_variants.py). A graded attempt never shows version "a", whose answer
 * practice mode reveals; an item with no graded version (one read off a live figure) is left
 * out of graded tests.
 *
 * The draw is reproducible: it depends only on the attempt's seed (kept with the answers, in
 * cmi.suspend_data) and the attempt's number, and the id of what was shown is what the LMS
 * records, so a teacher can look up exactly what a learner saw. Two attempts in a row never
 * show the same version of an item that has two or more: each item steps through its versions
 * from a place its seed picks.
 */

/** A new attempt's seed: 32 random bits. */
export function newSeed() {
  const cryptography = globalThis.crypto;
  if (cryptography?.getRandomValues) return cryptography.getRandomValues(new Uint32Array(1))[0];
  return Math.floor(Math.random() * 2 ** 32);
}

/**
 * A 32-bit hash of `text` that spreads seeds and item names: FNV-1a, then MurmurHash3's
 * finalizer, so that every bit of the result depends on every character (FNV-1a alone leaves
 * its low bits, which pick a version, alike for similar texts).
 * @param {string} text
 */
export function hash32(text) {
  let h = 0x811c9dc5;
  for (const char of new TextEncoder().encode(text)) {
    h ^= char;
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * The version each item shows in attempt `attempt` (from 1) of seed `seed`.
 * @param {Record<string, string[]>} graded each item's graded versions' ids, in a fixed order
 * @param {number} seed
 * @param {number} attempt
 * @returns {Record<string, string>} each item with graded versions, and the id drawn
 */
export function drawVersions(graded, seed, attempt) {
  /** @type {Record<string, string>} */
  const drawn = {};
  for (const [item, ids] of Object.entries(graded)) {
    if (!ids.length) continue;
    const start = hash32(`${seed >>> 0}:${item}`) % ids.length;
    drawn[item] = ids[(start + Math.max(0, attempt - 1)) % ids.length];
  }
  return drawn;
}

/** A test item's id split into the item and the version ("a" when it names none). @param {string} id */
export function versionOf(id) {
  const dot = id.indexOf(".");
  return dot < 0 ? { item: id, version: "a" } : { item: id.slice(0, dot), version: id.slice(dot + 1) };
}

/** The inputs' shared name of a question's fieldset. @param {HTMLFieldSetElement} question */
const nameOf = (question) => question.querySelector("input")?.name ?? "";

/**
 * Each test item's graded versions in a test form's fieldsets (`every`, as tools/quiz_forms.py
 * writes them): their ids by item (a template's variants NAME.v1 …), and each id's fieldset
 * with, for a variant, the numbers its legend shows.
 * @param {HTMLFieldSetElement[]} every
 */
export function gradedVersions(every) {
  /** @type {Record<string, string[]>} */
  const ids = {};
  /** @type {Map<string, {fieldset: HTMLFieldSetElement, numbers?: Record<string, string>}>} */
  const where = new Map();
  for (const question of every) {
    const item = question.dataset.item;
    if (!item) continue;
    ids[item] ??= [];
    if (question.dataset.version === "a") continue;
    if (question.dataset.variants) {
      /** @type {Record<string, string>[]} */
      const variants = JSON.parse(question.dataset.variants);
      variants.forEach((numbers, k) => {
        const id = `${nameOf(question)}${k + 1}`;
        ids[item].push(id);
        where.set(id, { fieldset: question, numbers });
      });
    } else {
      ids[item].push(nameOf(question));
      where.set(nameOf(question), { fieldset: question });
    }
  }
  return { ids, where };
}

/**
 * Show a test's questions for an attempt; returns them, in order. Practice (`attempt` null):
 * each item as practice mode has it, version "a". Graded: the version the attempt's seed draws
 * for each item (its id in data-id, a variant's numbers written into its legend), numbered
 * afresh, every other fieldset hidden and disabled; an item with no graded version is left out.
 * @param {HTMLFieldSetElement[]} every
 * @param {ReturnType<typeof gradedVersions>} versions
 * @param {{seed: number, attempt: number} | null} attempt
 */
export function arrangeAttempt(every, versions, attempt) {
  if (!attempt) return every.filter((q) => !q.dataset.version || q.dataset.version === "a");
  const drawn = drawVersions(versions.ids, attempt.seed, attempt.attempt);
  /** @type {HTMLFieldSetElement[]} */
  const questions = [];
  for (const question of every) {
    if (!question.dataset.item) questions.push(question);
    if (question.dataset.version !== "a") continue;
    const version = versions.where.get(drawn[question.dataset.item] ?? "");
    if (!version) continue;
    const chosen = version.fieldset;
    chosen.dataset.id = drawn[question.dataset.item];
    for (const span of chosen.querySelectorAll("legend [data-param]")) {
      const param = /** @type {HTMLElement} */ (span).dataset.param ?? "";
      span.textContent = version.numbers?.[param] ?? span.textContent;
    }
    questions.push(chosen);
  }
  for (const question of every) {
    const shown = questions.includes(question);
    question.hidden = !shown;
    question.disabled = !shown;
  }
  questions.forEach((question, n) => {
    const number = question.querySelector(".quiz-number");
    if (number) number.textContent = `${n + 1}.`;
  });
  return questions;
}
