"""Tests for pelab.similarity: dot products and cosines between positions, and Toeplitz form."""

import doctest
import importlib
import math

import numpy as np
import pytest

from pelab.positional_encoding import angular_frequencies, sinusoidal
from pelab.similarity import similarity, toeplitz_residual

# Its code or checks go through BLAS or LAPACK: rerun under every kernel (test_blas_kernels.py).
pytestmark = pytest.mark.blas_numeric

# pelab.similarity is also the name of the function, so fetch the module itself.
similarity_module = importlib.import_module("pelab.similarity")


def test_docstring_examples_hold():
    assert doctest.testmod(similarity_module).failed == 0


SETTINGS = [
    (64, 16, 10000.0),
    (100, 64, 10000.0),
    (512, 128, 10000.0),
    (200, 8, 1.5),
    (50, 2, 100.0),
]


@pytest.mark.parametrize("seq_len, d_model, base", SETTINGS)
def test_sinusoidal_dot_products_depend_only_on_the_offset(seq_len, d_model, base):
    pe = sinusoidal(seq_len, d_model, base)
    dot, cosine = similarity(pe)
    assert dot.shape == cosine.shape == (seq_len, seq_len)
    assert dot.dtype == cosine.dtype == np.float64
    # PE(p) . PE(q) = sum_i cos((q - p) w_i)
    offsets = np.arange(seq_len)[None, :] - np.arange(seq_len)[:, None]
    expected = np.cos(offsets[:, :, None] * angular_frequencies(d_model, base)).sum(axis=2)
    np.testing.assert_allclose(dot, expected, rtol=0, atol=1e-10)
    assert toeplitz_residual(dot) <= 1e-9
    assert toeplitz_residual(cosine) <= 1e-9
    # Symmetric, |PE|^2 = d_model / 2 on the diagonal, cosine 1 there. Symmetric to the bit on
    # any machine: numpy computes A A^T with BLAS's symmetric update (syrk) and mirrors one
    # triangle, and without BLAS (Pyodide) entry (p, q) adds the same products as (q, p).
    np.testing.assert_array_equal(dot, dot.T)
    np.testing.assert_array_equal(cosine, cosine.T)
    np.testing.assert_allclose(np.diag(dot), d_model / 2, rtol=0, atol=1e-12)
    np.testing.assert_allclose(np.diag(cosine), 1.0, rtol=0, atol=1e-15)
    np.testing.assert_allclose(cosine, dot / (d_model / 2), rtol=0, atol=1e-14)
    assert np.all(np.abs(cosine) <= 1.0)


def test_odd_width_is_not_toeplitz():
    dot, _ = similarity(sinusoidal(200, 7))
    # The lone sine adds sin(p w) sin(q w), which is not a function of q - p.
    assert toeplitz_residual(dot) > 1e-3


def test_similarity_of_any_rows_and_zero_rows():
    pe = np.array([[3.0, 4.0], [0.0, 0.0], [-4.0, 3.0], [6.0, 8.0]])
    dot, cosine = similarity(pe)
    # Exact in any order: small integers, whose products and sums round nothing.
    np.testing.assert_array_equal(dot, pe @ pe.T)
    assert cosine[1].tolist() == [0.0] * 4 and cosine[:, 1].tolist() == [0.0] * 4
    assert cosine[0, 2] == 0.0  # orthogonal
    assert cosine[0, 3] == pytest.approx(1.0, abs=1e-15)  # same direction
    assert cosine[0, 0] == pytest.approx(1.0, abs=1e-15)


@pytest.mark.parametrize(
    "value", [[1.0, 2.0], [[math.nan]], [[math.inf, 1.0]], np.zeros((0, 3)), "ab", None]
)
def test_similarity_bad_arguments(value):
    with pytest.raises(
        ValueError, match=r"^pe must be a non-empty 2-D array of finite numbers, got "
    ):
        similarity(value)


def test_toeplitz_residual_examples():
    # A_pq = f(q - p): exactly Toeplitz, square or rectangular.
    f = np.random.default_rng(0).standard_normal(20)
    for n, m in [(5, 5), (3, 7), (7, 3), (1, 4), (4, 1), (1, 1)]:
        a = np.array([[f[q - p + 9] for q in range(m)] for p in range(n)])
        assert toeplitz_residual(a) == 0.0
    assert toeplitz_residual([[1.0, 2.0], [0.0, 5.0]]) == 4.0
    # The largest spread along any diagonal.
    a = np.zeros((4, 4))
    a[0, 1], a[2, 3] = -1.0, 2.0
    assert toeplitz_residual(a) == 3.0
    a = np.random.default_rng(1).standard_normal((30, 30))
    spreads = [np.ptp(np.diagonal(a, t)) for t in range(-29, 30)]
    assert toeplitz_residual(a) == max(spreads)
    assert type(toeplitz_residual(a)) is float


@pytest.mark.parametrize("shape", [(40, 7), (7, 40)])
def test_toeplitz_residual_of_rectangular_matrices_is_the_largest_diagonal_spread(shape):
    a = np.random.default_rng(2).standard_normal(shape)
    n, m = shape
    assert toeplitz_residual(a) == max(np.ptp(np.diagonal(a, t)) for t in range(-(n - 1), m))


def test_toeplitz_residual_works_in_memory_proportional_to_its_input():
    """A tall matrix: one n x (n + m - 1) layout of it would need 2 x 6.4 GB."""
    import tracemalloc

    a = np.zeros((20_000, 40))
    a[19_999, 0] = 1.0  # diagonal -19999 holds just this entry: spread 0; diagonal 0 spreads 0 too
    a[0, 0] = -2.0  # diagonal 0: -2 (row 0) and 0 (rows 1 to 39): spread 2
    tracemalloc.start()
    try:
        assert toeplitz_residual(a) == 2.0
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 2 * a.nbytes


@pytest.mark.parametrize(
    "value", [[1.0, 2.0], [[math.nan, 1.0]], np.zeros((2, 0)), [[1.0], [2.0, 3.0]]]
)
def test_toeplitz_residual_bad_arguments(value):
    with pytest.raises(
        ValueError, match=r"^matrix must be a non-empty 2-D array of finite numbers, got "
    ):
        toeplitz_residual(value)


def test_a_small_base_stops_similarity_falling_with_distance():
    """What the lesson says: with a small base, positions 5 to 20 apart look as unlike as
    positions 200 to 500 apart; with the paper's base, similarity still falls at that scale."""
    def mean_cosine(base, offsets):
        _, cosine = similarity(sinusoidal(600, 64, base))
        return float(cosine[0, offsets].mean())

    near, far = slice(5, 21), slice(200, 501)
    assert abs(mean_cosine(10**0.2, near)) < 0.1 and abs(mean_cosine(10**0.2, far)) < 0.1
    assert mean_cosine(1e4, near) > mean_cosine(1e4, far) + 0.3
