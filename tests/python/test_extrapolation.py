"""Tests for pelab.extrapolation: the nearest pair of positions, aliasing, and the layouts."""

import doctest
import importlib
import math

import numpy as np
import pytest

from pelab.extrapolation import MAX_NEAREST_LEN, concatenated, layout_permutation, nearest_distances
from pelab.positional_encoding import angular_frequencies, sinusoidal

# Its code or checks go through BLAS or LAPACK: rerun under every kernel (test_blas_kernels.py).
pytestmark = pytest.mark.blas_numeric

extrapolation_module = importlib.import_module("pelab.extrapolation")


def test_docstring_examples_hold():
    assert doctest.testmod(extrapolation_module).failed == 0


# --- nearest_distances ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "seq_len, d_model, base", [(40, 6, 10000.0), (30, 5, 1.5), (25, 1, 10.0), (2, 4, 10000.0)]
)
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
    distance = np.sqrt(
        4.0 * (np.sin(t[:, None] * angular_frequencies(d_model, base) / 2.0) ** 2).sum(axis=1)
    )
    np.testing.assert_allclose(
        nearest_distances(seq_len, d_model, base)[1:],
        np.minimum.accumulate(distance),
        rtol=0,
        atol=1e-10,
    )


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
        (
            {"seq_len": MAX_NEAREST_LEN + 1, "d_model": 4},
            r"^seq_len must be an integer from 1 to 2048",
        ),
        ({"seq_len": 4, "d_model": 1025}, r"^d_model must be an integer from 1 to 1024"),
        (
            {"seq_len": 4, "d_model": 4, "base": 1},
            r"^base must be a finite real number greater than 1",
        ),
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


# --- the lesson's claim, at every setting of its chart -------------------------------------------

# The distance chart's settings (index.html, section "extrapolation"): sequences of up to 1024
# positions, d_model 2 to 64 in steps of 2, and the base slider over log10 base 0.2 to 5 in
# steps of 0.05, each base rounded to 3 significant figures as app/controls/slider.js does
# (10^0.65 is shown and used as 4.47).
CHART_LEN = 1024
SLIDER_BASES = [float(f"{10 ** round(0.2 + 0.05 * k, 2):.3g}") for k in range(97)]
# The exact powers 10^0.2, 10^0.25, ..., 10^5, which the slider rounds.
EXACT_POWERS = [10 ** round(0.2 + 0.05 * k, 2) for k in range(97)]


def offset_distances(d_model, base, seq_len=CHART_LEN):
    """|PE_p - PE_q| for each offset t = q - p from 1 to seq_len - 1 (entry t - 1), by the
    closed form sum_i 2 (1 - cos(t w_i)) for an even d_model: exact maths, elementwise numpy
    (no BLAS), so a CPU's own sin/cos loops change it by a few ulps at most (~1e-15)."""
    t = np.arange(1, seq_len, dtype=np.float64)[:, np.newaxis]
    return np.sqrt((2.0 * (1.0 - np.cos(t * angular_frequencies(d_model, base)))).sum(axis=1))


def test_the_slider_bases_are_the_pages():
    assert len(set(SLIDER_BASES)) == 97
    assert SLIDER_BASES[:6] == [1.58, 1.78, 2.0, 2.24, 2.51, 2.82]
    assert SLIDER_BASES[9] == 4.47 and SLIDER_BASES[76] == 10000.0 and SLIDER_BASES[-1] == 100000.0


