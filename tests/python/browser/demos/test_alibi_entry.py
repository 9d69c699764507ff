"""Tests for pelab.browser.demos.alibi: what the ALiBi demo's entry points hand the worker
(app/demos/alibi.js), under CPython."""

import math

import numpy as np
import pytest
from hypothesis import strategies as st

import pelab
from fuzzing import JUNK, Spec, as_int, entry_point_fuzz_tests, finite, sentences, size_junk, sizes
from pelab.browser.demos import alibi as demo
from pelab.browser.entry_points import call
from pelab.tokens import MAX_TOKENS
from plain_results import assert_plain

# Its entry points' results go through BLAS (`@`, lstsq): rerun under every kernel.
pytestmark = pytest.mark.blas_numeric


def alibi_arrays(n, h):
    """The alibi entry point's arrays, for n tokens and h heads."""
    return {
        "slopes": (np.float64, h),
        "bias": (np.float64, h * n * n),
        "bias_rgba": (np.uint8, h * n * n * 4),
        "weights": (np.float64, n * n),
        "weights_rgba": (np.uint8, n * n * 4),
        "plain": (np.float64, n * n),
        "plain_rgba": (np.uint8, n * n * 4),
        "distances": (np.float64, h),
    }


def test_alibi():
    sentence = "the cat sat on the mat because the mat was warm"
    result = call("alibi", {"sentence": sentence, "n_heads": 6, "head": 2})
    n, h = 11, 6
    assert_plain(result, alibi_arrays(n, h))
    assert (result["n"], result["n_heads"], result["head"]) == (n, h, 2)
    np.testing.assert_array_equal(result["slopes"], pelab.alibi_slopes(6))
    bias = pelab.alibi_bias(n, 6)
    np.testing.assert_array_equal(result["bias"].reshape(h, n, n), bias)
    assert result["bias_scale"] == pelab.alibi_slopes(6).max() * (n - 1)
    # Independently: the toy head's scores, plus head 2's bias, through a softmax written out.
    x = pelab.embed(sentence.split(), 8)
    w_q, w_k, _ = pelab.projections(8)
    q, k = x @ w_q, x @ w_k
    slope = pelab.alibi_slopes(6)[1]
    expected = np.zeros((n, n))
    for i in range(n):
        row = np.array([q[i] @ k[j] / math.sqrt(8) - slope * (i - j) for j in range(i + 1)])
        row = np.exp(row - row.max())
        expected[i, : i + 1] = row / row.sum()
    # Scores through BLAS in another order, then exp: rounding only.
    np.testing.assert_allclose(result["weights"].reshape(n, n), expected, rtol=0, atol=1e-12)
    weights = result["weights"].reshape(n, n)
    masked = np.triu(np.ones((n, n), dtype=bool), 1)
    np.testing.assert_array_equal(
        result["weights_rgba"].reshape(n, n, 4), pelab.to_rgba(np.where(masked, np.nan, weights))
    )
    # Masked keys are drawn in the NaN grey.
    assert (
        result["bias_rgba"].reshape(h, n, n, 4)[0, 0, 1].tolist()
        == pelab.to_rgba(np.array([np.nan]))[0].tolist()
    )
    distances = result["distances"]
    assert distances[1] == pelab.attention_distance(weights)
    assert result["plain_distance"] == pelab.attention_distance(result["plain"].reshape(n, n))
    # The steeper the slope, the less far back a head looks (6 heads: the steepest is fifth),
    # and every head looks less far back than with no bias.
    assert np.argsort(distances).tolist() == np.argsort(-result["slopes"]).tolist()
    assert distances.max() < result["plain_distance"]


def test_alibi_for_one_word():
    result = call("alibi", {"sentence": "hello", "n_heads": 1, "head": 1})
    assert result["weights"].tolist() == [1.0] and result["bias"].tolist() == [0.0]
    assert result["bias_scale"] == 1.0 and result["distances"].tolist() == [0.0]


@pytest.mark.parametrize(
    ("changes", "message"),
    [({"n_heads": 17}, "n_heads"), ({"n_heads": 0}, "n_heads"), ({"head": 9}, "head"),
     ({"head": 0}, "head"), ({"sentence": None}, "sentence")],
)
def test_alibi_bad_arguments(changes, message):
    with pytest.raises(ValueError, match=message):
        call("alibi", {"sentence": "dog bites man", "n_heads": 8, "head": 1, **changes})


# ---------------------------------------------------------------------------
# Fuzzing (tests/python/fuzzing.py): junk of every kind for each entry point of this demo
# ---------------------------------------------------------------------------


def check_alibi_entry(kw, r):
    n, h = len(r["tokens"]), r["n_heads"]
    assert 1 <= n <= MAX_TOKENS and r["n"] == n and h == as_int(kw.get("n_heads", 8))
    assert_plain(r, alibi_arrays(n, h))
    for key in ("weights", "plain", "distances", "slopes"):
        finite(r[key])
    assert r["bias_scale"] > 0 and math.isfinite(r["plain_distance"])


@st.composite
def alibi_entry_args(draw):
    args = {"sentence": draw(sentences())}
    n_heads = draw(st.one_of(st.none(), sizes(1, demo.MAX_ALIBI_HEADS)))
    if n_heads is not None:
        args["n_heads"] = n_heads
    if draw(st.booleans()):
        args["head"] = draw(st.integers(1, as_int(args.get("n_heads", 8))))
    return args


FUZZ_SPECS = {
    "alibi": Spec(
        None,
        alibi_entry_args(),
        {
            "sentence": JUNK,
            "n_heads": size_junk(1, demo.MAX_ALIBI_HEADS),
            "head": size_junk(1, 8),
        },
        check_alibi_entry,
        related={"n_heads": {"head"}},
    ),
}
test_fuzzed_arguments, test_fuzzed_keywords = entry_point_fuzz_tests(FUZZ_SPECS)
