"""Tests for pelab.rope: rotary position embedding rotates pairs, keeps norms, scores offsets."""

import doctest
import importlib
import math
from fractions import Fraction

import numpy as np
import pytest

from pelab.extrapolation import layout_permutation
from pelab.positional_encoding import angular_frequencies, sinusoidal
from pelab.rope import (
    LOOSENESS_DRAWS,
    pairing_permutation,
    rope,
    rope_bound_looseness,
    rope_decay_bound,
    rope_independent_abs_score,
    rope_mean_score,
    rope_relative_residual,
    rope_rotate,
    rope_scores,
)
from pelab.similarity import similarity

# Its code or checks go through BLAS or LAPACK: rerun under every kernel (test_blas_kernels.py).
pytestmark = pytest.mark.blas_numeric

# pelab.rope is also the name of the function, so fetch the module itself.
rope_module = importlib.import_module("pelab.rope")


def test_docstring_examples_hold():
    assert doctest.testmod(rope_module).failed == 0


def rotation_matrix(m, d, base):
    """RoFormer's R^d_{Theta,m}: block diagonal, [[cos, -sin], [sin, cos]] of m * w_i."""
    r = np.zeros((d, d))
    for i, w in enumerate(angular_frequencies(d, base)):
        c, s = math.cos(m * w), math.sin(m * w)
        r[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = [[c, -s], [s, c]]
    return r


@pytest.mark.parametrize("d, base", [(2, 10000.0), (8, 10000.0), (16, 100.0), (64, 10000.0)])
def test_rope_is_the_papers_rotation_matrix(d, base):
    rng = np.random.default_rng(d)
    x = rng.standard_normal((5, d))
    positions = [0, 1, 7, 100, -3]
    rotated = rope(x, positions, base)
    assert rotated.shape == x.shape and rotated.dtype == np.float64
    for row, m in enumerate(positions):
        np.testing.assert_allclose(
            rotated[row], rotation_matrix(m, d, base) @ x[row], rtol=0, atol=1e-12
        )


def test_rope_pair_formula():
    t = 0.7
    a, b = 2.0, -3.0
    out = rope([[a, b]], [t])  # pair 0 turns 1 radian per position
    np.testing.assert_allclose(
        out[0],
        [a * math.cos(t) - b * math.sin(t), a * math.sin(t) + b * math.cos(t)],
        rtol=0,
        atol=1e-15,
    )


def test_rope_preserves_norms_and_composes():
    rng = np.random.default_rng(1)
    x = rng.standard_normal((50, 32))
    positions = rng.integers(0, 5000, 50)
    rotated = rope(x, positions)
    np.testing.assert_allclose(
        np.linalg.norm(rotated, axis=1), np.linalg.norm(x, axis=1), rtol=1e-14
    )
    np.testing.assert_array_equal(rope(x, np.zeros(50)), x)  # position 0: no rotation
    # R_a R_b = R_{a+b}, and R_{-m} undoes R_m.
    np.testing.assert_allclose(
        rope(rope(x, positions), positions + 3), rope(x, 2 * positions + 3), rtol=0, atol=1e-10
    )
    np.testing.assert_allclose(rope(rotated, -positions), x, rtol=0, atol=1e-12)


def test_scores_depend_only_on_the_offset():
    rng = np.random.default_rng(2)
    q, k = rng.standard_normal((1, 16)), rng.standard_normal((1, 16))
    base_score = rope_scores(q, k, [3], [10])[0, 0]
    for shift in (1, 50, 1000, -3):
        assert rope_scores(q, k, [3 + shift], [10 + shift])[0, 0] == pytest.approx(
            base_score, abs=1e-10
        )
    # q_m . k_n = q^T R_{n-m} k
    assert base_score == pytest.approx(q[0] @ rotation_matrix(7, 16, 10000.0) @ k[0], abs=1e-12)
    # Different offsets score differently.
    assert abs(rope_scores(q, k, [3], [11])[0, 0] - base_score) > 1e-3


def test_rope_scores_shape():
    rng = np.random.default_rng(3)
    q, k = rng.standard_normal((4, 8)), rng.standard_normal((6, 8))
    s = rope_scores(q, k, np.arange(4), np.arange(6) + 2, 100.0)
    assert s.shape == (4, 6)
    # Eight products of standard normals per entry (|q| |k| about 8): BLAS may add them in
    # another order on another CPU, a few 1e-15 apart; 1e-12 leaves room and still pins it.
    expected = rope(q, np.arange(4), 100.0) @ rope(k, np.arange(6) + 2, 100.0).T
    np.testing.assert_allclose(s, expected, rtol=0, atol=1e-12)


@pytest.mark.parametrize(
    "d, seq_len, base", [(8, 50, 10000.0), (64, 512, 10000.0), (16, 300, 1.5), (2, 1000, 10000.0)]
)
def test_rope_relative_residual_is_rounding_error(d, seq_len, base):
    rng = np.random.default_rng(d)
    residual = rope_relative_residual(rng.standard_normal(d), rng.standard_normal(d), seq_len, base)
    assert type(residual) is float
    assert residual <= 1e-10


def test_rope_generalises_the_sinusoidal_dot_product():
    # With q = k = (0, 1, 0, 1, ...), R_m q is (-sin, cos) pairs: scores are PE(m) . PE(n).
    d, n = 16, 40
    q = np.tile([0.0, 1.0], d // 2)
    scores = rope_scores(np.tile(q, (n, 1)), np.tile(q, (n, 1)), np.arange(n), np.arange(n))
    dot, _ = similarity(sinusoidal(n, d))
    np.testing.assert_allclose(scores, dot, rtol=0, atol=1e-12)


@pytest.mark.parametrize(
    "x, positions, message",
    [
        (
            [[1.0, 2.0, 3.0]],
            [0],
            r"^x must be a non-empty 2-D array \(n, d\) of finite numbers with d even",
        ),
        ([1.0, 2.0], [0], r"^x must be a non-empty 2-D array \(n, d\)"),
        ([[1.0, math.nan]], [0], r"^x must be a non-empty 2-D array"),
        (np.zeros((0, 2)), [], r"^x must be a non-empty 2-D array"),
        (
            [[1.0, 2.0]],
            [0, 1],
            r"^positions must be 1 real numbers \(one per row\), each from -100000 to 100000, got "
            r"shape \(2,\)$",
        ),
        ([[1.0, 2.0]], [math.nan], r"^positions must be 1 real numbers"),
        ([[1.0, 2.0]], [1e6], r"^positions must be 1 real numbers"),
        ([[1.0, 2.0]], "0", r"^positions must be 1 real numbers"),
    ],
)
def test_rope_bad_arguments(x, positions, message):
    with pytest.raises(ValueError, match=message):
        rope(x, positions)


def test_rope_scores_and_residual_bad_arguments():
    with pytest.raises(ValueError, match=r"^q and k must have the same width, got 2 and 4$"):
        rope_scores([[1.0, 0.0]], [[1.0, 0.0, 0.0, 0.0]], [0], [0])
    with pytest.raises(ValueError, match=r"^positions_k must be 1 real numbers"):
        rope_scores([[1.0, 0.0]], [[1.0, 0.0]], [0], [0, 1])
    with pytest.raises(
        ValueError, match=r"^q must be a 1-D array \(d,\) of finite numbers with d even"
    ):
        rope_relative_residual([[1.0, 0.0]], [1.0, 0.0], 5)
    with pytest.raises(ValueError, match=r"^k must be a 1-D array \(d,\)"):
        rope_relative_residual([1.0, 0.0], [1.0, 0.0, 0.0], 5)
    with pytest.raises(ValueError, match=r"^seq_len must be an integer from 1 to 7071, got 0$"):
        rope_relative_residual([1.0, 0.0], [1.0, 0.0], 0)
    with pytest.raises(ValueError, match=r"^base must be a finite real number"):
        rope([[1.0, 0.0]], [0], base=0.5)


# ---------------------------------------------------------------------------
# rope_rotate: both pairings, one head or several
# ---------------------------------------------------------------------------


def pair_indices(d, pairing):
    """The coordinates (first, second) of each pair, written out one pair at a time."""
    h = d // 2
    if pairing == "adjacent":
        return [(2 * i, 2 * i + 1) for i in range(h)]
    return [(i, i + h) for i in range(h)]


def rotation_matrix_for(m, d, base, pairing):
    """The d x d rotation for position m: [[cos, -sin], [sin, cos]] on each pair's two rows."""
    r = np.zeros((d, d))
    for (j, k), w in zip(pair_indices(d, pairing), angular_frequencies(d, base)):
        c, s = math.cos(m * w), math.sin(m * w)
        r[j, j], r[j, k], r[k, j], r[k, k] = c, -s, s, c
    return r


def rotate_by_complex_numbers(x, positions, base, pairing):
    """Each pair as the complex number a + ib, multiplied by e^{i m w}."""
    x = np.asarray(x, dtype=np.float64)
    d = x.shape[-1]
    out = np.empty_like(x)
    omega = angular_frequencies(d, base)
    for (j, k), w in zip(pair_indices(d, pairing), omega):
        z = (x[..., j] + 1j * x[..., k]) * np.exp(1j * np.asarray(positions, dtype=float) * w)
        out[..., j], out[..., k] = z.real, z.imag
    return out


@pytest.mark.parametrize("pairing", ["adjacent", "half"])
@pytest.mark.parametrize("d, base", [(2, 10000.0), (8, 10000.0), (16, 100.0), (64, 500000.0)])
def test_rope_rotate_is_the_rotation_matrix_and_the_complex_product(pairing, d, base):
    rng = np.random.default_rng(d)
    x = rng.standard_normal((5, d))
    positions = [0, 1, 7, 100, -3]
    rotated = rope_rotate(x, positions, base, pairing)
    assert rotated.shape == x.shape and rotated.dtype == np.float64
    # Elementwise products and sums of two terms each, no BLAS: the complex product rounds
    # differently from cos/sin times coordinates only in the last bits (1e-15 for |x| ~ 3).
    np.testing.assert_allclose(
        rotated, rotate_by_complex_numbers(x, positions, base, pairing), rtol=0, atol=1e-13
    )
    for row, m in enumerate(positions):
        # A d x d product through BLAS: another kernel sums the d terms (all but two zero) in
        # another order; the last bits may differ, far below 1e-12.
        np.testing.assert_allclose(
            rotated[row], rotation_matrix_for(m, d, base, pairing) @ x[row], rtol=0, atol=1e-12
        )


def test_rope_rotate_adjacent_is_rope_exactly():
    rng = np.random.default_rng(5)
    x, positions = rng.standard_normal((6, 12)), rng.integers(-50, 5000, 6)
    # The same arithmetic on the same numbers: exact by construction.
    np.testing.assert_array_equal(rope_rotate(x, positions), rope(x, positions))
    np.testing.assert_array_equal(
        rope_rotate(x, positions, 100.0, "adjacent"), rope(x, positions, 100.0)
    )


def test_rope_rotate_half_pairs_the_two_halves():
    # x_0 and x_2 form pair 0 (turns 1 rad per position), x_1 and x_3 pair 1.
    x = [[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]]
    out = rope_rotate(x, [1, 1], base=10000.0, pairing="half")
    np.testing.assert_allclose(out[0], [math.cos(1.0), 0.0, math.sin(1.0), 0.0], rtol=0, atol=1e-15)
    w1 = 10000.0 ** -0.5
    np.testing.assert_allclose(out[1], [0.0, math.cos(w1), 0.0, math.sin(w1)], rtol=0, atol=1e-15)


@pytest.mark.parametrize("pairing", ["adjacent", "half"])
def test_rope_rotate_heads_rotate_alike_and_keep_norms(pairing):
    rng = np.random.default_rng(6)
    x = rng.standard_normal((3, 7, 16))
    positions = np.arange(7) * 11 - 5
    rotated = rope_rotate(x, positions, pairing=pairing)
    assert rotated.shape == (3, 7, 16) and rotated.dtype == np.float64
    for head in range(3):
        # Each head on its own is the 2-D case: the same elementwise arithmetic, exact.
        np.testing.assert_array_equal(
            rotated[head], rope_rotate(x[head], positions, pairing=pairing)
        )
    np.testing.assert_allclose(
        np.linalg.norm(rotated, axis=-1), np.linalg.norm(x, axis=-1), rtol=1e-14
    )
    np.testing.assert_allclose(
        rope_rotate(rotated, -positions, pairing=pairing), x, rtol=0, atol=1e-13
    )


def test_rope_rotate_accepts_integers_and_lists():
    out = rope_rotate([[[1, 0]]], [0])
    assert out.dtype == np.float64 and out.tolist() == [[[1.0, 0.0]]]


# ---------------------------------------------------------------------------
# pairing_permutation: the two pairings are one rotation
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("d", [2, 4, 6, 64, 128])
def test_pairing_permutation_moves_half_pairs_onto_adjacent_ones(d):
    perm = pairing_permutation(d)
    assert perm.dtype == np.int64 and sorted(perm.tolist()) == list(range(d))
    h = d // 2
    for i in range(h):
        assert (perm[2 * i], perm[2 * i + 1]) == (i, i + h)
    # Its inverse is the sinusoidal layouts' permutation (interleaved -> concatenated).
    np.testing.assert_array_equal(np.argsort(perm), layout_permutation(d))


@pytest.mark.parametrize("shape", [(5, 8), (3, 5, 8), (4, 2), (2, 6, 64)])
def test_both_pairings_agree_through_the_permutation(shape):
    rng = np.random.default_rng(sum(shape))
    x = rng.standard_normal(shape)
    positions = rng.integers(-1000, 1000, shape[-2]) + rng.random(shape[-2])
    perm = pairing_permutation(shape[-1])
    perm_inv = np.argsort(perm)
    half = rope_rotate(x[..., perm_inv], positions, pairing="half")
    # Only coordinates move: each pair meets the same angle and the same arithmetic, so the
    # identity is exact, bit for bit.
    np.testing.assert_array_equal(half[..., perm], rope_rotate(x, positions, pairing="adjacent"))


# ---------------------------------------------------------------------------
# The relative property, for both pairings and for several heads
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("pairing", ["adjacent", "half"])
def test_scores_depend_only_on_the_offset_for_both_pairings_and_heads(pairing):
    rng = np.random.default_rng(7)
    heads, d = 4, 32
    q, k = rng.standard_normal((heads, 1, d)), rng.standard_normal((heads, 1, d))

    def score(m, n):
        """Per head: (R_m q) . (R_n k), one dot product each (elementwise, then a sum)."""
        return np.sum(
            rope_rotate(q, [m], pairing=pairing) * rope_rotate(k, [n], pairing=pairing), axis=-1
        )[:, 0]

    reference = score(3, 10)
    for shift in (1, 50, 1000, -3, 0.5):
        # Angles up to 1000 rad: cos and sin of m w and of (m + s) w differ in their last bits,
        # so the scores (|q| |k| ~ 32) agree to about 32 * 1000 * 2e-16 ~ 1e-11, not exactly.
        np.testing.assert_allclose(score(3 + shift, 10 + shift), reference, rtol=0, atol=1e-9)
    # q_m . k_n = q^T R_{n - m} k, head by head (a matrix product through BLAS: 32 terms,
    # summed in a kernel's own order, a few 1e-15 apart).
    for head in range(heads):
        expected = q[head, 0] @ rotation_matrix_for(7, d, 10000.0, pairing) @ k[head, 0]
        assert reference[head] == pytest.approx(expected, abs=1e-12)
    assert np.all(np.abs(score(3, 11) - reference) > 1e-6)  # another offset, another score


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (
            {"x": [[1.0, 2.0, 3.0]], "positions": [0]},
            r"^x must be a non-empty 2-D array \(seq_len, d\) or 3-D array \(heads, seq_len, d\) "
            r"of finite "
            r"numbers with d even, from 2 to 100000 \(RoPE rotates pairs of coordinates\), got "
            r"shape \(1, 3\)$",
        ),
        (
            {"x": [1.0, 2.0], "positions": [0]},
            r"^x must be a non-empty 2-D array .* got shape \(2,\)$",
        ),
        (
            {"x": np.ones((1, 1, 1, 2)), "positions": [0]},
            r"^x must be .* got shape \(1, 1, 1, 2\)$",
        ),
        ({"x": [[1.0, math.nan]], "positions": [0]}, r"^x must be a non-empty 2-D array"),
        ({"x": [[[1.0, math.inf]]], "positions": [0]}, r"^x must be a non-empty 2-D array"),
        ({"x": np.zeros((2, 0, 2)), "positions": []}, r"^x must be a non-empty 2-D array"),
        ({"x": "dog", "positions": [0]}, r"^x must be .* got not an array of real numbers$"),
        (
            {"x": np.ones((2, 3, 4)), "positions": [0, 1]},
            r"^positions must be 3 real numbers \(one per row\), each from -100000 to 100000, got "
            r"shape \(2,\)$",
        ),
        ({"x": [[1.0, 2.0]], "positions": [math.inf]}, r"^positions must be 1 real numbers"),
        (
            {"x": [[1.0, 2.0]], "positions": [0], "base": 1.0},
            r"^base must be a finite real number greater than 1, got 1.0$",
        ),
        (
            {"x": [[1.0, 2.0]], "positions": [0], "base": math.nan},
            r"^base must be a finite real number",
        ),
        (
            {"x": [[1.0, 2.0]], "positions": [0], "pairing": "rotate_half"},
            r"^pairing must be one of 'adjacent', 'half', got 'rotate_half'$",
        ),
        ({"x": [[1.0, 2.0]], "positions": [0], "pairing": "Half"}, r"^pairing must be one of"),
        (
            {"x": [[1.0, 2.0]], "positions": [0], "pairing": None},
            r"^pairing must be one of .* got None$",
        ),
        (
            {"x": [[1.0, 2.0]], "positions": [0], "pairing": np.array(["half"])},
            r"^pairing must be one of",
        ),
    ],
)
def test_rope_rotate_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        rope_rotate(**kwargs)


