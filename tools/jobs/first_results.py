"""Every live demo's first result, computed by pelab's own entry points in Pyodide, as JSON:
{demo: {"entry", "kwargs", "result"}} (see tools/first_results.py).

A result is plain data (pelab.browser.plain). JSON holds it as it is, but for its arrays, which
become {"uint8": [...]} or {"float64": [...]}, a float that is not finite, which becomes
{"float": "nan" | "inf" | "-inf"} (in an array, that string alone), and None, which becomes null.
Floats are written as Python's repr, the shortest text that reads back as the same double, so
app/demos/first-results.js rebuilds the numbers bit for bit.
"""

import json
import math

import numpy as np

from pelab.browser.entry_points import call


def plain_float(value: float):
    return value if math.isfinite(value) else str(value)


def encoded(value):
    if isinstance(value, np.ndarray):
        if value.dtype == np.uint8:
            return {"uint8": value.tolist()}
        return {"float64": [plain_float(float(item)) for item in value]}
    if isinstance(value, float) and not math.isfinite(value):
        return {"float": str(value)}
    return value


def main(calls: dict) -> bytes:
    results = {}
    for demo, request in calls.items():
        result = call(request["entry"], dict(request["kwargs"]))
        results[demo] = {
            **request,
            "result": {key: encoded(value) for key, value in result.items()},
        }
    return json.dumps(results, separators=(",", ":"), allow_nan=False).encode()
