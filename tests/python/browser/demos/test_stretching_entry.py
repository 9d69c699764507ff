"""Tests for pelab.browser.demos.stretching: what the stretching demo's entry points hand the worker
(app/demos/stretching.js), under CPython."""

import math

import numpy as np
import pytest
from hypothesis import strategies as st

import pelab
from fuzzing import (
    JUNK,
    SCALE_JUNK,
    Spec,
    entry_point_fuzz_tests,
    finite,
    optional,
    scales,
    size_junk,
    sizes,
)
from pelab.browser import sessions
from pelab.browser.entry_points import call
from pelab.experiments import sliced
from plain_results import assert_plain

# Its entry points' results go through BLAS (`@`, lstsq): rerun under every kernel.
pytestmark = pytest.mark.blas_numeric

# The stretching entry point's arrays: one value per pair of the demo's 128-wide head, but for
# the score curves, whose length depends on the model.
HALF = 64
STRETCHING_ARRAYS = {
    key: (np.float64, HALF)
    for key in ("omega", "frequencies", "trained", "reached", "trained_arc", "hand", "hand_before")
} | {
    "state": (np.uint8, HALF),
    "state_before": (np.uint8, HALF),
    "offsets": np.float64,
    "scores_before": np.float64,
    "scores_after": np.float64,
}


@pytest.mark.parametrize("model", sorted(pelab.context_scaling.MODEL_SETTINGS))
@pytest.mark.parametrize("method", pelab.context_scaling.METHODS)
def test_stretching_entry_point(model, method):
    settings = pelab.context_scaling.MODEL_SETTINGS[model]
    r = call("stretching", {"model": model, "scale": 4, "method": method})
    assert_plain(r, STRETCHING_ARRAYS)
    L, base = settings["train_len"], settings["base"]
    assert (r["name"], r["base"], r["train_len"], r["d"], r["last"]) == (
        settings["name"],
        base,
        L,
        128,
        4 * L - 1,
    )
    # Angles recomputed here, pair by pair with math: w_i = base^(-2i/128).
    for i in (0, 20, 40, 63):
        w = base ** (-2 * i / 128)
        assert r["trained"][i] == pytest.approx((L - 1) * w, rel=1e-13)
        assert r["trained_arc"][i] == pytest.approx(min((L - 1) * w, 2 * math.pi), rel=1e-13)
        assert r["hand_before"][i] == pytest.approx(
            math.fmod((4 * L - 1) * w, 2 * math.pi), abs=1e-9
        )
        assert r["reached"][i] == pytest.approx((4 * L - 1) * r["frequencies"][i], rel=1e-15)
    states = pelab.angle_coverage(method, 128, base, L, 4)["state"]
    np.testing.assert_array_equal(r["state"], states)
    assert r["outside"] == int((states == 2).sum()) and r["just_past"] == int((states == 1).sum())
    assert r["outside_before"] > 0  # without scaling, a 4-fold stretch takes slow pairs out
    assert r["attention_factor"] == (
        pytest.approx(0.1 * math.log(4) + 1) if method == "yarn" else 1.0
    )
    assert (r["new_base"] is None) == (method != "ntk")
    assert r["fastest_step"] == pytest.approx(0.25 if method == "interpolation" else 1.0, rel=1e-15)
    assert r["offsets"][0] == 0 and r["offsets"][-1] == 4 * L - 1
    assert abs(r["scores_before"][0] - r["scores_after"][0]) < 1e-12  # offset 0: no rotation at all
    assert np.all(np.abs(r["scores_before"]) <= 1 + 1e-12) and np.all(
        np.abs(r["scores_after"]) <= 1 + 1e-12
    )


def test_stretching_counts_changed_pairs():
    counts = {m: call("stretching", {"model": "llama2", "scale": 4, "method": m})["changed_pairs"]
              for m in pelab.context_scaling.METHODS}
    # none changes nothing; interpolation every pair; NTK all but the fastest; YaRN and
    # Llama 3.1 only the pairs slower than their ramps' upper bounds.
    assert counts["none"] == 0 and counts["interpolation"] == 64 and counts["ntk"] == 63
    assert 0 < counts["llama3"] < counts["yarn"] < 63


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"model": "gpt2"}, r"^model must be one of 'llama2', 'codellama', 'llama3', got 'gpt2'$"),
        (
            {"scale": 0},
            r"^scale must be a finite real number at least 1 and at most 1024.0, got 0$",
        ),
        ({"method": "linear"}, r"^method must be one of"),
        ({"seed": 2**40}, r"^seed must be an integer from 0 to 4294967295"),
    ],
)
def test_stretching_entry_point_bad_arguments(changes, message):
    with pytest.raises(ValueError, match=message):
        call("stretching", {"model": "llama2", "scale": 2, "method": "yarn", **changes})


