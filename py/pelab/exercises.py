r"""
# The exercises' checks

The lesson's exercises each ask for a few names in a code cell, right after the section they
practise: a function, or some values. `check_exercise(name, namespace)` tests what the cell
defined and says, in words, what passed, what did not and, where the answer is one of the common
slips, which one (a *diagnosis*). The page's Check button runs it in the page's Python, after
the learner's cell; in a notebook, call it after the cell yourself:

    >>> import pelab
    >>> report = pelab.check_exercise("formula", {"pe_table": lambda n, d, base=10000: None})
    >>> report.passed
    False
    >>> print(report)                                  # doctest: +ELLIPSIS
    ✗ 0 of 5 checks pass.
    ✗ pe_table(4, 4) returns an array of shape (4, 4): pe_table(4, 4) returned None
    ...

The tasks, starters, staged hints and worked solutions are in the lesson's sources (read by
`tools/section_source.py`); only the checks live here, one function per check. A check is
`(what, test)`: `test(namespace)` returns nothing when the answer holds, or raises
`Wrong(why)`; any other exception in the learner's code is reported as what it says, in
Python's words. A failed check then asks the exercise's *diagnose* function whether the answer
is exactly what a known slip gives (`MISTAKES`: the exponent i/d for 2i/d, sine and cosine
swapped, the other pair layout, degrees for radians, one position off; and a few of the
exercise's own), alone or two at once (`pelab.diagnoses`).

Every sentence a report says is a `Said` (`pelab.diagnoses`): English with `{name}` slots and
their values. `str(report)` is English (a notebook, the tests); the page asks for
`report.for_page()`, whose repr is JSON, and words each sentence from the page's own catalog
(app/cells/check-report.js), which holds these sentences since tools/i18n.py extracts every
`said("…")` of this module, of `pelab.exercise_report` (the report and what the checks share)
and of `pelab.diagnoses`.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping

import numpy as np

from .context_scaling import ntk_scaled_base
from .diagnoses import (
    COMMON,
    DIAGNOSIS_OF,
    MROPE_SLIPS,
    Said,
    diagnose,
    frequencies,
    mrope_variant,
    ntk_variant,
    said,
    same,
    shift_variant,
    table_variant,
    turn_variant,
)

# What the checks share (the report's marks and Report are this module's names too).
from .exercise_report import (  # noqa: F401
    FAILED,
    PASSED,
    Report,
    Wrong,
    _array,
    _close,
    _defined,
    _probe,
)
from .multimodal_rope import mrope_position_ids
from .positional_encoding import sinusoidal
from .relative import rotation
from .rope import rope_rotate
from .stretch_effects import OUTSIDE, angle_coverage

# ---- Chapter 1. The table from the formula ---------------------------------------------------


def _table(namespace, seq_len, d_model, base=None):
    pe_table = _defined(namespace, "pe_table")
    call = f"pe_table({seq_len}, {d_model}{'' if base is None else f', base={base:g}'})"
    value = pe_table(seq_len, d_model) if base is None else pe_table(seq_len, d_model, base=base)
    return _array(value, (seq_len, d_model), call), call


def _table_shape(namespace):
    _table(namespace, 4, 4)


def _table_first_row(namespace):
    table, call = _table(namespace, 4, 4)
    if not np.allclose(table[0], [0, 1, 0, 1], atol=1e-12):
        row = ", ".join(f"{x:g}" for x in table[0])
        raise Wrong(said("row 0 of {call} is [{row}]: sin 0 = 0 and cos 0 = 1, pair after pair",
                         call=call, row=row))


def _table_worked_example(namespace):
    table, call = _table(namespace, 4, 4)
    _close(table, sinusoidal(4, 4), call)


def _table_any_size(namespace):
    table, call = _table(namespace, 50, 128)
    _close(table, sinusoidal(50, 128), call)


def _table_base(namespace):
    table, call = _table(namespace, 10, 8, base=100.0)
    _close(table, sinusoidal(10, 8, base=100.0), call)


def _diagnose_table(namespace):
    mine = _probe(namespace, "pe_table", "", (6, 8), 6, 8)
    found = diagnose(mine, lambda slips: table_variant(6, 8, 10000.0, slips), COMMON,
                      layout="layout-halves")
    if found or mine is None or not same(mine, sinusoidal(6, 8)):
        return found
    with_base = _probe(namespace, "pe_table", "", (6, 8), 6, 8, base=100.0)
    if with_base is not None and same(with_base, sinusoidal(6, 8)):
        return ["base-ignored"]
    return []


# ---- Chapter 2. "k positions later" is one matrix --------------------------------------------


def _shift(namespace, k, d_model, base=None):
    shift_matrix = _defined(namespace, "shift_matrix")
    call = f"shift_matrix({k}, {d_model}{'' if base is None else f', base={base:g}'})"
    value = (shift_matrix(k, d_model) if base is None
             else shift_matrix(k, d_model, base=base))
    return _array(value, (d_model, d_model), call), call


def _shift_shape(namespace):
    _shift(namespace, 3, 8)


def _shift_zero(namespace):
    m, call = _shift(namespace, 0, 8)
    if not same(m, np.eye(8)):
        raise Wrong(said("{call} is not the identity: moving 0 positions changes nothing",
                         call=call))


def _shift_moves(namespace):
    m, call = _shift(namespace, 3, 8)
    pe = sinusoidal(23, 8)
    moved = pe[:20] @ m.T  # row pos is M_3 · PE(pos)
    worst = float(np.max(np.abs(moved - pe[3:])))
    if not worst <= 1e-9:
        raise Wrong(said("{call} · PE(pos) is off from PE(pos + 3) by up to {worst}", call=call,
                         worst=format(worst, ".3g")))


def _shift_composes(namespace):
    three, _ = _shift(namespace, 3, 8)
    four, _ = _shift(namespace, 4, 8)
    seven, _ = _shift(namespace, 7, 8)
    worst = float(np.max(np.abs(three @ four - seven)))
    if not worst <= 1e-9:
        raise Wrong(said("M_3 · M_4 is off from M_7 by up to {worst}: moving 3, then 4, is "
                         "moving 7", worst=format(worst, ".3g")))


def _shift_any(namespace):
    m, call = _shift(namespace, -5, 16, base=100.0)
    _close(m, rotation(-5, 16, base=100.0), call)


def _diagnose_shift(namespace):
    mine = _probe(namespace, "shift_matrix", "", (8, 8), 3, 8)
    return diagnose(mine, lambda slips: shift_variant(3, 8, 10000.0, slips),
                     (*COMMON, "wrong-way"), layout="layout-halves")


# ---- Chapter 3. RoPE on a vector ---------------------------------------------------------------

# A query and a key to turn; any would do.
_Q = np.array([0.3, -1.2, 0.8, 0.5, -0.4, 1.1, 0.9, -0.7])
_K = np.array([1.0, 0.2, -0.6, 0.9, 0.4, -1.3, 0.1, 0.8])


def _rotated(namespace, x, pos, name="q"):
    rotate = _defined(namespace, "rotate")
    call = f"rotate({name}, {pos})"
    return _array(rotate(x.copy(), pos), x.shape, call), call


def _rotate_zero(namespace):
    turned, call = _rotated(namespace, _Q, 0)
    _close(turned, _Q, call)


def _rotate_length(namespace):
    turned, call = _rotated(namespace, _Q, 7)
    mine, right = float(np.linalg.norm(turned)), float(np.linalg.norm(_Q))
    if not math.isclose(mine, right, rel_tol=1e-9):
        raise Wrong(said("{call} has length {mine}, q has {right}: a rotation keeps lengths",
                         call=call, mine=format(mine, ".6g"), right=format(right, ".6g")))


def _rotate_pairs(namespace):
    turned, call = _rotated(namespace, _Q, 5)
    _close(turned, rope_rotate(_Q[None, :], [5])[0], call)


def _rotate_relative(namespace):
    scores = []
    for shift in (0, 3, 40):
        q, _ = _rotated(namespace, _Q, 2 + shift)
        k, _ = _rotated(namespace, _K, 9 + shift, "k")
        scores.append(float(q @ k))
    if not np.allclose(scores, scores[0], rtol=1e-9, atol=1e-12):
        values = ", ".join(f"{s:.6g}" for s in scores)
        raise Wrong(said("rotate(q, 2 + s) · rotate(k, 9 + s) is {values} for s = 0, 3 and 40",
                         values=values))
    q, _ = _rotated(namespace, _Q, 2)
    k, _ = _rotated(namespace, _K, 2, "k")
    if math.isclose(float(q @ k), scores[0], rel_tol=1e-6):
        raise Wrong(said("the score at offset 7 equals the score at offset 0: position has no "
                         "effect"))


def _diagnose_rotate(namespace):
    mine = _probe(namespace, "rotate", "", _Q.shape, _Q.copy(), 5)
    return diagnose(mine, lambda slips: turn_variant(_Q, 5, 10000.0, slips, halves=False),
                     (*COMMON, "wrong-way"), layout="layout-halves")


# ---- Chapter 4. NTK-aware scaling, in the half layout ----------------------------------------


def _ntk(namespace, x, pos, s):
    rotate_ntk = _defined(namespace, "rotate_ntk")
    call = f"rotate_ntk(q, {pos}, {s:g})"
    return _array(rotate_ntk(x.copy(), pos, s), x.shape, call), call


def _ntk_right(pos, s):
    d = len(_Q)
    return rope_rotate(_Q[None, :], [pos], base=ntk_scaled_base(10000.0, s, d), pairing="half")[0]


def _ntk_zero(namespace):
    turned, call = _ntk(namespace, _Q, 0, 4.0)
    _close(turned, _Q, call)


def _ntk_plain(namespace):
    turned, call = _ntk(namespace, _Q, 100, 1.0)
    _close(turned, rope_rotate(_Q[None, :], [100], pairing="half")[0], call)


def _ntk_fastest(namespace):
    stretched, call = _ntk(namespace, _Q, 100, 4.0)
    plain = rope_rotate(_Q[None, :], [100], pairing="half")[0]
    pair = [0, len(_Q) // 2]
    worst = float(np.max(np.abs(stretched[pair] - plain[pair])))
    if not worst <= 1e-9:
        raise Wrong(said("pair 0 of {call}, (q[0], q[4]), is off from plain RoPE's by up to "
                         "{worst}: the fastest pair keeps its speed", call=call,
                         worst=format(worst, ".3g")))


def _ntk_all(namespace):
    turned, call = _ntk(namespace, _Q, 100, 4.0)
    _close(turned, _ntk_right(100, 4.0), call)


def _diagnose_ntk(namespace):
    mine = _probe(namespace, "rotate_ntk", "", _Q.shape, _Q.copy(), 100, 4.0)
    return diagnose(mine, lambda slips: ntk_variant(_Q, 100, 4.0, 10000.0, slips),
                     (*COMMON, "wrong-way", "interpolation", "unscaled", "base-times-s"),
                     layout="layout-interleaved")


# ---- Chapter 4. Stretching: which pairs leave their trained angles ---------------------------

STRETCH = {"d": 128, "base": 10000.0, "train_len": 4096, "scale": 4.0}
_PREDICTIONS = ("interpolation", "ntk", "both", "neither")


def _outside(method):
    """The pairs a stretch by `method` sends past their trained angles by more than a step."""
    state = angle_coverage(method, **STRETCH)["state"]
    return [int(i) for i in np.flatnonzero(state == OUTSIDE)]


def _outside_variant(method, slips):
    """`_outside` as the exercise's formula computes it, with the slips in: "factor-2",
    "degrees-converted" (a full turn taken as 360), "stretch-off-by-one" (past (L - 1) w_i)."""
    d, base, train_len, s = STRETCH["d"], STRETCH["base"], STRETCH["train_len"], STRETCH["scale"]
    w = frequencies(d, base, slips)
    i = np.arange(d // 2)
    new = w / s if method == "interpolation" else (
        ntk_scaled_base(base, s, d) ** (-(i if "factor-2" in slips else 2 * i) / d))
    last = math.ceil(s * train_len) - 1
    reach = (train_len - 1 if "stretch-off-by-one" in slips else train_len) * w
    turn = 360.0 if "degrees-converted" in slips else 2 * math.pi
    went_round = (train_len - 1) * w >= turn
    return [int(j) for j in np.flatnonzero((last * new > reach) & ~went_round)]


def _pairs(namespace, name):
    value = namespace.get(name)
    if value is None:
        raise Wrong(said("{name} is not set: a list of pair indices i", name=name))
    try:
        pairs = sorted(int(i) for i in value)
    except (TypeError, ValueError):
        raise Wrong(said("{name} is not a list of pair indices", name=name)) from None
    return pairs


def _stretch_prediction(namespace):
    prediction = namespace.get("prediction")
    if prediction not in _PREDICTIONS:
        choices = ", ".join(f'"{p}"' for p in _PREDICTIONS)
        raise Wrong(said("prediction is {prediction}: say it first, one of {choices}",
                         prediction=repr(prediction), choices=choices))


def _stretch_method(method, name):
    def test(namespace):
        mine, right = _pairs(namespace, name), _outside(method)
        if mine != right:
            extra = sorted(set(mine) - set(right))
            missing = sorted(set(right) - set(mine))
            if missing and extra:
                raise Wrong(said(
                    "{missing} pairs missing (from pair {first_missing}); {extra} pairs that "
                    "stay within a step (from pair {first_extra})", missing=len(missing),
                    first_missing=missing[0], extra=len(extra), first_extra=extra[0]))
            if missing:
                raise Wrong(said("{missing} pairs missing (from pair {first_missing})",
                                 missing=len(missing), first_missing=missing[0]))
            raise Wrong(said("{extra} pairs that stay within a step (from pair {first_extra})",
                             extra=len(extra), first_extra=extra[0]))

    return test


def _diagnose_stretch(namespace):
    """The lists (and the cell's `w`, if it is the starter's) against the slips' lists."""
    d, base = STRETCH["d"], STRETCH["base"]
    w = namespace.get("w")
    try:
        if w is not None and same(np.asarray(w, dtype=float),
                                   frequencies(d, base, {"factor-2"})):
            return ["factor-2"]
    except (TypeError, ValueError, OverflowError):
        pass
    try:
        mine = (_pairs(namespace, "outside_interpolation"), _pairs(namespace, "outside_ntk"))
    except Wrong:
        return []
    slips = ("factor-2", "degrees-converted", "stretch-off-by-one")
    for size in (1, 2):
        for chosen in itertools.combinations(slips, size):
            made = set(chosen)
            if mine == (_outside_variant("interpolation", made), _outside_variant("ntk", made)):
                return [DIAGNOSIS_OF.get(s, s) for s in chosen]
    return []


