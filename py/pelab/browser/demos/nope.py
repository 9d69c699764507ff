"""
# The NoPE demo's entry point (app/demos/nope.js)

Position read back from causal attention alone: one attention layer with no positional
encoding, over random token vectors, whose value is 1 on the start token (position 0) and 0
elsewhere.

Token t's output is the weight w_t0 it gives the start token. With a causal mask and equal
scores, t spreads its weight evenly over the t + 1 tokens it sees, so w_t0 = 1/(t + 1) and
1/w_t0 - 1 = t: its position (Kazemnejad et al. 2023, Theorem 1, counted from 0 here). Without
the mask every token sees all n, so every output is 1/n: no position at all. Scores of a
spread s > 0 (random q.k from seeded weights, scaled to standard deviation s) make the read-back
noisy; with the mask it stays ordered on the whole, without it it follows the tokens, not
their places.
"""

from __future__ import annotations

import math

import numpy as np

from ...checks import check_bool, check_real, check_size
from ...colormap import to_rgba
from ..plain import flat

# Width of the random token vectors and of the head's queries and keys.
NOPE_D_MODEL = 8
# Shortest and longest sequence "nope_read_back" takes (the slider: 8 to 64).
MIN_NOPE_LEN = 2
MAX_NOPE_LEN = 64
# Largest score spread "nope_read_back" takes (the slider goes to 2).
MAX_NOPE_SPREAD = 4.0
# Largest seed "nope_read_back" takes (the slider goes to NOPE_SEEDS - 1).
MAX_NOPE_SEED = 10**6
# The summary's means are over the seeds 0 .. NOPE_SEEDS - 1.
NOPE_SEEDS = 50


def random_scores(n: int, seed: int) -> np.ndarray:
    """
    Random query-key scores of one head over n random tokens, scaled to standard deviation 1.

    x ~ N(0, 1) of shape (n, d), W_q and W_k ~ N(0, 1/d) of shape (d, d), d = NOPE_D_MODEL, all
    from `np.random.default_rng(seed)`; S = (x W_q)(x W_k)^T / sqrt(d), divided by its standard
    deviation over all n * n entries (the same scores with the mask and without).

    Returns:
        float64, shape (n, n): query t (rows) against key j (columns).
    """
    rng = np.random.default_rng(seed)
    d = NOPE_D_MODEL
    x = rng.standard_normal((n, d))  # token t's vector, row t; the start token is row 0
    w_q = rng.standard_normal((d, d)) / np.sqrt(d)
    w_k = rng.standard_normal((d, d)) / np.sqrt(d)
    scores = (x @ w_q) @ (x @ w_k).T / np.sqrt(d)
    return scores / scores.std()


def attention_weights(scores: np.ndarray, causal: bool) -> np.ndarray:
    """
    softmax over each row of `scores`; with `causal`, key j > query t gets weight 0.

    Returns:
        float64, the shape of `scores`; each row sums to 1.
    """
    n = scores.shape[0]
    later = np.triu(np.ones((n, n), dtype=bool), 1)  # j > t: masked keys
    masked = np.where(later, -np.inf, scores) if causal else scores
    shifted = np.exp(masked - masked.max(axis=1, keepdims=True))  # exp(s_tj - max_j s_tj)
    return shifted / shifted.sum(axis=1, keepdims=True)


def read_back(weights: np.ndarray) -> np.ndarray:
    """
    The position each token reads back: 1/o_t - 1, where o_t = w_t0 is its output (the value
    is 1 on the start token, 0 elsewhere).
    """
    return 1.0 / weights[:, 0] - 1.0


def rank_correlation(a: np.ndarray, b: np.ndarray) -> float:
    """
    Spearman's rank correlation of a and b: the Pearson correlation of their ranks (tied values
    share their mean rank). NaN when either is constant (no order to compare).
    """
    ranks = [_ranks(v) for v in (a, b)]
    if any(np.ptp(r) == 0 for r in ranks):
        return math.nan
    return float(np.corrcoef(ranks[0], ranks[1])[0, 1])


