"""Tests for pelab.browser.demos.partial: what the partial-rotary demo's entry point hands the
worker (app/demos/partial.js), under CPython.

Its numbers are elementwise products and sums (no BLAS): the properties below hold on every
machine, and the share's hold for every seed tried, not only the page's first one.
"""

import fractions
import math

import numpy as np
import pytest
from hypothesis import strategies as st

import pelab
from fuzzing import JUNK, Spec, as_int, entry_point_fuzz_tests, optional, size_junk
from pelab.browser.demos import partial as demo
from pelab.browser.entry_points import call
from plain_results import assert_plain

PARTIAL_KEYS = {
    "d", "rotated", "offsets", "total", "rotated_part", "passed_part", "swing", "share",
    "fractions", "shares", "draws",
}
EIGHTHS = np.arange(1, 9) / 8


def partial_arrays():
    n, e = demo.PARTIAL_OFFSETS, demo.PARTIAL_EIGHTHS
    return {
        "offsets": (np.float64, n),
        "total": (np.float64, n),
        "rotated_part": (np.float64, n),
        "fractions": (np.float64, e),
        "shares": (np.float64, e),
    }


def test_the_first_settings_split_the_score_in_two():
    result = call("partial", {"fraction": 0.25, "d": 64, "seed": 0})
    assert set(result) == PARTIAL_KEYS
    assert_plain(result, partial_arrays())
    assert result["d"] == 64 and result["rotated"] == 16  # the page's try line: 16 turn, 48 not
    assert result["draws"] == demo.PARTIAL_DRAWS
    np.testing.assert_array_equal(result["offsets"], np.arange(128))
    np.testing.assert_array_equal(result["fractions"], EIGHTHS)
    # The two parts add up to the score, and the rotated part is the score minus a constant.
    np.testing.assert_allclose(
        result["total"], result["rotated_part"] + result["passed_part"], rtol=0, atol=1e-12
    )
    assert result["swing"] == pytest.approx(np.ptp(result["total"]), abs=1e-12)


@pytest.mark.parametrize("d", [64, 128])
@pytest.mark.parametrize("fraction", [0.125, 0.25, 0.5, 1.0])
def test_the_score_is_apply_partial_rotary_and_its_other_part_never_moves(fraction, d):
    result = call("partial", {"fraction": fraction, "d": d, "seed": 7})
    q, k = np.random.default_rng(7).standard_normal((2, d))
    r = int(d * fraction)
    t = np.arange(128)
    y = pelab.apply_partial_rotary(np.tile(q, (128, 1)), t, fraction)
    # Elementwise sums in the same order as the entry point's: equal, and BLAS-free.
    np.testing.assert_allclose(result["total"], np.sum(y * k, axis=1), rtol=0, atol=1e-12)
    np.testing.assert_allclose(
        result["rotated_part"], np.sum(y[:, :r] * k[:r], axis=1), rtol=0, atol=1e-12
    )
    assert result["passed_part"] == pytest.approx(float(np.sum(q[r:] * k[r:])), abs=1e-12)
    # The rotated part at offset 0 is the unrotated dot product of the first r dims.
    assert result["rotated_part"][0] == pytest.approx(float(np.sum(q[:r] * k[:r])), abs=1e-12)
    assert result["rotated"] == r
    assert 0 <= result["share"] <= 1


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 5, 8, 13, 21, 34, 37, 55, 99])
@pytest.mark.parametrize("d", [64, 128])
def test_the_share_that_moves_holds_across_seeds(seed, d):
    """What the page says of the share's chart, at every seed the slider offers a sample of:
    it stays below the rotated share r / d, it grows with the rotated fraction (checked at
    every doubling: neighbouring eighths are too close to order on 200 draws), and it grows
    roughly in proportion: measured against the fully rotated head, within 0.25 of r / d (over
    all 100 seeds of the slider and both widths, the largest gap is 0.205, at d = 64, seed 37,
    where neighbouring eighths even come out in the wrong order)."""
    shares = call("partial", {"fraction": 0.25, "d": d, "seed": seed})["shares"]
    assert np.all(shares > 0)
    assert np.all(shares < EIGHTHS)
    assert shares[0] < shares[1] < shares[3] < shares[7]
    assert np.all(np.abs(shares / shares[-1] - EIGHTHS) < 0.25)


