"""Tests for pelab.alibi: the paper's head slopes and the linear distance bias."""

import doctest
import math

import numpy as np
import pytest

import pelab.alibi as alibi_module
from pelab.alibi import MAX_HEADS, alibi_bias, alibi_slopes, alibi_weights, attention_distance
from pelab.attention import attention_scores, projections, self_attention
from pelab.tokens import embed

# Its code or checks go through BLAS or LAPACK: rerun under every kernel (test_blas_kernels.py).
pytestmark = pytest.mark.blas_numeric


def test_docstring_examples_hold():
    assert doctest.testmod(alibi_module).failed == 0


def reference_slopes(n):
    """`get_slopes` as written in the paper's reference code
    (ofirpress/attention_with_linear_biases)."""

    def get_slopes_power_of_2(n):
        start = 2 ** (-(2 ** -(math.log2(n) - 3)))
        ratio = start
        return [start * ratio**i for i in range(n)]

    if math.log2(n).is_integer():
        return get_slopes_power_of_2(n)
    closest_power_of_2 = 2 ** math.floor(math.log2(n))
    return (
        get_slopes_power_of_2(closest_power_of_2)
        + reference_slopes(2 * closest_power_of_2)[0::2][: n - closest_power_of_2]
    )


@pytest.mark.parametrize("n", [1, 2, 3, 5, 6, 7, 8, 12, 16, 20, 24, 32, 40, 64, 96, 100, 255, 256])
def test_slopes_match_the_reference_code(n):
    # The reference multiplies `start` by itself repeatedly; pelab raises 2 to a power once.
    # Both are within a few roundings of the same number: no BLAS is involved.
    np.testing.assert_allclose(alibi_slopes(n), reference_slopes(n), rtol=1e-13, atol=0)


def test_eight_heads_are_the_papers_example():
    # "For models with 8 heads, the slopes ... are the geometric sequence 1/2^1, 1/2^2, ..., 1/2^8."
    # Powers of two are exact in binary, so the comparison is exact.
    assert alibi_slopes(8).tolist() == [2.0**-h for h in range(1, 9)]


def test_sixteen_heads_interleave_eight_heads():
    # "For 16 heads ... we interpolate ... 1/2^0.5, 1/2^1, 1/2^1.5, ..., 1/2^8."
    s16 = alibi_slopes(16)
    np.testing.assert_allclose(s16, 2.0 ** (-0.5 * np.arange(1, 17)), rtol=1e-15, atol=0)
    np.testing.assert_array_equal(s16[1::2], alibi_slopes(8))  # exact powers of two


@pytest.mark.parametrize("n", range(1, 70))
def test_slopes_are_distinct_and_between_zero_and_one(n):
    s = alibi_slopes(n)
    assert s.shape == (n,) and s.dtype == np.float64
    assert len(set(s.tolist())) == n
    assert np.all((s > 0) & (s < 1))
    # The gentlest head of a power of two is always 2^-8.
    if n & (n - 1) == 0:
        assert s[-1] == 2.0**-8


@pytest.mark.parametrize("seq_len, n_heads", [(1, 1), (5, 3), (9, 8), (16, 12)])
def test_bias_is_minus_slope_times_distance_by_loops(seq_len, n_heads):
    slopes = alibi_slopes(n_heads)
    causal = alibi_bias(seq_len, n_heads)
    both = alibi_bias(seq_len, n_heads, causal=False)
    assert causal.shape == both.shape == (n_heads, seq_len, seq_len)
    for h in range(n_heads):
        for i in range(seq_len):
            for j in range(seq_len):
                # One product of a slope and a small integer: exact up to one rounding, the same
                # rounding in both computations.
                assert both[h, i, j] == -slopes[h] * abs(i - j)
                if j <= i:
                    assert causal[h, i, j] == -slopes[h] * (i - j)
                else:
                    assert causal[h, i, j] == -np.inf


