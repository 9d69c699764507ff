"""Tests for pelab.relative: M_k moves PE(pos) to PE(pos + k), and only with the cosines."""

import doctest
import importlib
import math

import numpy as np
import pytest

from pelab.checks import MAX_SEQ_LEN
from pelab.positional_encoding import angular_frequencies, sinusoidal
from pelab.relative import (
    MAX_ROTATION_WIDTH,
    MIN_HALVES_LEN,
    RelativeShift,
    fit_shift,
    map_independence,
    relative_residual,
    relative_shift,
    rotation,
    sinusoidal_by_rotation,
)

# Its code or checks go through BLAS or LAPACK: rerun under every kernel (test_blas_kernels.py).
pytestmark = pytest.mark.blas_numeric

relative_module = importlib.import_module("pelab.relative")

# Products with `@` and `fit_shift`'s lstsq go through BLAS/LAPACK under CPython, and OpenBLAS
# picks its kernel by CPU: another kernel adds in another order and changes the last bits (or
# the sign of a zero). So those results are compared with a tolerance that says why it is
# enough, and exact comparisons are kept only where no rounding can happen; each says which.

OFFSETS = [0, 1, 2, 5, 13, 50, 100, -1, -7, -20, -100]
WIDTHS = [2, 4, 8, 16, 64, 128]


def test_docstring_examples_hold():
    assert doctest.testmod(relative_module).failed == 0


# --- rotation -----------------------------------------------------------------------


@pytest.mark.parametrize("d_model", WIDTHS)
@pytest.mark.parametrize("k", OFFSETS)
def test_rotation_moves_every_position_on_by_k(k, d_model):
    pe = sinusoidal(300, d_model)
    m = rotation(k, d_model)
    # Every pos with both pos and pos + k in the table: PE(pos + k) = M_k PE(pos).
    pos = np.arange(max(0, -k), min(300, 300 - k))
    # M_k is block-diagonal: each entry is a sum of two products of numbers in [-1, 1], a few ulp
    # (1e-16) in any summation order; the rest is sin/cos of angles up to 300, 1e-13 at most.
    np.testing.assert_allclose(pe[pos + k], pe[pos] @ m.T, rtol=0, atol=1e-12)


@pytest.mark.parametrize("base", [1.5, 100.0, 10000.0, 1e6])
def test_rotation_other_bases(base):
    pe = sinusoidal(120, 12, base)
    np.testing.assert_allclose(pe[7:], pe[:-7] @ rotation(7, 12, base).T, rtol=0, atol=1e-12)


def test_rotation_blocks_are_the_angle_addition_formulas():
    m = rotation(1, 2)
    c, s = math.cos(1.0), math.sin(1.0)
    np.testing.assert_allclose(m, [[c, s], [-s, c]], rtol=0, atol=1e-15)
    m = rotation(3, 6, 100.0)
    omega = angular_frequencies(6, 100.0)
    expected = np.zeros((6, 6))
    for i, w in enumerate(omega):
        b = 3 * w
        expected[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = [
            [math.cos(b), math.sin(b)],
            [-math.sin(b), math.cos(b)],
        ]
    np.testing.assert_allclose(m, expected, rtol=0, atol=1e-15)
    # Zero everywhere off the 2 x 2 blocks.
    off_block = np.ones((6, 6), dtype=bool)
    for i in range(3):
        off_block[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = False
    assert (m[off_block] == 0.0).all()  # exact: rotation() writes only the blocks


@pytest.mark.parametrize("d_model", [1, 2, 5, 8, 33, 64])
def test_rotation_is_orthogonal_and_a_group(d_model):
    assert rotation(0, d_model).tolist() == np.eye(d_model).tolist()  # M_0 = I exactly
    for k in (1, 7, -30, 1000):
        m = rotation(k, d_model)
        assert m.shape == (d_model, d_model) and m.dtype == np.float64
        # cos^2 + sin^2 and cos sin - sin cos: two products each, a few ulp in any order.
        np.testing.assert_allclose(m @ m.T, np.eye(d_model), rtol=0, atol=1e-14)
        # Moving back is the transpose (the inverse).
        np.testing.assert_allclose(rotation(-k, d_model), m.T, rtol=0, atol=1e-15)
    for a, b in [(3, 4), (10, -4), (-5, -6), (25, 75)]:
        np.testing.assert_allclose(
            rotation(a, d_model) @ rotation(b, d_model),
            rotation(a + b, d_model),
            rtol=0,
            atol=1e-12,
        )


def test_rotation_odd_width_leaves_the_lone_sine_alone():
    m = rotation(5, 7)
    assert m[6].tolist() == [0.0] * 6 + [1.0]  # exact: written, not computed
    assert m[:, 6].tolist() == [0.0] * 6 + [1.0]
    np.testing.assert_array_equal(m[:6, :6], rotation(5, 7)[:6, :6])
    # The first three pairs are exact, the lone sine is not.
    pe = sinusoidal(60, 7)
    error = np.abs(pe[5:] - pe[:-5] @ m.T)
    assert error[:, :6].max() < 1e-12
    assert error[:, 6].max() > 1e-4


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (
            {"k": MAX_SEQ_LEN + 1, "d_model": 4},
            r"^k must be an integer from -100000 to 100000, got 100001$",
        ),
        ({"k": -MAX_SEQ_LEN - 1, "d_model": 4}, r"^k must be an integer from -100000 to 100000"),
        ({"k": 1.0, "d_model": 4}, r"^k must be an integer"),
        ({"k": True, "d_model": 4}, r"^k must be an integer"),
        ({"k": 1, "d_model": 0}, r"^d_model must be an integer from 1 to 1024, got 0$"),
        (
            {"k": 1, "d_model": MAX_ROTATION_WIDTH + 1},
            r"^d_model must be an integer from 1 to 1024",
        ),
        ({"k": 1, "d_model": 4, "base": 1.0}, r"^base must be a finite real number greater than 1"),
    ],
)
def test_rotation_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        rotation(**kwargs)