def _stretch_verdict(namespace):
    """Once the computation is right: was the prediction? (A check only that one was made.)"""
    moved = [method for method in ("interpolation", "ntk") if _outside(method)]
    right = {0: "neither", 2: "both"}.get(len(moved)) or moved[0]
    if namespace.get("prediction") == right:
        return said("Your prediction was right.")
    return said('Your prediction was not right: it is "{right}".', right=right)


# ---- Chapter 6. M-RoPE's position ids ----------------------------------------------------------

# The shapes the check tries beside the starter's example, (text_before, rows, columns,
# text_after): taller than wide, a single patch, wider than tall with no text after.
MROPE_SHAPES = ((1, 5, 2, 3), (2, 1, 1, 1), (4, 3, 6, 0))


def _mrope_right(text_before, rows, columns, text_after):
    segments = [("text", text_before), ("image", (1, rows, columns))]
    if text_after:
        segments.append(("text", text_after))
    return mrope_position_ids(segments)


def _mrope(namespace, *shape):
    mrope_ids = _defined(namespace, "mrope_ids")
    call = f"mrope_ids{shape}"
    right = _mrope_right(*shape)
    return _array(mrope_ids(*shape), right.shape, call), right, call


def _mrope_tokens(mine, right, call, tokens):
    """Wrong, naming the first of `tokens` whose ids are not pelab's."""
    for n in tokens:
        if not same(mine[:, n], right[:, n]):
            ids = "(" + ", ".join(f"{x:g}" for x in mine[:, n]) + ")"
            raise Wrong(said("token {n} of {call} carries {mine}; pelab gives {right}", n=n,
                             call=call, mine=ids, right=tuple(int(x) for x in right[:, n])))


