"""Tests for pelab.browser.demos.learned: what the learned demo's entry points hand the worker
(app/demos/learned.js), under CPython."""


import math

import numpy as np
import pytest
from hypothesis import strategies as st

import pelab
from fuzzing import (
    BASE_JUNK,
    Spec,
    as_int,
    bases,
    entry_point_fuzz_tests,
    finite,
    optional,
    size_junk,
    sizes,
)
from pelab.browser.entry_points import call
from pelab.browser.limits import MAX_MATRIX_LEN, MAX_MATRIX_WIDTH
from pelab.learned import MAX_LEN
from plain_results import assert_plain

# Its entry points' results go through BLAS (`@`, lstsq): rerun under every kernel.
pytestmark = pytest.mark.blas_numeric


COMPARE_KEYS = {
    "n", "sinusoidal", "rope", "learned", "sinusoidal_rgba", "rope_rgba", "learned_rgba",
    "learned_error", "rope_relative_residual", "rope_scale", "sinusoidal_part",
}


def compare_arrays(n):
    """The learned entry point's arrays, for n positions: three score maps and their colours."""
    names = ("sinusoidal", "rope", "learned")
    return {key: (np.float64, n * n) for key in names} | {
        f"{key}_rgba": (np.uint8, n * n * 4) for key in names
    }


