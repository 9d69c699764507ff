"""Tests for pelab.browser.demos.terms: what the terms demo's entry points hand the worker
(app/demos/terms.js), under CPython."""


import math

import numpy as np
import pytest

import pelab
from fuzzing import (
    BASE_JUNK,
    JUNK,
    Spec,
    entry_point_fuzz_tests,
    finite,
    four_terms_args,
    size_junk,
)
from pelab.browser.entry_points import call
from pelab.score_terms import MAX_TERMS_WIDTH
from pelab.tokens import MAX_TOKENS
from plain_results import assert_plain

# Its entry points' results go through BLAS (`@`, lstsq): rerun under every kernel.
pytestmark = pytest.mark.blas_numeric


TERMS = ("content_content", "content_position", "position_content", "position_position", "total")


def terms_arrays(n):
    """The terms entry point's arrays, for n tokens: each term and the total, and its colours."""
    arrays = {name: (np.float64, n * n) for name in TERMS}
    return arrays | {f"{name}_rgba": (np.uint8, n * n * 4) for name in TERMS}


def test_terms():
    sentence = "the cat sat on the mat because the mat was warm"
    result = call("terms", {"sentence": sentence})
    n = 11
    assert_plain(result, terms_arrays(n))
    assert result["tokens"] == sentence.split() and result["n"] == n and result["d_model"] == 8
    assert result["identity"] is False and result["truncated"] is False
    expected = pelab.four_terms(sentence)
    matrices = dict(expected.scores.terms(), total=expected.scores.total)
    assert "scale" not in result  # no range shared by all five squares
    for name in TERMS:
        # Each square coloured over its own range, its largest |entry|.
        scale = result[f"{name}_scale"]
        assert scale == np.abs(matrices[name]).max()
        # The same function on the same input: the same bits.
        np.testing.assert_array_equal(result[name].reshape(n, n), matrices[name])
        np.testing.assert_array_equal(
            result[f"{name}_rgba"].reshape(n, n, 4), pelab.to_rgba(matrices[name], -scale, scale)
        )
        assert result[f"{name}_toeplitz"] == pelab.toeplitz_residual(matrices[name]) > 0.1
    # The four terms add up to the score; the total is computed from the sums, not from them.
    summed = sum(result[name] for name in TERMS[:4])
    assert np.abs(summed - result["total"]).max() == result["sum_gap"] < 1e-12  # rounding only


def test_terms_with_the_identity_leaves_position_position_relative():
    result = call(
        "terms",
        {"sentence": "the cat sat on the mat", "identity": True, "d_model": 16, "base": 100.0},
    )
    # Sum of 8 cosines, each rounded: far below 1e-12 whatever the BLAS kernel.
    assert result["position_position_toeplitz"] < 1e-12
    assert result["content_position_toeplitz"] > 0.1 and result["position_content_toeplitz"] > 0.1
    assert result["identity"] is True and result["d_model"] == 16


def test_position_position_gets_a_range_of_its_own_that_shows_its_diagonal():
    """On one range shared with the other terms, position·position of the toy head was the
    palest square; on its own range its largest entry takes the end colour."""
    result = call("terms", {"sentence": "the cat sat on the mat because the mat was warm"})
    pp = result["position_position"]
    shared = max(result[f"{name}_scale"] for name in TERMS)
    assert result["position_position_scale"] == np.abs(pp).max() < shared / 2
    rgba = result["position_position_rgba"].reshape(-1, 4)
    extreme = rgba[np.argmax(np.abs(pp))][:3].tolist()
    assert extreme in (pelab.COOL_WARM[0, :3].tolist(), pelab.COOL_WARM[255, :3].tolist())


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"d_model": 65}, "d_model"),
        ({"identity": "no"}, "identity"),
        ({"sentence": ""}, "sentence"),
    ],
)
def test_terms_bad_arguments(changes, message):
    with pytest.raises(ValueError, match=message):
        call("terms", {"sentence": "dog bites man", **changes})


# ---------------------------------------------------------------------------
# Fuzzing (tests/python/fuzzing.py): junk of every kind for each entry point of this demo
# ---------------------------------------------------------------------------


def check_terms(kw, r):
    n = len(r["tokens"])
    assert 1 <= n <= MAX_TOKENS and r["n"] == n
    for name in TERMS:
        finite(r[name])
        assert math.isfinite(r[f"{name}_toeplitz"]) and r[f"{name}_toeplitz"] >= 0
    assert_plain(r, terms_arrays(n))
    assert all(r[f"{name}_scale"] > 0 for name in TERMS) and math.isfinite(r["sum_gap"])


FUZZ_SPECS = {
    "terms": Spec(
        None,
        four_terms_args(),
        {
            "sentence": JUNK,
            "identity": JUNK,
            "d_model": size_junk(1, MAX_TERMS_WIDTH),
            "base": BASE_JUNK,
        },
        check_terms,
    ),
}
test_fuzzed_arguments, test_fuzzed_keywords = entry_point_fuzz_tests(FUZZ_SPECS)