def test_the_share_does_not_depend_on_the_fraction_shown():
    """The pooled chart is the same whichever fraction the first chart shows."""
    first = call("partial", {"fraction": 0.25, "d": 64, "seed": 4})
    other = call("partial", {"fraction": 0.875, "d": 64, "seed": 4})
    np.testing.assert_array_equal(first["shares"], other["shares"])


def test_a_fully_rotated_head_has_no_flat_part():
    result = call("partial", {"fraction": 1, "d": 128, "seed": 0})
    assert result["passed_part"] == 0.0 and result["rotated"] == 128
    np.testing.assert_array_equal(result["total"], result["rotated_part"])


def test_offset_share_is_zero_for_a_flat_score_and_one_for_a_centred_swing():
    flat = np.zeros((2, 8))
    assert demo.offset_share(flat, np.array([1.0, -2.0])) == 0.0
    t = np.arange(8)
    swing = np.stack([np.cos(2 * np.pi * t / 8), np.sin(2 * np.pi * t / 8)])
    assert demo.offset_share(swing, np.zeros(2)) == pytest.approx(1.0, abs=1e-15)


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"d": 40}, r"^d must be a multiple of 16 "),
        ({"d": 8}, r"^d must be an integer from 16 to 128, got 8$"),
        ({"d": 144}, r"^d must be an integer from 16 to 128"),
        ({"fraction": 0}, r"^fraction must be"),
        ({"fraction": 1.5}, r"^fraction must be"),
        ({"fraction": 0.3}, r"^fraction must rotate an even number"),  # int(64 * 0.3) = 19
        ({"seed": -1}, r"^seed must be an integer from 0 to 4294967295"),
    ],
)
def test_partial_bad_arguments(changes, message):
    with pytest.raises(ValueError, match=message):
        call("partial", {"fraction": 0.25, "d": 64, "seed": 0, **changes})


# ---------------------------------------------------------------------------
# Fuzzing (tests/python/fuzzing.py): junk of every kind for each entry point of this demo
# ---------------------------------------------------------------------------


def check_partial(kw, r):
    assert_plain(r, partial_arrays())
    assert r["d"] == as_int(kw.get("d", 64))
    for key in ("passed_part", "swing", "share"):
        assert math.isfinite(r[key])
    assert np.all(np.isfinite(r["total"])) and np.all(np.isfinite(r["shares"]))
    assert np.all((r["shares"] >= 0) & (r["shares"] <= 1))


WIDTHS = [16, 32, 48, 64, 80, 96, 112, 128, np.int64(64)]
FRACTIONS = [0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1, 1.0, fractions.Fraction(3, 8),
             np.float32(0.5)]

FUZZ_SPECS = {
    "partial": Spec(
        None,
        optional(
            {"fraction": st.sampled_from(FRACTIONS), "d": st.sampled_from(WIDTHS)},
            seed=st.integers(0, 2**32 - 1),
        ),
        {
            "fraction": st.one_of(JUNK, st.sampled_from([0, -0.25, 1.5, 0.3, math.nan, "0.5"])),
            "d": st.one_of(size_junk(16, 128), st.sampled_from([24, 40, 8, 256, 64.0])),
            "seed": size_junk(0, 2**32 - 1),
        },
        check_partial,
        related={"d": {"fraction"}, "fraction": {"d"}},
    ),
}
test_fuzzed_arguments, test_fuzzed_keywords = entry_point_fuzz_tests(FUZZ_SPECS)
