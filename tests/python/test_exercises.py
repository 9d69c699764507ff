"""The exercises' checks (pelab.exercises): each exercise's worked solution, as the lesson's source
has it, passes every check; its starter, untouched, does not; and a report says in words what
holds and what does not."""

from __future__ import annotations

import doctest

import numpy as np
import pytest

import pelab
import pelab.exercises as exercises_module
from pelab.exercises import EXERCISES, FAILED, PASSED, STRETCH
from tools.course import read_course

pytestmark = pytest.mark.blas_numeric  # the RoPE checks take dot products (test_blas_kernels.py)

SOURCES = read_course().exercises  # lesson/*.html: each exercise's starter and worked solution


def run_cell(code: str) -> dict:
    """A cell's code run as the page runs it: in a fresh namespace with numpy and pelab."""
    namespace = {"np": np, "numpy": np, "pelab": pelab, "__name__": "__main__"}
    exec(compile(code, "<cell>", "exec"), namespace)  # noqa: S102 (the lesson's own code)
    return namespace


def test_every_exercise_of_the_lesson_has_checks_and_every_check_an_exercise():
    assert len(SOURCES) >= 3
    assert list(SOURCES) == list(EXERCISES)
    assert {exercise.section for exercise in SOURCES.values()} == {"cell"}


@pytest.mark.parametrize("name", list(SOURCES))
def test_the_worked_solution_passes_every_check(name):
    report = pelab.check_exercise(name, run_cell(SOURCES[name].solution))
    assert report.passed, repr(report)
    first, *lines = repr(report).splitlines()
    assert first == f"{PASSED} All {len(EXERCISES[name])} checks pass."
    assert all(line.startswith(PASSED) for line in lines[: len(EXERCISES[name])])


@pytest.mark.parametrize("name", list(SOURCES))
def test_the_untouched_starter_runs_and_fails_saying_why(name):
    report = pelab.check_exercise(name, run_cell(SOURCES[name].starter))
    assert not report.passed
    first, *lines = repr(report).splitlines()
    assert first.startswith(f"{FAILED} ") and first.endswith("checks pass.")
    failed = [line for line in lines if line.startswith(FAILED)]
    assert failed and all(": " in line for line in failed)  # each says why


def test_the_starters_fail_where_they_should():
    """The formula's starter gets the shape right and the numbers wrong; RoPE's, which turns
    nothing, keeps lengths but misses the turn; the stretch's has no prediction and no lists."""
    said = {name: dict(pelab.check_exercise(name, run_cell(SOURCES[name].starter)).results)
            for name in SOURCES}
    formula = said["formula"]
    assert formula["pe_table(4, 4) returns a 4 × 4 array"] is None
    assert "row 0 of pe_table(4, 4) is [0, 0, 0, 0]" in formula[
        "position 0 is sin 0, cos 0, sin 0, cos 0"]
    rope = said["rope"]
    assert rope["rotate(q, 0) leaves q as it is"] is None
    assert rope["rotate(q, 7) keeps q's length"] is None
    assert "position has no effect" in rope[
        "the score depends only on the offset, and does depend on it"]
    stretch = said["stretch"]
    assert "say it first" in stretch["a prediction is made first"]
    assert "is not set" in stretch["outside_ntk lists the right pairs"]


def test_a_crash_in_the_learners_code_is_reported_as_what_it_says():
    def pe_table(seq_len, d_model, base=10000):
        return np.zeros((seq_len, d_model)) / undefined  # noqa: F821 (the learner's slip)

    report = pelab.check_exercise("formula", {"pe_table": pe_table})
    assert not report.passed
    assert "NameError: name 'undefined' is not defined" in repr(report)
    assert "the cell defines no pe_table" in repr(pelab.check_exercise("formula", {}))


def test_the_stretch_solution_says_what_the_lesson_says():
    """Interpolation keeps every pair within a trained step; NTK-aware scaling sends pairs 46 to
    62 further (the solution's comment), the slowest only just past; the prediction is judged."""
    namespace = run_cell(SOURCES["stretch"].solution)
    assert namespace["outside_interpolation"] == []
    assert namespace["outside_ntk"] == list(range(46, 63))
    assert "pairs 46 to 62" in SOURCES["stretch"].solution
    state = pelab.angle_coverage("ntk", **STRETCH)["state"]
    assert state[63] == 1  # just past: the slowest pair's angle grows by s only
    report = pelab.check_exercise("stretch", namespace)
    assert report.note == "Your prediction was right."
    namespace["prediction"] = "interpolation"
    assert pelab.check_exercise("stretch", namespace).note == (
        'Your prediction was not right: it is "ntk".'
    )


def test_a_wrong_answer_is_told_what_is_off():
    namespace = run_cell(SOURCES["stretch"].solution)
    namespace["outside_ntk"] = list(range(40, 60))
    why = dict(pelab.check_exercise("stretch", namespace).results)[
        "outside_ntk lists the right pairs"]
    assert why == "3 pairs missing (from pair 60); 6 pairs that stay within a step (from pair 40)"
    wrong_base = run_cell(SOURCES["formula"].solution.replace("base **", "10000 **", 1))
    why = dict(pelab.check_exercise("formula", wrong_base).results)[
        "pe_table(10, 8, base=100) uses its base"]
    assert why.startswith("pe_table(10, 8, base=100) is off by up to ")
    assert why.endswith(": does base reach the formula?")


def test_an_unknown_exercise_is_a_clear_error():
    with pytest.raises(ValueError, match="name must be one of formula, rope, stretch"):
        pelab.check_exercise("nope", {})


def test_the_module_s_examples_hold():
    assert doctest.testmod(exercises_module).failed == 0
