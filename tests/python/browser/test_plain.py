"""Tests for pelab.browser.plain: what counts as plain data, and flattening."""

import numpy as np
import pytest

from pelab.browser.plain import check_plain, flat, flat_arrays


def test_plain_values_pass_unchanged():
    result = {"a": 1, "b": 2.5, "c": "x", "d": True, "e": None, "f": ["x", 1], "g": [],
              "h": np.zeros(3), "i": np.zeros(2, dtype=np.uint8)}
    assert check_plain("toy", result) is result


def test_flat_copies_only_when_it_must():
    array = np.arange(6.0).reshape(2, 3)
    assert np.shares_memory(flat(array), array) and flat(array).tolist() == list(range(6))
    transposed = flat(array.T)
    assert transposed.flags.c_contiguous and transposed.tolist() == [0, 3, 1, 4, 2, 5]


def test_flat_arrays_flattens_every_array_and_nothing_else():
    shaped = flat_arrays({"m": np.eye(2), "n": 3, "l": [1]})
    assert shaped["m"].shape == (4,) and shaped["n"] == 3 and shaped["l"] == [1]


@pytest.mark.parametrize("key", [1, None, ("a",)])
def test_keys_are_strs(key):
    with pytest.raises(TypeError, match="is not a str"):
        check_plain("toy", {key: 1})
