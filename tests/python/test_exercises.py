"""The exercises' checks (pelab.exercises): each exercise sits after the section it practises,
in every chapter before the review, with staged hints; its worked solution, as the lesson's
source has it, passes every check; its starter, untouched, does not; a report says in words what
holds and what does not; and each common slip, written into the worked solution as a learner
would write it, gets its named diagnosis."""

from __future__ import annotations

import doctest
import itertools
import json

import numpy as np
import pytest

import pelab
import pelab.exercises as exercises_module
from exercise_slips import SLIPS, diagnosis, slipped
from pelab.diagnoses import DIAGNOSES, MISTAKES, MROPE_SLIPS, Said
from pelab.exercises import EXERCISES, FAILED, PASSED, STRETCH
from tools.catalogs import javascript_messages
from tools.course import read_course

pytestmark = pytest.mark.blas_numeric  # the checks take dot and matrix products

COURSE = read_course()
SOURCES = COURSE.exercises  # lesson/*.html: each exercise's task, hints, starter and solution


def run_cell(code: str) -> dict:
    """A cell's code run as the page runs it: in a fresh namespace with numpy and pelab."""
    namespace = {"np": np, "numpy": np, "pelab": pelab, "__name__": "__main__"}
    exec(compile(code, "<cell>", "exec"), namespace)  # noqa: S102 (the lesson's own code)
    return namespace


def test_every_exercise_of_the_lesson_has_checks_and_every_check_an_exercise():
    assert list(SOURCES) == list(EXERCISES) == list(SLIPS)
    assert len(SOURCES) >= 5


def test_each_chapter_before_the_review_has_an_exercise_after_the_section_it_practises():
    """The exercise is the section's last block (after its figures, trap and cell), and each
    chapter but the review has one (chapter 1 to 4's, and today's models' on image patches)."""
    where = {name: exercise.section for name, exercise in SOURCES.items()}
    today = next(c for c in COURSE.chapters if c.name == "today")
    assert where["mrope"] == today.sections[0]  # the section on images, today's first
    assert {name: s for name, s in where.items() if name != "mrope"} == {
        "formula": "formula", "shift": "relative", "rope": "rope", "stretch": "stretching",
        "ntk": "stretching"}
    chapters = [c for c in COURSE.chapters if set(where.values()) & set(c.sections)]
    assert [c.sections for c in chapters] == [c.sections for c in COURSE.chapters[:-1]]
    for name, section in where.items():
        source = COURSE.sections[section].source
        block = source.index(f'<div class="exercise" id="exercise-{name}">')
        assert source.index("</details>", source.index('class="show-python"')) < block, name
        after = source[block:]  # nothing new after it but exercises
        assert after.count("<h3") == after.count("<h3>Exercise: "), name


@pytest.mark.parametrize("name", list(SOURCES))
def test_each_exercise_has_two_or_three_staged_hints_before_its_solution(name):
    exercise = SOURCES[name]
    assert 2 <= len(exercise.hints) <= 3
    source = COURSE.sections[exercise.section].source
    block = source[source.index(f'id="exercise-{name}"'):]
    block = block[: block.index('<details class="exercise-solution">')]
    # each hint opens inside the one before: no hint closes before the solution opens
    assert block.count('<details class="exercise-hint">') == len(exercise.hints)
    assert "</details>" not in block


@pytest.mark.parametrize("name", list(SOURCES))
def test_the_worked_solution_passes_every_check(name):
    report = pelab.check_exercise(name, run_cell(SOURCES[name].solution))
    assert report.passed, repr(report)
    first, *lines = repr(report).splitlines()
    assert first == f"{PASSED} All {len(EXERCISES[name])} checks pass."
    assert all(line.startswith(PASSED) for line in lines[: len(EXERCISES[name])])
    assert report.diagnoses == []


@pytest.mark.parametrize("name", list(SOURCES))
def test_the_untouched_starter_runs_and_fails_saying_why(name):
    report = pelab.check_exercise(name, run_cell(SOURCES[name].starter))
    assert not report.passed
    first, *lines = repr(report).splitlines()
    assert first.startswith(f"{FAILED} ") and first.endswith("checks pass.")
    failed = [line for line in lines if line.startswith(FAILED)]
    assert failed and all(": " in line for line in failed)  # each says why


