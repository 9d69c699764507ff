"""Tests for pelab.extrapolation: the nearest pair of positions, aliasing, and the layouts."""

import doctest
import importlib
import math

import numpy as np
import pytest

from pelab.extrapolation import MAX_NEAREST_LEN, concatenated, layout_permutation, nearest_distances
from pelab.positional_encoding import angular_frequencies, sinusoidal

extrapolation_module = importlib.import_module("pelab.extrapolation")


def test_docstring_examples_hold():
    assert doctest.testmod(extrapolation_module).failed == 0


# --- nearest_distances ---------------------------------------------------------------------


@pytest.mark.parametrize("seq_len, d_model, base", [(40, 6, 10000.0), (30, 5, 1.5), (25, 1, 10.0), (2, 4, 10000.0)])
def test_nearest_distances_is_the_brute_force_minimum(seq_len, d_model, base):
    pe = sinusoidal(seq_len, d_model, base)
    expected = [math.inf]
    for length in range(2, seq_len + 1):
        expected.append(
            min(np.linalg.norm(pe[p] - pe[q]) for p in range(length) for q in range(p + 1, length))
        )
    result = nearest_distances(seq_len, d_model, base)
    assert result.shape == (seq_len,) and result.dtype == np.float64
    assert result[0] == math.inf
    np.testing.assert_allclose(result[1:], expected[1:], rtol=0, atol=1e-7)


def test_nearest_distances_matches_the_closed_form_for_even_widths():
    # |PE(p) - PE(q)|^2 = 4 sum_i sin^2((q - p) w_i / 2): the nearest pair within L positions
    # is at the offset t <= L - 1 that minimises it.
    seq_len, d_model, base = 1024, 16, 100.0
    t = np.arange(1, seq_len)
    distance = np.sqrt(4.0 * (np.sin(t[:, None] * angular_frequencies(d_model, base) / 2.0) ** 2).sum(axis=1))
    np.testing.assert_allclose(nearest_distances(seq_len, d_model, base)[1:], np.minimum.accumulate(distance), rtol=0, atol=1e-10)


def test_standard_setting_keeps_positions_apart():
    nearest = nearest_distances(2048, 16)
    assert nearest[0] == math.inf
    assert np.all(np.diff(nearest[1:]) <= 0)  # non-increasing
    assert np.all(nearest[1:] > 1.0)
    # Neighbours are the nearest pair all the way: the slow pairs never come round.
    np.testing.assert_allclose(nearest[1:], nearest[1], rtol=0, atol=1e-12)


def test_small_base_aliases_as_the_sequence_grows():
    nearest = nearest_distances(1024, 4, base=1.5)
    assert np.all(np.diff(nearest[1:]) <= 0)
    assert nearest[63] > 0.4  # within 64 positions every pair is still far apart
    assert nearest[511] < 0.06  # by 512, two positions nearly coincide
    assert nearest[511] < nearest[63] / 5
    # With the paper's base and the same width nothing comes that close within 512.
    assert nearest_distances(512, 4)[-1] > 0.2


def test_a_single_pair_nearly_repeats_after_710_positions():
    # d_model 2: one pair turning 1 radian per position; 710 = 113 * 2 pi - 0.00006.
    nearest = nearest_distances(720, 2)
    assert nearest[709] > 0.008
    assert nearest[710] < 1e-4
    assert nearest[710] == pytest.approx(2 * abs(math.sin(710 / 2)), abs=1e-7)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"seq_len": 0, "d_model": 4}, r"^seq_len must be an integer from 1 to 2048, got 0$"),
        ({"seq_len": MAX_NEAREST_LEN + 1, "d_model": 4}, r"^seq_len must be an integer from 1 to 2048"),
        ({"seq_len": 4, "d_model": 1025}, r"^d_model must be an integer from 1 to 1024"),
        ({"seq_len": 4, "d_model": 4, "base": 1}, r"^base must be a finite real number greater than 1"),
    ],
)
def test_nearest_distances_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        nearest_distances(**kwargs)


def test_nearest_distances_single_position():
    assert nearest_distances(1, 8).tolist() == [math.inf]


# --- layouts -------------------------------------------------------------------------------------