def test_from_d_model_20_the_closest_two_positions_on_the_chart_are_neighbours():
    """What the lesson says: with 10 or more pairs, at every base the slider offers, the closest
    two of the chart's 1024 positions are neighbours, and a smaller base moves them further
    apart. (Within any shorter sequence too: offset 1 is in every sequence of 2 or more.)"""
    for bases in (SLIDER_BASES, EXACT_POWERS):  # the claim does not hang on the rounding
        for d_model in range(20, 65, 2):
            distances = np.array([offset_distances(d_model, base) for base in bases])
            neighbours, others = distances[:, 0], distances[:, 1:].min(axis=1)
            # Every other offset is at least 3% farther. The worst case, d_model 64 at base 1.58,
            # is offset 8: 4.6210 against 4.4766 (3.2%); the smallest gap, 0.1233, is at d_model
            # 24, base 1.58 (offset 8 again, 2.8953 against 2.7720); at the exact powers the
            # least is 3.7%. Far above any rounding.
            assert np.all(others >= 1.03 * neighbours), d_model
            # The closest distance (the neighbours') strictly grows as the base shrinks: each
            # step of the slider changes it by at least 0.0014 (d_model 20).
            assert np.all(np.diff(neighbours) < -1e-3), d_model


def test_neighbours_move_apart_as_the_base_shrinks_at_every_width():
    """|PE_p - PE_(p+1)|^2 = sum_i 2 (1 - cos w_i) with w_i = base^(-2i/d) in (0, 1]: a smaller
    base makes every w_i (i >= 1) larger, and 1 - cos grows on [0, pi], so neighbours move apart
    for every d_model >= 4; at d_model 2 the only pair turns 1 radian per position whatever the
    base."""
    for d_model in range(4, 65, 2):
        neighbours = [offset_distances(d_model, base, seq_len=2)[0] for base in SLIDER_BASES]
        # Smallest step: 6.4e-7 (d_model 4, between 89100 and 100000), far above rounding.
        assert np.all(np.diff(neighbours) < -1e-7), d_model
    # w_0 = base^0 = 1 exactly, so the same arithmetic on the same numbers: one value, bit for bit.
    one_pair = {offset_distances(2, base, seq_len=2)[0] for base in SLIDER_BASES}
    assert len(one_pair) == 1 and one_pair.pop() == pytest.approx(2 * math.sin(0.5), abs=1e-15)
    # The module notes' figures at d_model 16: nearest_distances over two positions is the
    # neighbours' distance (through BLAS: ~1e-15, far inside the rounding to 2 decimals).
    ends = [float(nearest_distances(2, 16, base)[1]) for base in [1.58, 2.0, 10.0, 100.0, 1e4]]
    assert [round(e, 2) for e in ends] == [2.28, 2.11, 1.46, 1.17, 1.01]


# (d_model, base, offset of the closest pair, its distance, the neighbours' distance)
SLIDER_COUNTEREXAMPLES = [
    (16, 1.58, 133, 2.2555, 2.2834),
    (16, 2.82, 685, 1.8431, 1.9056),
    (18, 3.16, 892, 1.9317, 1.9462),
    (18, 12.6, 541, 1.1787, 1.4792),
]
# Issue 32's, at the exact powers of 10, and one between the slider's steps at d_model 20.
EXACT_COUNTEREXAMPLES = [
    (16, 10**0.4, 578, 1.9612, 1.9690),
    (16, 10**0.45, 685, 1.8689, 1.9059),
    (16, 10**0.65, 1023, 1.5333, 1.6998),
    (18, 10**0.5, 786, 1.8963, 1.9458),
    (18, 10**1.1, 949, 1.0941, 1.4794),
    (20, 10**1.2216, 949, 1.0087, 1.4818),
]


@pytest.mark.parametrize("d_model, base, offset, closest, neighbours",
                         SLIDER_COUNTEREXAMPLES + EXACT_COUNTEREXAMPLES)
