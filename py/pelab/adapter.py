"""Entry points for the browser: the only module that shapes results for JavaScript.

The worker (app/python-worker.js) calls ``call(name, kwargs)`` with plain JavaScript values
converted to Python. Each entry point returns a dict of numbers, strings and flat, C-contiguous
numpy arrays; the worker copies each array out of wasm memory into a typed array
(uint8 -> Uint8Array, float64 -> Float64Array) and frees the proxies.
"""

from __future__ import annotations

import numpy as np

from .colormap import COOL_WARM, to_rgba
from .positional_encoding import sinusoidal


def heatmap(seq_len: int, d_model: int, base: float = 10000.0) -> dict:
    """The sinusoidal encoding as an image: one pixel per (position, dimension).

    Returns:
        width: d_model (columns are dimensions j), height: seq_len (rows are positions),
        rgba: uint8, shape (seq_len * d_model * 4,), row-major RGBA ready for ImageData,
        values: float64, shape (seq_len * d_model,), the encoding itself for readouts.
    """
    pe = sinusoidal(seq_len, d_model, base)
    return {
        "width": d_model,
        "height": seq_len,
        "rgba": np.ascontiguousarray(to_rgba(pe)).reshape(-1),
        "values": np.ascontiguousarray(pe).reshape(-1),
    }


def legend() -> dict:
    """The colour map as a 256 x 1 RGBA strip, from -1 (left) to +1 (right)."""
    return {"width": len(COOL_WARM), "height": 1, "rgba": np.ascontiguousarray(COOL_WARM).reshape(-1)}


ENTRY_POINTS = {
    "heatmap": heatmap,
    "legend": legend,
}


def call(name: str, kwargs: dict | None = None) -> dict:
    """Run the entry point called ``name`` with keyword arguments ``kwargs``."""
    if name not in ENTRY_POINTS:
        raise ValueError(f"unknown entry point {name!r}; known: {', '.join(sorted(ENTRY_POINTS))}")
    return ENTRY_POINTS[name](**(kwargs or {}))
