"""The plain-data contract of the browser's entry points, with each array's dtype and length:
what `pelab.browser.plain.check_plain` checks at run time, and more, for the tests of
tests/python/browser/ (the demos' entry tests check every fuzzed result with it too)."""

import numpy as np

from pelab.browser.plain import check_plain

NULLABLE = {"learned_error", "new_base", "accuracy", "structured_at", "current"}


def assert_plain(result, arrays):
    """`result` holds only what the worker converts: flat C-contiguous arrays, lists of str or
    int, ints, floats, strs and bools (None only where documented). `arrays` maps each array key
    to its dtype, or to (dtype, length)."""
    check_plain("result", result)
    for key, value in result.items():
        if key in arrays:
            dtype, length = arrays[key] if isinstance(arrays[key], tuple) else (arrays[key], None)
            assert isinstance(value, np.ndarray), key
            assert value.dtype == dtype, (key, value.dtype)
            assert value.ndim == 1, (key, value.shape)
            assert value.flags.c_contiguous, key
            assert length is None or value.shape == (length,), (key, value.shape, length)
        elif isinstance(value, list):
            assert all(type(item) in (str, int) for item in value), key
        elif value is None:
            assert key in NULLABLE, key
        else:
            assert type(value) in (int, float, str, bool), (key, type(value))
    assert {key for key, value in result.items() if isinstance(value, np.ndarray)} == set(arrays)