def test_with_8_or_9_pairs_some_bases_bring_distant_positions_closer(d_model, base, offset,
                                                                    closest, neighbours):
    distances = offset_distances(d_model, base)
    # The closest pair is hundreds of positions apart; the next best offset is at least 0.0077
    # farther (d_model 18, base 3.16: 892 at 1.9317, 785 at 1.9394): no rounding tie.
    assert int(distances.argmin()) + 1 == offset
    assert distances.min() == pytest.approx(closest, abs=1e-4)
    assert distances[0] == pytest.approx(neighbours, abs=1e-4)
    # nearest_distances says the same at every sequence length, the running minimum over the
    # offsets: its Gram matrix (BLAS) loses ~1e-13 at these sizes, measured.
    nearest = nearest_distances(CHART_LEN, d_model, base)
    np.testing.assert_allclose(nearest[1:], np.minimum.accumulate(distances), rtol=0, atol=1e-10)


def test_at_d_model_16_and_18_only_those_slider_bases_fail():
    """On the slider, exactly two bases each at d_model 16 and 18 put the closest pair elsewhere;
    and there the closest distance is not monotone in the base."""
    for d_model, failing in [(16, {1.58: 133, 2.82: 685}), (18, {3.16: 892, 12.6: 541})]:
        distances = {base: offset_distances(d_model, base) for base in SLIDER_BASES}
        # Nearest to a tie: d_model 16 at base 4.47 (other offsets 1.2% farther) and d_model 18
        # at base 3.16 (0.7% closer); rounding moves these by ~1e-15.
        found = {base: int(d.argmin()) + 1 for base, d in distances.items() if d.argmin() != 0}
        assert found == failing
        # The closest distance rises once, from a failing base to the next: d_model 16 from
        # 1.8431 at 2.82 to 1.8482 at 3.16, d_model 18 from 1.1787 at 12.6 to 1.4563 at 14.1.
        closest = np.array([d.min() for d in distances.values()])
        rises = [SLIDER_BASES[k] for k in np.flatnonzero(np.diff(closest) > 0)]
        assert rises == {16: [2.82], 18: [12.6]}[d_model]
        k = SLIDER_BASES.index(rises[0])
        expected = {16: [1.8431, 1.8482], 18: [1.1787, 1.4563]}[d_model]
        assert closest[k:k + 2].tolist() == pytest.approx(expected, abs=1e-4)


def test_below_d_model_16_a_small_base_often_brings_distant_positions_closer():
    # How many of the 97 slider bases put the closest pair elsewhere than offset 1. Nearest to a
    # tie: d_model 8 at base 1580, another offset 0.15% farther than neighbours; far from rounding.
    failures = {
        d_model: sum(int(offset_distances(d_model, base).argmin()) != 0 for base in SLIDER_BASES)
        for d_model in (2, 4, 6, 8, 10, 12, 14)
    }
    assert failures == {2: 97, 4: 97, 6: 97, 8: 94, 10: 54, 12: 18, 14: 9}


def test_a_small_base_leaves_no_coarse_scale():
    """The module notes: the cosine similarity of positions t apart, mean_i cos(t w_i) (each row
    has norm sqrt(d_model / 2)), falls near zero within a few steps at base 10; with 256 pairs
    it stays near zero, with 8 it swings. Elementwise numpy: ~1e-16, far inside the 0.01s."""
    t = np.arange(1, CHART_LEN, dtype=np.float64)[:, np.newaxis]
    wide = np.cos(t * angular_frequencies(512, 10.0)).mean(axis=1)
    assert abs(wide[4]) < 0.01 and abs(wide[499]) < 0.01  # 5 apart, 500 apart
    assert -0.23 < wide[4:].min() < -0.22 and 0.09 < wide[4:].max() < 0.10  # 5 to 1023 apart
    narrow = np.cos(t * angular_frequencies(16, 10.0)).mean(axis=1)
    assert abs(narrow[4]) < 0.03 and round(float(narrow[99]), 2) == 0.60


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
    assert (
        wide_10[-1] == pytest.approx(wide_10[1], abs=1e-9) and round(float(wide_10[-1]), 2) == 7.30
    )
    assert (
        wide_10000[-1] == pytest.approx(wide_10000[1], abs=1e-9)
        and round(float(wide_10000[-1]), 2) == 3.71
    )
