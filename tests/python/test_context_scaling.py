"""Tests for pelab.context_scaling: position interpolation, the NTK-aware base and YaRN, each
against a direct computation, pair by pair, with Python's math."""

import doctest
import importlib
import math

import numpy as np
import pytest

from pelab.context_scaling import (
    interpolated_positions,
    ntk_scaled_base,
    yarn_attention_scale,
    yarn_frequencies,
)
from pelab.positional_encoding import angular_frequencies
from pelab.rope import rope_rotate

context_scaling = importlib.import_module("pelab.context_scaling")

# Llama 2 (base 1e4, trained on 4096) stretched 16-fold; Llama 3 (5e5, 8192) 16-fold; a toy.
SETTINGS = [(128, 10000.0, 16.0, 4096), (128, 500000.0, 16.0, 8192), (8, 10000.0, 4.0, 2048),
            (64, 10000.0, 2.0, 512)]


def test_docstring_examples_hold():
    result = doctest.testmod(context_scaling)
    assert result.failed == 0 and result.attempted > 0


# ---------------------------------------------------------------------------
# Position interpolation
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("train_len, target_len", [(2048, 8192), (4096, 4096), (512, 1536), (1, 7)])
def test_interpolated_positions_keep_every_angle_in_the_trained_range(train_len, target_len):
    positions = np.arange(target_len)
    squeezed = interpolated_positions(positions, train_len, target_len)
    assert squeezed.dtype == np.float64 and squeezed.shape == (target_len,)
    for m in (0, 1, target_len // 3, target_len - 1):
        # m * (L / L') against m * L / L' in exact rational arithmetic: one rounding apart.
        assert squeezed[m] == pytest.approx(m * train_len / target_len, rel=1e-15, abs=0)
    # Positions 0 .. L' - 1 land in [0, L): every pair's angle m' w_i stays below L w_i, the
    # range training covered (its last position, L - 1, is one step below L).
    assert squeezed[0] == 0.0 and squeezed.max() < train_len
    omega = angular_frequencies(64)
    assert np.all(squeezed[:, None] * omega < train_len * omega)
    # Neighbours are L / L' apart, in every pair (the cost of interpolating).
    np.testing.assert_allclose(np.diff(squeezed), train_len / target_len, rtol=1e-9)


def test_without_interpolation_slow_pairs_leave_the_trained_range():
    train_len, target_len = 2048, 8192
    omega = angular_frequencies(128)
    trained = (train_len - 1) * omega
    stretched = (target_len - 1) * omega
    # Every pair turns further at 8192 than at 2047; with interpolation none does.
    assert np.all(stretched > trained)
    assert np.all(interpolated_positions([target_len - 1], train_len, target_len)[0] * omega < train_len * omega)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"positions": [-1.0], "train_len": 4, "target_len": 8},
         r"^positions must be a 1-D array of at least one real number, each from 0 to 100000, got \[-1.0\]$"),
        ({"positions": [[1.0]], "train_len": 4, "target_len": 8}, r"^positions must be a 1-D array"),
        ({"positions": [math.nan], "train_len": 4, "target_len": 8}, r"^positions must be a 1-D array"),
        ({"positions": [1.0], "train_len": 0, "target_len": 8},
         r"^train_len must be an integer from 1 to 100000, got 0$"),
        ({"positions": [1.0], "train_len": 4.0, "target_len": 8}, r"^train_len must be an integer"),
        ({"positions": [1.0], "train_len": 4, "target_len": 3},
         r"^target_len must be an integer from 4 to 100000, got 3$"),
        ({"positions": [1.0], "train_len": 4, "target_len": 100001}, r"^target_len must be an integer"),
    ],
)
def test_interpolated_positions_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        interpolated_positions(**kwargs)