@pytest.mark.parametrize(
    ("name", "slip"), [(name, slip) for name in SLIPS for slip in SLIPS[name]]
)
def test_each_common_slip_gets_its_named_diagnosis(name, slip):
    """The five slips of issue 50 (MISTAKES), and the exercise's own, each written into the
    worked solution: the checks fail and the report names that slip, and only it."""
    report = pelab.check_exercise(name, run_cell(slipped(name, [slip])))
    assert not report.passed, slip
    expected = diagnosis(name, slip)
    assert report.diagnoses == [expected], (slip, repr(report))
    assert str(DIAGNOSES[expected]) in repr(report)


def test_every_exercise_but_the_stretch_and_m_rope_is_tried_with_all_five_slips():
    """The stretch exercise computes no sine or cosine and lays out no pairs, so "swapped" and
    "layout" cannot happen there; its off-by-one is the trained reach's. The M-RoPE exercise
    computes ids, no angles: its five slips are its own (MROPE_SLIPS)."""
    for name, slips in SLIPS.items():
        tried = {slip.removeprefix("stretch-") for slip in slips}
        missing = set(MISTAKES) - tried
        expected = {"stretch": {"swapped", "layout"}, "mrope": set(MISTAKES)}.get(name, set())
        assert missing == expected, name
    assert set(SLIPS["mrope"]) == set(MROPE_SLIPS)


@pytest.mark.parametrize(
    ("name", "slips"),
    [("formula", ["factor-2", "swapped"]), ("rope", ["layout", "off-by-one"]),
     ("shift", ["degrees", "factor-2"]), ("ntk", ["unscaled", "swapped"]),
     ("mrope", ["rows-columns-swapped", "resume-at-largest"]),
     ("mrope", ["ids-from-one", "one-id-per-patch"])],
)
def test_two_slips_at_once_are_both_named(name, slips):
    report = pelab.check_exercise(name, run_cell(slipped(name, slips)))
    assert sorted(report.diagnoses) == sorted(diagnosis(name, slip) for slip in slips)


def test_a_missing_factor_2_is_no_longer_sent_to_the_base():
    """Issue 50: the exponent i/d used to get "does base reach the formula?". Now it gets its
    own diagnosis, and only a table that ignores base gets told about base."""
    report = pelab.check_exercise("formula", run_cell(slipped("formula", ["factor-2"])))
    assert report.diagnoses == ["factor-2"] and "base reach" not in repr(report)
    ignores_base = run_cell(SOURCES["formula"].solution.replace("base **", "10000 **", 1))
    report = pelab.check_exercise("formula", ignores_base)
    assert dict(report.results)[EXERCISES["formula"][4][0]] is not None
    assert report.diagnoses == ["base-ignored"]


def test_an_answer_like_no_slip_gets_no_diagnosis():
    report = pelab.check_exercise("rope", run_cell(slipped("rope", ["swapped"]).replace(
        "return out", "return 2 * out")))
    assert not report.passed and report.diagnoses == []
    assert not any(line.startswith("Diagnosis") for line in repr(report).splitlines())


def test_the_starters_fail_where_they_should():
    """The formula's starter gets the shape right and the numbers wrong; RoPE's, which turns
    nothing, keeps lengths but misses the turn; the stretch's has no prediction and no lists."""
    said = {name: {str(what): why and str(why) for what, why in
                   pelab.check_exercise(name, run_cell(SOURCES[name].starter)).results}
            for name in SOURCES}
    formula = said["formula"]
    assert formula["pe_table(4, 4) returns an array of shape (4, 4)"] is None
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
    shift = said["shift"]
    assert shift["shift_matrix(3, 8) returns an array of shape (8, 8)"] is None
    assert "is not the identity" in shift["shift_matrix(0, 8) is the identity"]
    ntk = said["ntk"]
    assert ntk["rotate_ntk(q, 0, 4) leaves q as it is"] is None
    mrope = said["mrope"]
    assert mrope["mrope_ids(3, 2, 4, 2) returns an array of shape (3, 13)"] is None
    assert mrope["mrope_ids(3, 2, 4, 2) gives the text before the image (p, p, p), p = 0, 1, 2"] \
        == "token 1 of mrope_ids(3, 2, 4, 2) carries (0, 0, 0); pelab gives (1, 1, 1)"


