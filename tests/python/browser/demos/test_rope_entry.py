"""Tests for pelab.browser.demos.rope: what the RoPE demo's entry points hand the worker
(app/demos/rope.js), under CPython."""

import math

import numpy as np
import pytest
from hypothesis import strategies as st

import pelab
from fuzzing import (
    BASE_JUNK,
    EVEN_JUNK,
    Spec,
    as_int,
    bases,
    entry_point_fuzz_tests,
    even_sizes,
    finite,
    optional,
    size_junk,
    sizes,
)
from pelab.browser.demos import rope as demo
from pelab.browser.entry_points import call
from pelab.rope import rope_independent_abs_score, rope_mean_score
from plain_results import assert_plain

# Its entry points' results go through BLAS (`@`, lstsq): rerun under every kernel.
pytestmark = pytest.mark.blas_numeric


def rope_arrays(d):
    """The rope entry point's arrays, for vectors of width d."""
    return {"q": (np.float64, d), "k": (np.float64, d), "q_rotated": (np.float64, d),
            "k_rotated": (np.float64, d), "scores": (np.float64, 32 * 32),
            "scores_rgba": (np.uint8, 32 * 32 * 4), "decay_bases": np.float64,
            "decay_offsets": (np.float64, demo.DECAY_LEN), "decay": np.float64,
            "alike_mean": (np.float64, demo.DECAY_LEN)}


def rotate_pairs(vector, position, frequencies):
    """Pair i of `vector` (adjacent layout) turned by position * frequencies[i], as complex
    numbers: (a + ib) e^{i theta}."""
    z = (vector[0::2] + 1j * vector[1::2]) * np.exp(1j * position * frequencies)
    out = np.empty_like(vector)
    out[0::2], out[1::2] = z.real, z.imag
    return out


@pytest.mark.parametrize("m, n, shift, d, base", [(5, 2, 7, 8, 10000.0), (0, 40, 300, 64, 500.0),
                                                  (4096, 0, 4096, 128, 1e6), (3, 3, 0, 2, 10.0)])
def test_rope_entry_point_scores_three_ways(m, n, shift, d, base):
    r = call("rope", {"m": m, "n": n, "shift": shift, "d": d, "base": base})
    assert_plain(r, rope_arrays(d))
    q, k = np.random.default_rng(0).standard_normal((2, d))
    np.testing.assert_array_equal(r["q"], q)
    omega = pelab.angular_frequencies(d, base)
    # RoPE as complex multiplication, independent of rope_rotate's cos/sin arithmetic.
    np.testing.assert_allclose(r["q_rotated"], rotate_pairs(q, m, omega), atol=1e-12)
    np.testing.assert_allclose(r["k_rotated"], rotate_pairs(k, n, omega), atol=1e-12)
    expected = float(rotate_pairs(q, m, omega) @ rotate_pairs(k, n, omega))
    # the same score by three routes (rotated vectors, M_{m-n}, shifted): rounding apart, and
    # angles up to 8192 rad lose about 8192 * 1e-16 each
    for key in ("score", "via_matrix", "shifted_score"):
        assert r[key] == pytest.approx(expected, abs=1e-10), key
    # the relative demo's M_{m-n} is R_{n-m}: it turns each pair by -(m - n) w_i
    np.testing.assert_allclose(
        pelab.rotation(m - n, d, base) @ k, rotate_pairs(k, n - m, omega), atol=1e-12
    )
    assert r["pairing_gap"] == 0.0  # only coordinates move: exact by construction
    scores = r["scores"].reshape(32, 32)
    norms = np.linalg.norm(q) * np.linalg.norm(k)
    for a, b in [(0, 0), (3, 17), (31, 2)]:
        assert scores[a, b] == pytest.approx(
            rotate_pairs(q, a, omega) @ rotate_pairs(k, b, omega) / norms, abs=1e-12
        )
    assert r["toeplitz"] < 1e-12
    assert r["asymmetry"] == pytest.approx(np.max(np.abs(scores - scores.T)), abs=0)
    # Coloured over the range the matrix reaches, not [-1, 1], where it was almost white.
    assert r["scores_scale"] == np.max(np.abs(scores)) <= 1.0
    np.testing.assert_array_equal(
        r["scores_rgba"], pelab.to_rgba(scores, -r["scores_scale"], r["scores_scale"]).reshape(-1)
    )
    assert r["decay_bases"][0] == base and len(r["decay"]) == len(r["decay_bases"]) * demo.DECAY_LEN
    decay = r["decay"].reshape(len(r["decay_bases"]), -1)
    for row, b in zip(decay, r["decay_bases"]):
        np.testing.assert_array_equal(row, pelab.rope_decay_bound(r["decay_offsets"], 128, b))
    assert r["decay_d"] == demo.DECAY_HEAD_DIM == 128
    # The mean scores beside it: k = q, for the chosen base and the same head of 128; and
    # independent q and k, whose mean |score| is one number for every offset.
    np.testing.assert_array_equal(r["alike_mean"], rope_mean_score(r["decay_offsets"], 128, base))
    assert r["independent_abs"] == rope_independent_abs_score(128)


