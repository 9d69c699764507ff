"""
# The learned demo's entry point (app/demos/learned.js)

How alike positions are under three schemes: sinusoidal, RoPE and an untrained learned table.
"""

from __future__ import annotations

import numpy as np

from ...checks import check_even_size, check_product, check_size
from ...colormap import range_part, to_rgba
from ...learned import learned as learned_table
from ...positional_encoding import DEFAULT_BASE, sinusoidal
from ...rope import rope_relative_residual, rope_scores
from ...similarity import similarity as similarity_matrices
from ..limits import MAX_MATRIX_LEN, MAX_MATRIX_WIDTH, MAX_WORK, RESPONSIVE
from ..plain import flat

# "learned" makes four seq_len x seq_len products (three encodings and the RoPE check).
MAX_COMPARE_WORK = MAX_WORK // 4


def learned(
    seq_len: int, d_model: int, max_len: int, base: float = DEFAULT_BASE, seed: int = 0
) -> dict:
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
        sinusoidal_rgba, learned_rgba: uint8, shape (n * n * 4,), coloured over [-1, 1],
        sinusoidal_part: str, the part of [-1, 1] the sinusoidal cosines use
            (`pelab.colormap.range_part`): "positive" where none is below 0 (with the usual
            base, at every length offered), so that its bar shows the sequential white-to-red
            half alone,
        rope_scale: float, the largest |rope| entry (1.0 if all are 0): a random q and k score
            far below |q| |k|, so [-1, 1] drew the RoPE square almost white,
        rope_rgba: uint8, shape (n * n * 4,), rope coloured over [-rope_scale, rope_scale],
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
        why=RESPONSIVE,
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

    # The RoPE square's colour range: what it reaches, so that its diagonals and asymmetry show.
    rope_scale = float(np.max(np.abs(rope_scores_scaled))) or 1.0

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
        "sinusoidal": flat(sinusoidal_cosine),
        "rope": flat(rope_scores_scaled),
        "learned": flat(learned_cosine),
        "sinusoidal_rgba": flat(to_rgba(sinusoidal_cosine)),
        "sinusoidal_part": range_part(sinusoidal_cosine),
        "rope_scale": rope_scale,
        "rope_rgba": flat(to_rgba(rope_scores_scaled, -rope_scale, rope_scale)),
        "learned_rgba": flat(to_rgba(learned_cosine)),
        "learned_error": learned_error,
        "rope_relative_residual": rope_relative_residual(q, k, seq_len, base),
    }


ENTRY_POINTS = {"learned": learned}
