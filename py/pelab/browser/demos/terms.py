"""
# The terms demo's entry point (app/demos/terms.js)

The four terms of a sentence's attention scores with sinusoidal positions added.
"""

from __future__ import annotations

import numpy as np

from ...colormap import to_rgba
from ...positional_encoding import DEFAULT_BASE
from ...score_terms import TERM_NAMES, four_terms
from ...tokens import MAX_TOKENS
from ..plain import flat


def terms(
    sentence: str, identity: bool = False, d_model: int = 8, base: float = DEFAULT_BASE
) -> dict:
    """
    The four terms of a sentence's attention scores with sinusoidal positions added (see
    `pelab.four_terms`): content.content, content.position, position.content and
    position.position, and the score they add up to.

    Args:
        sentence: the learner's text; at most `MAX_TOKENS` words are kept.
        identity: A = I instead of the toy head's W_Q W_K^T.
        d_model: the width, an integer from 1 to `pelab.score_terms.MAX_TERMS_WIDTH`.
        base: the encoding's base.

    Returns:
        tokens: list of n str (the learner's text: show it as text, never as HTML), n: int,
        d_model: int, identity: bool, as asked,
        for each NAME of content_content, content_position, position_content,
        position_position and total: NAME: float64, shape (n * n,), row-major (query i, key j);
        NAME_scale: float, its own largest |entry| (1.0 if all are 0);
        NAME_rgba: uint8, shape (n * n * 4,), coloured over [-NAME_scale, NAME_scale];
        NAME_toeplitz: float, its largest spread along a diagonal (0 up to rounding when it
        depends on the positions only through i - j),
        sum_gap: float, max |sum of the four terms - total| (rounding error),
        truncated: bool, max_tokens: int.
    """
    result = four_terms(sentence, identity, d_model, base)
    matrices = dict(result.scores.terms(), total=result.scores.total)
    shaped = {
        "tokens": result.tokens,
        "n": len(result.tokens),
        "d_model": result.a.shape[0],
        "identity": result.identity,
        "sum_gap": result.sum_gap,
        "truncated": result.truncated,
        "max_tokens": MAX_TOKENS,
    }
    for name in (*TERM_NAMES, "total"):
        # Each square its own range: on one range shared with the others, position.position
        # (the smallest term for the toy head) faded to near white and hid its diagonals.
        scale = float(np.max(np.abs(matrices[name]))) or 1.0
        shaped[name] = flat(matrices[name])
        shaped[f"{name}_scale"] = scale
        shaped[f"{name}_rgba"] = flat(to_rgba(matrices[name], -scale, scale))
        shaped[f"{name}_toeplitz"] = result.toeplitz[name]
    return shaped


ENTRY_POINTS = {"terms": terms}