def test_rotation_extreme_offsets():
    for k in (MAX_SEQ_LEN, -MAX_SEQ_LEN):
        m = rotation(k, 8)
        np.testing.assert_allclose(m @ m.T, np.eye(8), rtol=0, atol=1e-14)


# --- sinusoidal_by_rotation --------------------------------------------------------------


@pytest.mark.parametrize("seq_len", [1, 2, 3, 4, 5, 16, 17, 63, 64, 511, 512, 513, 3000])
@pytest.mark.parametrize("d_model", [1, 2, 3, 7, 64, 65, 512])
def test_table_by_rotation_is_sinusoidal_up_to_rounding(seq_len, d_model):
    for base in (1.0001, 2.0, 100.0, 10000.0, 63095.7, 1e12):
        pe = sinusoidal_by_rotation(seq_len, d_model, base)
        expected = sinusoidal(seq_len, d_model, base)
        assert pe.shape == expected.shape and pe.dtype == np.float64 and pe.flags.c_contiguous
        assert np.max(np.abs(pe - expected)) <= 2**-52 * (seq_len + 4)
        assert np.max(np.abs(pe)) <= 1.0
        unclipped = sinusoidal_by_rotation(seq_len, d_model, base, clip=False)
        np.testing.assert_array_equal(
            np.clip(unclipped, -1.0, 1.0), pe
        )  # no BLAS: elementwise only
        assert np.max(np.abs(unclipped)) <= 1.0 + 1e-15
        # Only the block starts and the first block have sines of their own: those rows are exact.
        block = math.isqrt(seq_len - 1) + 1
        np.testing.assert_array_equal(pe[:block], expected[:block])
        np.testing.assert_array_equal(pe[::block], expected[::block])


def test_table_by_rotation_rows_are_rotated_block_starts():
    """PE(aB + b) = M_b PE(aB): each row is its block's first row, turned by the offset."""
    seq_len, d_model = 100, 16  # B = 10
    pe = sinusoidal_by_rotation(seq_len, d_model, 500.0)
    for a in range(10):
        for b in range(10):
            # Two products of numbers in [-1, 1] per entry (M_b is block-diagonal): a few ulp.
            np.testing.assert_allclose(
                pe[10 * a + b], rotation(b, d_model, 500.0) @ pe[10 * a], rtol=0, atol=1e-14
            )


def test_table_by_rotation_the_worked_example():
    pe = sinusoidal_by_rotation(2, 4)
    assert [round(v, 4) for v in pe[1].tolist()] == [0.8415, 0.5403, 0.01, 1.0]
    assert pe[0].tolist() == [0.0, 1.0, 0.0, 1.0]


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"seq_len": 0, "d_model": 4}, r"^seq_len must be an integer from 1 to 100000, got 0$"),
        ({"seq_len": 4, "d_model": 0}, r"^d_model must be an integer from 1 to 100000, got 0$"),
        ({"seq_len": 4.5, "d_model": 4}, r"^seq_len must be an integer"),
        (
            {"seq_len": 4, "d_model": 4, "base": 1.0},
            r"^base must be a finite real number greater than 1",
        ),
        ({"seq_len": 100_000, "d_model": 100_000}, r"seq_len \* d_model"),
    ],
)
def test_table_by_rotation_bad_arguments_are_sinusoidal_s(kwargs, message):
    with pytest.raises(ValueError, match=message):
        sinusoidal_by_rotation(**kwargs)
    with pytest.raises(ValueError, match=message):
        sinusoidal(**kwargs)