def _ranks(values: np.ndarray) -> np.ndarray:
    """Ranks 0 .. n - 1 of `values`, ties sharing the mean of their ranks."""
    order = np.argsort(values, kind="stable")
    ranks = np.empty(len(values))
    ranks[order] = np.arange(len(values))
    _, inverse = np.unique(values, return_inverse=True)
    sums = np.bincount(inverse, weights=ranks)
    counts = np.bincount(inverse)
    return (sums / counts)[inverse]


def read_backs(n: int, spread: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """
    The weights of one draw with the mask and without it.

    Returns:
        (masked, open): float64, each of shape (n, n), from the scores `spread` times
        `random_scores(n, seed)`.
    """
    scores = spread * random_scores(n, seed)
    return attention_weights(scores, causal=True), attention_weights(scores, causal=False)


def mean_ranks(n: int, spread: float, seeds: int) -> tuple[float, float]:
    """
    The mean over seeds 0 .. seeds - 1 of Spearman's correlation between each read-back and
    the true position, with the mask and without it; NaN where the read-back is the same for
    every token (without the mask at spread 0).
    """
    positions = np.arange(n, dtype=np.float64)
    ranks = [
        [rank_correlation(read_back(w), positions) for w in read_backs(n, spread, seed)]
        for seed in range(seeds)
    ]
    return tuple(float(np.mean(column)) for column in zip(*ranks))  # NaN if any is NaN


def nope_read_back(n: int = 16, spread: float = 0.0, causal: bool = True, seed: int = 0) -> dict:
    """
    Position read back from one attention layer with no positional encoding.

    Args:
        n: the number of tokens, start token included, an integer from MIN_NOPE_LEN to
            MAX_NOPE_LEN.
        spread: the scores' standard deviation, a real number from 0 to MAX_NOPE_SPREAD
            (0: equal scores).
        causal: whether the figure's weights are masked (both read-backs are returned).
        seed: the seed of the random tokens and weights, an integer from 0 to MAX_NOPE_SEED.

    Returns:
        n: int, spread: float, causal: bool, seed: int, seeds: int (NOPE_SEEDS),
        weights: float64, shape (n * n,), row-major weights (query t, key j), masked or not
            as `causal` says,
        weights_rgba: uint8, shape (n * n * 4,), coloured over [-1, 1], masked entries grey,
        causal_read_back, open_read_back: float64, shape (n,), 1/o_t - 1 with the mask and
            without it,
        exact_error: float, max |1/o_t - 1 - t| with the mask at spread 0 (a rounding error),
        causal_rank, open_rank: float, Spearman's correlation of each read-back with t for
            this seed (NaN when the read-back is the same for every token),
        causal_mean_rank, open_mean_rank: float, the same averaged over the seeds
            0 .. NOPE_SEEDS - 1 at this n and spread.
    """
    n = check_size("n", n, MAX_NOPE_LEN, minimum=MIN_NOPE_LEN)
    seed = check_size("seed", seed, MAX_NOPE_SEED, minimum=0)
    spread = check_real("spread", spread, 0.0, maximum=MAX_NOPE_SPREAD)
    causal = check_bool("causal", causal)
    positions = np.arange(n, dtype=np.float64)
    masked, open_ = read_backs(n, spread, seed)
    causal_read_back = read_back(masked)
    open_read_back = read_back(open_)
    equal = read_back(attention_weights(np.zeros((n, n)), causal=True))
    causal_mean, open_mean = mean_ranks(n, spread, NOPE_SEEDS)
    shown = masked if causal else open_
    later = np.triu(np.ones((n, n), dtype=bool), 1)  # j > t: masked keys, drawn grey
    return {
        "n": n,
        "spread": spread,
        "causal": causal,
        "seed": seed,
        "seeds": NOPE_SEEDS,
        "weights": flat(shown),
        "weights_rgba": flat(to_rgba(np.where(later, np.nan, shown) if causal else shown)),
        "causal_read_back": causal_read_back,
        "open_read_back": open_read_back,
        "exact_error": float(np.max(np.abs(equal - positions))),
        "causal_rank": rank_correlation(causal_read_back, positions),
        "open_rank": rank_correlation(open_read_back, positions),
        "causal_mean_rank": causal_mean,
        "open_mean_rank": open_mean,
    }


ENTRY_POINTS = {"nope_read_back": nope_read_back}
