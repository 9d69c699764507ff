"""
# The relative demo's entry point (app/demos/relative.js)

"k positions later" is one matrix M_k, the same for every position.
"""

from __future__ import annotations

import numpy as np

from ...checks import check_size
from ...colormap import to_rgba
from ...positional_encoding import DEFAULT_BASE
from ...relative import MIN_HALVES_LEN, relative_shift
from ..plain import flat

# Widest d_model for "relative": its matrix is drawn one pixel per entry.
MAX_RELATIVE_WIDTH = 128
# Longest sequence for "relative".
MAX_RELATIVE_LEN = 512
# At most this many positions are listed side by side by "relative".
RELATIVE_SAMPLES = 6


def relative(k: int, d_model: int, base: float = DEFAULT_BASE, seq_len: int = 64) -> dict:
    """
    "k positions later" is one matrix M_k (see `pelab.relative_shift`).

    Args:
        k: the offset, an integer from -100000 to 100000.
        d_model: the width, an integer from 1 to MAX_RELATIVE_WIDTH (odd allowed: its lone
            sine column cannot be shifted exactly, and the residuals say so).
        base: the encoding's base.
        seq_len: positions compared, pos = s .. s + seq_len - 1 with s = max(0, -k), an
            integer from MIN_HALVES_LEN to MAX_RELATIVE_LEN.

    Returns:
        rotation: float64, shape (d_model * d_model,), row-major M_k,
        rotation_rgba: uint8, shape (d_model * d_model * 4,), M_k coloured over [-1, 1],
        residual: float, max |PE(pos + k) - M_k PE(pos)| (rounding error for even d_model),
        independence: float, max |M fitted on the first half - M fitted on the second half|,
        sine_only_residual: float, the least-squares fit from the sines alone (large),
        full_fit_residual: float, the least-squares fit from whole rows (rounding error),
        positions: list of up to RELATIVE_SAMPLES int, evenly spread sample positions pos,
        shifted: float64, shape (len(positions) * d_model,), row-major PE(pos + k) for them,
        mapped: float64, shape (len(positions) * d_model,), row-major M_k PE(pos) for them,
        d_model: int.
    """
    d_model = check_size("d_model", d_model, MAX_RELATIVE_WIDTH)
    seq_len = check_size("seq_len", seq_len, MAX_RELATIVE_LEN, minimum=MIN_HALVES_LEN)
    shift = relative_shift(k, seq_len, d_model, base)
    # Row indices of the samples: evenly spread over the seq_len rows, first and last included.
    spread = np.linspace(0, seq_len - 1, min(RELATIVE_SAMPLES, seq_len))
    rows = np.unique(np.rint(spread).astype(np.intp))
    return {
        "rotation": flat(shift.rotation),
        "rotation_rgba": flat(to_rgba(shift.rotation)),
        "residual": shift.residual,
        "independence": shift.independence,
        "sine_only_residual": shift.sine_only_residual,
        "full_fit_residual": shift.full_fit_residual,
        "positions": [int(pos) for pos in shift.positions[rows]],
        "shifted": flat(shift.later[rows]),
        "mapped": flat(shift.mapped[rows]),
        "d_model": d_model,
    }


ENTRY_POINTS = {"relative": relative}
