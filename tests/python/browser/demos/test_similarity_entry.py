"""Tests for pelab.browser.demos.similarity: what the similarity demo's entry points hand the worker
(app/demos/similarity.js), under CPython."""


import math

import numpy as np
import pytest
from hypothesis import strategies as st

import pelab
from fuzzing import BASE_JUNK, Spec, as_int, bases, entry_point_fuzz_tests, finite, size_junk, sizes
from pelab.browser.entry_points import call
from pelab.browser.limits import MAX_MATRIX_LEN, MAX_MATRIX_WIDTH
from plain_results import assert_plain

# Its entry points' results go through BLAS (`@`, lstsq): rerun under every kernel.
pytestmark = pytest.mark.blas_numeric


SIMILARITY_KEYS = {
    "n", "dot", "cosine", "dot_rgba", "cosine_rgba", "row", "toeplitz", "dot_scale",
    "dot_part", "cosine_part",
}


def similarity_arrays(n):
    """The similarity entry point's arrays, for a table of n positions."""
    return {
        "dot": (np.float64, n * n),
        "cosine": (np.float64, n * n),
        "dot_rgba": (np.uint8, n * n * 4),
        "cosine_rgba": (np.uint8, n * n * 4),
        "row": (np.float64, n),
    }


def test_similarity():
    result = call("similarity", {"seq_len": 100, "d_model": 64, "base": 10000.0, "pos": 50})
    assert set(result) == SIMILARITY_KEYS
    assert_plain(result, similarity_arrays(100))
    assert result["n"] == 100
    dot, cosine = pelab.similarity(pelab.sinusoidal(100, 64))
    np.testing.assert_array_equal(result["dot"], dot.reshape(-1))
    np.testing.assert_array_equal(result["cosine"], cosine.reshape(-1))
    np.testing.assert_array_equal(result["row"], dot[50])
    assert result["dot_scale"] == pytest.approx(32.0, abs=1e-12)  # d_model / 2
    np.testing.assert_array_equal(
        result["dot_rgba"],
        pelab.to_rgba(dot, -result["dot_scale"], result["dot_scale"]).reshape(-1),
    )
    np.testing.assert_array_equal(result["cosine_rgba"], pelab.to_rgba(cosine).reshape(-1))
    assert result["toeplitz"] <= 1e-9
    # All positive at the first settings: the bars show the sequential white-to-red half.
    assert (result["dot_part"], result["cosine_part"]) == ("positive", "positive")


def test_a_small_base_gives_negative_similarities_and_the_whole_diverging_scale():
    result = call("similarity", {"seq_len": 100, "d_model": 64, "base": 10.0, "pos": 0})
    assert min(result["cosine"]) < 0 and min(result["dot"]) < 0
    assert (result["dot_part"], result["cosine_part"]) == ("both", "both")


def test_similarity_small_and_degenerate():
    result = call("similarity", {"seq_len": 1, "d_model": 1, "base": 10.0, "pos": 0})
    assert_plain(result, similarity_arrays(1))
    assert result["dot"].tolist() == [0.0] and result["dot_scale"] == 1.0  # PE(0) = (sin 0) = 0
    assert result["toeplitz"] == 0.0
    result = call("similarity", {"seq_len": 512, "d_model": 256})
    assert result["n"] == 512 and result["row"].shape == (512,)


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"seq_len": 0}, r"^seq_len must be an integer from 1 to 512, got 0$"),
        ({"seq_len": 513}, r"^seq_len must be an integer from 1 to 512"),
        ({"pos": 100}, r"^pos must be an integer from 0 to 99, got 100$"),
        ({"pos": -1}, r"^pos must be an integer from 0 to 99"),
        ({"d_model": 0}, r"^d_model must be an integer from 1 to 1024"),
        (
            {"seq_len": 512, "d_model": 512},
            r"^seq_len \* seq_len \* d_model must be at most 67108864 to keep the page responsive, "
            r"got 512 \* 512 \* 512 = 134217728$",
        ),
        ({"base": "10000"}, r"^base must be a finite real number"),
    ],
)
def test_similarity_bad_arguments(changes, message):
    kwargs = {"seq_len": 100, "d_model": 64, "base": 10000.0, "pos": 0, **changes}
    with pytest.raises(ValueError, match=message):
        call("similarity", kwargs)


# ---------------------------------------------------------------------------
# Fuzzing (tests/python/fuzzing.py): junk of every kind for each entry point of this demo
# ---------------------------------------------------------------------------


def check_similarity_entry(kw, r):
    assert_plain(r, similarity_arrays(as_int(kw["seq_len"])))
    for key in ("dot", "cosine", "row"):
        finite(r[key])
    assert math.isfinite(r["toeplitz"]) and r["dot_scale"] > 0


@st.composite
def similarity_entry_args(draw):
    seq_len = draw(st.integers(1, 32))
    return {"seq_len": seq_len, "d_model": draw(sizes(1, 32)), "base": draw(bases()),
            "pos": draw(st.integers(0, seq_len - 1))}


FUZZ_SPECS = {
    "similarity": Spec(
        None,
        similarity_entry_args(),
        {
            "seq_len": size_junk(1, MAX_MATRIX_LEN),
            "d_model": size_junk(1, MAX_MATRIX_WIDTH),
            "base": BASE_JUNK,
            "pos": size_junk(0, 31),
        },
        check_similarity_entry,
        related={"seq_len": {"pos"}, "d_model": {"seq_len"}},
    ),
}
test_fuzzed_arguments, test_fuzzed_keywords = entry_point_fuzz_tests(FUZZ_SPECS)