def test_stretch_experiment_in_slices(monkeypatch):
    monkeypatch.setitem(sliced.SETTINGS, "quick",
                        {"steps": 3, "seeds": (0, 1), "eval_batches": 1})
    state = call("stretch_experiment_reset", {"quick": True})
    assert (state["steps_done"], state["total_steps"], state["done"]) == (0, 6, False)
    assert state["methods"] == ["none", "interpolation", "ntk", "yarn"]
    assert state["lengths"] == [8, 16, 32] and state["scales"] == [1, 2, 4]
    assert state["current"] == 0 and state["seeds_done"] == 0
    assert np.isnan(state["accuracy"]).all()
    state = call("stretch_experiment_step", {"steps": 4})
    experiment = sessions._SESSIONS["stretch_experiment"]
    # One seed tested: its accuracies are the means, the lowest and the highest alike.
    assert state["seeds_done"] == 1 and state["current"] == 1
    np.testing.assert_array_equal(state["accuracy"], experiment.accuracy[:, 0].ravel())
    np.testing.assert_array_equal(state["accuracy_max"], experiment.accuracy[:, 0].ravel())
    while not state["done"]:
        state = call("stretch_experiment_step", {"steps": 200})
    np.testing.assert_array_equal(state["accuracy"], experiment.accuracy.mean(axis=1).ravel())
    np.testing.assert_array_equal(state["accuracy_min"], experiment.accuracy.min(axis=1).ravel())
    assert state["current"] is None and state["seeds_done"] == 2 and state["chance"] == 1 / 8


def test_stretch_experiment_step_needs_a_reset(monkeypatch):
    monkeypatch.delitem(sessions._SESSIONS, "stretch_experiment", raising=False)
    with pytest.raises(ValueError, match="stretch_experiment_reset first"):
        call("stretch_experiment_step", {"steps": 1})


# ---------------------------------------------------------------------------
# Fuzzing (tests/python/fuzzing.py): junk of every kind for each entry point of this demo
# ---------------------------------------------------------------------------


def check_stretching_entry(kw, r):
    assert_plain(r, STRETCHING_ARRAYS)
    finite(r["scores_before"])
    finite(r["scores_after"])
    assert 0 <= r["outside"] + r["just_past"] <= HALF


def check_stretch_experiment(kw, r):
    cells = len(r["methods"]) * len(r["lengths"])
    assert_plain(r, {"accuracy": (np.float64, cells), "accuracy_min": (np.float64, cells),
                     "accuracy_max": (np.float64, cells)})
    assert 0 <= r["steps_done"] <= r["total_steps"]
    assert 0 <= r["seeds_done"] <= len(r["seeds"])


FUZZ_SPECS = {
    "stretching": Spec(
        None,
        optional(
            {
                "model": st.sampled_from(sorted(pelab.context_scaling.MODEL_SETTINGS)),
                "scale": scales(cap=1024.0),
                "method": st.sampled_from(pelab.context_scaling.METHODS),
            },
            seed=sizes(0, 2**32 - 1),
        ),
        {"model": JUNK, "scale": SCALE_JUNK, "method": JUNK, "seed": size_junk(0, 2**32 - 1)},
        check_stretching_entry,
    ),
    "stretch_experiment_reset": Spec(
        None,
        optional(
            {},
            quick=st.sampled_from([True, False, np.bool_(True)]),
            task=st.sampled_from(["copy", "reverse"]),
        ),
        {"quick": JUNK, "task": JUNK},
        check_stretch_experiment,
    ),
    "stretch_experiment_step": Spec(
        None,
        optional({}, steps=sizes(1, 2)),
        {"steps": size_junk(1, 200)},
        check_stretch_experiment,
        # a step needs an experiment first: made small, before each call
        prepare=lambda: call("stretch_experiment_reset", {"quick": True}),
    ),
}
test_fuzzed_arguments, test_fuzzed_keywords = entry_point_fuzz_tests(FUZZ_SPECS)
