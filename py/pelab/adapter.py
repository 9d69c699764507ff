"""Entry points for the browser: the only module that shapes results for JavaScript.

The worker (app/python-worker.js) calls ``call(name, kwargs)`` with plain JavaScript values
converted to Python (a JavaScript array arrives as a list). Each entry point returns a dict of
ints, floats, strs, bools, lists of str or int, and flat, C-contiguous numpy arrays; the worker
copies each array out of wasm memory into a typed array (uint8 -> Uint8Array,
float64 -> Float64Array) and frees the proxies. A 2-D result is sent row-major with its sizes
alongside. The maths lives in the other modules; this one only calls them and flattens.
"""

from __future__ import annotations

import numpy as np

from .attention import MAX_TOKENS, embed, order_blindness, tokenize
from .colormap import COOL_WARM, to_rgba
from .positional_encoding import (
    MAX_SEQ_LEN,
    check_size,
    clock_angles,
    formula_terms,
    pair_waves,
    sinusoidal,
    wavelengths,
)

# The wave plot samples each unit of position this many times...
SAMPLES_PER_POSITION = 8
# ...but never more than this many samples in all (4096 intervals).
MAX_SAMPLES = 4097


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


def attention(sentence: str, order: list[int] | None = None, with_pe: bool = False) -> dict:
    """A sentence and a shuffle of it through one attention head (see ``pelab.order_blindness``).

    Args:
        sentence: the learner's text; at most ``MAX_TOKENS`` words are kept.
        order: a permutation of ``range(n)`` for the n tokens, shuffled[k] = tokens[order[k]];
            ``None`` means the sentence read backwards, the page's first shuffle
            ("dog bites man" -> "man bites dog"), since the page cannot know n before
            Python has split the sentence into words.
        with_pe: add sinusoidal positional encodings before attention.

    Returns:
        tokens, shuffled: lists of n str (the learner's text: show it as text, never as HTML),
        order: list of n int, d_model: int (the width d of each output),
        outputs, shuffled_outputs: float64, shape (n * d,), row-major (n, d) attention outputs,
        token_match: float, max |shuffled_outputs[k] - outputs[order[k]]| (0 up to rounding
            without positions), pooled_diff: float, max |mean outputs - mean shuffled_outputs|,
        truncated: bool (words after the first max_tokens were dropped), max_tokens: int.
    """
    if order is None:
        order = list(range(len(tokenize(sentence)[0])))[::-1]
    result = order_blindness(sentence, order, with_pe)
    return {
        "tokens": result.tokens,
        "shuffled": result.shuffled,
        "order": result.order,
        "d_model": result.outputs.shape[1],
        "outputs": _flat(result.outputs),
        "shuffled_outputs": _flat(result.shuffled_outputs),
        "token_match": result.token_match,
        "pooled_diff": result.pooled_diff,
        "truncated": result.truncated,
        "max_tokens": MAX_TOKENS,
    }


def formula(pos: int, d_model: int, base: float = 10000.0) -> dict:
    """The formula's terms for one position, column by column (see ``pelab.formula_terms``).

    Returns:
        j, i, exponent, angle, value: float64, shape (d_model,): column, pair index, 2i/d_model,
            pos / base**exponent and PE(pos, j),
        is_sine: uint8, shape (d_model,): 1 for the sine (even) columns, 0 for the cosine ones.
    """
    terms = formula_terms(pos, d_model, base)
    result = {key: _flat(terms[key]) for key in ("j", "i", "exponent", "angle", "value")}
    result["is_sine"] = _flat(terms["is_sine"].astype(np.uint8))
    return result


def waves(d_model: int, base: float, pairs: list[int], max_pos: int, pos: float) -> dict:
    """Chosen pairs' sine and cosine waves over positions 0..max_pos, and every pair's clock hand.

    Args:
        d_model, base: the encoding.
        pairs: distinct pair indices from 0 to ceil(d_model / 2) - 1 to draw (None: all).
        max_pos: the last position drawn, an integer from 1 to MAX_SEQ_LEN.
        pos: the position the clock hands show, a real number from 0 to MAX_SEQ_LEN.

    Returns:
        x: float64, shape (m,), sample positions from 0 to max_pos, SAMPLES_PER_POSITION per
            unit, m = min(SAMPLES_PER_POSITION * max_pos + 1, MAX_SAMPLES),
        sin, cos: float64, shape (len(pairs) * m,), row-major (len(pairs), m): row r is pair pairs[r],
        pairs: list of int,
        wavelengths: float64, shape (ceil(d_model / 2),), every pair's wavelength in positions,
        angles: float64, shape (ceil(d_model / 2),), every pair's angle at pos, in [0, 2 pi).
    """
    max_pos = check_size("max_pos", max_pos, MAX_SEQ_LEN)
    x = np.linspace(0.0, float(max_pos), min(SAMPLES_PER_POSITION * max_pos + 1, MAX_SAMPLES))
    sin, cos = pair_waves(x, d_model, base, pairs)
    return {
        "x": _flat(x),
        "sin": _flat(sin),
        "cos": _flat(cos),
        # pair_waves has checked them; None means every pair.
        "pairs": [int(p) for p in pairs] if pairs is not None else list(range(len(sin))),
        "wavelengths": _flat(wavelengths(d_model, base)),
        "angles": _flat(clock_angles(pos, d_model, base)),
    }


def added(word: str, pos: int, d_model: int, base: float = 10000.0) -> dict:
    """One word at one position: embedding (d_model,) + PE(pos) (d_model,) = input (d_model,).

    Args:
        word: the learner's word; its first token is used (see ``pelab.tokenize``).
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
        "embedding": _flat(embedding),
        "encoding": _flat(encoding),
        # Added, not concatenated: x = e(word) + PE(pos) keeps the width d_model.
        "sum": _flat(embedding + encoding),
        "concat_width": 2 * int(d_model),
        "truncated": truncated,
    }


def _flat(array: np.ndarray) -> np.ndarray:
    """``array`` flattened row-major into a C-contiguous 1-D array (copied only if it must be)."""
    return np.ascontiguousarray(array).reshape(-1)


ENTRY_POINTS = {
    "heatmap": heatmap,
    "legend": legend,
    "attention": attention,
    "formula": formula,
    "waves": waves,
    "added": added,
}


def call(name: str, kwargs: dict | None = None) -> dict:
    """Run the entry point called ``name`` with keyword arguments ``kwargs``."""
    if name not in ENTRY_POINTS:
        raise ValueError(f"unknown entry point {name!r}; known: {', '.join(sorted(ENTRY_POINTS))}")
    return ENTRY_POINTS[name](**(kwargs or {}))
