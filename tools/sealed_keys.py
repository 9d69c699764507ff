"""The quiz's keys sealed, so that no file the site serves shows an answer at a glance.

app/quiz-keys.json (and each language's copy) is written sealed: the keys' JSON, compressed
(zlib; a scrambled file no longer compresses on its way, so it is compressed first), its bytes
XORed with a keystream (mulberry32, seeded by KEY and a nonce taken from the text), in base64.
app/quiz/sealed.js unseals it in the page, when the quiz needs the keys: in practice mode at the
first answer, in a graded test only after Submit.

This is scrambling, not encryption: the way to unseal is in the page's own code, as it must be on
a static site with no server to mark answers. It keeps the keys out of a casual look (the
network tab, the file opened from a shared link, a search of the page's files for "correct"); it
does not stop a learner who reads the code with DevTools. teaching.html says so to teachers.
"""

from __future__ import annotations

import base64
import hashlib
import json
import zlib

FORMAT = "pelab-sealed-1"
KEY = 0x5EA1ED42  # the keystream's seed, mixed with each file's nonce (app/quiz/sealed.js)
MASK = 0xFFFFFFFF


def _keystream(seed: int):
    """mulberry32's 32-bit outputs from `seed`, as app/quiz/sealed.js computes them."""
    state = seed & MASK
    while True:
        state = (state + 0x6D2B79F5) & MASK
        t = state
        t = ((t ^ (t >> 15)) * (t | 1)) & MASK
        t ^= (t + (((t ^ (t >> 7)) * (t | 61)) & MASK)) & MASK
        yield (t ^ (t >> 14)) & MASK


def _xor(data: bytes, nonce: int) -> bytes:
    out = bytearray(data)
    stream = _keystream(KEY ^ nonce)
    word = 0
    for i in range(len(out)):
        if i % 4 == 0:
            word = next(stream)
        out[i] ^= (word >> (8 * (i % 4))) & 0xFF
    return bytes(out)


def seal(value: dict) -> dict:
    """`value` as the sealed file holds it."""
    plain = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    data = plain.encode("utf-8")
    nonce = int.from_bytes(hashlib.sha256(data).digest()[:4], "little")
    packed = _xor(zlib.compress(data, 9), nonce)
    return {"format": FORMAT, "nonce": nonce, "data": base64.b64encode(packed).decode()}


def unseal(sealed: dict) -> dict:
    """The value a sealed file holds (for the tests and the teacher's tools)."""
    if sealed.get("format") != FORMAT:
        raise ValueError(f"not a sealed keys file (format {sealed.get('format')!r})")
    data = _xor(base64.b64decode(sealed["data"]), int(sealed["nonce"]))
    return json.loads(zlib.decompress(data).decode("utf-8"))
