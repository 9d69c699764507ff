r"""
# The exercises' checks

The lesson's exercises ("Your turn") each ask for a few names in a code cell: a function, or
some values. `check_exercise(name, namespace)` tests what the cell defined and says, in words, what
passed and what did not. The page's Check button runs it in the page's Python, after the
learner's cell; in a notebook, call it after the cell yourself:

    >>> import pelab
    >>> report = pelab.check_exercise("formula", {"pe_table": lambda n, d, base=10000: None})
    >>> report.passed
    False
    >>> print(report)                                  # doctest: +ELLIPSIS
    ✗ 0 of 5 checks pass.
    ✗ pe_table(4, 4) returns a 4 × 4 array: pe_table(4, 4) returned None
    ...

The tasks, starters, hints and worked solutions are in the lesson's sources
(`lesson/cell.html`, read by `tools/exercises.py`); only the checks live here, one function
per check. A check is
`(what, test)`: `test(namespace)` returns nothing when the answer holds, or raises
`Wrong("why")`; any other exception in the learner's code is reported as what it says.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

from .positional_encoding import sinusoidal
from .rope import rope_rotate
from .stretch_effects import OUTSIDE, angle_coverage

# The first line of a report: the page reads the mark to say passed or failed
# (app/cells/cells.js, EXERCISE_PASSED).
PASSED, FAILED = "✓", "✗"


class Wrong(Exception):
    """An answer that does not hold, and why, in the learner's words."""


class Report:
    """What `check` found: `passed` (bool), `results`, a list of (what, None or why), and
    `note`, a line said once all pass (or None)."""

    def __init__(self, name, results, note=None):
        self.name = name
        self.results = results
        self.note = note

    @property
    def passed(self):
        return all(why is None for _, why in self.results)

    def __repr__(self):
        passing = sum(why is None for _, why in self.results)
        total = len(self.results)
        if self.passed:
            lines = [f"{PASSED} All {total} checks pass."]
        else:
            lines = [f"{FAILED} {passing} of {total} checks pass."]
        for what, why in self.results:
            lines.append(f"{PASSED} {what}" if why is None else f"{FAILED} {what}: {why}")
        if self.note and self.passed:
            lines.append(self.note)
        return "\n".join(lines)

    __str__ = __repr__


def _defined(namespace, name, kind="function"):
    value = namespace.get(name)
    if value is None:
        raise Wrong(f"the cell defines no {name}")
    if kind == "function" and not callable(value):
        raise Wrong(f"{name} is not a function")
    return value


def _array(value, shape, call):
    if value is None:
        raise Wrong(f"{call} returned None")
    try:
        array = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise Wrong(f"{call} returned {type(value).__name__}, not an array of numbers") from None
    if array.shape != shape:
        raise Wrong(f"{call} has shape {array.shape}, not {shape}")
    return array


def _close(mine, right, call, advice=""):
    worst = float(np.max(np.abs(mine - right)))
    if not worst <= 1e-9:  # NaN fails too
        raise Wrong(f"{call} is off by up to {worst:.3g}{advice}")


# ---- 1. The table from the formula ---------------------------------------------------------


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
        raise Wrong(f"row 0 of {call} is [{row}]: sin 0 = 0 and cos 0 = 1, pair after pair")


def _table_worked_example(namespace):
    table, call = _table(namespace, 4, 4)
    _close(table, sinusoidal(4, 4), call)


def _table_any_size(namespace):
    table, call = _table(namespace, 50, 128)
    _close(table, sinusoidal(50, 128), call)


def _table_base(namespace):
    table, call = _table(namespace, 10, 8, base=100.0)
    _close(table, sinusoidal(10, 8, base=100.0), call, ": does base reach the formula?")


# ---- 2. RoPE on a vector -------------------------------------------------------------------

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
        raise Wrong(f"{call} has length {mine:.6g}, q has {right:.6g}: a rotation keeps lengths")


def _rotate_pairs(namespace):
    turned, call = _rotated(namespace, _Q, 5)
    right = rope_rotate(_Q[None, :], [5])[0]
    _close(turned, right, call, ": is pair i (x[2i], x[2i+1]), turned by pos · w_i?")