def test_learned_beyond_max_len():
    result = call("learned", {"seq_len": 64, "d_model": 64, "max_len": 48, "base": 10000.0})
    assert set(result) == COMPARE_KEYS
    assert_plain(result, compare_arrays(64))
    n = result["n"]
    assert n == 64
    sinusoidal = result["sinusoidal"].reshape(n, n)
    np.testing.assert_array_equal(sinusoidal, pelab.similarity(pelab.sinusoidal(n, 64))[1])
    # All its cosines are positive: its bar is the sequential white-to-red half.
    assert sinusoidal.min() > 0 and result["sinusoidal_part"] == "positive"
    # RoPE: a seeded query q and a different key k. Computed here independently, with complex
    # numbers: pair i of a vector is z_i = x_2i + i x_2i+1, and rotating it to position m
    # multiplies it by e^(i m w_i), so R_m q . R_n k = Re sum_i zq_i conj(zk_i) e^(i (m - n) w_i).
    rope = result["rope"].reshape(n, n)
    q, k = np.random.default_rng(0).standard_normal((2, 64))
    zq, zk = q[0::2] + 1j * q[1::2], k[0::2] + 1j * k[1::2]
    offsets = np.arange(n)[:, None] - np.arange(n)[None, :]
    turns = np.exp(1j * offsets[:, :, None] * pelab.angular_frequencies(64))
    expected = (zq * np.conj(zk) * turns).sum(axis=2).real / (np.linalg.norm(q) * np.linalg.norm(k))
    np.testing.assert_allclose(rope, expected, rtol=0, atol=1e-12)
    # Toeplitz (a function of m - n), but neither symmetric nor largest at m = n: q and k differ.
    assert pelab.toeplitz_residual(rope) < 1e-12
    assert np.max(np.abs(rope - rope.T)) > 0.1
    assert np.argmax(rope[n // 2]) != n // 2 and np.max(np.abs(np.diag(rope))) < 0.5
    assert np.max(np.abs(rope)) <= 1.0
    # Coloured over the range it reaches (far inside [-1, 1]): its largest |score| is a full
    # blue or red, so the asymmetry shows.
    assert result["rope_scale"] == np.max(np.abs(rope)) < 0.5
    scale = result["rope_scale"]
    expected_rgba = pelab.to_rgba(rope, -scale, scale).reshape(-1)
    np.testing.assert_array_equal(result["rope_rgba"], expected_rgba)
    ends = result["rope_rgba"].reshape(n * n, 4)[np.argmax(np.abs(rope))]
    assert tuple(ends) in {tuple(pelab.to_rgba(-1.0)), tuple(pelab.to_rgba(1.0))}
    assert result["rope_relative_residual"] <= 1e-10
    # Learned: rows 0..47 only; the rest is NaN, drawn in the NaN grey.
    learned = result["learned"].reshape(n, n)
    rows = pelab.learned(48, 64, 0).table
    np.testing.assert_array_equal(learned[:48, :48], pelab.similarity(rows)[1])
    assert np.isnan(learned[48:]).all() and np.isnan(learned[:, 48:]).all()
    rgba = result["learned_rgba"].reshape(n, n, 4)
    assert (rgba[48:] == (128, 128, 128, 255)).all() and (
        rgba[:, 48:] == (128, 128, 128, 255)
    ).all()
    assert result["learned_error"] == (
        "position 63 is past max_len 48: a learned table has no row for it (it was never trained)"
    )
    np.testing.assert_array_equal(result["sinusoidal_rgba"], pelab.to_rgba(sinusoidal).reshape(-1))


def test_learned_within_max_len_and_seed():
    result = call("learned", {"seq_len": 16, "d_model": 8, "max_len": 16, "base": 100.0, "seed": 3})
    assert_plain(result, compare_arrays(16))
    assert result["learned_error"] is None
    assert not np.isnan(result["learned"]).any()
    np.testing.assert_array_equal(
        result["learned"].reshape(16, 16), pelab.similarity(pelab.learned(16, 8, 3).table)[1]
    )
    other = call("learned", {"seq_len": 16, "d_model": 8, "max_len": 16, "base": 100.0, "seed": 4})
    assert not np.array_equal(result["rope"], other["rope"])
    assert call("learned", {"seq_len": 16, "d_model": 8, "max_len": 16})["learned_error"] is None


@pytest.mark.parametrize(
    "changes, message",
    [
        (
            {"d_model": 7},
            r"^d_model must be an even integer from 2 to 1024 \(RoPE rotates pairs\), got 7$",
        ),
        ({"d_model": 0}, r"^d_model must be an integer from 2 to 1024"),
        ({"seq_len": 513}, r"^seq_len must be an integer from 1 to 512"),
        ({"max_len": 0}, r"^max_len must be an integer from 1 to 4096, got 0$"),
        ({"max_len": 4097}, r"^max_len must be an integer from 1 to 4096"),
        ({"seed": -1}, r"^seed must be an integer from 0 to"),
        (
            {"seq_len": 512, "d_model": 128},
            r"^seq_len \* seq_len \* d_model must be at most 16777216",
        ),
        ({"base": 1.0}, r"^base must be a finite real number"),
    ],
)
def test_learned_bad_arguments(changes, message):
    kwargs = {"seq_len": 64, "d_model": 64, "max_len": 48, "base": 10000.0, **changes}
    with pytest.raises(ValueError, match=message):
        call("learned", kwargs)


# ---------------------------------------------------------------------------
# Fuzzing (tests/python/fuzzing.py): junk of every kind for each entry point of this demo
# ---------------------------------------------------------------------------


def check_learned(kw, r):
    n = as_int(kw["seq_len"])
    assert_plain(r, compare_arrays(n))
    finite(r["sinusoidal"])
    finite(r["rope"])
    assert (r["learned_error"] is None) == (n <= as_int(kw["max_len"]))
    assert math.isfinite(r["rope_relative_residual"])


FUZZ_SPECS = {
    "learned": Spec(
        None,
        optional(
            {
                "seq_len": sizes(1, 24),
                "d_model": sizes(1, 12).map(lambda h: 2 * int(h)),
                "max_len": sizes(1, MAX_LEN),
            },
            base=bases(),
            seed=st.integers(0, 2**64 - 1),
        ),
        {
            "seq_len": size_junk(1, MAX_MATRIX_LEN),
            "d_model": st.one_of(size_junk(2, MAX_MATRIX_WIDTH), st.sampled_from([1, 3, 101])),
            "max_len": size_junk(1, MAX_LEN),
            "base": BASE_JUNK,
            "seed": size_junk(0, 2**64 - 1),
        },
        check_learned,
        related={"d_model": {"seq_len", "max_len"}, "seq_len": {"d_model"}},
    ),
}
test_fuzzed_arguments, test_fuzzed_keywords = entry_point_fuzz_tests(FUZZ_SPECS)