@pytest.mark.parametrize("d", [0, 1, 3, 100001, -2, 4.0, True, "4", None, 2**70])
def test_pairing_permutation_bad_arguments(d):
    with pytest.raises(ValueError, match=r"^d must be an even integer from 2 to 100000, got "):
        pairing_permutation(d)



# ---------------------------------------------------------------------------
# RoFormer's long-term decay
# ---------------------------------------------------------------------------


def decay_by_hand(t, d, base):
    """(1 / (d/2)) sum_j |S_j|, S_j = sum_{i < j} e^{i t w_i}, with real cos and sin sums."""
    total, re, im = 0.0, 0.0, 0.0
    for i in range(d // 2):
        w = base ** (-2 * i / d)
        re, im = re + math.cos(t * w), im + math.sin(t * w)
        total += math.hypot(re, im)  # |S_{i+1}|
    return total / (d // 2)


@pytest.mark.parametrize("d, base", [(8, 10000.0), (128, 10000.0), (64, 100.0), (128, 1e6)])
def test_rope_decay_bound_is_roformers_mean_of_partial_sums(d, base):
    offsets = np.array([0.0, 1.0, 2.5, 10.0, 100.0, 511.0, 5000.0])
    bound = rope_decay_bound(offsets, d, base)
    assert bound.shape == offsets.shape and bound.dtype == np.float64
    for t, value in zip(offsets, bound):
        # complex exponentials and cumsum against cos, sin and hypot: rounding apart
        assert value == pytest.approx(decay_by_hand(t, d, base), rel=1e-12)
    assert bound[0] == (d // 2 + 1) / 2  # every S_j = j at t = 0: exact, sums of ones


@pytest.mark.parametrize("seed", range(5))
def test_the_decay_bound_bounds_every_score(seed):
    """|(R_m q) . (R_n k)| <= max_i |h_{i+1} - h_i| * (d/2) * rope_decay_bound(m - n), with
    h_i = q~_i conj(k~_i) and h_{d/2} = 0 (summation by parts, RoFormer section 3.4.3)."""
    d, base = 32, 10000.0
    rng = np.random.default_rng(seed)
    q, k = rng.standard_normal((2, d))
    h = np.append((q[0::2] + 1j * q[1::2]) * (k[0::2] - 1j * k[1::2]), 0.0)
    step = np.max(np.abs(np.diff(h)))
    offsets = np.arange(0, 400, 7)
    scores = rope_scores(np.tile(q, (len(offsets), 1)), k[np.newaxis], offsets, [0], base)[:, 0]
    bound = step * (d // 2) * rope_decay_bound(offsets.astype(float), d, base)
    assert np.all(np.abs(scores) <= bound * (1 + 1e-12))


def test_the_decay_bound_falls_faster_for_a_smaller_base():
    offsets = np.arange(512, dtype=float)
    small, usual = rope_decay_bound(offsets, 128, 100.0), rope_decay_bound(offsets, 128, 10000.0)
    assert usual[0] == small[0] == 32.5
    assert usual[100:].mean() < usual[:10].mean() / 2  # it falls with the offset
    assert small[100:].mean() < usual[100:].mean()  # and further with a smaller base


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (
            {"offsets": [-1.0]},
            r"^offsets must be a 1-D array of at least one real number, each from 0 to 100000",
        ),
        ({"offsets": []}, r"^offsets must be a 1-D array"),
        ({"d": 7}, r"^d must be an even integer from 2 to 100000, got 7$"),
        ({"base": 1.0}, r"^base must be"),
    ],
)
def test_rope_decay_bound_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        rope_decay_bound(**({"offsets": [0.0, 1.0], "d": 8} | kwargs))


def test_the_decay_bound_is_far_above_the_score_of_alike_q_and_k():
    """The page quotes the range of rope_bound_looseness over its 2,000 draws (a computed
    number): for a random q = k with d = 128 the bound at offset 0 is 72 to 374 times the score
    itself (|q|^2 there). Each ratio is the bound over the score, as by hand."""
    d = 128
    ratios = rope_bound_looseness(d)
    assert ratios.shape == (LOOSENESS_DRAWS,) == (2000,)
    for seed in (0, 1, 1999):
        q = np.random.default_rng(seed).standard_normal(d)
        h = np.append(q[0::2] ** 2 + q[1::2] ** 2, 0.0)  # q~_i conj(q~_i) = |q~_i|^2
        bound = np.max(np.abs(np.diff(h))) * (d // 2) * rope_decay_bound([0.0], d)[0]
        assert ratios[seed] == pytest.approx(bound / float(np.sum(q * q)), rel=1e-12)
        # the bound holds: the score never passes it
        assert ratios[seed] >= 1
    assert 71 < ratios.min() < 73 and 373 < ratios.max() < 375 and 100 < np.median(ratios) < 200
    # the first 200 draws, which the page once quoted as 70 to 320, lie inside that range
    assert 70 < ratios[:200].min() and ratios[:200].max() < 320


@pytest.mark.parametrize(
    "kwargs, message",
    [({"d": 7}, r"^d must be an even integer"), ({"draws": 0}, r"^draws must be")],
)
def test_rope_bound_looseness_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        rope_bound_looseness(**({"d": 8} | kwargs))


# ---------------------------------------------------------------------------
# What falls on average: the mean score of alike q and k
# ---------------------------------------------------------------------------


def mean_score_by_hand(t, d, base):
    """sum_i 2 cos(t w_i), w_i = base^(-2i/d), one term at a time with math.cos."""
    return sum(2 * math.cos(t * base ** (-2 * i / d)) for i in range(d // 2))


@pytest.mark.parametrize(
    "d, base", [(2, 10000.0), (8, 10000.0), (128, 10000.0), (64, 100.0), (128, 1e6)]
)
def test_rope_mean_score_is_a_sum_of_cosines(d, base):
    offsets = np.array([0.0, 1.0, 2.5, 10.0, 100.0, 500.0, 5000.0])
    mean = rope_mean_score(offsets, d, base)
    assert mean.shape == offsets.shape and mean.dtype == np.float64
    for t, value in zip(offsets, mean):
        # The frequencies computed two ways may differ in their last bit, which turns an angle
        # t w_i by up to t * 2.2e-16; d / 2 terms of 2 cos, in another order: d (1 + t) 1e-15
        # is above both, and the cosines cancel (the mean is near 0 at t = 5000), so no rel.
        assert value == pytest.approx(
            mean_score_by_hand(t, d, base), rel=0, abs=1e-15 * d * (1 + t)
        )
    assert mean[0] == d  # at t = 0 a sum of d / 2 ones, doubled: exact
    assert np.all(np.abs(mean) <= d)


def test_rope_mean_score_with_the_issues_settings():
    # d = 128, base 10000: the exact means the page quotes, to the digits it shows.
    mean = rope_mean_score([0.0, 10.0, 100.0, 500.0], 128, 10000.0)
    assert mean[0] == 128.0
    assert [round(float(v), 2) for v in mean[1:]] == [85.64, 61.09, 38.21]
    assert round(rope_independent_abs_score(128), 4) == 9.0094


@pytest.mark.parametrize("rho", [1.0, 0.5, 0.3, 0.0, -0.25, -1.0])
def test_rope_mean_score_scales_with_rho(rho):
    offsets = np.arange(0.0, 700.0, 7.0)
    alike = rope_mean_score(offsets, 32, 500.0)
    partly = rope_mean_score(offsets, 32, 500.0, rho=rho)
    # rho * (2 sum) against rho * (1.0 * (2 sum)): the same two roundings, exact
    np.testing.assert_array_equal(partly, rho * alike)
    assert partly[0] == rho * 32  # rho d at offset 0
    if rho == 0.0:
        assert np.all(partly == 0.0)  # independent q and k: mean score 0 at every offset


def test_the_alike_mean_score_is_twice_the_sinusoidal_dot_product():
    """rho = 1: the mean score is 2 PE_p . PE_{p+t} for the sinusoidal encoding of width d,
    the sum of cosines the similarity demo draws (the page says so)."""
    d, base, n = 128, 10000.0, 512
    dot, cosine = similarity(sinusoidal(n, d, base))
    offsets = np.arange(n, dtype=float)
    mean = rope_mean_score(offsets, d, base)
    # PE_p . PE_q through BLAS: 128 products of numbers within [-1, 1], added in whatever
    # order the CPU's kernel uses, and sin a sin b + cos a cos b = cos(a - b) up to a few
    # 1e-16 per pair at angles up to 511 rad: 1e-11 is far above both.
    np.testing.assert_allclose(mean, 2 * dot[0], rtol=0, atol=1e-11)
    np.testing.assert_allclose(mean[: n - 200], 2 * dot[200, 200:], rtol=0, atol=1e-11)  # any p
    np.testing.assert_allclose(mean / d, cosine[0], rtol=0, atol=1e-13)  # |PE|^2 = d / 2


def test_the_alike_mean_score_is_twice_the_last_partial_sum_of_the_proof():
    d, base = 64, 10000.0
    for t in (0.0, 3.0, 40.0, 511.0):
        last = sum(
            complex(math.cos(t * w), math.sin(t * w)) for w in angular_frequencies(d, base)
        )  # S_{d/2}
        assert rope_mean_score([t], d, base)[0] == pytest.approx(
            2 * last.real, rel=1e-12, abs=1e-12
        )


def test_the_alike_mean_score_falls_with_ripples_and_faster_for_a_smaller_base():
    offsets = np.arange(512, dtype=float)
    usual, small = rope_mean_score(offsets, 128, 10000.0), rope_mean_score(offsets, 128, 100.0)
    assert usual[400:].mean() < usual[:10].mean() / 2  # it falls with the offset
    assert np.any(np.diff(usual) > 0)  # not monotonically: ripples
    assert np.abs(small[100:]).mean() < usual[100:].mean()  # and further with a smaller base


def test_sample_means_of_random_q_and_k_match_the_expectations():
    """10,000 draws of standard normal q, z, scored as RoPE scores them ((R_t q) . k, no BLAS:
    elementwise products summed along each row): the sample means sit within four standard
    errors of the exact ones, at every offset. The seed fixes the numbers; the four standard
    errors say it is not a lucky one (a Gaussian mean is that far out once in 16,000)."""
    d, base, draws = 128, 10000.0, 10_000
    rng = np.random.default_rng(12345)
    q, z = rng.standard_normal((2, draws, d))
    offsets = np.array([0.0, 10.0, 100.0, 500.0])
    omega = angular_frequencies(d, base)
    indep = rope_independent_abs_score(d)
    for rho in (1.0, 0.6):
        k = rho * q + math.sqrt(1 - rho**2) * z
        for t, exact in zip(offsets, rope_mean_score(offsets, d, base, rho=rho)):
            score = np.sum(rope_rotate(q, np.full(draws, t), base) * k, axis=1)
            # Var = rho^2 4 sum_i cos^2(t w_i) + (1 - rho^2) d (|q~_i|^2 is chi^2_2, variance 4;
            # the q^T R z part has variance |q|^2, mean d, and no covariance with the first).
            variance = rho**2 * 4 * np.sum(np.cos(t * omega) ** 2) + (1 - rho**2) * d
            assert abs(score.mean() - exact) < 4 * math.sqrt(variance / draws), (rho, t)
    for t in offsets:  # independent q and k
        score = np.sum(rope_rotate(q, np.full(draws, t), base) * z, axis=1)
        assert abs(score.mean()) < 4 * math.sqrt(d / draws)  # mean 0, variance E|q|^2 = d
        # |score| has the variance E[score^2] - indep^2 = d - indep^2
        assert abs(np.abs(score).mean() - indep) < 4 * math.sqrt((d - indep**2) / draws)


def test_the_issues_sampled_numbers_are_within_two_standard_errors_of_the_exact_means():
    """Issue 32 quotes sample means: 127.9, 85.4, 60.9 and 38.0 (k = q) and 8.99 ... 8.95
    (independent q and k) at offsets 0, 10, 100, 500, for d = 128, base 10000. Taken as means
    of 10,000 draws, each is within two standard errors (plus its last digit's rounding) of
    the exact mean: a sample of these, not other numbers."""
    d, draws = 128, 10_000
    omega = angular_frequencies(d, 10000.0)
    offsets = [0.0, 10.0, 100.0, 500.0]
    for t, quoted, exact in zip(offsets, [127.9, 85.4, 60.9, 38.0], rope_mean_score(offsets, d)):
        error = math.sqrt(4 * np.sum(np.cos(t * omega) ** 2) / draws)
        assert abs(quoted - exact) <= 2 * error + 0.05, t
    indep = rope_independent_abs_score(d)
    for quoted in (8.99, 8.95):
        assert abs(quoted - indep) <= 2 * math.sqrt((d - indep**2) / draws) + 0.005


@pytest.mark.parametrize("d", [2, 4, 8, 64, 128, 1000, 4096])
def test_rope_independent_abs_score_closed_forms(d):
    value = rope_independent_abs_score(d)
    assert type(value) is float
    # d C(d, d/2) / 2^d as an exact fraction, rounded once: the same float, exactly
    assert value == float(Fraction(d * math.comb(d, d // 2), 2**d))
    # sqrt(2/pi) E|q| with E|q| = sqrt(2) Gamma((d+1)/2) / Gamma(d/2); lgamma loses a few
    # 1e-16 of its values (up to about 3e4 here), relative to the difference: 1e-11
    gamma_form = 2 / math.sqrt(math.pi) * math.exp(math.lgamma((d + 1) / 2) - math.lgamma(d / 2))
    assert value == pytest.approx(gamma_form, rel=1e-11)
    # E|q| < sqrt(E|q|^2) = sqrt(d) (Jensen), and E|q| > sqrt(d) (1 - 1/(2d))
    ratio = value / math.sqrt(2 * d / math.pi)
    assert 1 - 1 / (2 * d) < ratio < 1


def test_rope_independent_abs_score_at_d_2_and_growing():
    assert rope_independent_abs_score(2) == 1.0  # 2 * 2 / 4: |q| is Rayleigh, E|q| = sqrt(pi/2)
    values = [rope_independent_abs_score(d) for d in range(2, 300, 2)]
    assert all(a < b for a, b in zip(values, values[1:]))


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (
            {"offsets": [-1.0]},
            r"^offsets must be a 1-D array of at least one real number, each from 0 to 100000",
        ),
        ({"offsets": [[0.0]]}, r"^offsets must be a 1-D array"),
        ({"d": 7}, r"^d must be an even integer from 2 to 100000, got 7$"),
        ({"d": 0}, r"^d must be an even integer"),
        ({"base": 1.0}, r"^base must be a finite real number greater than 1, got 1.0$"),
        ({"rho": 1.5}, r"^rho must be a finite real number at least -1 and at most 1, got 1.5$"),
        ({"rho": -1.01}, r"^rho must be a finite real number at least -1 and at most 1"),
        ({"rho": math.nan}, r"^rho must be a finite real number"),
        ({"rho": "1"}, r"^rho must be a finite real number"),
        ({"rho": True}, r"^rho must be a finite real number"),
        ({"offsets": np.zeros(400_000), "d": 128}, r"^len\(offsets\) \* d must"),
    ],
)
def test_rope_mean_score_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        rope_mean_score(**({"offsets": [0.0, 1.0], "d": 8} | kwargs))


@pytest.mark.parametrize("d", [7, 0, -2, 100_002, 8.0, True, "8", None])
def test_rope_independent_abs_score_bad_arguments(d):
    with pytest.raises(ValueError, match=r"^d must be an even integer from 2 to 100000, got "):
        rope_independent_abs_score(d)
