"""Tests for pelab.browser.demos.heatmap: what the heatmap demo's entry points hand the worker
(app/demos/heatmap.js), under CPython."""


import numpy as np
import pytest
from hypothesis import strategies as st

import pelab
from fuzzing import (
    BASE_JUNK,
    JUNK,
    Spec,
    as_int,
    bases,
    entry_point_fuzz_tests,
    in_unit,
    optional,
    size_junk,
    sizes,
)
from pelab.browser.entry_points import call
from pelab.checks import MAX_D_MODEL, MAX_SEQ_LEN
from plain_results import assert_plain

# Its entry points' results go through BLAS (`@`, lstsq): rerun under every kernel.
pytestmark = pytest.mark.blas_numeric


def heatmap_arrays(seq_len, d_model):
    """The heatmap entry point's arrays: the table's values and their colours."""
    return {"rgba": (np.uint8, seq_len * d_model * 4), "values": (np.float64, seq_len * d_model)}


def test_heatmap():
    result = call("heatmap", {"seq_len": 5, "d_model": 6, "base": 100.0})
    assert set(result) == {"width", "height", "rgba", "values"}
    assert_plain(result, heatmap_arrays(5, 6))
    assert (result["width"], result["height"]) == (6, 5)
    np.testing.assert_array_equal(
        result["values"], pelab.sinusoidal_by_rotation(5, 6, 100.0, clip=False).reshape(-1)
    )
    np.testing.assert_allclose(
        result["values"], pelab.sinusoidal(5, 6, 100.0).reshape(-1), rtol=0, atol=1e-15
    )
    np.testing.assert_array_equal(
        result["rgba"], pelab.to_rgba(pelab.sinusoidal(5, 6, 100.0)).reshape(-1)
    )


@pytest.mark.parametrize("base", [10000.0, 3.16, 251.0, 63100.0, 100000.0])
def test_heatmap_at_512_draws_the_colours_of_sinusoidal(base):
    """The demo's largest table is built by rotation, and draws exactly `sinusoidal`'s colours."""
    result = call("heatmap", {"seq_len": 512, "d_model": 512, "base": base})
    expected = pelab.sinusoidal(512, 512, base)
    assert np.max(np.abs(result["values"] - expected.reshape(-1))) <= 2**-52 * (512 + 4)
    np.testing.assert_array_equal(result["rgba"], pelab.to_rgba(expected).reshape(-1))


def test_heatmap_default_base_and_errors():
    assert (
        call("heatmap", {"seq_len": 2, "d_model": 2})["values"].tolist()
        == pelab.sinusoidal(2, 2).reshape(-1).tolist()
    )
    with pytest.raises(ValueError, match=r"^seq_len must be an integer"):
        call("heatmap", {"seq_len": 0, "d_model": 4})
    with pytest.raises(ValueError, match=r"^base must be a finite real number"):
        call("heatmap", {"seq_len": 2, "d_model": 4, "base": 1})
    with pytest.raises(TypeError):
        call("heatmap", {"seq_len": 2})


@pytest.mark.parametrize("d_model", [1, 2, 7, 64])
def test_heatmap_in_the_concatenated_layout_is_the_same_numbers_reordered(d_model):
    plain = call("heatmap", {"seq_len": 33, "d_model": d_model, "base": 500.0})
    cat = call("heatmap", {"seq_len": 33, "d_model": d_model, "base": 500.0, "concatenated": True})
    table = plain["values"].reshape(33, d_model)
    perm = pelab.layout_permutation(d_model)
    np.testing.assert_array_equal(cat["values"].reshape(33, d_model), table[:, perm])
    np.testing.assert_array_equal(
        cat["rgba"].reshape(33, d_model, 4), plain["rgba"].reshape(33, d_model, 4)[:, perm]
    )
    # and it is TensorFlow's layout: sines of pairs 0, 1, ... then their cosines
    # (sinusoidal_by_rotation's table against sin and cos computed directly: rounding only)
    np.testing.assert_allclose(
        cat["values"].reshape(33, d_model),
        pelab.concatenated(33, d_model, 500.0),
        rtol=0,
        atol=1e-13,
    )


# ---------------------------------------------------------------------------
# Fuzzing (tests/python/fuzzing.py): junk of every kind for each entry point of this demo
# ---------------------------------------------------------------------------


def check_heatmap(kw, r):
    s, d = as_int(kw["seq_len"]), as_int(kw["d_model"])
    assert (r["width"], r["height"]) == (d, s)
    assert_plain(r, heatmap_arrays(s, d))
    in_unit(r["values"])


FUZZ_SPECS = {
    "heatmap": Spec(
        None,
        optional(
            {"seq_len": sizes(1, 40), "d_model": sizes(1, 40)},
            base=bases(),
            concatenated=st.sampled_from([True, False, np.bool_(True)]),
        ),
        {
            "seq_len": size_junk(1, MAX_SEQ_LEN),
            "d_model": size_junk(1, MAX_D_MODEL),
            "base": BASE_JUNK,
            "concatenated": JUNK,
        },
        check_heatmap,
    ),
}
test_fuzzed_arguments, test_fuzzed_keywords = entry_point_fuzz_tests(FUZZ_SPECS)