# ---------------------------------------------------------------------------
# NTK-aware base
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("d, base, scale, _train_len", SETTINGS + [(4, 10000.0, 3.0, 0)])
def test_ntk_base_keeps_the_fastest_pair_and_slows_the_slowest_by_scale(d, base, scale, _train_len):
    scaled = ntk_scaled_base(base, scale, d)
    assert type(scaled) is float
    # base * s^(d / (d - 2)), through logarithms instead of a power.
    assert scaled == pytest.approx(math.exp(math.log(base) + d / (d - 2) * math.log(scale)), rel=1e-13)
    before, after = angular_frequencies(d, base), angular_frequencies(d, scaled)
    assert after[0] == before[0] == 1.0  # base ** 0: exact
    # The slowest pair's wavelength grows by exactly s (two powers, a few roundings apart).
    assert (2 * math.pi / after[-1]) / (2 * math.pi / before[-1]) == pytest.approx(scale, rel=1e-12)
    # Pair i is slowed by s^(2i / (d - 2)): less the faster it is.
    for i in range(d // 2):
        assert before[i] / after[i] == pytest.approx(scale ** (2 * i / (d - 2)), rel=1e-12)


def test_ntk_base_rotates_the_fastest_pair_as_before():
    rng = np.random.default_rng(0)
    x, positions = rng.standard_normal((2, 9, 16)), np.arange(9) * 1000
    new_base = ntk_scaled_base(10000.0, 8.0, 16)
    for pairing, fastest in (("adjacent", [0, 1]), ("half", [0, 8])):
        before = rope_rotate(x, positions, 10000.0, pairing)
        after = rope_rotate(x, positions, new_base, pairing)
        # w_0 = 1 for both bases: the same angles, the same arithmetic, exact.
        np.testing.assert_array_equal(after[..., fastest], before[..., fastest])
        assert not np.allclose(after, before)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"base": 1.0, "scale": 2.0, "d": 8}, r"^base must be a finite real number greater than 1, got 1.0$"),
        ({"base": "1e4", "scale": 2.0, "d": 8}, r"^base must be a finite real number"),
        ({"base": 1e4, "scale": 0.5, "d": 8}, r"^scale must be a finite real number at least 1, got 0.5$"),
        ({"base": 1e4, "scale": math.inf, "d": 8}, r"^scale must be a finite real number"),
        ({"base": 1e4, "scale": True, "d": 8}, r"^scale must be a finite real number"),
        ({"base": 1e4, "scale": 2.0, "d": 2}, r"^d must be an even integer from 4 to 100000, got 2$"),
        ({"base": 1e4, "scale": 2.0, "d": 7}, r"^d must be an even integer from 4"),
        ({"base": 1e300, "scale": 1e10, "d": 8},
         r"^base and scale must keep base \* scale \*\* \(d / \(d - 2\)\) within the float range, "
         r"got base=1e\+300, scale=10000000000.0$"),
        ({"base": 1e4, "scale": 1e300, "d": 4}, r"^base and scale must keep"),
    ],
)
def test_ntk_scaled_base_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        ntk_scaled_base(**kwargs)


# ---------------------------------------------------------------------------
# YaRN
# ---------------------------------------------------------------------------


