"""
# Entry points for the browser

The only module that shapes results for JavaScript.  The worker (app/python/worker/main.js) calls
`call(name, kwargs)` with plain JavaScript values converted to Python (a JavaScript array
arrives as a list). Each entry point returns a dict of ints, floats, strs, bools, None (arriving
as undefined), lists of str or int, and flat, C-contiguous numpy arrays; the worker copies each
array out of wasm memory into a typed array (uint8 -> Uint8Array, float64 -> Float64Array) and
frees the proxies. A 2-D result is sent row-major with its sizes alongside. The maths lives in
the other modules; this one only calls them and flattens.
"""

from __future__ import annotations

import functools

import numpy as np

from .alibi import alibi_bias, alibi_slopes, alibi_weights, attention_distance
from .attention import (
    MAX_TOKENS,
    attention_scores,
    embed,
    order_blindness,
    projections,
    self_attention,
    tokenize,
)
from .checks import (
    check_bool,
    check_choice,
    check_even_size,
    check_pairs,
    check_product,
    check_size,
)
from .colormap import to_rgba, to_rgba_in_range
from .context_scaling import (
    MODEL_HEAD_DIM,
    MODEL_SETTINGS,
    angle_coverage,
    ntk_scaled_base,
    stretched_frequencies,
    stretched_scores,
    yarn_attention_scale,
)
from .extrapolation import MAX_NEAREST_LEN, layout_permutation, nearest_distances
from .learned import learned as learned_table
from .length_generalisation import RUNS, LengthExperiment, run_name
from .stretch_experiment import METHODS as STRETCH_METHODS
from .stretch_experiment import SCALES as STRETCH_SCALES
from .stretch_experiment import StretchExperiment
from .positional_encoding import (
    MAX_SEQ_LEN,
    angular_frequencies,
    clock_angles,
    formula_terms,
    pair_waves,
    sinusoidal,
    wavelengths,
)
from .relative import MIN_HALVES_LEN, relative_shift, rotation, sinusoidal_by_rotation
from .rope import (
    pairing_permutation,
    rope_decay_bound,
    rope_independent_abs_score,
    rope_mean_score,
    rope_relative_residual,
    rope_rotate,
    rope_scores,
)
from .score_terms import TERM_NAMES, four_terms
from .similarity import similarity as similarity_matrices
from .similarity import toeplitz_residual
from .table_structure import (
    STRUCTURED_CONTRAST,
    band_contrast,
    closest_sinusoid,
    principal_components,
)
from .training import Trainer

# The wave plot samples each unit of position this many times...
SAMPLES_PER_POSITION = 8
# ...but never more than this many samples in all (4096 intervals).
MAX_SAMPLES = 4097

# Most multiply-adds one entry point may ask for: about 0.1 s in Pyodide, which has no BLAS
# (2**26: seq_len 1024 with d_model 64 for a Gram matrix of seq_len x seq_len).
MAX_WORK = 2**26
# Why a request over MAX_WORK is refused, as its error message says.
_RESPONSIVE = " to keep the page responsive"
# "learned" makes four such seq_len x seq_len products (three encodings and the RoPE check).
MAX_COMPARE_WORK = MAX_WORK // 4
# Widest d_model for "relative": its matrix is drawn one pixel per entry.
MAX_RELATIVE_WIDTH = 128
# Longest sequence for "relative".
MAX_RELATIVE_LEN = 512
# At most this many positions are listed side by side by "relative".
RELATIVE_SAMPLES = 6
# Largest n for the n x n matrices of "similarity" and "learned".
MAX_MATRIX_LEN = 512
# Widest d_model for "similarity", "learned" and "extrapolation" (MAX_WORK limits it further).
MAX_MATRIX_WIDTH = 1024
# Most heads "alibi" draws side by side (ALiBi's own slopes exist for up to 256).
MAX_ALIBI_HEADS = 16
# Width of the toy embeddings and head "alibi" uses: the attention demo's.
ALIBI_D_MODEL = 8
# "rope": the last position m, n or shift may reach, and the widest head.
MAX_ROPE_POSITION = 4096
MAX_ROPE_WIDTH = 128
# "rope" scores the same q and k at positions 0 .. ROPE_MATRIX_LEN - 1 against each other.
ROPE_MATRIX_LEN = 32
# "rope" draws RoFormer's decay bound for offsets 0 .. DECAY_LEN - 1, for the chosen base and these.
DECAY_LEN = 512
DECAY_BASES = (100.0, 10000.0, 1000000.0)
# ...with a head dimension of 128, as in LLaMA's heads: with a few pairs it hardly decays at all.
# The mean scores of random q and k beside it (alike: k = q; independent) use the same head.
DECAY_HEAD_DIM = 128
# The training demo's model: the Trainer's defaults but for these (see training_reset).
TRAINING_LEARNING_RATE = 0.003
# Longest training length the training demo offers, and the largest shift.
MAX_TRAINING_LEN = 64
MAX_TRAINING_SHIFT = 4
# Most steps one training_step or length_generalisation_step call may run (about a second).
MAX_SLICE_STEPS = 200
# The models being trained, one per kind, kept between calls: the page trains in slices.
_SESSIONS: dict = {}


