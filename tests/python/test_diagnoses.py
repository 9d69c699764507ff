"""The exercises' diagnoses (pelab.diagnoses): a sentence is filled in as the page fills it; each
common slip gives an answer of its own on every exercise's probe, so that no diagnosis is a
guess between two; and `diagnose` names one slip, or two made at once, and nothing for a right
answer. test_exercises.py feeds the slips as learners write them."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from pelab import mrope_position_ids
from pelab.diagnoses import (
    COMMON,
    DIAGNOSES,
    DIAGNOSIS_OF,
    MISTAKES,
    MROPE_SLIPS,
    Said,
    diagnose,
    mrope_variant,
    ntk_variant,
    said,
    same,
    shift_variant,
    table_variant,
    turn_variant,
)

X = np.array([0.3, -1.2, 0.8, 0.5, -0.4, 1.1, 0.9, -0.7])
# Each exercise's answer as a function of its slips, on an input like its check's.
VARIANTS = {
    "table": (lambda slips: table_variant(6, 8, 10000.0, slips), COMMON),
    "shift": (lambda slips: shift_variant(3, 8, 10000.0, slips), (*COMMON, "wrong-way")),
    "turn": (lambda slips: turn_variant(X, 5, 10000.0, slips, halves=False),
             (*COMMON, "wrong-way")),
    "ntk": (lambda slips: ntk_variant(X, 100, 4.0, 10000.0, slips),
            (*COMMON, "wrong-way", "interpolation", "unscaled", "base-times-s")),
}


def test_a_sentence_is_filled_in_once_as_the_page_fills_it():
    """app/i18n.js fills {name} slots in one pass: a value's own braces stay, and a slot without
    a value stays as it is."""
    assert str(said("{a} and {b}", a="{b}", b=1)) == "{b} and 1"
    assert str(said("{a} and {c}", a=2)) == "2 and {c}"
    assert str(Said("NameError: name '{x}' is not defined", raw=True)) == (
        "NameError: name '{x}' is not defined"
    )
    assert said("{n} pairs", n=3).plain() == {"text": "{n} pairs", "values": {"n": "3"}}


def test_every_common_slip_has_its_sentence():
    named = {DIAGNOSIS_OF.get(slip, slip) for slip in COMMON}
    assert named == set(MISTAKES)
    assert all(str(DIAGNOSES[name]).startswith("Diagnosis, ") for name in DIAGNOSES)


@pytest.mark.parametrize("exercise", list(VARIANTS))
def test_each_slip_gives_an_answer_of_its_own(exercise):
    variant, slips = VARIANTS[exercise]
    answers = {(): variant(frozenset())}
    answers.update({(slip,): variant(frozenset([slip])) for slip in slips})
    for (a, one), (b, other) in itertools.combinations(answers.items(), 2):
        assert not same(one, other), (exercise, a, b)


@pytest.mark.parametrize("exercise", list(VARIANTS))
def test_diagnose_names_one_slip_or_two_and_nothing_for_a_right_answer(exercise):
    variant, slips = VARIANTS[exercise]
    assert diagnose(variant(frozenset()), variant, slips, layout="layout-halves") == []
    for slip in slips:
        found = diagnose(variant(frozenset([slip])), variant, slips, layout="layout-halves")
        name = DIAGNOSIS_OF.get(slip, slip)
        assert found == ["layout-halves" if name == "layout" else name]
    both = diagnose(variant(frozenset(["factor-2", "swapped"])), variant, slips,
                    layout="layout-halves")
    assert sorted(both) == ["factor-2", "swapped"]
    assert diagnose(2 * variant(frozenset(["swapped"])), variant, slips, layout="x") == []


def test_the_m_rope_slips_each_give_ids_of_their_own_and_none_is_pelab_s():
    """The M-RoPE exercise's probe, text 2, an image of 2 × 3 and text 2: no slip (nor two at
    once) gives pelab's ids, each gives ids of its own, and `diagnose` names each."""
    def variant(slips):
        return mrope_variant(2, 2, 3, 2, slips)

    right = mrope_position_ids([("text", 2), ("image", (1, 2, 3)), ("text", 2)])
    np.testing.assert_array_equal(variant(frozenset()), right)
    answers = {(): right}
    answers.update({(slip,): variant(frozenset([slip])) for slip in MROPE_SLIPS})
    for (a, one), (b, other) in itertools.combinations(answers.items(), 2):
        assert not same(one, other), (a, b)
    assert all(str(DIAGNOSES[slip]).startswith("Diagnosis, ") for slip in MROPE_SLIPS)
    assert diagnose(right, variant, MROPE_SLIPS, layout="x") == []
    for slip in MROPE_SLIPS:
        assert diagnose(variant(frozenset([slip])), variant, MROPE_SLIPS, layout="x") == [slip]
    both = frozenset(["rows-columns-swapped", "resume-at-largest"])
    assert sorted(diagnose(variant(both), variant, MROPE_SLIPS, layout="x")) == sorted(both)
    assert diagnose(right + 2, variant, MROPE_SLIPS, layout="x") == []
