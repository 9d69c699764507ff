"""Tests for pelab.browser.demos.formula: what the formula demo's entry points hand the worker
(app/demos/formula.js), under CPython."""


import numpy as np
import pytest

import pelab
from fuzzing import (
    BASE_JUNK,
    Spec,
    as_int,
    bases,
    entry_point_fuzz_tests,
    finite,
    optional,
    size_junk,
    sizes,
)
from pelab.browser.entry_points import call
from pelab.checks import MAX_D_MODEL, MAX_SEQ_LEN
from plain_results import assert_plain

# Its entry points' results go through BLAS (`@`, lstsq): rerun under every kernel.
pytestmark = pytest.mark.blas_numeric


FLOATS = ("j", "i", "exponent", "angle", "value")  # and is_sine, 0 or 1: each d_model long


def formula_arrays(d_model):
    """The formula entry point's arrays: one value per column of the row."""
    return {key: (np.float64, d_model) for key in FLOATS} | {"is_sine": (np.uint8, d_model)}


def test_formula():
    result = call("formula", {"pos": 1, "d_model": 4})
    assert set(result) == {"j", "i", "exponent", "angle", "value", "is_sine"}
    assert_plain(result, formula_arrays(4))
    assert result["is_sine"].tolist() == [1, 0, 1, 0]
    assert result["exponent"].tolist() == [0.0, 0.0, 0.5, 0.5]
    np.testing.assert_allclose(result["value"], [0.8415, 0.5403, 0.0100, 0.9999], rtol=0, atol=1e-4)
    result = call("formula", {"pos": 2, "d_model": 4, "base": 10000.0})
    np.testing.assert_allclose(
        result["value"], [0.9093, -0.4161, 0.0200, 0.9998], rtol=0, atol=1e-4
    )


def test_formula_odd_width_and_errors():
    result = call("formula", {"pos": 9, "d_model": 5, "base": 100})
    assert result["is_sine"].tolist() == [1, 0, 1, 0, 1]
    np.testing.assert_allclose(result["value"], pelab.sinusoidal(10, 5, 100)[9], rtol=0, atol=1e-15)
    with pytest.raises(ValueError, match=r"^pos must be an integer from 0 to"):
        call("formula", {"pos": -1, "d_model": 4})
    with pytest.raises(ValueError, match=r"^pos must be an integer from 0 to"):
        call("formula", {"pos": 1.5, "d_model": 4})
    with pytest.raises(ValueError, match=r"^d_model must be an integer"):
        call("formula", {"pos": 1, "d_model": 0})
    with pytest.raises(ValueError, match=r"^base must be a finite real number"):
        call("formula", {"pos": 1, "d_model": 4, "base": "10000"})


# ---------------------------------------------------------------------------
# Fuzzing (tests/python/fuzzing.py): junk of every kind for each entry point of this demo
# ---------------------------------------------------------------------------


def check_formula(kw, r):
    d = as_int(kw["d_model"])
    assert_plain(r, formula_arrays(d))
    for key in FLOATS:
        finite(r[key])


FUZZ_SPECS = {
    "formula": Spec(
        None,
        optional({"pos": sizes(0, MAX_SEQ_LEN), "d_model": sizes(1, 64)}, base=bases()),
        {"pos": size_junk(0, MAX_SEQ_LEN), "d_model": size_junk(1, MAX_D_MODEL), "base": BASE_JUNK},
        check_formula,
    ),
}
test_fuzzed_arguments, test_fuzzed_keywords = entry_point_fuzz_tests(FUZZ_SPECS)