def heatmap(seq_len: int, d_model: int, base: float = 10000.0, concatenated: bool = False) -> dict:
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
        causal: use a decoder's causal mask (a token sees only the tokens before it).

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
        "outputs": _flat(result.outputs),
        "shuffled_outputs": _flat(result.shuffled_outputs),
        "token_match": result.token_match,
        "pooled_diff": result.pooled_diff,
        "truncated": result.truncated,
        "max_tokens": MAX_TOKENS,
        "with_pe": result.with_pe,
        "causal": result.causal,
    }


def formula(pos: int, d_model: int, base: float = 10000.0) -> dict:
    """
    The formula's terms for one position, column by column (see `pelab.formula_terms`).

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
        "x": _flat(x),
        "sin": _flat(sin),
        "cos": _flat(cos),
        "pairs": pairs.tolist(),
        "wavelengths": _flat(lengths),
        "angles": _flat(clock_angles(pos, d_model, base)),
    }


def added(word: str, pos: int, d_model: int, base: float = 10000.0) -> dict:
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
        "embedding": _flat(embedding),
        "encoding": _flat(encoding),
        # Added, not concatenated: x = e(word) + PE(pos) keeps the width d_model.
        "sum": _flat(embedding + encoding),
        "concat_width": 2 * int(d_model),
        "truncated": truncated,
    }


def relative(k: int, d_model: int, base: float = 10000.0, seq_len: int = 64) -> dict:
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
        "rotation": _flat(shift.rotation),
        "rotation_rgba": _flat(to_rgba(shift.rotation)),
        "residual": shift.residual,
        "independence": shift.independence,
        "sine_only_residual": shift.sine_only_residual,
        "full_fit_residual": shift.full_fit_residual,
        "positions": [int(pos) for pos in shift.positions[rows]],
        "shifted": _flat(shift.later[rows]),
        "mapped": _flat(shift.mapped[rows]),
        "d_model": d_model,
    }


def similarity(seq_len: int, d_model: int, base: float = 10000.0, pos: int = 0) -> dict:
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
        dot_scale: float, max |dot| (d_model / 2 for even d_model; 1.0 if dot is all zeros).
    """
    seq_len = check_size("seq_len", seq_len, MAX_MATRIX_LEN)
    d_model = check_size("d_model", d_model, MAX_MATRIX_WIDTH)
    check_product(
        "seq_len * seq_len * d_model", (seq_len, seq_len, d_model), MAX_WORK, why=_RESPONSIVE
    )
    pos = check_size("pos", pos, seq_len - 1, minimum=0)
    dot, cosine = similarity_matrices(sinusoidal(seq_len, d_model, base))
    # The colour range: the largest |dot| (every |PE(p)|^2 is d_model / 2 for even d_model).
    dot_scale = float(np.max(np.abs(dot))) or 1.0
    return {
        "n": seq_len,
        "dot": _flat(dot),
        "cosine": _flat(cosine),
        "dot_rgba": _flat(to_rgba(dot, -dot_scale, dot_scale)),
        "cosine_rgba": _flat(to_rgba(cosine)),
        "row": _flat(dot[pos]),
        "toeplitz": toeplitz_residual(dot),
        "dot_scale": dot_scale,
    }