def _mrope_shape(namespace):
    _mrope(namespace, 3, 2, 4, 2)


def _mrope_text_before(namespace):
    mine, right, call = _mrope(namespace, 3, 2, 4, 2)
    _mrope_tokens(mine, right, call, range(3))


def _mrope_image(namespace):
    mine, right, call = _mrope(namespace, 3, 2, 4, 2)
    _mrope_tokens(mine, right, call, range(3, 11))


def _mrope_text_after(namespace):
    mine, right, call = _mrope(namespace, 3, 2, 4, 2)
    _mrope_tokens(mine, right, call, range(11, 13))


def _mrope_shapes(namespace):
    for shape in MROPE_SHAPES:
        mine, right, call = _mrope(namespace, *shape)
        _mrope_tokens(mine, right, call, range(right.shape[1]))


# The probe: an image wider than tall, where every slip gives an answer of its own.
_MROPE_PROBE = (2, 2, 3, 2)


def _diagnose_mrope(namespace):
    mine = _probe(namespace, "mrope_ids", "", _mrope_right(*_MROPE_PROBE).shape, *_MROPE_PROBE)
    return diagnose(mine, lambda slips: mrope_variant(*_MROPE_PROBE, slips), MROPE_SLIPS,
                    layout="layout-halves")


# Each exercise's checks, in order: (what is checked, test).
EXERCISES = {
    "formula": [
        (said("{call} returns an array of shape {shape}", call="pe_table(4, 4)", shape=(4, 4)),
         _table_shape),
        (said("position 0 is sin 0, cos 0, sin 0, cos 0"), _table_first_row),
        (said("{call} is the worked example's table", call="pe_table(4, 4)"),
         _table_worked_example),
        (said("{call} matches the formula everywhere", call="pe_table(50, 128)"),
         _table_any_size),
        (said("{call} uses its base", call="pe_table(10, 8, base=100)"), _table_base),
    ],
    "shift": [
        (said("{call} returns an array of shape {shape}", call="shift_matrix(3, 8)",
              shape=(8, 8)),
         _shift_shape),
        (said("{call} is the identity", call="shift_matrix(0, 8)"), _shift_zero),
        (said("{call} moves PE(pos) to PE(pos + 3), for pos 0 to 19", call="shift_matrix(3, 8)"),
         _shift_moves),
        (said("moving 3, then 4, is moving 7: M_3 · M_4 = M_7"), _shift_composes),
        (said("{call} matches the formula everywhere", call="shift_matrix(-5, 16, base=100)"),
         _shift_any),
    ],
    "rope": [
        (said("{call} leaves q as it is", call="rotate(q, 0)"), _rotate_zero),
        (said("{call} keeps q's length", call="rotate(q, 7)"), _rotate_length),
        (said("{call} turns pair i by 5 · w_i", call="rotate(q, 5)"), _rotate_pairs),
        (said("the score depends only on the offset, and does depend on it"), _rotate_relative),
    ],
    "stretch": [
        (said("a prediction is made first"), _stretch_prediction),
        (said("{name} lists the right pairs", name="outside_interpolation"),
         _stretch_method("interpolation", "outside_interpolation")),
        (said("{name} lists the right pairs", name="outside_ntk"),
         _stretch_method("ntk", "outside_ntk")),
    ],
    "ntk": [
        (said("{call} leaves q as it is", call="rotate_ntk(q, 0, 4)"), _ntk_zero),
        (said("{call} is plain RoPE, in the half layout", call="rotate_ntk(q, 100, 1)"),
         _ntk_plain),
        (said("the fastest pair keeps its speed at s = 4"), _ntk_fastest),
        (said("{call} turns pair i by 100 · w′_i, with the raised base",
              call="rotate_ntk(q, 100, 4)"), _ntk_all),
    ],
    "mrope": [
        (said("{call} returns an array of shape {shape}", call="mrope_ids(3, 2, 4, 2)",
              shape=(3, 13)), _mrope_shape),
        (said("{call} gives the text before the image (p, p, p), p = 0, 1, 2",
              call="mrope_ids(3, 2, 4, 2)"), _mrope_text_before),
        (said("{call} gives the patch at row r, column c the ids (s, s + r, s + c), s = 3",
              call="mrope_ids(3, 2, 4, 2)"), _mrope_image),
        (said("{call} resumes the text after the image at the image's largest id + 1",
              call="mrope_ids(3, 2, 4, 2)"), _mrope_text_after),
        (said("{calls} match pelab.mrope_position_ids",
              calls=", ".join(f"mrope_ids{shape}" for shape in MROPE_SHAPES)), _mrope_shapes),
    ],
}
# Each exercise's diagnosis: which slips its answer is exactly what they give.
DIAGNOSE = {
    "formula": _diagnose_table,
    "shift": _diagnose_shift,
    "rope": _diagnose_rotate,
    "ntk": _diagnose_ntk,
    "stretch": _diagnose_stretch,
    "mrope": _diagnose_mrope,
}
# What is said after all of an exercise's checks pass, if anything: notes(namespace) -> Said.
NOTES = {"stretch": _stretch_verdict}


