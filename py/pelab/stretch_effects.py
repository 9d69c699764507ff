r"""
# What stretching RoPE does: the angles it reaches and the scores it gives

A method of `pelab.context_scaling` (`stretched_frequencies`) gives each pair
a new frequency $\omega'_i$ for a length $L' = \lceil sL \rceil$ past the
trained length $L$.  `angle_coverage` says which pairs then turn past the
angles they reached in training, and `stretched_scores` gives one query-key
pair's RoPE score across offsets, before the stretch and after.
"""

import math

import numpy as np

from .checks import check_paired_vectors, check_size
from .context_scaling import stretched_frequencies
from .positional_encoding import angular_frequencies

# How many offsets `stretched_scores` samples at most.
MAX_SCORE_SAMPLES = 4096
# What `angle_coverage` says of each pair.
INSIDE, JUST_PAST, OUTSIDE = 0, 1, 2


def angle_coverage(method, d, base, train_len, scale):
    r"""
    Which pairs turn past the angles they reached in training, once stretched.

    In training pair $i$ reached the angles $m \omega_i$ for the positions
    $0 \le m \le L - 1$: up to $(L - 1)\,\omega_i$.  A fast pair, with
    $(L - 1)\,\omega_i \ge 2\pi$, has been all the way round, so every angle
    of its dial is a trained one and it can never leave.  At length
    $L' = \lceil sL \rceil$ the last position $L' - 1$ turns pair $i$ by
    $(L' - 1)\,\omega'_i$ (`stretched_frequencies`).  Each pair is

    * `INSIDE` (0): a full turn in training, or $(L' - 1)\,\omega'_i \le
      (L - 1)\,\omega_i$;
    * `JUST_PAST` (1): past the trained angles, but by less than one trained
      step $\omega_i$: $(L' - 1)\,\omega'_i \le L \omega_i$.  Position
      interpolation lands here: its last position is $L - L/L'$, between
      $L - 1$ and $L$;
    * `OUTSIDE` (2): further.

    Args:
        method, d, base, train_len, scale: as for `stretched_frequencies`.

    Returns:
        a dict of `trained`, $(L - 1)\,\omega_i$, `reached`,
        $(L' - 1)\,\omega'_i$ (float64 arrays of shape `(d / 2,)`, radians,
        not reduced modulo $2\pi$), `state` (int8, shape `(d / 2,)`, 0, 1 or
        2) and `last`, $L' - 1$ (an int).

    Raises:
        ValueError: naming the argument that is out of range.

    Example:
        >>> angle_coverage("none", 128, 10000.0, 4096, 4.0)["state"][[0, 45, 46, 63]].tolist()
        [0, 0, 2, 2]
        >>> angle_coverage("interpolation", 128, 10000.0, 4096, 4.0)["state"][[0, 46, 63]].tolist()
        [0, 1, 1]
    """
    new = stretched_frequencies(method, d, base, train_len, scale)  # checks every argument
    # As Python numbers: a numpy int8 train_len times a scale would overflow in int8.
    d, train_len, scale = int(d), int(train_len), float(scale)
    omega = angular_frequencies(d, base)
    last = math.ceil(scale * train_len) - 1  # L' - 1
    trained = (train_len - 1) * omega
    reached = last * new
    full_turn = trained >= 2.0 * math.pi
    past = np.where(reached <= train_len * omega, JUST_PAST, OUTSIDE)  # within one step, or not
    state = np.where(full_turn | (reached <= trained), INSIDE, past).astype(np.int8)
    return {"trained": trained, "reached": reached, "state": state, "last": last}


def stretched_scores(q, k, method, base, train_len, scale, samples=512):
    r"""
    One query and one key, the query at offset $t$ after the key: the RoPE
    score before stretching and after, for offsets $t$ from 0 to $L' - 1$
    ($L' = \lceil sL \rceil$):

    $$
    S(t) = (R_t q) \cdot k = \mathrm{Re} \sum_i \tilde q_i \, \overline{\tilde k_i}
           \, e^{\mathrm{i} t \omega_i},
    $$

    with the pairs as complex numbers, $\tilde q_i = q_{2i} + \mathrm{i}\, q_{2i+1}$,
    and $\omega_i$ the trained frequencies (before) or `stretched_frequencies`
    (after).  No attention factor is applied (YaRN's is
    `yarn_attention_scale`).

    Args:
        q: the query, array-like of shape `(d,)`, `d` even (from 4 for `"ntk"`).
        k: the key, shape `(d,)`.
        method, base, train_len, scale: as for `stretched_frequencies`.
        samples: how many offsets, evenly spread and rounded to integers, an
            integer from 2 to `MAX_SCORE_SAMPLES` (fewer when $L'$ is smaller).

    Returns:
        `(offsets, before, after)`: float64 arrays of one shape, the offsets
        (integers from 0 to $L' - 1$, 0 and $L' - 1$ included) and the
        scores.

    Raises:
        ValueError: naming the argument that is out of range.

    Example:
        >>> t, before, after = stretched_scores([1.0, 0.0], [1.0, 0.0], "interpolation",
        ...                                     10000.0, 4, 2.0, samples=8)
        >>> t.tolist()
        [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]
        >>> after.round(4).tolist()   # cos(t / 2)
        [1.0, 0.8776, 0.5403, 0.0707, -0.4161, -0.8011, -0.99, -0.9365]
    """
    q = check_paired_vectors("q", q, vector=True)
    k = check_paired_vectors("k", k, vector=True)
    if q.size != k.size:
        raise ValueError(f"q and k must have the same length, got {q.size} and {k.size}")
    samples = check_size("samples", samples, MAX_SCORE_SAMPLES, minimum=2)
    new = stretched_frequencies(method, q.size, base, train_len, scale)  # checks the rest
    train_len, scale = int(train_len), float(scale)  # as Python numbers (see angle_coverage)
    omega = angular_frequencies(q.size, base)
    last = math.ceil(scale * train_len) - 1
    offsets = np.unique(np.rint(np.linspace(0.0, last, min(samples, last + 1))))
    # h_i = q~_i conj(k~_i) = a_i + i b_i: the pairs of q and k as complex numbers, multiplied.
    a = q[0::2] * k[0::2] + q[1::2] * k[1::2]
    b = q[1::2] * k[0::2] - q[0::2] * k[1::2]

    def scores(frequencies):
        # Re sum_i h_i e^{i t w_i} = sum_i (a_i cos t w_i - b_i sin t w_i), for every offset t:
        # shape (len(offsets),). Elementwise and summed, with no BLAS call to vary by machine.
        theta = offsets[:, np.newaxis] * frequencies[np.newaxis, :]
        return (np.cos(theta) * a - np.sin(theta) * b).sum(axis=1)

    return offsets, scores(omega), scores(new)