def learned(seq_len: int, d_model: int, max_len: int, base: float = 10000.0, seed: int = 0) -> dict:
    """
    How alike positions 0..seq_len-1 are under three schemes.

    sinusoidal: cosine similarity of the rows of `pelab.sinusoidal`. rope: a seeded query
    vector q and a different key vector k (two standard normal draws of
    `numpy.random.default_rng(seed)`), rotated to every position with `pelab.rope`; the
    score of query position m against key position n, scaled by |q| |k| into [-1, 1]:
    rope(q)[m] . rope(k)[n] / (|q| |k|). It depends on the positions only through n - m
    (Toeplitz), but it is neither symmetric nor largest at n = m, since q and k differ.
    learned: cosine similarity of the rows of `pelab.learned(max_len, d_model, seed)`, an
    untrained (random) table, which has no row for
    positions >= max_len: those rows and columns are NaN, drawn in the colour map's NaN grey
    (opaque (128, 128, 128), a colour no value takes).

    Args:
        seq_len: n, an integer from 1 to MAX_MATRIX_LEN.
        d_model: an even integer from 2 to MAX_MATRIX_WIDTH (RoPE rotates pairs), with
            seq_len**2 * d_model <= MAX_COMPARE_WORK.
        max_len: the learned table's length, an integer from 1 to 4096.
        base: the base of the sinusoidal encoding and of RoPE.
        seed: an integer from 0 to 2**64 - 1.

    Returns:
        n: int,
        sinusoidal, rope, learned: float64, shape (n * n,), row-major matrices in [-1, 1]
            (learned NaN where a position >= max_len is involved),
        sinusoidal_rgba, rope_rgba, learned_rgba: uint8, shape (n * n * 4,), coloured over [-1, 1],
        learned_error: str, the IndexError message for looking up position seq_len - 1 when
            seq_len > max_len, else None,
        rope_relative_residual: float, max |score(m, n) - score(m + t, n + t)| (rounding error).
    """
    seq_len = check_size("seq_len", seq_len, MAX_MATRIX_LEN)
    d_model = check_size("d_model", d_model, MAX_MATRIX_WIDTH, minimum=2)
    # Then even: RoPE turns the coordinates in pairs.
    d_model = check_even_size("d_model", d_model, MAX_MATRIX_WIDTH, why=" (RoPE rotates pairs)")
    check_product(
        "seq_len * seq_len * d_model",
        (seq_len, seq_len, d_model),
        MAX_COMPARE_WORK,
        why=_RESPONSIVE,
    )
    table = learned_table(max_len, d_model, seed)
    positions = np.arange(seq_len)

    sinusoidal_cosine = similarity_matrices(sinusoidal(seq_len, d_model, base))[1]

    # One query vector q and one key vector k, each the same at every position before rotation.
    q, k = np.random.default_rng(table.seed).standard_normal((2, d_model))
    # S_mn = R_m q . R_n k / (|q| |k|): a function of n - m only, in [-1, 1].
    rope_scores_scaled = rope_scores(
        np.tile(q, (seq_len, 1)), np.tile(k, (seq_len, 1)), positions, positions, base
    ) / (np.linalg.norm(q) * np.linalg.norm(k))

    known = min(seq_len, table.max_len)
    learned_cosine = np.full((seq_len, seq_len), np.nan)
    learned_cosine[:known, :known] = similarity_matrices(table.lookup(range(known)))[1]
    learned_error = None
    if seq_len > table.max_len:
        try:
            table.lookup([seq_len - 1])
        except IndexError as error:
            learned_error = str(error)

    return {
        "n": seq_len,
        "sinusoidal": _flat(sinusoidal_cosine),
        "rope": _flat(rope_scores_scaled),
        "learned": _flat(learned_cosine),
        "sinusoidal_rgba": _flat(to_rgba(sinusoidal_cosine)),
        "rope_rgba": _flat(to_rgba(rope_scores_scaled)),
        "learned_rgba": _flat(to_rgba(learned_cosine)),
        "learned_error": learned_error,
        "rope_relative_residual": rope_relative_residual(q, k, seq_len, base),
    }


def extrapolation(d_model: int, base: float, train_len: int, seq_len: int) -> dict:
    """
    How close the nearest two positions come as the sequence grows past the training length.

    Args:
        d_model: an integer from 1 to MAX_MATRIX_WIDTH, with seq_len**2 * d_model <= MAX_WORK.
        base: the encoding's base (few pairs, a small d_model, is what lets far-apart positions
            come close; a small base moves neighbours apart).
        train_len: the training length, an integer from 2 to seq_len.
        seq_len: the longest sequence, an integer from 2 to MAX_NEAREST_LEN (2048).

    Returns:
        nearest: float64, shape (seq_len,), entry L - 1 the smallest distance |PE(p) - PE(q)|
            over 0 <= p < q <= L - 1; entry 0 (a single position, no pair) is NaN,
        train_len: int,
        at_train: float, nearest[train_len - 1], the nearest pair within the training length,
        beyond: float, nearest[seq_len - 1].
    """
    seq_len = check_size("seq_len", seq_len, MAX_NEAREST_LEN, minimum=2)
    train_len = check_size("train_len", train_len, seq_len, minimum=2)
    d_model = check_size("d_model", d_model, MAX_MATRIX_WIDTH)
    check_product(
        "seq_len * seq_len * d_model", (seq_len, seq_len, d_model), MAX_WORK, why=_RESPONSIVE
    )
    nearest = nearest_distances(seq_len, d_model, base)
    # inf (no pair at all) has no JSON form and no meaning on a chart: send NaN.
    nearest[0] = np.nan
    return {
        "nearest": _flat(nearest),
        "train_len": train_len,
        "at_train": float(nearest[train_len - 1]),
        "beyond": float(nearest[seq_len - 1]),
    }


