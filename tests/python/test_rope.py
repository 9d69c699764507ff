"""Tests for pelab.rope: rotary position embedding rotates pairs, keeps norms, scores offsets."""

import doctest
import importlib
import math

import numpy as np
import pytest

from pelab.positional_encoding import angular_frequencies, sinusoidal
from pelab.rope import rope, rope_relative_residual, rope_scores
from pelab.similarity import similarity

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
        np.testing.assert_allclose(rotated[row], rotation_matrix(m, d, base) @ x[row], rtol=0, atol=1e-12)


def test_rope_pair_formula():
    t = 0.7
    a, b = 2.0, -3.0
    out = rope([[a, b]], [t])  # pair 0 turns 1 radian per position
    np.testing.assert_allclose(out[0], [a * math.cos(t) - b * math.sin(t), a * math.sin(t) + b * math.cos(t)], rtol=0, atol=1e-15)


def test_rope_preserves_norms_and_composes():
    rng = np.random.default_rng(1)
    x = rng.standard_normal((50, 32))
    positions = rng.integers(0, 5000, 50)
    rotated = rope(x, positions)
    np.testing.assert_allclose(np.linalg.norm(rotated, axis=1), np.linalg.norm(x, axis=1), rtol=1e-14)
    np.testing.assert_array_equal(rope(x, np.zeros(50)), x)  # position 0: no rotation
    # R_a R_b = R_{a+b}, and R_{-m} undoes R_m.
    np.testing.assert_allclose(rope(rope(x, positions), positions + 3), rope(x, 2 * positions + 3), rtol=0, atol=1e-10)
    np.testing.assert_allclose(rope(rotated, -positions), x, rtol=0, atol=1e-12)


def test_scores_depend_only_on_the_offset():
    rng = np.random.default_rng(2)
    q, k = rng.standard_normal((1, 16)), rng.standard_normal((1, 16))
    base_score = rope_scores(q, k, [3], [10])[0, 0]
    for shift in (1, 50, 1000, -3):
        assert rope_scores(q, k, [3 + shift], [10 + shift])[0, 0] == pytest.approx(base_score, abs=1e-10)
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


@pytest.mark.parametrize("d, seq_len, base", [(8, 50, 10000.0), (64, 512, 10000.0), (16, 300, 1.5), (2, 1000, 10000.0)])
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
        ([[1.0, 2.0, 3.0]], [0], r"^x must be a non-empty 2-D array \(n, d\) of finite numbers with d even"),
        ([1.0, 2.0], [0], r"^x must be a non-empty 2-D array \(n, d\)"),
        ([[1.0, math.nan]], [0], r"^x must be a non-empty 2-D array"),
        (np.zeros((0, 2)), [], r"^x must be a non-empty 2-D array"),
        ([[1.0, 2.0]], [0, 1], r"^positions must be 1 real numbers \(one per row\), each from -100000 to 100000, got shape \(2,\)$"),
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
    with pytest.raises(ValueError, match=r"^q must be a 1-D array \(d,\) of finite numbers with d even"):
        rope_relative_residual([[1.0, 0.0]], [1.0, 0.0], 5)
    with pytest.raises(ValueError, match=r"^k must be a 1-D array \(d,\)"):
        rope_relative_residual([1.0, 0.0], [1.0, 0.0, 0.0], 5)
    with pytest.raises(ValueError, match=r"^seq_len must be an integer from 1 to 7071, got 0$"):
        rope_relative_residual([1.0, 0.0], [1.0, 0.0], 0)
    with pytest.raises(ValueError, match=r"^base must be a finite real number"):
        rope([[1.0, 0.0]], [0], base=0.5)
