"""Tests for pelab.browser.demos.extrapolation: what the extrapolation demo's entry points hand the
worker (app/demos/extrapolation.js), under CPython."""

import math

import numpy as np
import pytest
from hypothesis import strategies as st

import pelab
from fuzzing import (
    BASE_JUNK,
    JUNK,
    Spec,
    as_int,
    bases,
    entry_point_fuzz_tests,
    finite,
    optional,
    size_junk,
    sizes,
)
from pelab.browser import sessions
from pelab.browser.entry_points import call
from pelab.browser.limits import MAX_MATRIX_WIDTH
from pelab.experiments import sliced
from pelab.extrapolation import MAX_NEAREST_LEN
from plain_results import assert_plain

# Its entry points' results go through BLAS (`@`, lstsq): rerun under every kernel.
pytestmark = pytest.mark.blas_numeric


EXTRAPOLATION_KEYS = {"nearest", "train_len", "at_train", "beyond"}


def test_extrapolation():
    result = call(
        "extrapolation", {"d_model": 16, "base": 10000.0, "train_len": 64, "seq_len": 512}
    )
    assert set(result) == EXTRAPOLATION_KEYS
    assert_plain(result, {"nearest": np.float64})
    assert result["nearest"].shape == (512,)
    assert math.isnan(result["nearest"][0])
    np.testing.assert_array_equal(result["nearest"][1:], pelab.nearest_distances(512, 16)[1:])
    assert result["train_len"] == 64
    assert (
        result["at_train"] == result["nearest"][63] and result["beyond"] == result["nearest"][511]
    )
    assert result["at_train"] > 1.0 and result["beyond"] > 1.0


def test_extrapolation_few_pairs_alias():
    result = call("extrapolation", {"d_model": 4, "base": 1.5, "train_len": 64, "seq_len": 512})
    assert result["at_train"] > 0.4 and result["beyond"] < 0.06
    result = call(
        "extrapolation", {"d_model": 64, "base": 10000.0, "train_len": 1024, "seq_len": 1024}
    )
    assert result["at_train"] == result["beyond"]
    result = call("extrapolation", {"d_model": 5, "base": 100.0, "train_len": 2, "seq_len": 2})
    assert result["at_train"] == result["beyond"]


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"seq_len": 1}, r"^seq_len must be an integer from 2 to 2048, got 1$"),
        ({"seq_len": 2049}, r"^seq_len must be an integer from 2 to 2048"),
        ({"train_len": 600}, r"^train_len must be an integer from 2 to 512, got 600$"),
        ({"train_len": 1}, r"^train_len must be an integer from 2 to 512"),
        ({"d_model": 0}, r"^d_model must be an integer from 1 to 1024"),
        (
            {"seq_len": 2048, "d_model": 64},
            r"^seq_len \* seq_len \* d_model must be at most 67108864",
        ),
        ({"base": -2}, r"^base must be a finite real number"),
    ],
)
def test_extrapolation_bad_arguments(changes, message):
    kwargs = {"d_model": 16, "base": 10000.0, "train_len": 64, "seq_len": 512, **changes}
    with pytest.raises(ValueError, match=message):
        call("extrapolation", kwargs)


def test_length_generalisation_in_slices(monkeypatch):
    monkeypatch.setitem(sliced.SETTINGS, "quick",
                        {"steps": 2, "seeds": (0, 1), "eval_batches": 1})
    state = call("length_generalisation_reset", {"quick": True})
    runs, lengths = len(state["runs"]), len(state["lengths"])
    assert (state["steps_done"], state["total_steps"], state["done"]) == (0, runs * 4, False)
    assert state["current"] == "none, seed 0" and state["max_train_len"] == 8
    assert np.isnan(state["accuracy"]).all()
    state = call("length_generalisation_step", {"steps": 4})
    rows = state["accuracy"].reshape(runs, lengths)
    assert np.isfinite(rows[0]).all() and np.isnan(rows[1:]).all()
    while not state["done"]:
        state = call("length_generalisation_step", {"steps": 200})
    experiment = sessions._SESSIONS["length_generalisation"]
    # Means and extremes over the seeds, the same numbers.
    np.testing.assert_array_equal(state["accuracy"], experiment.accuracy.mean(axis=1).ravel())
    np.testing.assert_array_equal(state["accuracy_min"], experiment.accuracy.min(axis=1).ravel())
    assert state["current"] is None and state["chance"] == 1 / 8


# ---------------------------------------------------------------------------
# Fuzzing (tests/python/fuzzing.py): junk of every kind for each entry point of this demo
# ---------------------------------------------------------------------------


def check_extrapolation(kw, r):
    s = as_int(kw["seq_len"])
    assert_plain(r, {"nearest": (np.float64, s)})
    assert math.isnan(r["nearest"][0])
    finite(r["nearest"][1:])


def check_length_generalisation(kw, r):
    cells = len(r["runs"]) * len(r["lengths"])
    assert_plain(r, {"accuracy": (np.float64, cells), "accuracy_min": (np.float64, cells),
                     "accuracy_max": (np.float64, cells)})
    assert 0 <= r["steps_done"] <= r["total_steps"]


@st.composite
def extrapolation_args(draw):
    seq_len = draw(st.integers(2, 64))
    return {"d_model": draw(sizes(1, 32)), "base": draw(bases()),
            "train_len": draw(st.integers(2, seq_len)), "seq_len": seq_len}


FUZZ_SPECS = {
    "extrapolation": Spec(
        None,
        extrapolation_args(),
        {
            "d_model": size_junk(1, MAX_MATRIX_WIDTH),
            "base": BASE_JUNK,
            "train_len": size_junk(2, 64),
            "seq_len": size_junk(2, MAX_NEAREST_LEN),
        },
        check_extrapolation,
        related={"seq_len": {"train_len", "d_model"}, "d_model": {"seq_len"}},
    ),
    "length_generalisation_reset": Spec(
        None,
        optional(
            {},
            quick=st.sampled_from([True, False, np.bool_(True)]),
            task=st.sampled_from(["copy", "reverse"]),
        ),
        {"quick": JUNK, "task": JUNK},
        check_length_generalisation,
    ),
    "length_generalisation_step": Spec(
        None,
        optional({}, steps=sizes(1, 2)),
        {"steps": size_junk(1, 200)},
        check_length_generalisation,
        # a step needs an experiment first: made small, before each call
        prepare=lambda: call("length_generalisation_reset", {"quick": True}),
    ),
}
test_fuzzed_arguments, test_fuzzed_keywords = entry_point_fuzz_tests(FUZZ_SPECS)
