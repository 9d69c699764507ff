"""Tests for pelab.browser.demos.added: what the added demo's entry points hand the worker
(app/demos/added.js), under CPython."""


import numpy as np
import pytest

import pelab
from fuzzing import (
    BASE_JUNK,
    JUNK,
    Spec,
    as_int,
    bases,
    entry_point_fuzz_tests,
    finite,
    optional,
    sentences,
    size_junk,
    sizes,
)
from pelab.browser.entry_points import call
from pelab.checks import MAX_D_MODEL, MAX_SEQ_LEN
from plain_results import assert_plain

# Its entry points' results go through BLAS (`@`, lstsq): rerun under every kernel.
pytestmark = pytest.mark.blas_numeric


ADDED_KEYS = {"word", "pos", "d_model", "embedding", "encoding", "sum", "concat_width", "truncated"}


ADDED_ARRAYS = ("embedding", "encoding", "sum")  # each d_model long


def test_added():
    result = call("added", {"word": "Dog!", "pos": 3, "d_model": 4})
    assert set(result) == ADDED_KEYS
    assert_plain(result, {key: (np.float64, 4) for key in ADDED_ARRAYS})
    assert result["word"] == "Dog" and result["pos"] == 3 and result["d_model"] == 4
    assert result["concat_width"] == 8 and result["truncated"] is False
    np.testing.assert_array_equal(result["embedding"], pelab.embed(["dog"], 4)[0])
    np.testing.assert_array_equal(result["encoding"], pelab.sinusoidal(4, 4)[3])
    np.testing.assert_array_equal(result["sum"], result["embedding"] + result["encoding"])


def test_added_agrees_with_add_positions_and_the_attention_demo():
    result = call("added", {"word": "man", "pos": 2, "d_model": 8, "base": 10000.0})
    row = pelab.add_positions(pelab.embed(["dog", "bites", "man"]))[2]
    np.testing.assert_allclose(result["sum"], row, rtol=0, atol=1e-15)


def test_added_takes_the_first_word():
    result = call("added", {"word": "  <b>hi</b> there", "pos": 0, "d_model": 2, "base": 10})
    assert result["word"] == "<b>hi</b>" and result["truncated"] is True
    assert result["encoding"].tolist() == [0.0, 1.0]


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"word": ""}, r"^word must contain at least one word$"),
        ({"word": "?!"}, r"^word must contain at least one word$"),
        ({"word": 7}, r"^word must be a str"),
        ({"pos": -1}, r"^pos must be an integer from 0 to"),
        ({"pos": 0.5}, r"^pos must be an integer from 0 to"),
        ({"d_model": 0}, r"^d_model must be an integer"),
        ({"d_model": True}, r"^d_model must be an integer"),
        ({"base": float("inf")}, r"^base must be a finite real number"),
    ],
)
def test_added_bad_arguments_are_rejected(changes, message):
    kwargs = {"word": "dog", "pos": 1, "d_model": 4, **changes}
    with pytest.raises(ValueError, match=message):
        call("added", kwargs)


# ---------------------------------------------------------------------------
# Fuzzing (tests/python/fuzzing.py): junk of every kind for each entry point of this demo
# ---------------------------------------------------------------------------


def check_added(kw, r):
    d = as_int(kw["d_model"])
    assert_plain(r, {key: (np.float64, d) for key in ADDED_ARRAYS})
    assert r["concat_width"] == 2 * d and type(r["truncated"]) is bool and r["word"]
    for key in ADDED_ARRAYS:
        finite(r[key])


FUZZ_SPECS = {
    "added": Spec(
        None,
        optional(
            {"word": sentences(max_words=3), "pos": sizes(0, MAX_SEQ_LEN), "d_model": sizes(1, 64)},
            base=bases(),
        ),
        {
            "word": JUNK,
            "pos": size_junk(0, MAX_SEQ_LEN),
            "d_model": size_junk(1, MAX_D_MODEL),
            "base": BASE_JUNK,
        },
        check_added,
    ),
}
test_fuzzed_arguments, test_fuzzed_keywords = entry_point_fuzz_tests(FUZZ_SPECS)
