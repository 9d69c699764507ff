r"""
# The exercises' diagnoses: the common slips, and sentences for the learner

An exercise's check (`pelab.exercises`) asks, when it fails, whether the answer is exactly what
a common slip gives: `MISTAKES`, the exponent i/d for 2i/d, sine and cosine swapped, the other
pair layout, degrees for radians, one position off, and a few of an exercise's own. Each
exercise's answer is made from angles pos · w_i laid out pair by pair; the `*_variant`
functions make it with some slips in, a frozenset of names: "factor-2", "swapped", "layout",
"degrees-read" (an angle in radians read as degrees: np.radians of it), "degrees-converted"
(np.degrees of it), "off-by-one-after" and "-before" (the position one on or back), "wrong-way"
(minus the angle), and an exercise's own. `diagnose` tries them one at a time, then two.

Every sentence said to the learner is a `Said`: English with `{name}` slots and their values.
`str()` is English (a notebook, the tests); the page words `text` from its own catalog (app/i18n.js
`tSaid`), which holds every `said("…")` of this module and of `pelab.exercises`, since
tools/i18n.py extracts them.
"""

from __future__ import annotations

import itertools
import re

import numpy as np

from .context_scaling import ntk_scaled_base

# How close an answer must be to count as equal (answers are made of a few sines and cosines).
TOLERANCE = 1e-9


class Said:
    """A sentence for the learner: English `text` with `{name}` slots, and their `values` (as
    text). `str()` fills them in; the page translates `text` first (app/i18n.js `t()`, which
    fills the slots in the same way). A `raw` one is Python's own words (an exception's
    message), shown as they are."""

    __slots__ = ("raw", "text", "values")

    def __init__(self, text, raw=False, **values):
        self.text = str(text)
        self.raw = raw
        self.values = {name: str(value) for name, value in values.items()}

    def __str__(self):
        if self.raw:
            return self.text
        return re.sub(
            r"\{(\w+)\}", lambda m: self.values.get(m.group(1), m.group(0)), self.text
        )

    __repr__ = __str__

    def plain(self):
        if self.raw:
            return {"raw": self.text}
        return {"text": self.text, "values": self.values}


def said(text, **values):
    """A sentence to translate: tools/i18n.py extracts the literal `text` of each call."""
    return Said(text, **values)


