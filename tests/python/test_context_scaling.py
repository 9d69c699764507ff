"""Tests for pelab.context_scaling: position interpolation, the NTK-aware base, YaRN (as its code
runs it and as its paper writes it) and Llama 3.1's rule, each against a direct computation,
pair by pair, with Python's math; and which pairs each method takes past their trained angles."""

import doctest
import importlib
import math

import numpy as np
import pytest

from pelab.context_scaling import (
    LLAMA31_ROPE_SCALING,
    MODEL_HEAD_DIM,
    MODEL_SETTINGS,
    interpolated_positions,
    llama3_frequencies,
    ntk_scaled_base,
    stretched_frequencies,
    yarn_attention_scale,
    yarn_frequencies,
    yarn_frequencies_by_turns,
)
from pelab.positional_encoding import angular_frequencies
from pelab.rope import rope_rotate

# Its code or checks go through BLAS or LAPACK: rerun under every kernel (test_blas_kernels.py).
pytestmark = pytest.mark.blas_numeric

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
    assert np.all(
        interpolated_positions([target_len - 1], train_len, target_len)[0] * omega
        < train_len * omega
    )


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (
            {"positions": [-1.0], "train_len": 4, "target_len": 8},
            r"^positions must be a 1-D array of at least one real number, each from 0 to 100000, "
            r"got \[-1.0\]$",
        ),
        (
            {"positions": [[1.0]], "train_len": 4, "target_len": 8},
            r"^positions must be a 1-D array",
        ),
        (
            {"positions": [math.nan], "train_len": 4, "target_len": 8},
            r"^positions must be a 1-D array",
        ),
        (
            {"positions": [1.0], "train_len": 0, "target_len": 8},
            r"^train_len must be an integer from 1 to 100000, got 0$",
        ),
        ({"positions": [1.0], "train_len": 4.0, "target_len": 8}, r"^train_len must be an integer"),
        (
            {"positions": [1.0], "train_len": 4, "target_len": 3},
            r"^target_len must be an integer from 4 to 100000, got 3$",
        ),
        (
            {"positions": [1.0], "train_len": 4, "target_len": 100001},
            r"^target_len must be an integer",
        ),
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
    assert scaled == pytest.approx(
        math.exp(math.log(base) + d / (d - 2) * math.log(scale)), rel=1e-13
    )
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
        (
            {"base": 1.0, "scale": 2.0, "d": 8},
            r"^base must be a finite real number greater than 1, got 1.0$",
        ),
        ({"base": "1e4", "scale": 2.0, "d": 8}, r"^base must be a finite real number"),
        (
            {"base": 1e4, "scale": 0.5, "d": 8},
            r"^scale must be a finite real number at least 1, got 0.5$",
        ),
        ({"base": 1e4, "scale": math.inf, "d": 8}, r"^scale must be a finite real number"),
        ({"base": 1e4, "scale": True, "d": 8}, r"^scale must be a finite real number"),
        (
            {"base": 1e4, "scale": 2.0, "d": 2},
            r"^d must be an even integer from 4 to 100000, got 2$",
        ),
        ({"base": 1e4, "scale": 2.0, "d": 7}, r"^d must be an even integer from 4"),
        (
            {"base": 1e300, "scale": 1e10, "d": 8},
            r"^base and scale must keep base \* scale \*\* \(d / \(d - 2\)\) within the float "
            r"range, "
            r"got base=1e\+300, scale=10000000000.0$",
        ),
        ({"base": 1e4, "scale": 1e300, "d": 4}, r"^base and scale must keep"),
    ],
)
def test_ntk_scaled_base_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        ntk_scaled_base(**kwargs)


# ---------------------------------------------------------------------------
# YaRN: as its code runs it (yarn_frequencies), as its paper writes it (yarn_frequencies_by_turns)
# ---------------------------------------------------------------------------


def pair_index_turning(d, base, train_len, turns):
    """The fractional pair index at which a pair turns `turns` times over train_len: the pair
    index i solving train_len * base^(-2i/d) / (2 pi) = turns (the code's find_correction_dim)."""
    return d * math.log(train_len / (turns * 2 * math.pi)) / (2 * math.log(base))


