"""
# The RoPE demo's entry point (app/demos/rope.js)

From M_k to RoPE: one query and one key rotated to their positions, scored three ways, and
RoFormer's long-term decay beside the mean scores it stands for.
"""

from __future__ import annotations

import functools

import numpy as np

from ...checks import check_even_size, check_size
from ...colormap import to_rgba
from ...positional_encoding import DEFAULT_BASE
from ...relative import rotation
from ...rope import (
    pairing_permutation,
    rope_decay_bound,
    rope_independent_abs_score,
    rope_mean_score,
    rope_rotate,
    rope_scores,
)
from ...similarity import toeplitz_residual
from ..limits import MAX_SEED
from ..plain import flat

# "rope": the last position m, n or shift may reach, and the widest head.
MAX_ROPE_POSITION = 4096
MAX_ROPE_WIDTH = 128
# "rope" scores the same q and k at positions 0 .. ROPE_MATRIX_LEN - 1 against each other.
ROPE_MATRIX_LEN = 32
# "rope" draws RoFormer's decay bound for offsets 0 .. DECAY_LEN - 1, for the chosen base and these.
DECAY_LEN = 512
DECAY_BASES = (100.0, DEFAULT_BASE, 1000000.0)
# ...with a head dimension of 128, as in LLaMA's heads: with a few pairs it hardly decays at all.
# The mean scores of random q and k beside it (alike: k = q; independent) use the same head.
DECAY_HEAD_DIM = 128


def rope(m: int, n: int, shift: int, d: int, base: float = DEFAULT_BASE, seed: int = 0) -> dict:
    """
    From M_k to RoPE: one query q at position m and one key k at position n, rotated.

    q and k are two standard normal draws of `numpy.random.default_rng(seed)`, shape (d,).
    The score is computed three ways: rotated vectors, (R_m q) . (R_n k); the relative demo's
    matrix, q . M_{m-n} k (M_k turns each pair by -k w_i, so M_{m-n} = R_m^T R_n); and both
    positions moved on by `shift`. The score matrix puts the same q and k at positions
    0..ROPE_MATRIX_LEN-1.

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
        scores_scale: float, the largest |score| of the matrix (1.0 if all are 0): a random q
            and k score far below |q| |k|, so a range of [-1, 1] drew the matrix almost white,
        scores_rgba: uint8, the scores coloured over [-scores_scale, scores_scale],
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
    seed = check_size("seed", seed, MAX_SEED, minimum=0)
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
    # The colour range: what the matrix reaches, so that its diagonals and its asymmetry show.
    scores_scale = float(np.max(np.abs(scores))) or 1.0
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
        # q^T M_{m-n} k: the relative demo's matrix between the unrotated vectors.
        "via_matrix": float(q @ rotation(m - n, d, base) @ k),
        "shifted_score": float(q_later @ k_later),
        "pairing_gap": float(np.max(np.abs(half - q_rotated))),
        "n_matrix": ROPE_MATRIX_LEN,
        "scores": flat(scores),
        "scores_scale": scores_scale,
        "scores_rgba": flat(to_rgba(scores, -scores_scale, scores_scale)),
        "toeplitz": toeplitz_residual(scores),
        "asymmetry": float(np.max(np.abs(scores - scores.T))),
        "decay_bases": np.array(bases),
        "decay_offsets": offsets,
        "decay": flat(decay),
        "decay_d": DECAY_HEAD_DIM,
        "alike_mean": rope_mean_score(offsets, DECAY_HEAD_DIM, chosen),
        "independent_abs": rope_independent_abs_score(DECAY_HEAD_DIM),
    }


@functools.lru_cache(maxsize=16)
def _decay_curve(base: float) -> np.ndarray:
    """`rope_decay_bound` over offsets 0 .. DECAY_LEN - 1 for a head of DECAY_HEAD_DIM: the same
    for every m, n, shift and seed, so a drag of those sliders reuses it (it is most of the
    entry point's time). Read-only, since it is shared."""
    curve = rope_decay_bound(np.arange(DECAY_LEN, dtype=np.float64), DECAY_HEAD_DIM, base)
    curve.flags.writeable = False
    return curve


ENTRY_POINTS = {"rope": rope}
