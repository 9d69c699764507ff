"""
# The similarity demo's entry point (app/demos/similarity.js)

How alike every two positions are: dot products and cosines between rows of the encoding.
"""

from __future__ import annotations

import numpy as np

from ...checks import check_product, check_size
from ...colormap import range_part, to_rgba
from ...positional_encoding import DEFAULT_BASE, sinusoidal
from ...similarity import similarity as similarity_matrices
from ...similarity import toeplitz_residual
from ..limits import MAX_MATRIX_LEN, MAX_MATRIX_WIDTH, MAX_WORK, RESPONSIVE
from ..plain import flat


def similarity(seq_len: int, d_model: int, base: float = DEFAULT_BASE, pos: int = 0) -> dict:
    """
    How alike every two positions are (see `pelab.similarity`).

    Args:
        seq_len: n, an integer from 1 to MAX_MATRIX_LEN.
        d_model: an integer from 1 to MAX_MATRIX_WIDTH, with seq_len**2 * d_model <= MAX_WORK.
        base: the encoding's base.
        pos: the position whose row is returned, an integer from 0 to seq_len - 1.

    Returns:
        n: int,
        dot: float64, shape (n * n,), row-major PE(p) . PE(q),
        cosine: float64, shape (n * n,), row-major cosine similarities,
        dot_rgba: uint8, shape (n * n * 4,), dot coloured over [-dot_scale, dot_scale],
        cosine_rgba: uint8, shape (n * n * 4,), cosine coloured over [-1, 1],
        row: float64, shape (n,), PE(pos) . PE(q) for every q,
        toeplitz: float, the largest spread along a diagonal of dot (rounding error for even
            d_model: dot depends only on q - p),
        dot_scale: float, max |dot| (d_model / 2 for even d_model; 1.0 if dot is all zeros),
        dot_part, cosine_part: str, the part of its colour range each matrix uses
            (`pelab.colormap.range_part`): "positive" where every value is >= 0, so that its
            colour bar shows the sequential white-to-red half alone, else "both".
    """
    seq_len = check_size("seq_len", seq_len, MAX_MATRIX_LEN)
    d_model = check_size("d_model", d_model, MAX_MATRIX_WIDTH)
    check_product(
        "seq_len * seq_len * d_model", (seq_len, seq_len, d_model), MAX_WORK, why=RESPONSIVE
    )
    pos = check_size("pos", pos, seq_len - 1, minimum=0)
    dot, cosine = similarity_matrices(sinusoidal(seq_len, d_model, base))
    # The colour range: the largest |dot| (every |PE(p)|^2 is d_model / 2 for even d_model).
    dot_scale = float(np.max(np.abs(dot))) or 1.0
    return {
        "n": seq_len,
        "dot": flat(dot),
        "cosine": flat(cosine),
        "dot_rgba": flat(to_rgba(dot, -dot_scale, dot_scale)),
        "cosine_rgba": flat(to_rgba(cosine)),
        "row": flat(dot[pos]),
        "toeplitz": toeplitz_residual(dot),
        "dot_scale": dot_scale,
        "dot_part": range_part(dot),
        "cosine_part": range_part(cosine),
    }


ENTRY_POINTS = {"similarity": similarity}
