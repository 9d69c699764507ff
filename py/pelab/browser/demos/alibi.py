"""
# The ALiBi demo's entry point (app/demos/alibi.js)

ALiBi's bias per head, and what it does to a sentence's causal attention weights.
"""

from __future__ import annotations

import numpy as np

from ...alibi import alibi_bias, alibi_slopes, alibi_weights, attention_distance
from ...attention import attention_scores, projections, self_attention
from ...checks import check_size
from ...colormap import to_rgba
from ...tokens import MAX_TOKENS, embed, tokenize
from ..plain import flat

# Most heads "alibi" draws side by side (ALiBi's own slopes exist for up to 256).
MAX_ALIBI_HEADS = 16
# Width of the toy embeddings and head "alibi" uses: the attention demo's.
ALIBI_D_MODEL = 8


def alibi(sentence: str, n_heads: int = 8, head: int = 1) -> dict:
    """
    ALiBi's bias per head, and what it does to a sentence's causal attention weights.

    The sentence goes through the attention demo's toy embeddings and head (width
    `ALIBI_D_MODEL`, `pelab.projections` seed 0), with no position vector; every head gets
    those same content scores plus its own bias -m_h (i - j) (see `pelab.alibi_weights`).

    Args:
        sentence: the learner's text; at most `MAX_TOKENS` words are kept.
        n_heads: the number of heads, an integer from 1 to `MAX_ALIBI_HEADS`.
        head: the head whose weights are returned, an integer from 1 to n_heads, in the order
            of `pelab.alibi_slopes` (steepest first only when n_heads is a power of two).

    Returns:
        tokens: list of n str (show it as text), n: int, n_heads: int, head: int,
        slopes: float64, shape (n_heads,), from `pelab.alibi_slopes`,
        bias: float64, shape (n_heads * n * n,), row-major (head, query i, key j): -m (i - j),
            -inf after the diagonal (masked),
        bias_rgba: uint8, shape (n_heads * n * n * 4,), coloured over [-bias_scale,
            bias_scale], masked entries in the NaN grey,
        bias_scale: float, the largest |finite bias| over all heads (1.0 if all are 0),
        weights: float64, shape (n * n,), row-major causal weights of the chosen head,
        weights_rgba: uint8, shape (n * n * 4,), coloured over [-1, 1], masked entries grey,
        plain: float64, shape (n * n,), the same head's causal weights with no bias at all,
        plain_rgba: uint8, shape (n * n * 4,), likewise,
        distances: float64, shape (n_heads,), each head's mean attention distance
            (`pelab.attention_distance`), plain_distance: float, the same with no bias,
        truncated: bool, max_tokens: int.
    """
    tokens, truncated = tokenize(sentence)
    n_heads = check_size("n_heads", n_heads, MAX_ALIBI_HEADS)
    head = check_size("head", head, n_heads)
    n = len(tokens)
    x = embed(tokens, ALIBI_D_MODEL)
    w_q, w_k, w_v = projections(ALIBI_D_MODEL)
    with_bias = alibi_weights(attention_scores(x, w_q, w_k), n_heads)  # (n_heads, n, n)
    plain = self_attention(x, w_q, w_k, w_v, causal=True)[1]  # the same head, no bias
    bias = alibi_bias(n, n_heads, causal=True)
    later = np.triu(np.ones((n, n), dtype=bool), 1)  # j > i: masked keys
    finite = bias[:, ~later]
    bias_scale = float(np.max(np.abs(finite))) or 1.0
    chosen = with_bias[head - 1]
    return {
        "tokens": tokens,
        "n": n,
        "n_heads": n_heads,
        "head": head,
        "slopes": alibi_slopes(n_heads),
        "bias": flat(bias),
        "bias_rgba": flat(to_rgba(np.where(later, np.nan, bias), -bias_scale, bias_scale)),
        "bias_scale": bias_scale,
        "weights": flat(chosen),
        "weights_rgba": flat(to_rgba(np.where(later, np.nan, chosen))),
        "plain": flat(plain),
        "plain_rgba": flat(to_rgba(np.where(later, np.nan, plain))),
        "distances": np.array([attention_distance(w) for w in with_bias]),
        "plain_distance": attention_distance(plain),
        "truncated": truncated,
        "max_tokens": MAX_TOKENS,
    }


ENTRY_POINTS = {"alibi": alibi}