# The common slips every exercise's diagnosis looks for, and the sentence that names each (some
# slips are an exercise's own: the layout is said either way, the off-by-one of the stretch its
# own way).
MISTAKES = ("factor-2", "swapped", "layout", "degrees", "off-by-one")
DIAGNOSES = {
    "factor-2": said(
        "Diagnosis, a missing factor 2: yours is what the exponent i/d gives, where the formula "
        "has 2i/d (w_i = base^(−2i/d)). Without the 2 every exponent is halved, so the "
        "frequencies fall only half as far on a log scale and the slow pairs turn too fast."
    ),
    "swapped": said(
        "Diagnosis, sine and cosine swapped: yours is what you get with a cosine where the "
        "formula has a sine, and a sine where it has a cosine."
    ),
    "layout-halves": said(
        "Diagnosis, the wrong pair layout: yours puts pair i in coordinates i and i + d/2 (two "
        "halves); here pair i is the neighbours 2i and 2i + 1 (interleaved)."
    ),
    "layout-interleaved": said(
        "Diagnosis, the wrong pair layout: yours puts pair i in the neighbours 2i and 2i + 1 "
        "(interleaved); here pair i is coordinates i and i + d/2 (two halves, as rotate_half "
        "has them)."
    ),
    "degrees": said(
        "Diagnosis, degrees for radians: yours is what you get by taking an angle in radians "
        "for degrees, or the other way round. The angles here are in radians, as np.sin and "
        "np.cos take them, and a full turn is 2π."
    ),
    "off-by-one": said(
        "Diagnosis, one position off: yours is right for a position next to the one asked, as "
        "when positions are counted from 1. Positions count from 0."
    ),
    "wrong-way": said(
        "Diagnosis, turned the wrong way: yours is the turn by minus the angle (the transposed "
        "block). Check the signs of the sines against the formula."
    ),
    "base-ignored": said(
        "Diagnosis, base is not used: yours gives the table of base 10000 whatever base is "
        "passed."
    ),
    "interpolation": said(
        "Diagnosis, interpolation instead: yours divides the position by s, which is position "
        "interpolation. NTK-aware scaling keeps the positions and raises the base."
    ),
    "unscaled": said(
        "Diagnosis, the base not raised: yours is plain RoPE, with the base as it was. "
        "NTK-aware scaling turns with base · s^(d/(d − 2))."
    ),
    "base-times-s": said(
        "Diagnosis, the base times s: yours raises the base to base · s. NTK-aware scaling "
        "uses base · s^(d/(d − 2)), which slows the slowest pair by exactly s."
    ),
    "stretch-off-by-one": said(
        "Diagnosis, one position off: yours counts a pair as outside once it passes "
        "(L − 1) · w_i, the angle of the last trained position. Here it counts only past "
        "L · w_i, one trained step further."
    ),
    "one-id-per-patch": said(
        "Diagnosis, one id per patch: yours resumes the text after the image at "
        "s + rows · columns, as if each patch used up an id of its own. Patches share ids: the "
        "text resumes at s + max(rows, columns)."
    ),
    "resume-at-largest": said(
        "Diagnosis, the + 1 left out: yours resumes the text after the image at the image's "
        "largest id, s + max(rows, columns) − 1, an id the image already uses. The text "
        "resumes one further, at s + max(rows, columns)."
    ),
    "rows-columns-swapped": said(
        "Diagnosis, row and column swapped: yours gives the patch at row r, column c the ids "
        "(s, s + c, s + r). The second id is the row's and the third the column's: "
        "(s, s + r, s + c)."
    ),
    "running-ids": said(
        "Diagnosis, the image read as text: yours gives the patches running ids (p, p, p), one "
        "per patch, as text tokens get them. A patch carries (s, s + r, s + c), and the text "
        "after the image resumes at s + max(rows, columns)."
    ),
    "ids-from-one": said(
        "Diagnosis, ids counted from 1: each of your ids is one more than pelab's, as when the "
        "first text token gets 1. Ids count from 0: the first token carries (0, 0, 0)."
    ),
}
# Which diagnosis says each slip a variant is made with (a slip may be made two ways).
DIAGNOSIS_OF = {
    "degrees-read": "degrees",
    "degrees-converted": "degrees",
    "off-by-one-after": "off-by-one",
    "off-by-one-before": "off-by-one",
}


def same(mine, right):
    return mine.shape == right.shape and bool(np.all(np.abs(mine - right) <= TOLERANCE))


# ---- The slips, as variants of the right answer (see the module's docstring) -------------


