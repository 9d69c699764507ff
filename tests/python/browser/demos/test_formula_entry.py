"""Tests for pelab.browser.demos.formula: what the formula demo's entry points hand the worker
(app/demos/formula.js), under CPython."""


import numpy as np
import pytest

import pelab
from pelab.browser.entry_points import call
from plain_results import assert_plain

# Its entry points' results go through BLAS (`@`, lstsq): rerun under every kernel.
pytestmark = pytest.mark.blas_numeric


def test_formula():
    result = call("formula", {"pos": 1, "d_model": 4})
    assert set(result) == {"j", "i", "exponent", "angle", "value", "is_sine"}
    floats = {key: np.float64 for key in ("j", "i", "exponent", "angle", "value")}
    assert_plain(result, {**floats, "is_sine": np.uint8})
    assert all(array.shape == (4,) for array in result.values())
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

