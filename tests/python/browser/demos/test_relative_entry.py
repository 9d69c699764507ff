"""Tests for pelab.browser.demos.relative: what the relative demo's entry points hand the worker
(app/demos/relative.js), under CPython."""


import math

import numpy as np
import pytest
from hypothesis import strategies as st

import pelab
from fuzzing import (
    BASE_JUNK,
    Spec,
    as_int,
    bases,
    entry_point_fuzz_tests,
    optional,
    size_junk,
    sizes,
)
from pelab.browser.demos import relative as demo
from pelab.browser.entry_points import call
from pelab.relative import MAX_OFFSET, MIN_HALVES_LEN
from plain_results import assert_plain

# Its entry points' results go through BLAS (`@`, lstsq): rerun under every kernel.
pytestmark = pytest.mark.blas_numeric


RELATIVE_KEYS = {
    "rotation", "rotation_rgba", "residual", "independence", "sine_only_residual",
    "full_fit_residual", "positions", "shifted", "mapped", "d_model",
}


def relative_arrays(d_model, positions):
    """The relative entry point's arrays: the rotation M_k and its colours, and the sampled
    positions' shifted and mapped rows."""
    return {
        "rotation": (np.float64, d_model * d_model),
        "rotation_rgba": (np.uint8, d_model * d_model * 4),
        "shifted": (np.float64, positions * d_model),
        "mapped": (np.float64, positions * d_model),
    }


def test_relative():
    result = call("relative", {"k": 5, "d_model": 8, "base": 10000.0, "seq_len": 64})
    assert set(result) == RELATIVE_KEYS
    assert_plain(result, relative_arrays(8, 6))
    assert result["d_model"] == 8
    np.testing.assert_array_equal(result["rotation"].reshape(8, 8), pelab.rotation(5, 8))
    np.testing.assert_array_equal(
        result["rotation_rgba"], pelab.to_rgba(pelab.rotation(5, 8)).reshape(-1)
    )
    assert result["positions"] == [0, 13, 25, 38, 50, 63]
    table = pelab.sinusoidal(69, 8)
    shifted = result["shifted"].reshape(6, 8)
    mapped = result["mapped"].reshape(6, 8)
    np.testing.assert_array_equal(shifted, table[[pos + 5 for pos in result["positions"]]])
    # The entry point multiplies all 64 rows, this 6: BLAS may take another kernel path for another
    # shape. Each entry is two products of numbers in [-1, 1] (M_5 is block-diagonal), so any
    # order agrees within 1e-15.
    np.testing.assert_allclose(
        mapped, table[result["positions"]] @ pelab.rotation(5, 8).T, rtol=0, atol=1e-15
    )
    np.testing.assert_allclose(mapped, shifted, rtol=0, atol=1e-12)
    assert result["residual"] <= 1e-12 and result["full_fit_residual"] <= 1e-12
    assert result["independence"] <= 1e-8
    assert result["sine_only_residual"] > 0.1


def test_relative_defaults_negative_offsets_and_odd_widths():
    result = call("relative", {"k": -20, "d_model": 32})
    assert result["positions"][0] == 20 and result["positions"][-1] == 20 + 63  # seq_len 64
    assert len(result["positions"]) == 6 and result["residual"] <= 1e-12
    result = call("relative", {"k": 3, "d_model": 5, "base": 100.0, "seq_len": 4})
    assert_plain(result, relative_arrays(5, 4))
    assert result["positions"] == [0, 1, 2, 3]
    assert result["residual"] > 1e-6  # the lone sine cannot be shifted exactly


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"k": 100_001}, r"^k must be an integer from -100000 to 100000"),
        ({"k": 1.5}, r"^k must be an integer"),
        ({"d_model": 0}, r"^d_model must be an integer from 1 to 128, got 0$"),
        ({"d_model": 129}, r"^d_model must be an integer from 1 to 128"),
        ({"seq_len": 3}, r"^seq_len must be an integer from 4 to 512, got 3$"),
        ({"seq_len": 513}, r"^seq_len must be an integer from 4 to 512"),
        ({"base": 1}, r"^base must be a finite real number"),
    ],
)
def test_relative_bad_arguments(changes, message):
    kwargs = {"k": 5, "d_model": 8, "base": 10000.0, "seq_len": 64, **changes}
    with pytest.raises(ValueError, match=message):
        call("relative", kwargs)


# ---------------------------------------------------------------------------
# Fuzzing (tests/python/fuzzing.py): junk of every kind for each entry point of this demo
# ---------------------------------------------------------------------------


def check_relative(kw, r):
    d = as_int(kw["d_model"])
    p = len(r["positions"])
    assert 1 <= p <= demo.RELATIVE_SAMPLES
    assert_plain(r, relative_arrays(d, p))
    for key in ("residual", "independence", "sine_only_residual", "full_fit_residual"):
        assert math.isfinite(r[key]) and r[key] >= 0


FUZZ_SPECS = {
    "relative": Spec(
        None,
        optional(
            {"k": st.integers(-MAX_OFFSET, MAX_OFFSET), "d_model": sizes(1, 16)},
            base=bases(),
            seq_len=sizes(MIN_HALVES_LEN, 48),
        ),
        {
            "k": size_junk(-MAX_OFFSET, MAX_OFFSET),
            "d_model": size_junk(1, demo.MAX_RELATIVE_WIDTH),
            "base": BASE_JUNK,
            "seq_len": size_junk(MIN_HALVES_LEN, demo.MAX_RELATIVE_LEN),
        },
        check_relative,
    ),
}
test_fuzzed_arguments, test_fuzzed_keywords = entry_point_fuzz_tests(FUZZ_SPECS)