def yarn_code_by_hand(d, base, scale, train_len, beta_slow, beta_fast):
    """YaRN as its authors' code computes it (github.com/jquesnelle/yarn,
    scaled_rope/LlamaYaRNScaledRotaryEmbedding.py: find_correction_range, linear_ramp_mask, and
    the blend of its `yarn` method; Hugging Face transformers' _compute_yarn_parameters does the
    same), step by step with Python's math, in float64 where theirs is float32. Returns the
    frequencies and the ramp's two ends."""
    low = max(math.floor(pair_index_turning(d, base, train_len, beta_fast)), 0)
    high = min(math.ceil(pair_index_turning(d, base, train_len, beta_slow)), d - 1)
    if low == high:
        high += 0.001  # as theirs: no division by zero, a step after pair `low`
    out = []
    for i in range(d // 2):
        ramp = min(max((i - low) / (high - low), 0.0), 1.0)  # linear_ramp_mask, one pair
        extrapolated = 1 - ramp  # inv_freq_mask, with extrapolation_factor 1
        trained = 1 / base ** (2 * i / d)  # inv_freq_extrapolation
        squeezed = 1 / (scale * base ** (2 * i / d))  # inv_freq_interpolation
        out.append(squeezed * (1 - extrapolated) + trained * extrapolated)
    return np.array(out), low, high


def clamps_cross(d, base, scale, train_len, alpha, beta):
    """Whether the code's clamped ramp ends cross (every pair on one side of the ramp)."""
    _, low, high = yarn_code_by_hand(d, base, scale, train_len, alpha, beta)
    return low > high


# The settings above; the toy of pelab.experiments.stretch_experiment (d 16, L 8); ramps whose two
# ends meet (both clamped to 0; both at d - 1); Code Llama; a ramp that ends past the last pair
# (d - 1 = 127).
YARN_CODE_SETTINGS = SETTINGS + [
    (16, 10000.0, 4.0, 8), (16, 10000.0, 2.0, 8), (16, 10000.0, 4.0, 2), (8, 10.0, 4.0, 16384),
    (128, 1000000.0, 4.0, 16384), (128, 10000.0, 1.5, 100000),
]
YARN_BOUNDS = [(1.0, 32.0), (0.5, 8.0), (2.0, 1000.0)]
# Every pairing but the two whose clamps cross (test_yarn_where_the_codes_clamps_cross below).
YARN_CODE_CASES = [(*setting, *bounds) for setting in YARN_CODE_SETTINGS for bounds in YARN_BOUNDS
                   if not clamps_cross(*setting, *bounds)]


def test_the_code_cases_cover_every_kind_of_ramp():
    assert len(YARN_CODE_CASES) == len(YARN_CODE_SETTINGS) * len(YARN_BOUNDS) - 2
    ends = [yarn_code_by_hand(*case)[1:] for case in YARN_CODE_CASES]
    assert any(high == low + 0.001 for low, high in ends)  # ends that meet: a step
    assert any(low == 0 for low, high in ends) and any(low > 0 for low, high in ends)
    assert any(high > d // 2 - 1 for (d, *_), (low, high) in zip(YARN_CODE_CASES, ends))


@pytest.mark.parametrize("d, base, scale, train_len, alpha, beta", YARN_CODE_CASES)
def test_yarn_frequencies_are_the_codes_ramp_over_the_pair_index(
    d, base, scale, train_len, alpha, beta
):
    got = yarn_frequencies(d, base, scale, train_len, alpha, beta)
    assert got.dtype == np.float64 and got.shape == (d // 2,)
    theirs, low, high = yarn_code_by_hand(d, base, scale, train_len, alpha, beta)
    # numpy's power and clip against Python's ** and min/max, pair by pair: a few roundings apart.
    np.testing.assert_allclose(got, theirs, rtol=1e-13, atol=0)
    omega = angular_frequencies(d, base)
    i = np.arange(d // 2)
    kept, squeezed = i <= low, i >= high
    # Shares of exactly 1 and 0: 0 * (w / s) + 1 * w and 1 * (w / s) + 0 * w, exact.
    np.testing.assert_array_equal(got[kept], omega[kept])
    np.testing.assert_array_equal(got[squeezed], omega[squeezed] / scale)
    # Between, w'/w falls linearly in the pair index, from 1 at `low` to 1/s at `high`.
    between = ~kept & ~squeezed
    expected = 1 - (1 - 1 / scale) * (i[between] - low) / (high - low)
    np.testing.assert_allclose(got[between] / omega[between], expected, rtol=1e-13)


@pytest.mark.parametrize("d, base, scale, train_len, keeps", [(8, 10.0, 4.0, 100000, True),
                                                               (16, 10000.0, 4.0, 1, False)])
def test_yarn_where_the_codes_clamps_cross(d, base, scale, train_len, keeps):
    # Base 10 and 100000 positions: every pair turns more than 32 times; 1 position: every pair
    # fewer than once. The code's ramp then runs backwards and does the opposite of its bounds;
    # yarn_frequencies does what they say, as the paper's formula does (shares 1 or 0: exact).
    omega = angular_frequencies(d, base)
    turns = train_len * omega / (2 * math.pi)
    assert (turns > 32).all() if keeps else (turns < 1).all()
    theirs, low, high = yarn_code_by_hand(d, base, scale, train_len, 1.0, 32.0)
    assert low > high
    expected = omega if keeps else omega / scale
    got = yarn_frequencies(d, base, scale, train_len)
    np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(got, yarn_frequencies_by_turns(d, base, scale, train_len))
    np.testing.assert_allclose(theirs, omega / scale if keeps else omega, rtol=1e-13)


def test_yarn_alpha_zero_is_the_limit_of_small_alphas():
    # c(alpha) grows without bound as alpha falls to 0; the clamp stops it at d - 1.
    for d, base, scale, train_len in YARN_CODE_SETTINGS[:6]:
        got = yarn_frequencies(d, base, scale, train_len, alpha=0.0)
        theirs, _, high = yarn_code_by_hand(d, base, scale, train_len, 1e-300, 32.0)
        assert high == d - 1
        np.testing.assert_allclose(got, theirs, rtol=1e-13, atol=0)  # as above: roundings apart


def test_yarn_bounds_at_the_ends_of_the_float_range():
    # alpha 5e-324 makes L / (2 pi alpha) overflow and beta 1e308 makes 2 pi beta overflow: the
    # logarithm is then taken term by term, with no warning, and the ramp spans 0 to d - 1.
    with np.errstate(all="raise"):
        got = yarn_frequencies(16, 10000.0, 4.0, 64, alpha=5e-324, beta=1e308)
    np.testing.assert_array_equal(
        got, yarn_frequencies(16, 10000.0, 4.0, 64, alpha=0.0, beta=1e308)
    )
    omega = angular_frequencies(16)
    # Shares 1 - i / 15 for pairs 0 to 7: w' / w = 1 - (3 / 4) i / 15.
    np.testing.assert_allclose(got / omega, 1 - 0.75 * np.arange(8) / 15, rtol=1e-13)


@pytest.mark.parametrize("yarn", [yarn_frequencies, yarn_frequencies_by_turns])
@pytest.mark.parametrize("d, base, scale, train_len", YARN_CODE_SETTINGS)
def test_yarn_with_scale_one_changes_nothing(yarn, d, base, scale, train_len):
    # (1 - g) w + g w is w up to the roundings of 1 - g and of the two products and their sum.
    np.testing.assert_allclose(
        yarn(d, base, 1, train_len), angular_frequencies(d, base), rtol=1e-15, atol=0
    )


def test_the_two_yarns_on_llama2_stretched_four_times():
    # What the page says: the paper's ramp is linear in the turns, the code's in the pair index;
    # for LLaMA 2 (d 128, base 10000, L 4096) at s = 4 they differ on pairs 21 to 45, by up to
    # 27.5 % of a pair's speed (pair 30), and the code slows all of them less but pair 21.
    omega = angular_frequencies(128)
    code = yarn_frequencies(128, 10000.0, 4.0, 4096)
    paper = yarn_frequencies_by_turns(128, 10000.0, 4.0, 4096)
    # Exact by construction: outside pairs 21 to 45 both have shares of exactly 1 or 0.
    assert np.nonzero(code != paper)[0].tolist() == list(range(21, 46))
    assert np.nonzero(code < paper)[0].tolist() == [21]
    gap = np.abs(code - paper) / omega
    assert gap.argmax() == 30
    # Pair 30 by hand: the code's share runs over pairs 20 to 46, the paper's over 1 to 32 turns.
    r30 = 4096 * 10000.0 ** (-60 / 128) / (2 * math.pi)
    by_hand = (1 - 0.75 * 10 / 26) - (0.25 + 0.75 * (r30 - 1) / 31)
    assert gap[30] == pytest.approx(by_hand, rel=1e-12)  # elementwise, no BLAS: roundings only
    assert round(gap.max(), 3) == 0.275


@pytest.mark.parametrize("model", sorted(MODEL_SETTINGS))
def test_the_codes_yarn_slows_nearly_every_pair_between_less(model):
    base, train_len = MODEL_SETTINGS[model]["base"], MODEL_SETTINGS[model]["train_len"]
    for scale in range(2, 33):
        code = yarn_frequencies(128, base, scale, train_len)
        paper = yarn_frequencies_by_turns(128, base, scale, train_len)
        assert (code < paper).sum() <= 1 and (code > paper).sum() >= 16


def yarn_by_hand(d, base, scale, train_len, alpha, beta):
    """Peng et al. 2023, section 3.2 (equations 17 to 20), one pair at a time with math."""
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
def test_yarn_frequencies_by_turns_are_the_papers_blend(d, base, scale, train_len, alpha, beta):
    got = yarn_frequencies_by_turns(d, base, scale, train_len, alpha, beta)
    assert got.dtype == np.float64 and got.shape == (d // 2,)
    # numpy's power and division against Python's, pair by pair: a few roundings apart.
    np.testing.assert_allclose(
        got, yarn_by_hand(d, base, scale, train_len, alpha, beta), rtol=1e-12, atol=0
    )
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
    np.testing.assert_allclose(
        got[between] / omega[between], 1 / scale + (1 - 1 / scale) * ramp, rtol=1e-12
    )


@pytest.mark.parametrize("yarn", [yarn_frequencies, yarn_frequencies_by_turns])
def test_yarn_llama2_64k_has_all_three_regimes(yarn):
    # Llama 2 (d = 128 per head, base 1e4, 4096) to 64k: s = 16, the paper's alpha = 1, beta = 32.
    got = yarn(128, 10000.0, 16.0, 4096)
    ratio = got / angular_frequencies(128)
    assert ratio[0] == 1.0 and ratio[-1] == 1 / 16
    assert np.all(np.diff(ratio) <= 0)  # slower pairs are interpolated more
    assert np.any((ratio < 1) & (ratio > 1 / 16))
    # The slowest pair turns at most as far over 64k as the unscaled one over 4096.
    assert 65536 * got[-1] <= 4096 * angular_frequencies(128)[-1] * (1 + 1e-15)


def test_yarn_by_turns_ramp_as_steep_as_floats_allow():
    # beta barely above alpha: the slope overflows to inf, the clip gives a step, no warning.
    with np.errstate(all="raise"):
        got = yarn_frequencies_by_turns(64, 10000.0, 4.0, 2048, alpha=1.0, beta=1.0 + 2**-52)
    omega = angular_frequencies(64)
    assert set(np.round(got / omega, 12).tolist()) <= {1.0, 0.25}


@pytest.mark.parametrize(
    "scale, expected",
    [(1, 1.0), (4.0, 1.1386294361119891), (16, 1.2772588722239781), (math.exp(10), 2.0)],
)
def test_yarn_attention_scale(scale, expected):
    got = yarn_attention_scale(scale)
    assert type(got) is float
    assert got == pytest.approx(expected, rel=1e-15)
    # sqrt(1/t) is the factor on q and on k: the logits get its square, 1/t.
    t = 1 / got**2
    assert math.sqrt(1 / t) == pytest.approx(0.1 * math.log(scale) + 1, rel=1e-15)


def test_yarn_attention_scale_is_the_codes_mscale():
    # The authors' get_mscale: 1.0 for s <= 1, else 0.1 ln s + 1. Here s = 1 gives 1.0 exactly
    # (ln 1 = 0), and s < 1 is refused (test_yarn_attention_scale_bad_arguments).
    def mscale(s):
        return 1.0 if s <= 1 else 0.1 * math.log(s) + 1.0

    for s in (1, 1.0, 1.5, 2, 4, 16, 32, 1024):
        assert yarn_attention_scale(s) == mscale(s)  # the same expression in Python floats: exact


@pytest.mark.parametrize("yarn", [yarn_frequencies, yarn_frequencies_by_turns])
@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"d": 7}, r"^d must be an even integer from 2 to 100000, got 7$"),
        ({"d": 0}, r"^d must be an even integer"),
        ({"base": 0.5}, r"^base must be a finite real number greater than 1, got 0.5$"),
        ({"base": 1}, r"^base must be a finite real number greater than 1, got 1$"),
        ({"scale": 0.9}, r"^scale must be a finite real number at least 1, got 0.9$"),
        ({"scale": math.nan}, r"^scale must be a finite real number"),
        ({"train_len": 0}, r"^train_len must be an integer from 1 to 100000, got 0$"),
        ({"train_len": 2048.0}, r"^train_len must be an integer"),
        ({"train_len": 100001}, r"^train_len must be an integer from 1 to 100000, got 100001$"),
        ({"alpha": -1.0}, r"^alpha must be a finite real number at least 0, got -1.0$"),
        ({"alpha": math.inf}, r"^alpha must be a finite real number"),
        ({"beta": 1.0}, r"^beta must be a finite real number greater than alpha \(1.0\), got 1.0$"),
        (
            {"alpha": 40.0},
            r"^beta must be a finite real number greater than alpha \(40.0\), got 32.0$",
        ),
        ({"beta": "32"}, r"^beta must be a finite real number"),
        ({"beta": math.inf}, r"^beta must be a finite real number"),
    ],
)
def test_yarn_frequencies_bad_arguments(yarn, kwargs, message):
    arguments = {"d": 8, "base": 10000.0, "scale": 4.0, "train_len": 2048} | kwargs
    with pytest.raises(ValueError, match=message):
        yarn(**arguments)


@pytest.mark.parametrize("scale", [0.5, 0, -1, math.inf, math.nan, "2", None, True, [2.0], 10**400])
def test_yarn_attention_scale_bad_arguments(scale):
    with pytest.raises(ValueError, match=r"^scale must be a finite real number at least 1, got "):
        yarn_attention_scale(scale)


# ---------------------------------------------------------------------------
# Llama 3.1's scaling, against Hugging Face transformers' _compute_llama3_parameters
# ---------------------------------------------------------------------------


def llama3_by_hand(d, base, factor, low_freq_factor, high_freq_factor, old_context_len):
    """transformers' `_compute_llama3_parameters` (src/transformers/modeling_rope_utils.py),
    transcribed pair by pair with Python's math instead of torch: the default inverse
    frequencies, then its two `where`s in the same order."""
    out = []
    for i in range(d // 2):
        inv_freq = 1.0 / base ** (2 * i / d)
        wavelen = 2 * math.pi / inv_freq
        low_freq_wavelen = old_context_len / low_freq_factor
        high_freq_wavelen = old_context_len / high_freq_factor
        # torch.where(wavelen > low_freq_wavelen, inv_freq / factor, inv_freq)
        llama = inv_freq / factor if wavelen > low_freq_wavelen else inv_freq
        # is_medium_freq = ~(wavelen < high_freq_wavelen) * ~(wavelen > low_freq_wavelen)
        if not wavelen < high_freq_wavelen and not wavelen > low_freq_wavelen:
            smooth = (old_context_len / wavelen - low_freq_factor) / (
                high_freq_factor - low_freq_factor
            )
            llama = (1 - smooth) * llama / factor + smooth * llama
        out.append(llama)
    return np.array(out)


def test_llama31_published_parameters():
    # Llama 3.1's config.json: "rope_scaling": {"factor": 8.0, "low_freq_factor": 1.0,
    # "high_freq_factor": 4.0, "original_max_position_embeddings": 8192, "rope_type": "llama3"},
    # "rope_theta": 500000.0 (Llama 3's base).
    assert LLAMA31_ROPE_SCALING == {"factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                                    "original_max_position_embeddings": 8192}
    assert MODEL_SETTINGS["llama3"] == {"name": "Llama 3", "base": 500000.0, "train_len": 8192}
    assert MODEL_SETTINGS["llama2"] == {"name": "LLaMA 2", "base": 10000.0, "train_len": 4096}
    assert MODEL_SETTINGS["codellama"] == {
        "name": "Code Llama",
        "base": 1000000.0,
        "train_len": 16384,
    }
    assert MODEL_HEAD_DIM == 128


@pytest.mark.parametrize(
    "d, base, factor, low, high, length",
    [(128, 500000.0, 8.0, 1.0, 4.0, 8192), (64, 10000.0, 4.0, 1.0, 4.0, 4096),
     (128, 10000.0, 16.0, 2.0, 8.0, 2048), (8, 100.0, 2.0, 0.5, 1.5, 16)],
)
def test_llama3_frequencies_are_transformers_llama3_parameters(d, base, factor, low, high, length):
    ours = llama3_frequencies(d, base, factor, low, high, length)
    theirs = llama3_by_hand(d, base, factor, low, high, length)
    assert ours.dtype == np.float64 and ours.shape == (d // 2,)
    # numpy's power against Python's **, and a product against a quotient: a few ulps apart.
    np.testing.assert_allclose(ours, theirs, rtol=1e-13, atol=0)


def test_llama3_defaults_are_llama31_and_have_three_bands():
    omega = angular_frequencies(128, 500000.0)
    ratio = llama3_frequencies(128, 500000.0) / omega
    turns = 8192 * omega / (2 * math.pi)  # turns within the original 8192 positions
    kept, slowed = turns > 4.0, turns < 1.0
    np.testing.assert_array_equal(ratio[kept], 1.0)
    np.testing.assert_allclose(ratio[slowed], 1 / 8, rtol=1e-15)
    between = ~kept & ~slowed
    assert kept.sum() == 29 and slowed.sum() == 29 and between.sum() == 6
    assert np.all((ratio[between] > 1 / 8) & (ratio[between] < 1))


@pytest.mark.parametrize(
    "d, base, factor, low, high, length",
    [(128, 500000.0, 8.0, 1.0, 4.0, 8192), (64, 10000.0, 4.0, 1.0, 32.0, 2048)],
)
def test_llama3_rule_is_the_yarn_papers_ramp_with_its_own_bounds(
    d, base, factor, low, high, length
):
    # Both blend w / s and w linearly in the number of turns L / lambda between two bounds.
    rule = llama3_frequencies(d, base, factor, low, high, length)
    np.testing.assert_allclose(
        rule, yarn_frequencies_by_turns(d, base, factor, length, alpha=low, beta=high),
        rtol=1e-13, atol=0,  # the same blend, computed from wavelengths or from turns
    )
    # Not the ramp over the pair index of YaRN's code: that differs between the bounds.
    code = yarn_frequencies(d, base, factor, length, alpha=low, beta=high)
    assert np.max(np.abs(code / rule - 1)) > 0.01


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"d": 7}, r"^d must be an even integer from 2 to 100000, got 7$"),
        ({"base": 1.0}, r"^base must be a finite real number greater than 1, got 1.0$"),
        (
            {"factor": 0.5},
            r"^factor must be a finite real number at least 1 and at most 1024.0, got 0.5$",
        ),
        (
            {"factor": 2000},
            r"^factor must be a finite real number at least 1 and at most 1024.0, got 2000$",
        ),
        (
            {"low_freq_factor": 0},
            r"^low_freq_factor must be a finite real number greater than 0, got 0$",
        ),
        (
            {"high_freq_factor": 1.0},
            r"^high_freq_factor must be a finite real number greater than low_freq_factor \(1.0\), "
            r"got 1.0$",
        ),
        ({"original_max_len": 0}, r"^original_max_len must be an integer from 1 to 100000, got 0$"),
    ],
)
def test_llama3_frequencies_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        llama3_frequencies(**({"d": 128, "base": 500000.0} | kwargs))


