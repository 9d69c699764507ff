"""
# The heatmap demo's entry point (app/demos/heatmap.js)

The sinusoidal encoding as an image, one pixel per (position, dimension), repainted while a
slider moves.
"""

from __future__ import annotations

import numpy as np

from ...checks import check_bool
from ...colormap import to_rgba_in_range
from ...extrapolation import layout_permutation
from ...positional_encoding import DEFAULT_BASE
from ...relative import sinusoidal_by_rotation


def heatmap(
    seq_len: int, d_model: int, base: float = DEFAULT_BASE, concatenated: bool = False
) -> dict:
    """
    The sinusoidal encoding as an image: one pixel per (position, dimension).

    The demo repaints 512 x 512 of it while a slider moves, so every step takes the fast way:
    the table is `sinusoidal_by_rotation`'s, `sinusoidal`'s up to rounding (below 1.2e-13 at 512
    positions) in a third of the time, left unclipped (a value may step past +-1 by an ulp,
    which no readout shows and which gets the end colour all the same), and its colours are
    `to_rgba`'s without the range check.

    With `concatenated=True` the columns are laid out as in TensorFlow's tutorial, all the sines
    and then all the cosines: the same numbers, reordered by `pelab.layout_permutation`.

    Returns:
        width: d_model (columns are dimensions j), height: seq_len (rows are positions),
        rgba: uint8, shape (seq_len * d_model * 4,), row-major RGBA ready for ImageData,
        values: float64, shape (seq_len * d_model,), the encoding itself for readouts.
    """
    pe = sinusoidal_by_rotation(seq_len, d_model, base, clip=False)
    height, width = pe.shape  # Python ints, whatever integer type the arguments were
    if check_bool("concatenated", concatenated):
        # [sin | cos]: column j of the new table is column perm[j] of the paper's.
        pe = pe[:, layout_permutation(width)]
    return {
        "width": width,
        "height": height,
        "rgba": to_rgba_in_range(pe).reshape(-1),
        "values": np.ascontiguousarray(pe).reshape(-1),
    }


ENTRY_POINTS = {"heatmap": heatmap}
