r"""
# How an exercise's check reports: the report, and the learner's answer read

`pelab.exercises` runs each check; this module holds what they share. A check that does not
hold raises `Wrong(why)`, `why` a `Said`; `Report` gathers what passed and what did not, with
the diagnoses, and says it in English (`str`) or as the page words it (`for_page`). `_defined`,
`_array`, `_close` and `_probe` read the learner's names and answers, each failure a `Wrong`
that says in words what came instead.
"""

from __future__ import annotations

import json

import numpy as np

from .diagnoses import DIAGNOSES, TOLERANCE, said

# The first line of a report: the page reads the mark to say passed or failed.
PASSED, FAILED = "✓", "✗"


class Wrong(Exception):
    """An answer that does not hold, and why (a `Said`)."""

    def __init__(self, why):
        super().__init__(str(why))
        self.why = why


class Report:
    """What `check_exercise` found: `passed` (bool), `results`, a list of (what, None or why),
    each a `Said`; `diagnoses`, the names of the slips the answer is exactly what they give
    (keys of `DIAGNOSES`); and `note`, a sentence said once all pass (or None)."""

    def __init__(self, name, results, note=None, diagnoses=()):
        self.name = name
        self.results = results
        self.note = note
        self.diagnoses = list(diagnoses)

    @property
    def passed(self):
        return all(why is None for _, why in self.results)

    def summary(self):
        """The report's first sentence, after its mark."""
        total = len(self.results)
        if self.passed:
            return said("All {total} checks pass.", total=total)
        passing = sum(why is None for _, why in self.results)
        return said("{passing} of {total} checks pass.", passing=passing, total=total)

    def lines(self):
        """The report as (mark, what, why) triples, then the diagnoses and note as
        ("", sentence, None)."""
        found = [(PASSED if self.passed else FAILED, self.summary(), None)]
        for what, why in self.results:
            found.append((PASSED if why is None else FAILED, what, why))
        found += [("", DIAGNOSES[name], None) for name in self.diagnoses]
        if self.note and self.passed:
            found.append(("", self.note, None))
        return found

    def __repr__(self):
        lines = []
        for mark, what, why in self.lines():
            text = str(what) if why is None else f"{what}: {why}"
            lines.append(f"{mark} {text}" if mark else text)
        return "\n".join(lines)

    __str__ = __repr__

    def for_page(self):
        """The report as the page reads it: an object whose repr is JSON, `{"passed": bool,
        "lines": [{"mark": "✓" | "✗" | "", "what": sentence, "why": sentence or null}]}`,
        each sentence `{"text", "values"}` (or `{"raw"}`, Python's own words)."""
        return _Json({
            "passed": self.passed,
            "lines": [
                {"mark": mark, "what": what.plain(), "why": None if why is None else why.plain()}
                for mark, what, why in self.lines()
            ],
        })


class _Json:
    """A value whose repr is its JSON: a code cell's result reaches the page as its repr."""

    def __init__(self, value):
        self.value = value

    def __repr__(self):
        return json.dumps(self.value, ensure_ascii=False)


def _defined(namespace, name, kind="function"):
    value = namespace.get(name)
    if value is None:
        raise Wrong(said("the cell defines no {name}", name=name))
    if kind == "function" and not callable(value):
        raise Wrong(said("{name} is not a function", name=name))
    return value


def _array(value, shape, call):
    if value is None:
        raise Wrong(said("{call} returned None", call=call))
    try:
        array = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise Wrong(said("{call} returned {type}, not an array of numbers", call=call,
                         type=type(value).__name__)) from None
    if array.shape != shape:
        raise Wrong(said("{call} has shape {shape}, not {expected}", call=call,
                         shape=array.shape, expected=shape))
    return array


def _close(mine, right, call):
    worst = float(np.max(np.abs(mine - right)))
    if not worst <= TOLERANCE:  # NaN fails too
        raise Wrong(said("{call} is off by up to {worst}", call=call, worst=format(worst, ".3g")))


def _probe(namespace, name, call, shape, *args, **kwargs):
    """The learner's `name(*args, **kwargs)` as an array of `shape`, or None if it cannot be
    had (that check's own message says why)."""
    try:
        function = _defined(namespace, name)
        return _array(function(*args, **kwargs), shape, call)
    except Exception:  # the learner's code failed: the checks say how
        return None
