"""
# Plain data: what an entry point may hand the worker

The worker (app/python/worker/results.js) turns a result into plain JavaScript: a dict with str
keys whose values are ints, floats, strs, bools, None (arriving as undefined), lists of str or
int (arriving as arrays), and flat, C-contiguous numpy arrays of uint8 or float64 (arriving as
Uint8Array and Float64Array, copied out of wasm memory). Anything else would break the worker
or arrive wrong, so `pelab.browser.entry_points.call` checks every result with `check_plain`.
A 2-D result is sent row-major (`flat`) with its sizes alongside.
"""

import numpy as np

# The dtypes the worker copies into typed arrays.
ARRAY_DTYPES = (np.dtype(np.uint8), np.dtype(np.float64))
# The types of single values and of list items it passes on as they are.
VALUE_TYPES = (int, float, str, bool)
ITEM_TYPES = (int, str)


def flat(array) -> np.ndarray:
    """`array` flattened row-major into a C-contiguous 1-D array (copied only if it must be)."""
    return np.ascontiguousarray(array).reshape(-1)


def flat_arrays(result: dict) -> dict:
    """`result` with every numpy array in it flattened by `flat` (a session's summary, for one)."""
    return {
        key: flat(value) if isinstance(value, np.ndarray) else value
        for key, value in result.items()
    }


def check_plain(name: str, result) -> dict:
    """
    `result` itself if it is plain data (see the module docstring).

    Raises:
        TypeError: naming the entry point `name`, the key and what it held, if it is not.
    """
    if type(result) is not dict:
        raise TypeError(f"entry point {name!r} returned {type(result).__name__}, not a dict")
    for key, value in result.items():
        if type(key) is not str:
            raise TypeError(f"entry point {name!r} returned a key {key!r} that is not a str")
        problem = _problem(value)
        if problem:
            raise TypeError(f"entry point {name!r} returned {key!r}: {problem}")
    return result


def _problem(value) -> str:
    """What is wrong with one value of a result, or "" if it is plain."""
    if value is None or type(value) in VALUE_TYPES:
        return ""
    if isinstance(value, np.ndarray):
        if value.dtype not in ARRAY_DTYPES:
            return f"an array of {value.dtype}, not uint8 or float64"
        if value.ndim != 1:
            return f"an array of shape {value.shape}, not flat"
        if not value.flags.c_contiguous:
            return "an array that is not C-contiguous"
        return ""
    if type(value) is list:
        kinds = {type(item).__name__ for item in value if type(item) not in ITEM_TYPES}
        return f"a list holding {', '.join(sorted(kinds))}, not only str or int" if kinds else ""
    return f"a {type(value).__name__}, not plain data"