@pytest.mark.parametrize("d_model", [1, 2, 3, 4, 7, 16, 64, 127, 512])
@pytest.mark.parametrize("base", [1.5, 10000.0])
def test_concatenated_is_the_interleaved_table_reordered_exactly(d_model, base):
    perm = layout_permutation(d_model)
    assert perm.dtype == np.int64 and sorted(perm.tolist()) == list(range(d_model))
    interleaved = sinusoidal(300, d_model, base)
    cat = concatenated(300, d_model, base)
    assert cat.shape == (300, d_model) and cat.dtype == np.float64
    assert np.array_equal(interleaved[:, perm], cat)  # bit for bit
    # And back: the inverse permutation.
    assert np.array_equal(cat[:, np.argsort(perm)], interleaved)


def test_concatenated_is_the_tensorflow_layout():
    seq_len, d_model = 50, 8
    # The tutorial: angle_rads = pos / 10000^(2i/d), sines in the first half, cosines in the second.
    pos = np.arange(seq_len)[:, None]
    i = np.arange(d_model // 2)[None, :]
    angles = pos / np.power(10000.0, 2 * i / d_model)
    expected = np.concatenate([np.sin(angles), np.cos(angles)], axis=-1)
    np.testing.assert_allclose(concatenated(seq_len, d_model), expected, rtol=0, atol=1e-12)
    assert concatenated(1, 6).tolist() == [[0.0, 0.0, 0.0, 1.0, 1.0, 1.0]]


def test_layout_permutation_examples():
    assert layout_permutation(1).tolist() == [0]
    assert layout_permutation(6).tolist() == [0, 2, 4, 1, 3, 5]
    assert layout_permutation(5).tolist() == [0, 2, 4, 1, 3]


def test_layout_bad_arguments():
    with pytest.raises(ValueError, match=r"^d_model must be an integer from 1 to 100000, got 0$"):
        layout_permutation(0)
    with pytest.raises(ValueError, match=r"^seq_len must be an integer from 1 to 100000"):
        concatenated(0, 4)
    with pytest.raises(ValueError, match=r"^seq_len \* d_model must be at most 50000000"):
        concatenated(100_000, 1000)
    with pytest.raises(ValueError, match=r"^base must be a finite real number"):
        concatenated(4, 4, base=math.nan)


def test_with_eight_pairs_a_smaller_base_moves_the_closest_positions_apart():
    """The lesson's claim (section 9 and the module notes): collisions come from few pairs, not
    from a small base. At d_model 16 the closest two positions are neighbours at every base of
    the lesson's range (10^0.2 and up, over 1024 positions), and their distance grows as the base
    shrinks."""
    bases = [10**0.2, 2.0, 10.0, 100.0, 1e4]
    closest = [nearest_distances(1024, 16, base) for base in bases]
    for base, nearest in zip(bases, closest):
        assert nearest[-1] == pytest.approx(nearest[1], abs=1e-9), base  # neighbours, all along
    ends = [float(n[-1]) for n in closest]
    assert ends == sorted(ends, reverse=True)
    assert [round(e, 2) for e in ends] == [2.28, 2.11, 1.46, 1.17, 1.01]


def test_few_pairs_collide_even_with_the_papers_base():
    assert nearest_distances(1024, 2)[-1] < 1e-4
    assert 0.05 < nearest_distances(1024, 4)[-1] < 0.1  # "about 0.07", not comfortably apart
    assert nearest_distances(1024, 8)[-1] > 0.6


def test_the_limits_of_the_few_pairs_claim():
    """What the lesson says past its range: near base 1 every pair turns at almost one speed and
    positions collide again; over 2048 positions a small base brings some offset closer than
    neighbours; with 256 pairs base 10 moves neighbours apart as the lesson's quiz says."""
    assert nearest_distances(1024, 16, 1.0001)[-1] < 0.05
    at_2048 = nearest_distances(2048, 16, 2.0)
    assert round(float(at_2048[-1]), 2) == 1.74 and round(float(at_2048[1]), 2) == 2.11
    wide_10, wide_10000 = nearest_distances(1024, 512, 10.0), nearest_distances(1024, 512)
    assert wide_10[-1] == pytest.approx(wide_10[1], abs=1e-9) and round(float(wide_10[-1]), 2) == 7.30
    assert wide_10000[-1] == pytest.approx(wide_10000[1], abs=1e-9) and round(float(wide_10000[-1]), 2) == 3.71