def test_a_crash_in_the_learners_code_is_reported_as_what_it_says():
    def pe_table(seq_len, d_model, base=10000):
        return np.zeros((seq_len, d_model)) / undefined  # noqa: F821 (the learner's slip)

    report = pelab.check_exercise("formula", {"pe_table": pe_table})
    assert not report.passed and report.diagnoses == []
    assert "NameError: name 'undefined' is not defined" in repr(report)
    page = json.loads(repr(report.for_page()))
    assert page["lines"][1]["why"] == {"raw": "NameError: name 'undefined' is not defined"}
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
    assert str(report.note) == "Your prediction was right."
    namespace["prediction"] = "interpolation"
    assert str(pelab.check_exercise("stretch", namespace).note) == (
        'Your prediction was not right: it is "ntk".'
    )


def test_a_wrong_list_is_told_what_is_off():
    namespace = run_cell(SOURCES["stretch"].solution)
    namespace["outside_ntk"] = list(range(40, 60))
    why = {str(what): str(why) for what, why in
           pelab.check_exercise("stretch", namespace).results}["outside_ntk lists the right pairs"]
    assert why == "3 pairs missing (from pair 60); 6 pairs that stay within a step (from pair 40)"


def test_the_page_gets_each_sentence_as_its_english_and_values_from_the_catalog():
    """Issue 50: the page words a report from its own catalog. Each sentence comes as its
    English with {name} slots and their values (for_page's JSON), the slots filled in give the
    English report line for line, and every English sentence is a message the catalogs hold
    (tools/i18n.py extracts pelab's said())."""
    messages = set(javascript_messages())
    seen = set()
    for name in SLIPS:
        for slip in SLIPS[name]:
            for code in (slipped(name, [slip]), SOURCES[name].starter, SOURCES[name].solution):
                report = pelab.check_exercise(name, run_cell(code))
                page = json.loads(repr(report.for_page()))
                assert page["passed"] == report.passed
                lines = []
                for line in page["lines"]:
                    text = [str(Said(s["text"], **s["values"])) if "text" in s else s["raw"]
                            for s in (line["what"], line["why"]) if s]
                    seen.update(s["text"] for s in (line["what"], line["why"]) if s and "text" in s)
                    lines.append(" ".join(filter(None, [line["mark"], ": ".join(text)])))
                assert lines == repr(report).splitlines()
    assert seen - messages == set()
    assert {d.text for d in DIAGNOSES.values()} <= messages


def test_an_unknown_exercise_is_a_clear_error():
    with pytest.raises(ValueError,
                       match="name must be one of formula, shift, rope, stretch, ntk, mrope, got"):
        pelab.check_exercise("no-such-exercise", {})


def test_the_module_s_examples_hold():
    assert doctest.testmod(exercises_module).failed == 0


def test_the_m_rope_checks_compare_with_pelab_on_every_shape_they_say():
    """The worked solution equals pelab.mrope_position_ids on the shapes the check names, and on
    more (text after or none, images of every shape up to 6 × 6); a wrong id is named, token and
    all."""
    solution = run_cell(SOURCES["mrope"].solution)
    for before, rows, columns, after in itertools.product((1, 3), range(1, 7), range(1, 7),
                                                         (0, 2)):
        segments = [("text", before), ("image", (1, rows, columns))] + (
            [("text", after)] if after else [])
        np.testing.assert_array_equal(solution["mrope_ids"](before, rows, columns, after),
                                      pelab.mrope_position_ids(segments))
    shapes = exercises_module.MROPE_SHAPES
    assert any(r > c for _, r, c, _ in shapes) and any(r < c for _, r, c, _ in shapes)
    assert (1, 1) in {(r, c) for _, r, c, _ in shapes} and any(a == 0 for *_, a in shapes)
    namespace = run_cell(slipped("mrope", ["one-id-per-patch"]))
    why = {str(what): why and str(why) for what, why in
           pelab.check_exercise("mrope", namespace).results}
    assert why["mrope_ids(3, 2, 4, 2) resumes the text after the image at the image's largest "
               "id + 1"] == (
        "token 11 of mrope_ids(3, 2, 4, 2) carries (11, 11, 11); pelab gives (7, 7, 7)")
