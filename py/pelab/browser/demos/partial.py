"""
# The partial-rotary demo's entry point (app/demos/partial.js)

Rotating part of each head (GPT-NeoX's `rotary_pct`, Phi's `partial_rotary_factor`): how much of
a query-key score depends on the offset as the rotated fraction changes.
"""

from __future__ import annotations

import numpy as np

from ...checks import check_real, check_size
from ...partial_rope import apply_partial_rotary
from ..limits import MAX_SEED

# "partial" scores a query at positions 0 .. PARTIAL_OFFSETS - 1 against a key at position 0.
PARTIAL_OFFSETS = 128
# The widest head, and the step of the head widths: with d a multiple of 16, every eighth of
# the head rotates an even number of dims, as RoPE's pairs need.
MAX_PARTIAL_WIDTH = 128
PARTIAL_WIDTH_STEP = 16
# The rotated fractions of the share's chart: 1/8, 2/8, ..., 1.
PARTIAL_EIGHTHS = 8
# How many random pairs q, k the share is pooled over.
PARTIAL_DRAWS = 200


def _scores(q, k, fraction, offsets):
    """
    The scores (R_t q) . k of each query against its key at offsets t = 0 .. len(offsets) - 1,
    with `apply_partial_rotary`, split into the rotated dims' part and the others'.

    Args:
        q, k: float64, shape (draws, d).
        fraction: the rotated fraction.
        offsets: int array, shape (n,).

    Returns:
        (rotated, passed): float64, shapes (draws, n) and (draws,): the score is their sum.
    """
    d = q.shape[-1]
    r = int(d * fraction)
    # Every query at every offset (heads = draws, seq_len = offsets), the key at position 0
    # (unrotated): the score depends on the offset t - 0 only.
    queries = np.broadcast_to(q[:, None, :], (len(q), len(offsets), d))
    y = apply_partial_rotary(queries, offsets, fraction)
    # sum_i y_i k_i over the first r dims: elementwise, no BLAS (the same sum on every machine).
    rotated = np.sum(y[..., :r] * k[:, None, :r], axis=-1)
    # The other d - r dims pass through: their part is the same at every offset.
    passed = np.sum(y[:, 0, r:] * k[:, r:], axis=-1)
    return rotated, passed


def offset_share(rotated, passed) -> float:
    r"""
    How much of the score moves with the offset: its variance over the offsets as a share of
    its mean square over them, each summed over the draws,

    $$ \frac{\sum_{draws} \mathrm{Var}_t\, s(t)}{\sum_{draws} \mathrm{mean}_t\, s(t)^2},
       \qquad s(t) = rotated(t) + passed, $$

    between 0 (the score is the same at every offset) and 1 (it swings around an average of 0).
    """
    score = rotated + passed[:, None]
    return float(np.sum(np.var(score, axis=1)) / np.sum(np.mean(score**2, axis=1)))


def partial(fraction: float = 0.25, d: int = 64, seed: int = 0) -> dict:
    """
    One random query q and key k, the query at offsets 0 .. PARTIAL_OFFSETS - 1 from the key,
    with the first `int(d * fraction)` dims of each rotated GPT-NeoX's way
    (`pelab.apply_partial_rotary` at its default base, 10000: GPT-NeoX's and Phi's) and the
    others passed through; and, for every fraction 1/8 .. 1, the share of the score that moves
    with the offset (`offset_share`), pooled over PARTIAL_DRAWS random pairs.

    q and k are the first two standard normal draws of `numpy.random.default_rng(seed)`, shape
    (d,); the pooled pairs are its next 2 * PARTIAL_DRAWS.

    Args:
        fraction: the part of each head rotated, a real number greater than 0 and at most 1
            such that int(d * fraction) is even and at least 2 (the slider gives eighths).
        d: the head dimension, a multiple of PARTIAL_WIDTH_STEP from 16 to MAX_PARTIAL_WIDTH.
        seed: an integer from 0 to 2**32 - 1.

    Returns:
        d: int, rotated: int, int(d * fraction), offsets: float64, shape (PARTIAL_OFFSETS,),
        total, rotated_part: float64, shape (PARTIAL_OFFSETS,): q . k at each offset, and the
            rotated dims' part of it,
        passed_part: float, the other dims' part, the same at every offset,
        swing: float, max - min of the score over the offsets,
        share: float, `offset_share` of this one pair,
        fractions: float64, shape (PARTIAL_EIGHTHS,), 1/8 .. 1,
        shares: float64, shape (PARTIAL_EIGHTHS,), `offset_share` pooled over PARTIAL_DRAWS
            pairs for each fraction, draws: int, PARTIAL_DRAWS.
    """
    d = check_size("d", d, MAX_PARTIAL_WIDTH, minimum=PARTIAL_WIDTH_STEP)
    if d % PARTIAL_WIDTH_STEP:
        raise ValueError(
            f"d must be a multiple of {PARTIAL_WIDTH_STEP} (so that every eighth of the head "
            f"is an even number of dims), got {d}"
        )
    fraction = check_real("fraction", fraction, 0, strict=True, maximum=1)
    seed = check_size("seed", seed, MAX_SEED, minimum=0)
    rng = np.random.default_rng(seed)
    q, k = rng.standard_normal((2, 1, d))
    offsets = np.arange(PARTIAL_OFFSETS)
    rotated, passed = _scores(q, k, fraction, offsets)  # checks fraction against d
    many_q, many_k = rng.standard_normal((2, PARTIAL_DRAWS, d))
    fractions = np.arange(1, PARTIAL_EIGHTHS + 1) / PARTIAL_EIGHTHS
    shares = np.array([offset_share(*_scores(many_q, many_k, f, offsets)) for f in fractions])
    total = rotated[0] + passed[0]
    return {
        "d": d,
        "rotated": int(d * fraction),
        "offsets": offsets.astype(np.float64),
        "total": total,
        "rotated_part": rotated[0],
        "passed_part": float(passed[0]),
        "swing": float(total.max() - total.min()),
        "share": offset_share(rotated, passed),
        "fractions": fractions,
        "shares": shares,
        "draws": PARTIAL_DRAWS,
    }

ENTRY_POINTS = {"partial": partial}
