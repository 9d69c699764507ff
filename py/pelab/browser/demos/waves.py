"""
# The waves demo's entry point (app/demos/waves.js)

Chosen pairs' sine and cosine waves over the positions, and every pair's clock hand.
"""

from __future__ import annotations

import numpy as np

from ...checks import check_pairs, check_size
from ...positional_encoding import MAX_SEQ_LEN, clock_angles, pair_waves, wavelengths
from ..plain import flat

# The wave plot samples each unit of position this many times...
SAMPLES_PER_POSITION = 8
# ...but never more than this many samples in all (4096 intervals).
MAX_SAMPLES = 4097


def waves(d_model: int, base: float, pairs: list[int], max_pos: int, pos: float) -> dict:
    """
    Chosen pairs' sine and cosine waves over positions 0..max_pos, and every pair's clock hand.

    Args:
        d_model, base: the encoding.
        pairs: distinct pair indices from 0 to ceil(d_model / 2) - 1 to draw (None: all), any
            iterable (read once).
        max_pos: the last position drawn, an integer from 1 to MAX_SEQ_LEN.
        pos: the position the clock hands show, a real number from 0 to MAX_SEQ_LEN.

    Returns:
        x: float64, shape (m,), sample positions from 0 to max_pos, SAMPLES_PER_POSITION per
            unit, m = min(SAMPLES_PER_POSITION * max_pos + 1, MAX_SAMPLES),
        sin, cos: float64, shape (len(pairs) * m,), row-major (len(pairs), m): row r is pair
            pairs[r],
        pairs: list of int,
        wavelengths: float64, shape (ceil(d_model / 2),), every pair's wavelength in positions,
        angles: float64, shape (ceil(d_model / 2),), every pair's angle at pos, in [0, 2 pi).
    """
    max_pos = check_size("max_pos", max_pos, MAX_SEQ_LEN)
    lengths = wavelengths(d_model, base)  # checks d_model and base
    # Read pairs once, here: it may be a one-shot iterator. None means every pair.
    pairs = check_pairs(pairs, len(lengths))
    x = np.linspace(0.0, float(max_pos), min(SAMPLES_PER_POSITION * max_pos + 1, MAX_SAMPLES))
    sin, cos = pair_waves(x, d_model, base, pairs)
    return {
        "x": flat(x),
        "sin": flat(sin),
        "cos": flat(cos),
        "pairs": pairs.tolist(),
        "wavelengths": flat(lengths),
        "angles": flat(clock_angles(pos, d_model, base)),
    }


ENTRY_POINTS = {"waves": waves}