# ---------------------------------------------------------------------------
# Every method by name, the angles it reaches, and one pair's scores
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("d, base, scale, train_len", SETTINGS)
def test_stretched_frequencies_name_each_method(d, base, scale, train_len):
    omega = angular_frequencies(d, base)
    np.testing.assert_array_equal(stretched_frequencies("none", d, base, train_len, scale), omega)
    np.testing.assert_array_equal(stretched_frequencies("interpolation", d, base, train_len, scale),
                                  omega / scale)
    np.testing.assert_array_equal(stretched_frequencies("ntk", d, base, train_len, scale),
                                  angular_frequencies(d, ntk_scaled_base(base, scale, d)))
    np.testing.assert_array_equal(stretched_frequencies("yarn", d, base, train_len, scale),
                                  yarn_frequencies(d, base, scale, train_len))
    np.testing.assert_array_equal(stretched_frequencies("llama3", d, base, train_len, scale),
                                  llama3_frequencies(d, base, original_max_len=train_len))


def test_interpolation_as_frequencies_is_interpolation_of_positions():
    omega = angular_frequencies(64)
    positions = np.arange(0, 8192, 37)
    by_positions = interpolated_positions(positions, 2048, 8192)[:, None] * omega
    by_frequencies = positions[:, None] * stretched_frequencies(
        "interpolation", 64, 10000.0, 2048, 4.0
    )
    # m * (L / L') * w against m * (w / s), s = L' / L = 4 exactly: a rounding apart at most.
    np.testing.assert_allclose(by_frequencies, by_positions, rtol=1e-15, atol=0)