# --- relative_residual ----------------------------------------------------------------


@pytest.mark.parametrize("d_model", [2, 16, 64, 128])
def test_relative_residual_is_rounding_error(d_model):
    for k in (-100, -20, -1, 0, 1, 7, 50, 100):
        assert relative_residual(k, 512, d_model) <= 1e-12


def test_relative_residual_documented_bound_for_far_offsets():
    # About (s + seq_len + |k|) * 1e-16: 1.4e-11 at 100512.
    assert relative_residual(MAX_SEQ_LEN, 512, 64) <= 1e-10
    assert relative_residual(-MAX_SEQ_LEN, 512, 64) <= 1e-10
    assert relative_residual(10_000, 512, 64) <= 1e-11


def test_relative_residual_reports_the_lone_sine_of_odd_widths():
    k, seq_len, d_model = 5, 64, 15
    w = angular_frequencies(d_model)[-1]
    pos = np.arange(seq_len)
    lone_error = np.max(np.abs(np.sin((pos + k) * w) - np.sin(pos * w)))
    assert relative_residual(k, seq_len, d_model) == pytest.approx(lone_error, rel=1e-9)
    assert lone_error <= abs(k) * w
    assert relative_residual(0, seq_len, d_model) == 0.0


def test_negative_offsets_start_late_enough():
    shift = relative_shift(-20, seq_len=30, d_model=8)
    assert shift.positions.tolist() == list(range(20, 50))
    table = sinusoidal(50, 8)
    np.testing.assert_array_equal(shift.now, table[20:50])
    np.testing.assert_array_equal(shift.later, table[0:30])


def test_rows_are_the_table_rows_exactly():
    shift = relative_shift(13, seq_len=40, d_model=9, base=100.0)
    assert shift.positions.tolist() == list(range(40))
    table = sinusoidal(53, 9, 100.0)
    np.testing.assert_array_equal(shift.now, table[:40])
    np.testing.assert_array_equal(shift.later, table[13:])


# --- fit_shift ---------------------------------------------------------------------------


def shifted(k, seq_len, d_model, base=10000.0):
    table = sinusoidal(seq_len + abs(k), d_model, base)
    start = max(0, -k)
    return table[start : start + seq_len], table[start + k : start + k + seq_len]


@pytest.mark.parametrize("k", [1, 5, 13, -7, 40])
def test_a_linear_map_fits_full_rows(k):
    now, later = shifted(k, 64, 16)
    m, residual = fit_shift(now, later)
    assert m.shape == (16, 16) and m.dtype == np.float64
    assert residual <= 1e-12
    # lstsq's M is exact up to rounding: entries within ~1e-15 of M_k's, rows of norm <= 3.
    np.testing.assert_allclose(now @ m.T, later, rtol=0, atol=1e-12)


@pytest.mark.parametrize("k", [1, 2, 5, 13, 22, -7, 40])
def test_no_linear_map_fits_the_sines_alone(k):
    now, later = shifted(k, 64, 16)
    m, residual = fit_shift(now[:, 0::2], later[:, 0::2])
    assert m.shape == (8, 8)
    assert residual > 0.1
    # At pos = 0 every sine is 0, so a linear map gives 0 where sin(k w_i) was due.
    if k > 0:
        assert residual >= np.max(np.abs(np.sin(k * angular_frequencies(16)))) - 1e-12


def test_fit_shift_small_examples():
    x = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    m, residual = fit_shift(x, x[:, ::-1])
    np.testing.assert_allclose(m, [[0.0, 1.0], [1.0, 0.0]], rtol=0, atol=1e-12)
    assert residual < 1e-12
    # Rectangular: 3 features to 1, y = 2 x0 - x2 exactly.
    rng = np.random.default_rng(0)
    x = rng.standard_normal((10, 3))
    m, residual = fit_shift(x, (2 * x[:, 0] - x[:, 2])[:, None])
    assert m.shape == (1, 3)
    np.testing.assert_allclose(m, [[2.0, 0.0, -1.0]], rtol=0, atol=1e-12)
    # No exact fit: y = x^2 from x.
    _, residual = fit_shift([[1.0], [2.0], [3.0]], [[1.0], [4.0], [9.0]])
    assert residual > 0.5


