"""Tests for pelab.browser.demos.waves: what the waves demo's entry points hand the worker
(app/demos/waves.js), under CPython."""

import math

import numpy as np
import pytest
from hypothesis import strategies as st

import pelab
from fuzzing import (
    BASE_JUNK,
    JUNK,
    OneShot,
    Spec,
    as_int,
    bases,
    entry_point_fuzz_tests,
    finite,
    half_up,
    items_of,
    size_junk,
    sizes,
    widths,
)
from pelab.browser.demos import waves as demo
from pelab.browser.entry_points import call
from pelab.checks import MAX_D_MODEL, MAX_SEQ_LEN
from plain_results import assert_plain

# Its entry points' results go through BLAS (`@`, lstsq): rerun under every kernel.
pytestmark = pytest.mark.blas_numeric


WAVES_KEYS = {"x", "sin", "cos", "pairs", "wavelengths", "angles"}


def waves_arrays(samples, rows, half):
    """The waves entry point's arrays: `samples` positions, `rows` chosen pairs' sines and cosines
    over them, and one wavelength and angle for each of the `half` pairs."""
    return {"x": (np.float64, samples), "sin": (np.float64, rows * samples),
            "cos": (np.float64, rows * samples), "wavelengths": (np.float64, half),
            "angles": (np.float64, half)}


def test_waves():
    result = call(
        "waves", {"d_model": 8, "base": 10000.0, "pairs": [0, 3], "max_pos": 50, "pos": 2.5}
    )
    assert set(result) == WAVES_KEYS
    samples = demo.SAMPLES_PER_POSITION * 50 + 1
    assert_plain(result, waves_arrays(samples, 2, 4))
    assert result["x"][0] == 0.0 and result["x"][-1] == 50.0
    np.testing.assert_allclose(np.diff(result["x"]), 1 / demo.SAMPLES_PER_POSITION, rtol=1e-12)
    assert result["pairs"] == [0, 3]
    omega = pelab.angular_frequencies(8)
    sin, cos = result["sin"].reshape(2, samples), result["cos"].reshape(2, samples)
    np.testing.assert_allclose(sin[1], np.sin(result["x"] * omega[3]), rtol=0, atol=1e-15)
    np.testing.assert_allclose(cos[0], np.cos(result["x"]), rtol=0, atol=1e-15)
    np.testing.assert_array_equal(result["wavelengths"], pelab.wavelengths(8))
    assert np.all(np.diff(result["wavelengths"]) > 0)
    np.testing.assert_allclose(result["angles"], np.mod(2.5 * omega, 2 * math.pi), rtol=1e-15)


def test_waves_at_most_max_samples():
    result = call("waves", {"d_model": 7, "base": 100, "pairs": [3], "max_pos": 10_000, "pos": 0})
    assert result["x"].shape == (demo.MAX_SAMPLES,) == (4097,)
    assert result["x"][-1] == 10_000.0
    assert result["sin"].shape == (demo.MAX_SAMPLES,)
    assert result["wavelengths"].shape == result["angles"].shape == (4,)  # ceil(7 / 2)
    assert result["angles"].tolist() == [0.0] * 4


def test_waves_no_pairs_or_all_pairs():
    result = call("waves", {"d_model": 6, "base": 10000.0, "pairs": [], "max_pos": 3, "pos": 1})
    assert_plain(result, waves_arrays(demo.SAMPLES_PER_POSITION * 3 + 1, 0, 3))
    assert result["pairs"] == []
    result = call("waves", {"d_model": 6, "base": 10000.0, "pairs": None, "max_pos": 3, "pos": 1})
    assert result["pairs"] == [0, 1, 2] and result["sin"].shape == (3 * 25,)


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"pairs": [4]}, r"^pairs must be a list of distinct integers from 0 to 3, got "),
        ({"pairs": [-1]}, r"^pairs must be a list of distinct integers from 0 to 3, got "),
        ({"pairs": [1, 1]}, r"^pairs must be a list of distinct integers from 0 to 3, got "),
        ({"pairs": [0.5]}, r"^pairs must be a list of distinct integers from 0 to 3, got "),
        ({"pairs": "0"}, r"^pairs must be a list of distinct integers from 0 to 3, got "),
        ({"max_pos": 0}, r"^max_pos must be an integer from 1 to "),
        ({"max_pos": 2.5}, r"^max_pos must be an integer from 1 to "),
        ({"max_pos": MAX_SEQ_LEN + 1}, r"^max_pos must be an integer from 1 to "),
        ({"pos": -1}, r"^pos must be a real number from 0 to "),
        ({"pos": float("nan")}, r"^pos must be a real number from 0 to "),
        ({"d_model": 0}, r"^d_model must be an integer"),
        ({"base": 0.5}, r"^base must be a finite real number"),
    ],
)
def test_waves_bad_arguments_are_rejected(changes, message):
    kwargs = {"d_model": 8, "base": 10000.0, "pairs": [0], "max_pos": 10, "pos": 1.0, **changes}
    with pytest.raises(ValueError, match=message):
        call("waves", kwargs)


# ---------------------------------------------------------------------------
# Fuzzing (tests/python/fuzzing.py): junk of every kind for each entry point of this demo
# ---------------------------------------------------------------------------


def check_waves(kw, r):
    max_pos, h = as_int(kw["max_pos"]), half_up(kw["d_model"])
    m = min(demo.SAMPLES_PER_POSITION * max_pos + 1, demo.MAX_SAMPLES)
    rows = len(r["pairs"])
    assert r["pairs"] == (list(range(h)) if kw["pairs"] is None
                          else [int(p) for p in items_of(kw["pairs"])])
    assert_plain(r, waves_arrays(m, rows, h))
    for key in ("x", "sin", "cos", "wavelengths", "angles"):
        finite(r[key])


@st.composite
def waves_args(draw):
    d = draw(widths())
    chosen = st.lists(st.integers(0, half_up(d) - 1), unique=True, max_size=6)
    # pairs=None draws every pair: for a wide d_model, more samples than pair_waves allows.
    pairs = draw(st.one_of(st.none(), chosen) if d <= 128 else chosen)
    if pairs is not None and draw(st.booleans()):
        pairs = OneShot(pairs)
    return {"d_model": d, "base": draw(bases()), "pairs": pairs,
            "max_pos": draw(sizes(1, MAX_SEQ_LEN)),
            "pos": draw(st.one_of(st.floats(0, MAX_SEQ_LEN), sizes(0, MAX_SEQ_LEN)))}


FUZZ_SPECS = {
    "waves": Spec(
        None,
        waves_args(),
        {
            "d_model": size_junk(1, MAX_D_MODEL),
            "base": BASE_JUNK,
            "pairs": JUNK,
            "max_pos": size_junk(1, MAX_SEQ_LEN),
            "pos": JUNK,
        },
        check_waves,
        related={"d_model": {"pairs"}},
    ),
}
test_fuzzed_arguments, test_fuzzed_keywords = entry_point_fuzz_tests(FUZZ_SPECS)
