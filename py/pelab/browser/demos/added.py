"""
# The added demo's entry point (app/demos/added.js)

One word at one position: its embedding plus the position's encoding, added, not concatenated.
"""

from __future__ import annotations

from ...positional_encoding import DEFAULT_BASE, formula_terms
from ...tokens import embed, tokenize
from ..plain import flat


def added(word: str, pos: int, d_model: int, base: float = DEFAULT_BASE) -> dict:
    """
    One word at one position: embedding (d_model,) + PE(pos) (d_model,) = input (d_model,).

    Args:
        word: the learner's word; its first token is used (see `pelab.tokenize`).
        pos: the position, an integer from 0 to MAX_SEQ_LEN.
        d_model, base: the encoding (and the embedding width).

    Returns:
        word: str, the token embedded (show it as text), pos: int, d_model: int,
        embedding, encoding, sum: float64, shape (d_model,), with sum = embedding + encoding,
        concat_width: int, 2 * d_model, the width that concatenating would have given instead,
        truncated: bool, True if more than one word was given and only the first was used.
    """
    tokens, truncated = tokenize(word, max_tokens=1, name="word")
    embedding = embed(tokens, d_model)[0]
    encoding = formula_terms(pos, d_model, base)["value"]
    return {
        "word": tokens[0],
        "pos": int(pos),  # formula_terms has checked it
        "d_model": int(d_model),
        "embedding": flat(embedding),
        "encoding": flat(encoding),
        # Added, not concatenated: x = e(word) + PE(pos) keeps the width d_model.
        "sum": flat(embedding + encoding),
        "concat_width": 2 * int(d_model),
        "truncated": truncated,
    }


ENTRY_POINTS = {"added": added}
