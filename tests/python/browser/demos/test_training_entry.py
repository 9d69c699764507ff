"""Tests for pelab.browser.demos.training: what the training demo's entry points hand the worker
(app/demos/training.js), under CPython."""


import numpy as np
import pytest
from hypothesis import strategies as st

import pelab
from fuzzing import Spec, entry_point_fuzz_tests, finite, optional, size_junk, sizes
from pelab.browser import sessions
from pelab.browser.entry_points import call
from pelab.experiments.training import LEARNING_RATE, Trainer
from plain_results import assert_plain

# Its entry points' results go through BLAS (`@`, lstsq): rerun under every kernel.
pytestmark = pytest.mark.blas_numeric


def training_arrays(n, steps_done):
    """The training entry points' arrays, for a table of n rows after steps_done steps."""
    return {"losses": (np.float64, steps_done), "cosine": (np.float64, n * n),
            "cosine_rgba": (np.uint8, n * n * 4), "components": (np.float64, 2 * n),
            "component_shares": (np.float64, 2), "sinusoid_fits": (np.float64, 2 * n),
            "sinusoid_periods": (np.float64, 2), "sinusoid_r_squared": (np.float64, 2)}


def test_training_starts_untrained_and_steps_on_from_where_it_was():
    first = call("training_reset", {"seed": 3, "max_train_len": 8, "shift": 1})
    n = first["n"]
    assert (n, first["steps_done"], first["accuracy"], first["seed"]) == (8, 0, None, 3)
    assert_plain(first, training_arrays(n, 0))
    call("training_step", {"steps": 4})
    later = call("training_step", {"steps": 3})
    assert later["steps_done"] == 7 and later["losses"].shape == (7,)
    trainer = Trainer(scheme="learned", max_train_len=8, table_len=8, shift=1,
                      learning_rate=LEARNING_RATE, seed=3)
    trainer.step(7)
    # The same computation in one process: equal by construction.
    assert later["losses"].tolist() == trainer.losses
    table = trainer.params["position_table"]
    unit = table / np.linalg.norm(table, axis=1, keepdims=True)
    # Gram matrix in another order: ~1e-16.
    np.testing.assert_allclose(later["cosine"], (unit @ unit.T).ravel(), atol=1e-12)
    assert later["band_contrast"] == pelab.band_contrast(table)
    assert later["structured"] == (later["band_contrast"] >= later["threshold"])


def test_training_step_needs_a_model_and_a_step_count():
    sessions._SESSIONS.pop("training", None)
    with pytest.raises(ValueError, match="call training_reset first"):
        call("training_step", {"steps": 1})
    call("training_reset", {"max_train_len": 8})
    with pytest.raises(ValueError, match="^steps "):
        call("training_step", {"steps": sessions.MAX_SLICE_STEPS + 1})
    with pytest.raises(ValueError, match="^max_train_len "):
        call("training_reset", {"max_train_len": 65})


def test_training_reports_when_the_table_became_structured():
    state = call("training_reset", {"seed": 0, "max_train_len": 16, "shift": 1})
    while not state["structured"] and state["steps_done"] < 600:
        state = call("training_step", {"steps": 25})
    # Measured: structured by step 100 (band contrast 0.5 reached); chance tables stay near 0.
    assert state["structured"] and state["structured_at"] == state["steps_done"]
    assert state["sinusoid_periods"].shape == (2,)
    # Each flag is closest_sinusoid's at_longest for its component, as an int: the same functions
    # on the same table in one process, so equal by construction.
    table = sessions._SESSIONS["training"].trainer.params["position_table"]
    fits = [
        pelab.closest_sinusoid(component) for component in pelab.principal_components(table, 2)[0]
    ]
    assert state["sinusoid_at_longest"] == [int(fit["at_longest"]) for fit in fits]
    assert state["sinusoid_periods"].tolist() == [fit["period"] for fit in fits]


# ---------------------------------------------------------------------------
# Fuzzing (tests/python/fuzzing.py): junk of every kind for each entry point of this demo
# ---------------------------------------------------------------------------


def check_training(kw, r):
    assert_plain(r, training_arrays(r["n"], r["steps_done"]))
    finite(r["cosine"])
    finite(r["losses"])


FUZZ_SPECS = {
    "training_reset": Spec(
        None,
        optional({}, seed=st.integers(0, 2**32 - 1), max_train_len=sizes(8, 12), shift=sizes(1, 4)),
        {
            "seed": size_junk(0, 2**32 - 1),
            "max_train_len": size_junk(8, 64),
            "shift": size_junk(1, 4),
        },
        check_training,
    ),
    "training_step": Spec(
        None,
        optional({}, steps=sizes(1, 2)),
        {"steps": size_junk(1, 200)},
        check_training,
        # a step needs a model first: made small, before each call
        prepare=lambda: call("training_reset", {"max_train_len": 8}),
    ),
}
test_fuzzed_arguments, test_fuzzed_keywords = entry_point_fuzz_tests(FUZZ_SPECS)