def yarn_by_hand(d, base, scale, train_len, alpha, beta):
    """Peng et al. 2023, section 3.2, one pair at a time with math."""
    out = []
    for i in range(d // 2):
        omega = base ** (-2 * i / d)
        wavelength = 2 * math.pi / omega
        r = train_len / wavelength
        gamma = 0.0 if r < alpha else 1.0 if r > beta else (r - alpha) / (beta - alpha)
        out.append((1 - gamma) * omega / scale + gamma * omega)
    return out


@pytest.mark.parametrize("alpha, beta", [(1.0, 32.0), (0.5, 8.0), (0.0, 1000.0)])
@pytest.mark.parametrize("d, base, scale, train_len", SETTINGS)
def test_yarn_frequencies_are_the_papers_blend(d, base, scale, train_len, alpha, beta):
    got = yarn_frequencies(d, base, scale, train_len, alpha, beta)
    assert got.dtype == np.float64 and got.shape == (d // 2,)
    # numpy's power and division against Python's, pair by pair: a few roundings apart.
    np.testing.assert_allclose(got, yarn_by_hand(d, base, scale, train_len, alpha, beta), rtol=1e-12, atol=0)
    omega = angular_frequencies(d, base)
    turns = train_len * omega / (2 * math.pi)
    fast, slow = turns > beta, turns < alpha
    # gamma = 1: 0 * (w / s) + w, exact; gamma = 0: w / s + 0 * w, exact.
    np.testing.assert_array_equal(got[fast], omega[fast])
    np.testing.assert_array_equal(got[slow], omega[slow] / scale)
    between = ~fast & ~slow
    assert np.all(got[between] >= omega[between] / scale) and np.all(got[between] <= omega[between])
    # Between, the ratio w'/w is the ramp: 1/s + (1 - 1/s) (r - alpha) / (beta - alpha).
    ramp = (turns[between] - alpha) / (beta - alpha)
    np.testing.assert_allclose(got[between] / omega[between], 1 / scale + (1 - 1 / scale) * ramp, rtol=1e-12)


def test_yarn_llama2_64k_has_all_three_regimes():
    # Llama 2 (d = 128 per head, base 1e4, 4096) to 64k: s = 16, the paper's alpha = 1, beta = 32.
    got = yarn_frequencies(128, 10000.0, 16.0, 4096)
    ratio = got / angular_frequencies(128)
    assert ratio[0] == 1.0 and ratio[-1] == 1 / 16
    assert np.all(np.diff(ratio) <= 0)  # slower pairs are interpolated more
    assert np.any((ratio < 1) & (ratio > 1 / 16))
    # The slowest pair turns at most as far over 64k as the unscaled one over 4096.
    assert 65536 * got[-1] <= 4096 * angular_frequencies(128)[-1] * (1 + 1e-15)


def test_yarn_with_scale_one_changes_nothing():
    # On the ramp, (1 - g) w + g w is w up to the rounding of the two products: one ulp.
    np.testing.assert_allclose(yarn_frequencies(64, 10000.0, 1, 2048), angular_frequencies(64), rtol=4e-16, atol=0)


def test_yarn_ramp_as_steep_as_floats_allow():
    # beta barely above alpha: the slope overflows to inf, the clip gives a step, no warning.
    with np.errstate(all="raise"):
        got = yarn_frequencies(64, 10000.0, 4.0, 2048, alpha=1.0, beta=1.0 + 2**-52)
    omega = angular_frequencies(64)
    assert set(np.round(got / omega, 12).tolist()) <= {1.0, 0.25}


@pytest.mark.parametrize("scale, expected", [(1, 1.0), (4.0, 1.1386294361119891), (16, 1.2772588722239781),
                                             (math.exp(10), 2.0)])
def test_yarn_attention_scale(scale, expected):
    got = yarn_attention_scale(scale)
    assert type(got) is float
    assert got == pytest.approx(expected, rel=1e-15)
    # sqrt(1/t) is the factor on q and on k: the logits get its square, 1/t.
    t = 1 / got**2
    assert math.sqrt(1 / t) == pytest.approx(0.1 * math.log(scale) + 1, rel=1e-15)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"d": 7}, r"^d must be an even integer from 2 to 100000, got 7$"),
        ({"d": 0}, r"^d must be an even integer"),
        ({"base": 0.5}, r"^base must be a finite real number greater than 1, got 0.5$"),
        ({"scale": 0.9}, r"^scale must be a finite real number at least 1, got 0.9$"),
        ({"scale": math.nan}, r"^scale must be a finite real number"),
        ({"train_len": 0}, r"^train_len must be an integer from 1 to 100000, got 0$"),
        ({"train_len": 2048.0}, r"^train_len must be an integer"),
        ({"alpha": -1.0}, r"^alpha must be a finite real number at least 0, got -1.0$"),
        ({"alpha": math.inf}, r"^alpha must be a finite real number"),
        ({"beta": 1.0}, r"^beta must be a finite real number greater than alpha \(1.0\), got 1.0$"),
        ({"alpha": 40.0}, r"^beta must be a finite real number greater than alpha \(40.0\), got 32.0$"),
        ({"beta": "32"}, r"^beta must be a finite real number"),
    ],
)
def test_yarn_frequencies_bad_arguments(kwargs, message):
    arguments = {"d": 8, "base": 10000.0, "scale": 4.0, "train_len": 2048} | kwargs
    with pytest.raises(ValueError, match=message):
        yarn_frequencies(**arguments)


@pytest.mark.parametrize("scale", [0.5, 0, -1, math.inf, math.nan, "2", None, True, [2.0], 10**400])
def test_yarn_attention_scale_bad_arguments(scale):
    with pytest.raises(ValueError, match=r"^scale must be a finite real number at least 1, got "):
        yarn_attention_scale(scale)