def check_exercise(name, namespace):
    """
    Check exercise `name` (a key of `EXERCISES`) against what `namespace` (a cell's globals:
    pass `globals()`) defines. Returns a `Report`: print it, or read `report.passed` and
    `report.diagnoses`.

    Raises:
        ValueError: for a name that is no exercise, or a namespace that is no dict.
    """
    if not isinstance(name, str) or name not in EXERCISES:
        raise ValueError(f"name must be one of {', '.join(EXERCISES)}, got {name!r}")
    if not isinstance(namespace, Mapping):
        raise ValueError(
            "namespace must be the cell's names as a dict (pass globals()), "
            f"got {type(namespace).__name__}"
        )
    results = []
    for what, test in EXERCISES[name]:
        try:
            test(namespace)
        except Wrong as wrong:
            results.append((what, wrong.why))
        except Exception as error:  # the learner's code failed: say so, in Python's words
            results.append((what, Said(f"{type(error).__name__}: {error}", raw=True)))
        else:
            results.append((what, None))
    report = Report(name, results)
    if not report.passed:
        try:
            report.diagnoses = DIAGNOSE[name](namespace)
        except Exception:  # the learner's code failed under the probe: the checks said how
            report.diagnoses = []
    elif name in NOTES:
        report.note = NOTES[name](namespace)
    return report