def frequencies(d, base, slips):
    i = np.arange(d // 2)
    return base ** (-(i if "factor-2" in slips else 2 * i) / d)


def angles(theta, slips):
    if "degrees-read" in slips:
        return np.radians(theta)
    if "degrees-converted" in slips:
        return np.degrees(theta)
    return theta


def moved(pos, slips):
    return pos + (1 if "off-by-one-after" in slips else -1 if "off-by-one-before" in slips else 0)


def pair_columns(d, slips, halves):
    """Where pair i's two coordinates are: neighbours (2i, 2i + 1), or halves (i, i + d/2);
    the "layout" slip takes the other."""
    i = np.arange(d // 2)
    if halves != ("layout" in slips):
        return i, i + d // 2
    return 2 * i, 2 * i + 1


def sin_cos(slips):
    return (np.cos, np.sin) if "swapped" in slips else (np.sin, np.cos)


def table_variant(seq_len, d, base, slips):
    pos = moved(np.arange(seq_len), slips)[:, None]
    theta = angles(pos * frequencies(d, base, slips), slips)
    sin, cos = sin_cos(slips)
    first, second = pair_columns(d, slips, halves=False)
    out = np.zeros((seq_len, d))
    out[:, first], out[:, second] = sin(theta), cos(theta)
    return out


def shift_variant(k, d, base, slips):
    a = angles(moved(k, slips) * frequencies(d, base, slips), slips)
    sin, cos = sin_cos(slips)
    s = -sin(a) if "wrong-way" in slips else sin(a)
    first, second = pair_columns(d, slips, halves=False)
    m = np.zeros((d, d))
    m[first, first], m[first, second] = cos(a), s
    m[second, first], m[second, second] = -s, cos(a)
    return m


def turn_variant(x, pos, base, slips, halves):
    """x turned as RoPE turns it at `pos`, pair by pair: (a, b) -> (a cos t - b sin t,
    a sin t + b cos t), with the slips in."""
    d = len(x)
    t = angles(moved(pos, slips) * frequencies(d, base, slips), slips)
    if "wrong-way" in slips:
        t = -t
    sin, cos = sin_cos(slips)
    first, second = pair_columns(d, slips, halves)
    a, b = x[first], x[second]
    out = np.empty(d)
    out[first] = a * cos(t) - b * sin(t)
    out[second] = a * sin(t) + b * cos(t)
    return out


def ntk_variant(x, pos, s, base, slips):
    d = len(x)
    if "interpolation" in slips:
        pos = pos / s
    new_base = (
        base if "interpolation" in slips or "unscaled" in slips
        else base * s if "base-times-s" in slips
        else ntk_scaled_base(base, s, d)
    )
    return turn_variant(x, pos, new_base, slips, halves=True)


def diagnose(mine, variant, slips, *, layout):
    """The names of the slips whose variant `mine` is (one slip, else two), or []. `variant`
    makes the answer from a frozenset of slips; `layout` names the layout diagnosis."""
    right = variant(frozenset())
    if mine is None or same(mine, right):
        return []
    for size in (1, 2):
        for chosen in itertools.combinations(slips, size):
            names = [DIAGNOSIS_OF.get(s, s) for s in chosen]
            if len(set(names)) < size:  # the same slip made two ways at once
                continue
            try:
                if same(mine, variant(frozenset(chosen))):
                    return [layout if name == "layout" else name for name in names]
            except (ValueError, ZeroDivisionError, FloatingPointError):
                continue
    return []


# The slips of the M-RoPE exercise (its answer is made of ids, not of angles): each is its own
# diagnosis.
MROPE_SLIPS = ("one-id-per-patch", "resume-at-largest", "rows-columns-swapped", "running-ids",
               "ids-from-one")


def mrope_variant(text_before, rows, columns, text_after, slips):
    """The (3, N) M-RoPE ids of text, a still image of rows × columns merged patches and text,
    as `pelab.mrope_position_ids` gives them, with the slips of `MROPE_SLIPS` in."""
    first = 1 if "ids-from-one" in slips else 0
    s = first + text_before
    n = rows * columns
    if "running-ids" in slips:
        image, resume = np.tile(s + np.arange(n), (3, 1)), s + n
    else:
        r, c = np.divmod(np.arange(n), columns)
        if "rows-columns-swapped" in slips:
            r, c = c, r
        image = np.stack([np.full(n, s), s + r, s + c])
        resume = (s + n if "one-id-per-patch" in slips
                  else s + max(rows, columns) - ("resume-at-largest" in slips))
    before = np.tile(first + np.arange(text_before), (3, 1))
    after = np.tile(resume + np.arange(text_after), (3, 1))
    return np.concatenate([before, image, after], axis=1)


COMMON = ("factor-2", "swapped", "layout", "degrees-read", "degrees-converted",
           "off-by-one-after", "off-by-one-before")
