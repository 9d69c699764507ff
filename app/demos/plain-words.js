/**
 * The words of a sentence of plain words, as pelab.tokenize splits it, without Python: for the
 * code a demo's cell shows at its first settings (its firstCode), where that code names what
 * Python made of the learner's text (the added demo's token, the attention demo's order).
 *
 * Only plain words: letters and digits (any script) between spaces. For them the split is
 * certain, whatever Unicode version Python and the JavaScript engine know: no character of such
 * a text is punctuation to strip or whitespace other than the space. Anything else is pelab's to
 * split, and this refuses it rather than guess: Chinese and Japanese too (Han, hiragana,
 * katakana), which pelab.tokenize splits one character per token.
 */

/** The most words pelab.tokenize keeps of a sentence (pelab.tokens.MAX_TOKENS). */
const MAX_TOKENS = 24;

/**
 * The words of `text`, as pelab.tokenize(text) gives them.
 *
 * @param {string} text
 * @returns {string[]}
 * @throws {Error} if `text` is not 1 to MAX_TOKENS plain words between spaces
 */
export function plainWords(text) {
  const plain = /^ *[\p{L}\p{M}\p{N}]+( +[\p{L}\p{M}\p{N}]+)* *$/u;
  const splitPerCharacter = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
  if (!plain.test(text) || splitPerCharacter.test(text)) {
    throw new Error(`${JSON.stringify(text)} is not plain words between spaces: only pelab.tokenize can split it`);
  }
  const words = text.trim().split(/ +/);
  if (words.length > MAX_TOKENS) {
    throw new Error(`${JSON.stringify(text)} has ${words.length} words: pelab.tokenize keeps ${MAX_TOKENS}`);
  }
  return words;
}