@pytest.mark.parametrize(
    "now, later, message",
    [
        (
            [1.0, 2.0],
            [[1.0], [2.0]],
            r"^features_now must be a non-empty 2-D array of finite numbers, got shape \(2,\)$",
        ),
        (
            [[1.0], [2.0]],
            [[1.0], [math.nan]],
            r"^features_later must be a non-empty 2-D array of finite numbers",
        ),
        (
            [["a"]],
            [[1.0]],
            r"^features_now must be a non-empty 2-D array of finite numbers, got not an array",
        ),
        (np.zeros((0, 2)), np.zeros((0, 2)), r"^features_now must be a non-empty 2-D array"),
        (
            [[1.0], [2.0]],
            [[1.0]],
            r"^features_now and features_later must have the same number of rows, got 2 and 1$",
        ),
    ],
)
def test_fit_shift_bad_arguments(now, later, message):
    with pytest.raises(ValueError, match=message):
        fit_shift(now, later)


# --- map_independence ----------------------------------------------------------------------


@pytest.mark.parametrize("d_model", [2, 8, 16, 32, 128])
@pytest.mark.parametrize("k", [1, 5, 50, -20])
def test_the_map_does_not_depend_on_where_it_is_fitted(k, d_model):
    assert map_independence(k, 64, d_model) <= 1e-8


def test_map_independence_fits_the_rotation_itself():
    now, later = shifted(5, 64, 16)
    m = relative_module._blockwise_fit(now[:32], later[:32])
    np.testing.assert_allclose(m, rotation(5, 16), rtol=0, atol=1e-9)
    assert map_independence(5, MIN_HALVES_LEN, 64) <= 1e-8
    assert map_independence(3, 512, 16, base=1.5) <= 1e-8


def test_why_not_a_full_fit_on_each_half():
    # Both full d x d fits reproduce their data, yet differ: the slow pairs' columns are
    # nearly dependent over 32 positions, so least squares cannot pin the map down.
    now, later = shifted(5, 64, 32)
    first, residual_first = fit_shift(now[:32], later[:32])
    second, residual_second = fit_shift(now[32:], later[32:])
    assert residual_first < 1e-12 and residual_second < 1e-12
    assert np.max(np.abs(first - second)) > 1e-3


def test_map_independence_odd_width_is_not_exact():
    assert map_independence(5, 64, 15) > 0.01


def test_map_independence_needs_two_positions_per_half():
    with pytest.raises(ValueError, match=r"^seq_len must be an integer from 4 to 100000, got 3$"):
        map_independence(1, 3, 8)


# --- relative_shift -------------------------------------------------------------------------


def test_relative_shift_gathers_the_demonstration():
    shift = relative_shift(5, seq_len=64, d_model=16)
    assert isinstance(shift, RelativeShift)
    assert shift.k == 5 and type(shift.k) is int
    assert shift.positions.dtype == np.int64 and shift.positions.tolist() == list(range(64))
    assert shift.now.shape == shift.later.shape == shift.mapped.shape == (64, 16)
    np.testing.assert_array_equal(shift.rotation, rotation(5, 16))
    # Two products of numbers in [-1, 1] per entry: any summation order agrees within 1e-15.
    np.testing.assert_allclose(shift.mapped, shift.now @ shift.rotation.T, rtol=0, atol=1e-15)
    # The same function of the same arguments, in one process: the same kernel, the same bits.
    assert shift.residual == relative_residual(5, 64, 16)
    assert shift.independence == map_independence(5, 64, 16)
    assert shift.residual <= 1e-12 and shift.full_fit_residual <= 1e-12
    assert shift.independence <= 1e-8
    assert shift.sine_only_residual > 0.1
    for name in ("residual", "full_fit_residual", "sine_only_residual", "independence"):
        assert type(getattr(shift, name)) is float


def test_relative_shift_zero_offset():
    shift = relative_shift(0, seq_len=8, d_model=4)
    # Exact: M_0 is written as the identity, and x * 1 + 0 * y rounds nothing.
    assert shift.residual == 0.0
    assert shift.sine_only_residual < 1e-12  # the identity map fits
    np.testing.assert_array_equal(shift.now, shift.later)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"k": 1, "seq_len": 0}, r"^seq_len must be an integer from 4 to 100000"),
        ({"k": 1, "seq_len": 64, "d_model": 2000}, r"^d_model must be an integer from 1 to 1024"),
        (
            {"k": 1, "seq_len": 100_000, "d_model": 1000},
            r"^seq_len \* d_model must be at most 50000000",
        ),
        ({"k": "1", "seq_len": 64}, r"^k must be an integer"),
        ({"k": 1, "seq_len": 64, "base": math.inf}, r"^base must be a finite real number"),
    ],
)
def test_relative_shift_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        relative_shift(**kwargs)


def test_relative_residual_bad_arguments():
    with pytest.raises(ValueError, match=r"^seq_len must be an integer from 1 to 100000, got 0$"):
        relative_residual(1, 0, 8)
    with pytest.raises(ValueError, match=r"^k must be an integer from -100000 to 100000"):
        relative_residual(200_000, 8, 8)