def terms(sentence: str, identity: bool = False, d_model: int = 8, base: float = 10000.0) -> dict:
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
        NAME_rgba: uint8, shape (n * n * 4,), coloured over [-scale, scale];
        NAME_toeplitz: float, its largest spread along a diagonal (0 up to rounding when it
        depends on the positions only through i - j),
        scale: float, the largest |entry| of the five matrices (1.0 if all are 0),
        sum_gap: float, max |sum of the four terms - total| (rounding error),
        truncated: bool, max_tokens: int.
    """
    result = four_terms(sentence, identity, d_model, base)
    matrices = dict(result.scores.terms(), total=result.scores.total)
    scale = max(float(np.max(np.abs(matrix))) for matrix in matrices.values()) or 1.0
    shaped = {
        "tokens": result.tokens,
        "n": len(result.tokens),
        "d_model": result.a.shape[0],
        "identity": result.identity,
        "scale": scale,
        "sum_gap": result.sum_gap,
        "truncated": result.truncated,
        "max_tokens": MAX_TOKENS,
    }
    for name in (*TERM_NAMES, "total"):
        shaped[name] = _flat(matrices[name])
        shaped[f"{name}_rgba"] = _flat(to_rgba(matrices[name], -scale, scale))
        shaped[f"{name}_toeplitz"] = result.toeplitz[name]
    return shaped


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
        "bias": _flat(bias),
        "bias_rgba": _flat(to_rgba(np.where(later, np.nan, bias), -bias_scale, bias_scale)),
        "bias_scale": bias_scale,
        "weights": _flat(chosen),
        "weights_rgba": _flat(to_rgba(np.where(later, np.nan, chosen))),
        "plain": _flat(plain),
        "plain_rgba": _flat(to_rgba(np.where(later, np.nan, plain))),
        "distances": np.array([attention_distance(w) for w in with_bias]),
        "plain_distance": attention_distance(plain),
        "truncated": truncated,
        "max_tokens": MAX_TOKENS,
    }


def rope(m: int, n: int, shift: int, d: int, base: float = 10000.0, seed: int = 0) -> dict:
    """
    From M_k to RoPE: one query q at position m and one key k at position n, rotated.

    q and k are two standard normal draws of `numpy.random.default_rng(seed)`, shape (d,).
    The score is computed three ways: rotated vectors, (R_m q) . (R_n k); the matrix of #relative,
    q . M_{m-n} k (M_k turns each pair by -k w_i, so M_{m-n} = R_m^T R_n); and both positions
    moved on by `shift`. The score matrix puts the same q and k at positions 0..ROPE_MATRIX_LEN-1.

    Args:
        m, n: the query's and the key's positions, integers from 0 to MAX_ROPE_POSITION.
        shift: how far both move on, an integer from 0 to MAX_ROPE_POSITION.
        d: the head dimension, an even integer from 2 to MAX_ROPE_WIDTH.
        base: RoPE's base.
        seed: an integer from 0 to 2**32 - 1.

    Returns:
        q, k, q_rotated, k_rotated: float64, shape (d,), with q_rotated = R_m q, k_rotated = R_n k,
        score, via_matrix, shifted_score: floats, (R_m q) . (R_n k), q . M_{m-n} k and
            (R_{m+s} q) . (R_{n+s} k),
        pairing_gap: float, max |rotate_half layout, permuted back - adjacent layout| for q (0),
        n_matrix: int, scores: float64, shape (n_matrix**2,), row-major
            (R_a q) . (R_b k) / (|q| |k|) for query position a (row) and key position b,
        scores_rgba: uint8, the scores coloured over [-1, 1],
        toeplitz: float, their largest spread along a diagonal (rounding error),
        asymmetry: float, max |S - S^T| (large: q and k differ),
        decay_bases: float64, the chosen base first, then those of DECAY_BASES that differ,
        decay_offsets: float64, shape (DECAY_LEN,), 0 .. DECAY_LEN - 1,
        decay: float64, shape (len(decay_bases) * DECAY_LEN,), row-major: RoFormer's
            `rope_decay_bound` for each base, head dimension decay_d,
        decay_d: int, DECAY_HEAD_DIM (not `d`: the demo's small heads barely decay).
        alike_mean: float64, shape (DECAY_LEN,): the mean score E[(R_m q) . (R_n k)] of a
            standard normal q and the key k = q at each offset, `rope_mean_score` with rho 1,
            for the chosen base and head dimension decay_d: d at offset 0, then falling.
        independent_abs: float, the mean |score| of independent standard normal q and k at
            every offset (their mean score is 0), `rope_independent_abs_score(decay_d)`.
    """
    m = check_size("m", m, MAX_ROPE_POSITION, minimum=0)
    n = check_size("n", n, MAX_ROPE_POSITION, minimum=0)
    shift = check_size("shift", shift, MAX_ROPE_POSITION, minimum=0)
    d = check_even_size("d", d, MAX_ROPE_WIDTH)
    seed = check_size("seed", seed, 2**32 - 1, minimum=0)
    q, k = np.random.default_rng(seed).standard_normal((2, d))
    q_rotated = rope_rotate(q[np.newaxis], [m], base)[0]  # checks base
    k_rotated = rope_rotate(k[np.newaxis], [n], base)[0]
    # The same q and k, both moved on by `shift`.
    q_later = rope_rotate(q[np.newaxis], [m + shift], base)[0]
    k_later = rope_rotate(k[np.newaxis], [n + shift], base)[0]
    # rotate_half's layout: coordinates reordered so that pair i is (i, i + d/2), rotated,
    # and put back; the same numbers as the adjacent pairing.
    perm = pairing_permutation(d)
    half = rope_rotate(q[np.argsort(perm)][np.newaxis], [m], base, pairing="half")[0][perm]
    positions = np.arange(ROPE_MATRIX_LEN)
    queries, keys = np.tile(q, (ROPE_MATRIX_LEN, 1)), np.tile(k, (ROPE_MATRIX_LEN, 1))
    scores = rope_scores(queries, keys, positions, positions, base) / (
        np.linalg.norm(q) * np.linalg.norm(k)
    )
    # As a Python float (checked by rope_rotate): comparing 1e6 with a numpy float16 base would
    # cast 1e6 to float16 and overflow.
    chosen = float(base)
    bases = [chosen, *(b for b in DECAY_BASES if b != chosen)]
    offsets = np.arange(DECAY_LEN, dtype=np.float64)
    decay = np.stack([_decay_curve(b) for b in bases])
    return {
        "q": q,
        "k": k,
        "q_rotated": q_rotated,
        "k_rotated": k_rotated,
        "score": float(q_rotated @ k_rotated),
        # q^T M_{m-n} k: #relative's matrix between the unrotated vectors.
        "via_matrix": float(q @ rotation(m - n, d, base) @ k),
        "shifted_score": float(q_later @ k_later),
        "pairing_gap": float(np.max(np.abs(half - q_rotated))),
        "n_matrix": ROPE_MATRIX_LEN,
        "scores": _flat(scores),
        "scores_rgba": _flat(to_rgba(scores)),
        "toeplitz": toeplitz_residual(scores),
        "asymmetry": float(np.max(np.abs(scores - scores.T))),
        "decay_bases": np.array(bases),
        "decay_offsets": offsets,
        "decay": _flat(decay),
        "decay_d": DECAY_HEAD_DIM,
        "alike_mean": rope_mean_score(offsets, DECAY_HEAD_DIM, chosen),
        "independent_abs": rope_independent_abs_score(DECAY_HEAD_DIM),
    }


def stretching(model: str, scale: float, method: str, seed: int = 0) -> dict:
    """
    A real model's RoPE stretched to `scale` times its trained length by `method`.

    Args:
        model: a key of `MODEL_SETTINGS` ("llama2", "codellama", "llama3").
        scale: s = L' / L, a real number from 1 to `MAX_SCALE`.
        method: one of `pelab.context_scaling.METHODS`.
        seed: the draw of the query and key whose scores are shown, an integer from 0 to
            2**32 - 1.

    Returns:
        name: str, base: float, train_len: int, d: int (MODEL_HEAD_DIM), last: int, L' - 1,
        omega, frequencies: float64, shape (d / 2,), radians per position before and after,
        trained, reached: float64, shape (d / 2,), (L - 1) w_i and (L' - 1) w'_i,
        trained_arc: float64, shape (d / 2,), min(trained, 2 pi): the dial's trained sweep,
        hand, hand_before: float64, shape (d / 2,), reached and (L' - 1) w_i modulo 2 pi,
        state, state_before: uint8, shape (d / 2,), `angle_coverage`'s states after and before,
        outside, just_past, outside_before: int, how many pairs are in those states,
        changed_pairs: int, how many pairs' frequencies the method changed (not by rounding),
        fastest_step, slowest_ratio: floats, w'_0 (radians per position; 1 before) and
            w'_{d/2-1} / w_{d/2-1},
        attention_factor: float, YaRN's factor on q and k (1 for the other methods),
        new_base: float or None, the NTK-aware base for "ntk",
        offsets, scores_before, scores_after: float64, shape (samples,), the scores of one q, k
            pair, query at offset t after the key, divided by |q| |k|.
    """
    model = check_choice("model", model, tuple(MODEL_SETTINGS))
    seed = check_size("seed", seed, 2**32 - 1, minimum=0)
    settings = MODEL_SETTINGS[model]
    base, train_len, d = settings["base"], settings["train_len"], MODEL_HEAD_DIM
    after = angle_coverage(method, d, base, train_len, scale)  # checks method and scale
    before = angle_coverage("none", d, base, train_len, scale)
    omega = angular_frequencies(d, base)
    frequencies = stretched_frequencies(method, d, base, train_len, scale)
    q, k = np.random.default_rng(seed).standard_normal((2, d))
    offsets, scores_before, scores_after = stretched_scores(q, k, method, base, train_len, scale)
    norms = np.linalg.norm(q) * np.linalg.norm(k)
    two_pi = 2.0 * np.pi
    return {
        "name": settings["name"],
        "base": base,
        "train_len": train_len,
        "d": d,
        "last": after["last"],
        "omega": omega,
        "frequencies": frequencies,
        "trained": after["trained"],
        "reached": after["reached"],
        "trained_arc": np.minimum(after["trained"], two_pi),
        "hand": np.mod(after["reached"], two_pi),
        "hand_before": np.mod(before["reached"], two_pi),
        "state": after["state"].astype(np.uint8),
        "state_before": before["state"].astype(np.uint8),
        "outside": int(np.sum(after["state"] == 2)),
        "just_past": int(np.sum(after["state"] == 1)),
        "outside_before": int(np.sum(before["state"] == 2)),
        # Pairs whose angle per position the method changed (beyond rounding): those whose
        # angles at the trained positions are no longer the ones the model learned with.
        "changed_pairs": int(np.sum(~np.isclose(frequencies, omega, rtol=1e-12, atol=0.0))),
        "fastest_step": float(frequencies[0]),
        "slowest_ratio": float(frequencies[-1] / omega[-1]),
        "attention_factor": yarn_attention_scale(scale) if method == "yarn" else 1.0,
        "new_base": ntk_scaled_base(base, scale, d) if method == "ntk" else None,
        "offsets": offsets,
        "scores_before": scores_before / norms,
        "scores_after": scores_after / norms,
    }


@functools.lru_cache(maxsize=16)
def _decay_curve(base: float) -> np.ndarray:
    """`rope_decay_bound` over offsets 0 .. DECAY_LEN - 1 for a head of DECAY_HEAD_DIM: the same
    for every m, n, shift and seed, so a drag of those sliders reuses it (it is most of the
    entry point's time). Read-only, since it is shared."""
    curve = rope_decay_bound(np.arange(DECAY_LEN, dtype=np.float64), DECAY_HEAD_DIM, base)
    curve.flags.writeable = False
    return curve


def _flat(array: np.ndarray) -> np.ndarray:
    """`array` flattened row-major into a C-contiguous 1-D array (copied only if it must be)."""
    return np.ascontiguousarray(array).reshape(-1)


def training_reset(seed: int = 0, max_train_len: int = 32, shift: int = 1) -> dict:
    """
    A fresh tiny Transformer with a learned position table, to be trained on the `copy` task
    (predict the token `shift` places back) on lengths max(4, shift + 1) .. max_train_len; it
    replaces any model this worker was training. Nothing is trained yet: the result is the
    table at initialisation.

    Args:
        seed: an integer from 0 to 2**32 - 1.
        max_train_len: L, the longest training sequence and the table's rows, 8 to 64.
        shift: how far back to copy, 1 to 4.

    Returns:
        what `training_step` returns, at step 0.
    """
    seed = check_size("seed", seed, 2**32 - 1, minimum=0)
    max_train_len = check_size("max_train_len", max_train_len, MAX_TRAINING_LEN, minimum=8)
    shift = check_size("shift", shift, MAX_TRAINING_SHIFT)
    trainer = Trainer(
        scheme="learned", task="copy", max_train_len=max_train_len, table_len=max_train_len,
        min_len=max(4, shift + 1), shift=shift, learning_rate=TRAINING_LEARNING_RATE, seed=seed,
    )
    _SESSIONS["training"] = {"trainer": trainer, "structured_at": None}
    return _training_state()


def training_step(steps: int = 25) -> dict:
    """
    Train the model of the last `training_reset` `steps` more steps, then measure its table.

    Args:
        steps: an integer from 1 to MAX_SLICE_STEPS.

    Returns:
        steps_done: int, n: int (the table's rows, L), shift: int, seed: int,
        losses: float64 (steps_done,), the loss of every step so far,
        accuracy: float, the share of right answers over the last (up to) 25 steps, or None,
        cosine: float64 (n * n,), the table's row-by-row cosine similarity, row-major,
        cosine_rgba: uint8 (n * n * 4,), the same coloured over [-1, 1],
        band_contrast: float, pelab.table_structure.band_contrast of the table,
        structured: bool, band_contrast >= STRUCTURED_CONTRAST,
        structured_at: int or None, the first measured step at which it was,
        threshold: float, STRUCTURED_CONTRAST,
        components: float64 (2 * n,), the two leading principal components (row-major),
        component_shares: float64 (2,), the variance each explains,
        sinusoid_fits: float64 (2 * n,), the closest sinusoid to each component,
        sinusoid_periods, sinusoid_r_squared: float64 (2,), each fit's period (in positions)
            and the share of its component's variance it explains,
        sinusoid_at_longest: list of 2 ints, 1 where that fit is at the longest period tried,
            4 (n - 1), the edge of closest_sinusoid's grid (a trend, not a wave), else 0.

    Raises:
        ValueError: if no model was made (call training_reset first) or steps is out of range.
    """
    steps = check_size("steps", steps, MAX_SLICE_STEPS)
    if "training" not in _SESSIONS:
        raise ValueError("no model to train: call training_reset first")
    _SESSIONS["training"]["trainer"].step(steps)
    return _training_state()


def _training_state() -> dict:
    """The training session's numbers, as training_step describes them."""
    session = _SESSIONS["training"]
    trainer = session["trainer"]
    table = trainer.params["position_table"]
    cosine = similarity_matrices(table)[1]
    contrast = band_contrast(table)
    structured = contrast >= STRUCTURED_CONTRAST
    if structured and session["structured_at"] is None:
        session["structured_at"] = trainer.steps_done
    components, shares = principal_components(table, 2)
    fits = [closest_sinusoid(component) for component in components]
    recent = trainer.accuracies[-25:]
    return {
        "steps_done": trainer.steps_done,
        "n": int(table.shape[0]),
        "shift": trainer.shift,
        "seed": trainer.seed,
        "losses": np.array(trainer.losses, dtype=np.float64),
        "accuracy": float(np.mean(recent)) if recent else None,
        "cosine": _flat(cosine),
        "cosine_rgba": _flat(to_rgba(cosine)),
        "band_contrast": contrast,
        "structured": bool(structured),
        "structured_at": session["structured_at"],
        "threshold": STRUCTURED_CONTRAST,
        "components": _flat(components),
        "component_shares": shares,
        "sinusoid_fits": _flat(np.stack([fit["fit"] for fit in fits])),
        "sinusoid_periods": np.array([fit["period"] for fit in fits]),
        "sinusoid_r_squared": np.array([fit["r_squared"] for fit in fits]),
        # Ints, not bools: a result's lists hold str or int only (tests/python/test_fuzz.py).
        "sinusoid_at_longest": [int(fit["at_longest"]) for fit in fits],
    }


def length_generalisation_reset(quick: bool = False, task: str = "copy") -> dict:
    """
    A fresh extrapolation experiment (pelab.length_generalisation.LengthExperiment), replacing
    any this worker was running; nothing is trained yet.

    Returns:
        what `length_generalisation_step` returns, with nothing done.
    """
    _SESSIONS["length_generalisation"] = LengthExperiment(quick=quick, task=task)
    return _length_state()


def length_generalisation_step(steps: int = 50) -> dict:
    """
    Run at most `steps` more training steps of the experiment.

    Returns:
        steps_done, total_steps: ints; done: bool; current: str or None, the run being trained
        ("rope, seed 1"); runs: list of str, the run labels; seeds: list of int;
        lengths: list of int, the test lengths; max_train_len: int, L;
        accuracy: float64 (runs * lengths,), row-major, each the mean over the seeds of that
            run's accuracy (NaN until the run's models are all tested);
        accuracy_min, accuracy_max: the same shape, the lowest and highest seed;
        chance: float, 1 / vocab_size.

    Raises:
        ValueError: if no experiment was made (call length_generalisation_reset first).
    """
    _advance("length_generalisation", steps)
    return _length_state()


def _length_state() -> dict:
    """The experiment's progress and results, as length_generalisation_step describes them."""
    experiment = _SESSIONS["length_generalisation"]
    finished = ~np.isnan(experiment.accuracy).any(axis=(1, 2))  # every seed of the run tested
    accuracy = np.full(experiment.accuracy.shape[::2], np.nan)
    low, high = accuracy.copy(), accuracy.copy()
    accuracy[finished] = experiment.accuracy[finished].mean(axis=1)
    low[finished] = experiment.accuracy[finished].min(axis=1)
    high[finished] = experiment.accuracy[finished].max(axis=1)
    current = experiment.current()
    return {
        "steps_done": experiment.steps_done,
        "total_steps": experiment.total_steps,
        "done": experiment.done,
        "current": None if current is None else f"{current[0]}, seed {current[1]}",
        "runs": [run_name(scheme, causal) for scheme, causal in RUNS],
        "seeds": list(experiment.seeds),
        "lengths": list(experiment.lengths),
        "max_train_len": experiment.max_train_len,
        "accuracy": _flat(accuracy),
        "accuracy_min": _flat(low),
        "accuracy_max": _flat(high),
        "chance": 1.0 / experiment.vocab_size,
    }


def stretch_experiment_reset(quick: bool = False, task: str = "copy") -> dict:
    """
    A fresh stretching experiment (pelab.stretch_experiment.StretchExperiment), replacing any
    this worker was running; nothing is trained yet.

    Returns:
        what `stretch_experiment_step` returns, with nothing done.
    """
    _SESSIONS["stretch_experiment"] = StretchExperiment(quick=quick, task=task)
    return _stretch_state()


def stretch_experiment_step(steps: int = 50) -> dict:
    """
    Run at most `steps` more training steps of the stretching experiment.

    Returns:
        steps_done, total_steps: ints; done: bool; current: int or None, the seed being
        trained; methods: list of str; scales: list of int (1, 2, 4); lengths: list of int
        (L, 2L, 4L); max_train_len: int, L; seeds: list of int; seeds_done: int, the models
        tested so far; accuracy: float64 (methods * lengths,), row-major, each the mean over
        the tested seeds (NaN before the first); accuracy_min, accuracy_max: the same shape,
        the lowest and highest seed; chance: float, 1 / vocab_size.

    Raises:
        ValueError: if no experiment was made (call stretch_experiment_reset first).
    """
    _advance("stretch_experiment", steps)
    return _stretch_state()


def _advance(name: str, steps: int) -> None:
    """Run at most `steps` more training steps of the experiment `name` made by `name`_reset."""
    steps = check_size("steps", steps, MAX_SLICE_STEPS)
    if name not in _SESSIONS:
        raise ValueError(f"no experiment to run: call {name}_reset first")
    _SESSIONS[name].advance(steps)


def _stretch_state() -> dict:
    """The stretching experiment's progress and results, as stretch_experiment_step says."""
    experiment = _SESSIONS["stretch_experiment"]
    tested = experiment.accuracy[:, : experiment._job]  # the seeds whose models were tested
    shape = (len(STRETCH_METHODS), len(STRETCH_SCALES))
    mean, low, high = (np.full(shape, np.nan) for _ in range(3))
    if tested.shape[1]:
        mean, low, high = tested.mean(axis=1), tested.min(axis=1), tested.max(axis=1)
    return {
        "steps_done": experiment.steps_done,
        "total_steps": experiment.total_steps,
        "done": experiment.done,
        "current": experiment.current(),
        "methods": list(STRETCH_METHODS),
        "scales": list(STRETCH_SCALES),
        "lengths": list(experiment.lengths),
        "max_train_len": experiment.max_train_len,
        "seeds": list(experiment.seeds),
        "seeds_done": int(tested.shape[1]),
        "accuracy": _flat(mean),
        "accuracy_min": _flat(low),
        "accuracy_max": _flat(high),
        "chance": 1.0 / experiment.vocab_size,
    }


ENTRY_POINTS = {
    "heatmap": heatmap,
    "attention": attention,
    "formula": formula,
    "waves": waves,
    "added": added,
    "relative": relative,
    "similarity": similarity,
    "learned": learned,
    "terms": terms,
    "alibi": alibi,
    "extrapolation": extrapolation,
    "rope": rope,
    "stretching": stretching,
    "training_reset": training_reset,
    "training_step": training_step,
    "length_generalisation_reset": length_generalisation_reset,
    "length_generalisation_step": length_generalisation_step,
    "stretch_experiment_reset": stretch_experiment_reset,
    "stretch_experiment_step": stretch_experiment_step,
}


def call(name: str, kwargs: dict | None = None) -> dict:
    """Run the entry point called `name` with keyword arguments `kwargs`."""
    if name not in ENTRY_POINTS:
        raise ValueError(f"unknown entry point {name!r}; known: {', '.join(sorted(ENTRY_POINTS))}")
    return ENTRY_POINTS[name](**(kwargs or {}))