def _rotate_relative(namespace):
    scores = []
    for shift in (0, 3, 40):
        q, _ = _rotated(namespace, _Q, 2 + shift)
        k, _ = _rotated(namespace, _K, 9 + shift, "k")
        scores.append(float(q @ k))
    if not np.allclose(scores, scores[0], rtol=1e-9, atol=1e-12):
        said = ", ".join(f"{s:.6g}" for s in scores)
        raise Wrong(f"rotate(q, 2 + s) · rotate(k, 9 + s) is {said} for s = 0, 3 and 40")
    q, _ = _rotated(namespace, _Q, 2)
    k, _ = _rotated(namespace, _K, 2, "k")
    if math.isclose(float(q @ k), scores[0], rel_tol=1e-6):
        raise Wrong("the score at offset 7 equals the score at offset 0: position has no effect")


# ---- 3. Stretching: which pairs leave their trained angles ---------------------------------

STRETCH = {"d": 128, "base": 10000.0, "train_len": 4096, "scale": 4.0}
_PREDICTIONS = ("interpolation", "ntk", "both", "neither")


def _outside(method):
    """The pairs a stretch by `method` sends past their trained angles by more than a step."""
    state = angle_coverage(method, **STRETCH)["state"]
    return [int(i) for i in np.flatnonzero(state == OUTSIDE)]


def _pairs(namespace, name):
    value = namespace.get(name)
    if value is None:
        raise Wrong(f"{name} is not set: a list of pair indices i")
    try:
        pairs = sorted(int(i) for i in value)
    except (TypeError, ValueError):
        raise Wrong(f"{name} is not a list of pair indices") from None
    return pairs


def _stretch_prediction(namespace):
    prediction = namespace.get("prediction")
    if prediction not in _PREDICTIONS:
        choices = ", ".join(f'"{p}"' for p in _PREDICTIONS)
        raise Wrong(f"prediction is {prediction!r}: say it first, one of {choices}")


def _stretch_method(method, name):
    def test(namespace):
        mine, right = _pairs(namespace, name), _outside(method)
        if mine != right:
            extra = sorted(set(mine) - set(right))
            missing = sorted(set(right) - set(mine))
            said = []
            if missing:
                said.append(f"{len(missing)} pairs missing (from pair {missing[0]})")
            if extra:
                said.append(f"{len(extra)} pairs that stay within a step (from pair {extra[0]})")
            raise Wrong("; ".join(said))

    return test


def _stretch_verdict(namespace):
    """Once the computation is right: was the prediction? (A check only that one was made.)"""
    moved = [method for method in ("interpolation", "ntk") if _outside(method)]
    right = {0: "neither", 2: "both"}.get(len(moved)) or moved[0]
    said = "right" if namespace.get("prediction") == right else f'not right: it is "{right}"'
    return f"Your prediction was {said}."


EXERCISES = {
    "formula": [
        ("pe_table(4, 4) returns a 4 × 4 array", _table_shape),
        ("position 0 is sin 0, cos 0, sin 0, cos 0", _table_first_row),
        ("pe_table(4, 4) is the worked example's table", _table_worked_example),
        ("pe_table(50, 128) matches the formula everywhere", _table_any_size),
        ("pe_table(10, 8, base=100) uses its base", _table_base),
    ],
    "rope": [
        ("rotate(q, 0) leaves q as it is", _rotate_zero),
        ("rotate(q, 7) keeps q's length", _rotate_length),
        ("rotate(q, 5) turns pair i by 5 · w_i", _rotate_pairs),
        ("the score depends only on the offset, and does depend on it", _rotate_relative),
    ],
    "stretch": [
        ("a prediction is made first", _stretch_prediction),
        ("outside_interpolation lists the right pairs", _stretch_method(
            "interpolation", "outside_interpolation")),
        ("outside_ntk lists the right pairs", _stretch_method("ntk", "outside_ntk")),
    ],
}
# What is said after all of an exercise's checks pass, if anything: notes(namespace) -> str.
NOTES = {"stretch": _stretch_verdict}


def check_exercise(name, namespace):
    """
    Check exercise `name` (a key of `EXERCISES`) against what `namespace` (a cell's globals:
    pass `globals()`) defines. Returns a `Report`: print it, or read `report.passed`.

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
            results.append((what, str(wrong)))
        except Exception as error:  # the learner's code failed: say so, in its own words
            results.append((what, f"{type(error).__name__}: {error}"))
        else:
            results.append((what, None))
    report = Report(name, results)
    if report.passed and name in NOTES:
        report.note = NOTES[name](namespace)
    return report
