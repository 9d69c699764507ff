"""Tests for pelab.stretch_effects: which pairs a stretch takes past the trained angles, against
a pair-by-pair count, and one query-key pair's scores before and after, against rotated vectors."""

import doctest
import importlib
import math

import numpy as np
import pytest

from pelab.context_scaling import (
    METHODS,
    MODEL_SETTINGS,
    stretched_frequencies,
)
from pelab.positional_encoding import angular_frequencies
from pelab.rope import rope_rotate
from pelab.stretch_effects import (
    INSIDE,
    JUST_PAST,
    OUTSIDE,
    angle_coverage,
    stretched_scores,
)

# Its code or checks go through BLAS or LAPACK: rerun under every kernel (test_blas_kernels.py).
pytestmark = pytest.mark.blas_numeric

stretch_effects = importlib.import_module("pelab.stretch_effects")


def test_docstring_examples_hold():
    result = doctest.testmod(stretch_effects)
    assert result.failed == 0 and result.attempted > 0


def coverage_by_hand(method, d, base, train_len, scale):
    """angle_coverage's states, pair by pair with Python's math."""
    new = stretched_frequencies(method, d, base, train_len, scale)
    last = math.ceil(scale * train_len) - 1
    states = []
    for i in range(d // 2):
        w = base ** (-2 * i / d)
        trained = (train_len - 1) * w  # the largest angle of positions 0 .. L - 1
        reached = last * float(new[i])
        if trained >= 2 * math.pi or reached <= trained:
            states.append(INSIDE)  # a full turn in training, or not past the trained angles
        elif reached <= train_len * w:
            states.append(JUST_PAST)  # under one trained step past
        else:
            states.append(OUTSIDE)
    return states


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("model", sorted(MODEL_SETTINGS))
@pytest.mark.parametrize("scale", [1, 2, 4, 16, 32])
def test_angle_coverage_against_a_pair_by_pair_count(method, model, scale):
    base, train_len = MODEL_SETTINGS[model]["base"], MODEL_SETTINGS[model]["train_len"]
    coverage = angle_coverage(method, 128, base, train_len, scale)
    assert coverage["state"].dtype == np.int8 and coverage["last"] == scale * train_len - 1
    assert coverage["state"].tolist() == coverage_by_hand(method, 128, base, train_len, scale)
    if scale == 1 and method in ("none", "interpolation", "ntk", "yarn"):
        assert set(coverage["state"].tolist()) == {INSIDE}  # nothing stretched, nothing leaves
    if method == "interpolation":
        assert OUTSIDE not in coverage["state"]  # every pair back within one step


def test_what_each_method_does_to_llama2_stretched_four_times():
    states = {m: angle_coverage(m, 128, 10000.0, 4096, 4.0)["state"] for m in METHODS}
    turns = 4096 * angular_frequencies(128) / (2 * math.pi)
    slow = turns < 1.0 + 1.0 / 4095  # pairs that did not complete a turn in positions 0 .. 4095
    # Without scaling exactly the slow pairs leave; the fast ones went all the way round.
    np.testing.assert_array_equal(
        states["none"] == OUTSIDE, (4095 * angular_frequencies(128) < 2 * math.pi)
    )
    assert (states["none"] == OUTSIDE).sum() == 18 and np.all(states["none"][~slow] == INSIDE)
    # Interpolation and YaRN bring every slow pair back to within one trained step.
    assert set(states["interpolation"][states["none"] == OUTSIDE]) == {JUST_PAST}
    assert set(states["yarn"][states["none"] == OUTSIDE]) == {JUST_PAST}
    # NTK-aware scaling slows every pair but the slowest by less than 4: 17 of the 18 still leave.
    assert (states["ntk"] == OUTSIDE).sum() == 17 and states["ntk"][-1] == JUST_PAST
    # Llama 3.1's factor 8 is more than this stretch of 4 needs.
    assert set(states["llama3"]) == {INSIDE}


@pytest.mark.parametrize("model, short, leave",
                         [("llama2", 18, 17), ("codellama", 27, 26), ("llama3", 29, 28)])
def test_ntk_takes_every_pair_short_of_a_turn_out_but_the_slowest(model, short, leave):
    # What the page says: the NTK-aware base slows the slowest pair by exactly s and every other
    # pair by less, too little: each pair that did not go all the way round in training,
    # (L - 1) w_i < 2 pi, leaves its trained range, except the slowest, which ends less than one
    # trained step past it, as with interpolation. At s = 4 (17 of 18 pairs for LLaMA 2, 26 of
    # 27 for Code Llama, 28 of 29 for Llama 3) and at every stretch of the slider, 2 to 32.
    base, train_len = MODEL_SETTINGS[model]["base"], MODEL_SETTINGS[model]["train_len"]
    omega = angular_frequencies(128, base)
    short_of_a_turn = (train_len - 1) * omega < 2 * math.pi
    slowest = np.arange(64) == 63
    assert short_of_a_turn.sum() == short and short_of_a_turn[63]
    for scale in range(2, 33):
        state = angle_coverage("ntk", 128, base, train_len, scale)["state"]
        np.testing.assert_array_equal(state == OUTSIDE, short_of_a_turn & ~slowest)
        assert state[63] == JUST_PAST and set(state[~short_of_a_turn].tolist()) == {INSIDE}
        slowed = omega / stretched_frequencies("ntk", 128, base, train_len, scale)
        # base'^(-2i/d) against base^(-2i/d): two powers, a few roundings apart.
        assert slowed[63] == pytest.approx(scale, rel=1e-12)
        assert np.all(slowed[:63] < scale * (1 - 1e-3))
    assert (angle_coverage("ntk", 128, base, train_len, 4)["state"] == OUTSIDE).sum() == leave


def test_llama31_at_128k_leaves_slow_pairs_outside_the_8k_angles():
    # Factor 8 on a 16-fold stretch: the slow pairs turn twice as far as in the first 8192.
    coverage = angle_coverage("llama3", 128, 500000.0, 8192, 16)
    assert coverage["last"] == 131071
    assert (coverage["state"] == OUTSIDE).sum() == 29
    slowest = coverage["reached"][-1] / coverage["trained"][-1]
    assert slowest == pytest.approx(131071 / 8 / 8191, rel=1e-12)


def rotated_by(vector, position, frequencies):
    """Pair i of `vector` turned by position * frequencies[i], with 2 x 2 rotation matrices."""
    out = np.array(vector, dtype=float)
    for i, w in enumerate(frequencies):
        c, s = math.cos(position * w), math.sin(position * w)
        a, b = vector[2 * i], vector[2 * i + 1]
        out[2 * i], out[2 * i + 1] = c * a - s * b, s * a + c * b
    return out


@pytest.mark.parametrize("method", METHODS)
def test_stretched_scores_are_rotated_queries_against_the_key(method):
    rng = np.random.default_rng(3)
    q, k = rng.standard_normal((2, 16))
    offsets, before, after = stretched_scores(q, k, method, 10000.0, 64, 4.0, samples=40)
    assert offsets[0] == 0 and offsets[-1] == 255 and offsets.shape == before.shape == after.shape
    new = stretched_frequencies(method, 16, 10000.0, 64, 4.0)
    for t, b, a in zip(offsets, before, after):
        # complex exponentials in numpy against 2 x 2 rotations with math: rounding apart
        assert b == pytest.approx(rotated_by(q, t, angular_frequencies(16)) @ k, abs=1e-12)
        assert a == pytest.approx(rotated_by(q, t, new) @ k, abs=1e-12)


def test_stretched_scores_before_are_rope_scores_and_interpolation_squeezes_positions():
    rng = np.random.default_rng(5)
    q, k = rng.standard_normal((2, 8))
    offsets, before, after = stretched_scores(q, k, "interpolation", 500.0, 100, 2.0, samples=64)
    expected_before = pelab_rope_scores(q, k, offsets, 500.0)
    expected_after = pelab_rope_scores(q, k, offsets / 2.0, 500.0)
    np.testing.assert_allclose(
        before, expected_before, atol=1e-12
    )  # two ways of rotating: rounding
    np.testing.assert_allclose(after, expected_after, atol=1e-12)


def pelab_rope_scores(q, k, positions, base):
    """(R_t q) . k for each position t, through rope_rotate."""
    return rope_rotate(np.tile(q, (len(positions), 1)), positions, base) @ k


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (
            {"method": "linear"},
            r"^method must be one of 'none', 'interpolation', 'ntk', 'yarn', 'llama3', got "
            r"'linear'$",
        ),
        (
            {"scale": 0.5},
            r"^scale must be a finite real number at least 1 and at most 1024.0, got 0.5$",
        ),
        ({"scale": 4096}, r"^scale must be a finite real number at least 1 and at most 1024.0"),
        ({"train_len": 0}, r"^train_len must be an integer from 1 to 100000"),
        ({"d": 2, "method": "ntk"}, r"^d must be an even integer from 4 to 100000, got 2$"),
        ({"base": math.inf}, r"^base must be a finite real number greater than 1"),
    ],
)
def test_stretching_bad_arguments(kwargs, message):
    arguments = {"method": "yarn", "d": 16, "base": 10000.0, "train_len": 64, "scale": 4.0} | kwargs
    with pytest.raises(ValueError, match=message):
        stretched_frequencies(**arguments)
    with pytest.raises(ValueError, match=message):
        angle_coverage(**arguments)


def test_stretched_scores_bad_arguments():
    q = np.ones(8)
    with pytest.raises(ValueError, match=r"^q and k must have the same length, got 8 and 6$"):
        stretched_scores(q, np.ones(6), "none", 10000.0, 16, 2.0)
    with pytest.raises(ValueError, match=r"^samples must be an integer from 2 to 4096, got 1$"):
        stretched_scores(q, q, "none", 10000.0, 16, 2.0, samples=1)


def test_numpy_integer_arguments_do_not_overflow():
    # Found by fuzzing: an int8 train_len times a scale of 32 overflowed int8 (128).
    coverage = angle_coverage("none", 8, 10000.0, np.int8(4), 32)
    assert coverage["last"] == 127
    offsets, _, _ = stretched_scores(np.ones(8), np.ones(8), "none", 10000.0, np.int8(4), 32)
    assert offsets[-1] == 127
