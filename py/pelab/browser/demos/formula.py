"""
# The formula demo's entry point (app/demos/formula.js)

The formula's terms for one position, column by column.
"""

from __future__ import annotations

import numpy as np

from ...positional_encoding import DEFAULT_BASE, formula_terms
from ..plain import flat


def formula(pos: int, d_model: int, base: float = DEFAULT_BASE) -> dict:
    """
    The formula's terms for one position, column by column (see `pelab.formula_terms`).

    Returns:
        j, i, exponent, angle, value: float64, shape (d_model,): column, pair index, 2i/d_model,
            pos / base**exponent and PE(pos, j),
        is_sine: uint8, shape (d_model,): 1 for the sine (even) columns, 0 for the cosine ones.
    """
    terms = formula_terms(pos, d_model, base)
    result = {key: flat(terms[key]) for key in ("j", "i", "exponent", "angle", "value")}
    result["is_sine"] = flat(terms["is_sine"].astype(np.uint8))
    return result


ENTRY_POINTS = {"formula": formula}