def test_causal_bias_masks_the_future_in_softmax():
    bias = alibi_bias(6, 4)
    weights = np.exp(bias - bias.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    assert np.all(np.triu(weights[0], k=1) == 0)
    # With equal content scores, the steepest head puts most weight on the query's own position.
    np.testing.assert_array_equal(weights[0].argmax(axis=-1), np.arange(6))


def test_bias_depends_only_on_the_offset():
    bias = alibi_bias(12, 5, causal=False)
    for k in range(-11, 12):
        diagonal = np.diagonal(bias, offset=k, axis1=1, axis2=2)
        assert np.all(diagonal == diagonal[:, :1])


def test_paper_form_differs_by_a_row_constant_that_softmax_ignores():
    # The reference code adds m * j; the documented form is -m (i - j) = m * j - m * i.
    n, heads = 7, 4
    slopes = alibi_slopes(heads)
    bias = alibi_bias(n, heads)
    code_form = np.where(
        np.isinf(bias), -np.inf, slopes[:, None, None] * np.arange(n)[None, None, :]
    )
    scores = np.random.default_rng(0).standard_normal((heads, n, n))

    def softmax(s):
        e = np.exp(s - s.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)

    # Elementwise exp and sums of at most 7 terms: rounding only, no BLAS.
    np.testing.assert_allclose(
        softmax(scores + bias), softmax(scores + code_form), rtol=1e-12, atol=1e-15
    )


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: alibi_slopes(0), "n_heads"),
        (lambda: alibi_slopes(MAX_HEADS + 1), "n_heads"),
        (lambda: alibi_slopes(2.0), "n_heads"),
        (lambda: alibi_slopes(True), "n_heads"),
        (lambda: alibi_slopes("8"), "n_heads"),
        (lambda: alibi_bias(0, 2), "seq_len"),
        (lambda: alibi_bias(4.5, 2), "seq_len"),
        (lambda: alibi_bias(4, 0), "n_heads"),
        (lambda: alibi_bias(4, 2, causal="yes"), "causal"),
        (lambda: alibi_bias(4096, 256), "n_heads * seq_len * seq_len"),
    ],
)
def test_bad_arguments_name_the_argument(call, name):
    with pytest.raises(ValueError, match=name.replace("*", r"\*")):
        call()


def loop_weights(scores, slope):
    """Causal softmax of s_ij - slope (i - j), row by row with math.exp: no numpy softmax."""
    n = len(scores)
    out = np.zeros((n, n))
    for i in range(n):
        terms = [math.exp(scores[i][j] - slope * (i - j)) for j in range(i + 1)]
        total = math.fsum(terms)
        for j in range(i + 1):
            out[i, j] = terms[j] / total
    return out


@pytest.mark.parametrize("n, n_heads", [(1, 1), (4, 3), (9, 8), (12, 16)])
def test_weights_match_a_softmax_written_out(n, n_heads):
    scores = np.random.default_rng(n).standard_normal((n, n))
    weights = alibi_weights(scores, n_heads)
    assert weights.shape == (n_heads, n, n)
    for h, slope in enumerate(alibi_slopes(n_heads)):
        # exp of the same numbers, shifted differently (numpy subtracts the row maximum), and
        # sums of at most 12 terms: the two agree to a few roundings; no BLAS is involved.
        np.testing.assert_allclose(weights[h], loop_weights(scores, slope), rtol=1e-12, atol=1e-15)
    assert np.all(np.triu(weights, k=1) == 0)  # exp(-inf) is exactly 0


def test_a_steeper_head_looks_less_far_back():
    tokens = "the cat sat on the mat because the mat was warm".split()
    x = embed(tokens, 8)
    w_q, w_k, w_v = projections(8)
    weights = alibi_weights(attention_scores(x, w_q, w_k), 8)
    distances = [attention_distance(w) for w in weights]
    # Slopes 1/2 .. 1/256, steepest first: the mean distance grows head by head.
    assert all(a < b for a, b in zip(distances, distances[1:]))
    # And every head looks less far back than the same head with no bias at all.
    plain = self_attention(x, w_q, w_k, w_v, causal=True)[1]
    assert distances[-1] < attention_distance(plain)


def test_attention_distance_by_hand():
    # Uniform causal attention over 4 tokens: query i spreads 1/(i+1) over distances 0..i, mean
    # i/2; over i = 0..3 that is (0 + 0.5 + 1 + 1.5) / 4 = 0.75. Exact in binary.
    uniform = np.tril(np.ones((4, 4))) / np.arange(1, 5)[:, None]
    assert attention_distance(uniform) == pytest.approx(0.75, abs=1e-15)
    assert attention_distance(np.eye(5)) == 0.0


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: alibi_weights(np.zeros((2, 3)), 2), "scores"),
        (lambda: alibi_weights([[np.nan]], 2), "scores"),
        (lambda: alibi_weights(np.zeros((2, 2)), 0), "n_heads"),
        (lambda: alibi_weights(np.zeros((2, 2)), 1.5), "n_heads"),
        (lambda: attention_distance(np.zeros((2, 3))), "weights"),
        (lambda: attention_distance("x"), "weights"),
    ],
)
def test_weights_and_distance_name_a_bad_argument(call, name):
    with pytest.raises(ValueError, match=name):
        call()
