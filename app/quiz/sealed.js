/**
 * The quiz's keys unsealed: app/quiz-keys.json is written scrambled by tools/sealed_keys.py (the
 * JSON compressed with zlib, its bytes XORed with a mulberry32 keystream seeded by KEY and the
 * file's nonce, in base64), so that no file the site serves shows an answer at a glance. Scrambling, not encryption: this
 * code is how to undo it, as it must be on a static site that marks answers in the page.
 */

export const FORMAT = "pelab-sealed-1";
const KEY = 0x5ea1ed42;

/** mulberry32: a 32-bit generator, as tools/sealed_keys.py's `_keystream`. @param {number} seed */
function keystream(seed) {
  let state = seed | 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/**
 * The value a sealed file holds; rejects anything else.
 * @param {{format?: string, nonce?: number, data?: string}} sealed
 */
export async function unseal(sealed) {
  if (sealed?.format !== FORMAT || typeof sealed.data !== "string" || !Number.isInteger(sealed.nonce)) {
    throw new Error(`not a sealed keys file`);
  }
  const bytes = Uint8Array.from(atob(sealed.data), (c) => c.charCodeAt(0));
  const next = keystream(KEY ^ sealed.nonce);
  let word = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (i % 4 === 0) word = next();
    bytes[i] ^= (word >>> (8 * (i % 4))) & 0xff;
  }
  const inflated = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
  return JSON.parse(await new Response(inflated).text());
}
