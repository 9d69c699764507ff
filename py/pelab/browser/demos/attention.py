"""
# The attention demo's entry point (app/demos/attention.js)

A sentence and a shuffle of it through one attention head: blind to order without positions.
"""

from __future__ import annotations

from ...attention import order_blindness
from ...tokens import MAX_TOKENS, tokenize
from ..plain import flat


def attention(
    sentence: str, order: list[int] | None = None, with_pe: bool = False, causal: bool = False
) -> dict:
    """
    A sentence and a shuffle of it through one attention head (see `pelab.order_blindness`).

    Args:
        sentence: the learner's text; at most `MAX_TOKENS` words are kept.
        order: a permutation of `range(n)` for the n tokens, shuffled[k] = tokens[order[k]];
            `None` means the sentence read backwards, the page's first shuffle
            ("dog bites man" -> "man bites dog"), since the page cannot know n before
            Python has split the sentence into words.
        with_pe: add sinusoidal positional encodings before attention.
        causal: use a decoder's causal mask (a token sees itself and the tokens before it).

    Returns:
        tokens, shuffled: lists of n str (the learner's text: show it as text, never as HTML),
        order: list of n int, d_model: int (the width d of each output),
        outputs, shuffled_outputs: float64, shape (n * d,), row-major (n, d) attention outputs,
        token_match: float, max |shuffled_outputs[k] - outputs[order[k]]| (0 up to rounding
            without positions), pooled_diff: float, max |mean outputs - mean shuffled_outputs|,
        truncated: bool (words after the first max_tokens were dropped), max_tokens: int,
        with_pe, causal: bool, as asked.
    """
    if order is None:
        order = list(range(len(tokenize(sentence)[0])))[::-1]
    result = order_blindness(sentence, order, with_pe, causal=causal)
    return {
        "tokens": result.tokens,
        "shuffled": result.shuffled,
        "order": result.order,
        "d_model": result.outputs.shape[1],
        "outputs": flat(result.outputs),
        "shuffled_outputs": flat(result.shuffled_outputs),
        "token_match": result.token_match,
        "pooled_diff": result.pooled_diff,
        "truncated": result.truncated,
        "max_tokens": MAX_TOKENS,
        "with_pe": result.with_pe,
        "causal": result.causal,
    }


ENTRY_POINTS = {"attention": attention}