@pytest.mark.parametrize("base", [10000.0, 100.0, 1e6, 10.0])
def test_rope_entry_point_gives_the_mean_scores_of_alike_and_independent_q_and_k(base):
    r = call("rope", {"m": 7, "n": 3, "shift": 2, "d": 8, "base": base})
    alike, offsets = r["alike_mean"], r["decay_offsets"]
    assert alike[0] == 128.0  # d at offset 0: the mean of |q|^2, a sum of ones, exact
    assert np.all(np.abs(alike) <= 128.0)
    # sum_i 2 cos(t w_i) by hand, pair by pair with math (w_i = base^(-2i/128)): the
    # frequencies' last bits and the order of the sum apart, at angles up to 511 rad
    for t in (1, 10, 100, 500, 511):
        by_hand = sum(2 * math.cos(t * base ** (-2 * i / 128)) for i in range(64))
        assert alike[t] == pytest.approx(by_hand, rel=0, abs=1e-10), t
    assert offsets[0] == 0 and offsets[-1] == demo.DECAY_LEN - 1
    independent = r["independent_abs"]
    assert type(independent) is float
    assert independent == 128 * math.comb(128, 64) / 2**128  # d C(d, d/2) / 2^d, rounded once
    assert round(independent, 4) == 9.0094
    # Only the base changes them: not the positions, the shift, d or the draw.
    other = call("rope", {"m": 0, "n": 400, "shift": 0, "d": 128, "base": base, "seed": 5})
    np.testing.assert_array_equal(other["alike_mean"], alike)
    assert other["independent_abs"] == independent


def test_rope_entry_point_mean_scores_with_the_issues_settings():
    r = call("rope", {"m": 5, "n": 2, "shift": 100, "d": 8, "base": 10000.0})
    assert [round(float(r["alike_mean"][t]), 2) for t in (0, 10, 100, 500)] == [
        128.0,
        85.64,
        61.09,
        38.21,
    ]
    assert r["alike_mean"][:10].mean() > 2 * r["alike_mean"][400:].mean()  # it falls


def test_rope_scores_are_toeplitz_but_not_symmetric_for_distinct_q_and_k():
    r = call("rope", {"m": 1, "n": 2, "shift": 0, "d": 16})
    assert r["toeplitz"] < 1e-12 and r["asymmetry"] > 0.05


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"m": -1}, r"^m must be an integer from 0 to 4096, got -1$"),
        ({"n": 4097}, r"^n must be an integer from 0 to 4096"),
        ({"shift": 1.5}, r"^shift must be an integer"),
        ({"d": 7}, r"^d must be an even integer from 2 to 128, got 7$"),
        ({"seed": -1}, r"^seed must be an integer from 0 to 4294967295"),
        ({"base": 1.0}, r"^base must be"),
    ],
)
def test_rope_entry_point_bad_arguments(changes, message):
    with pytest.raises(ValueError, match=message):
        call("rope", {"m": 1, "n": 2, "shift": 3, "d": 8, **changes})


def test_rope_decay_curves_are_cached_but_never_shared_with_the_caller():
    first = call("rope", {"m": 1, "n": 2, "shift": 3, "d": 8})
    first["decay"][:] = -1.0  # the worker may reuse a result's buffers
    again = call("rope", {"m": 4, "n": 0, "shift": 9, "d": 8})
    np.testing.assert_array_equal(
        again["decay"][: demo.DECAY_LEN],
        pelab.rope_decay_bound(np.arange(demo.DECAY_LEN, dtype=float), 128),
    )


def test_rope_takes_a_numpy_float16_base():
    # Found by fuzzing: comparing the fixed bases with a float16 base cast 1e6 to float16.
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = call("rope", {"m": 0, "n": 0, "shift": 0, "d": 2, "base": np.float16(2.0)})
    assert r["decay_bases"].tolist() == [2.0, 100.0, 10000.0, 1000000.0]


# ---------------------------------------------------------------------------
# Fuzzing (tests/python/fuzzing.py): junk of every kind for each entry point of this demo
# ---------------------------------------------------------------------------


def check_rope_entry(kw, r):
    assert_plain(r, rope_arrays(as_int(kw["d"])))
    for key in ("score", "via_matrix", "shifted_score", "pairing_gap", "toeplitz", "asymmetry",
                "independent_abs"):
        assert math.isfinite(r[key])
    finite(r["scores"])
    finite(r["decay"])
    finite(r["alike_mean"])


FUZZ_SPECS = {
    "rope": Spec(
        None,
        optional(
            {
                "m": sizes(0, 4096),
                "n": sizes(0, 4096),
                "shift": sizes(0, 4096),
                "d": even_sizes(2, 128),
            },
            base=bases(),
            seed=sizes(0, 2**32 - 1),
        ),
        {
            "m": size_junk(0, 4096),
            "n": size_junk(0, 4096),
            "shift": size_junk(0, 4096),
            "d": st.one_of(size_junk(2, 128), st.sampled_from(EVEN_JUNK)),
            "base": BASE_JUNK,
            "seed": size_junk(0, 2**32 - 1),
        },
        check_rope_entry,
    ),
}
test_fuzzed_arguments, test_fuzzed_keywords = entry_point_fuzz_tests(FUZZ_SPECS)
