r"""
# Rotary position embedding (RoPE)

Su et al. (2021, "RoFormer: Enhanced Transformer with Rotary Position
Embedding") add nothing to the token vectors.  Instead they *rotate* each
query and key by an angle proportional to its position, pair by pair, with
the same frequencies as the sinusoidal encoding,
$\omega_i = base^{-2i/d}$:

$$
R_m \begin{pmatrix} x_{2i} \\ x_{2i+1} \end{pmatrix}
=
\begin{pmatrix} \cos m\omega_i & -\sin m\omega_i \\ \sin m\omega_i & \cos m\omega_i \end{pmatrix}
\begin{pmatrix} x_{2i} \\ x_{2i+1} \end{pmatrix}
$$

for the vector $x$ at position $m$ (the pairs are adjacent coordinates,
as in the paper's block-diagonal rotation matrix $R^d_{\Theta, m}$).

Rotations keep lengths, $\lVert R_m x \rVert = \lVert x \rVert$, and
turning one vector by $m\omega_i$ and another by $n\omega_i$ changes their
dot product only through the difference of the angles:
$R_m^\top R_n = R_{n - m}$, so

$$
(R_m q) \cdot (R_n k) = q^\top R_m^\top R_n k = q^\top R_{n-m} \, k .
$$

The attention score of a query at $m$ and a key at $n$ depends on their
content, and on their positions only through the offset $m - n$: a
*relative* position signal, obtained from absolute rotations.  With
$q = k = (0, 1, 0, 1, \dots)$ it is $\sum_i \cos((n - m)\omega_i)$, the
sinusoidal encoding's dot product; with $q \ne k$ the scores are still
constant along each diagonal, but neither symmetric in $m - n$ nor largest
at $m = n$.

In a model RoPE acts inside every attention layer, on each head's queries
and keys (never on the values), with the frequencies taken over the head's
dimension $d$.  Code in use pairs the coordinates in one of two ways:
adjacent pairs $(x_{2i}, x_{2i+1})$, as here, in RoFormer and in GPT-J;
or the two halves $(x_i, x_{i + d/2})$, the `rotate_half` of Hugging
Face's LLaMA and GPT-NeoX.  The two differ by a fixed permutation of the
coordinates, `pairing_permutation`.

`rope` rotates, `rope_rotate` rotates with either pairing and for several
heads at once, `rope_scores` gives the scores between rotated queries and
keys, `rope_relative_residual` checks that the scores depend on the
positions only through $m - n$, and `rope_decay_bound` is RoFormer's
measure of how the scores' bound falls as $|m - n|$ grows.  What falls on
average is the score of a query and a key that are alike:
`rope_mean_score` is its mean over random draws, from $d$ down, and
`rope_independent_abs_score` the mean size of the score of independent
ones, the same at every offset.
"""

import math

import numpy as np

from .checks import (
    MAX_D_MODEL,
    MAX_ELEMENTS,
    MAX_SEQ_LEN,
    as_real_array,
    check_base,
    check_choice,
    check_even_size,
    check_frequencies,
    check_paired_vectors,
    check_positions,
    check_product,
    check_real,
    check_size,
)
from .positional_encoding import DEFAULT_BASE, angular_frequencies
from .similarity import toeplitz_residual

# The two ways code in use pairs the coordinates (see the module docstring).
PAIRINGS = ("adjacent", "half")


def rope(x, positions, base=DEFAULT_BASE):
    r"""
    Rotate each row of `x` to its position:

    $$
    (x_{2i}, x_{2i+1}) \mapsto
    (x_{2i} \cos\theta - x_{2i+1} \sin\theta,\;
     x_{2i} \sin\theta + x_{2i+1} \cos\theta),
    \qquad \theta = positions[m] \cdot \omega_i,
    $$

    for row $m$ and every pair $i$, $\omega_i = base^{-2i/d}$.

    Args:
        x: array-like of shape `(n, d)` of finite numbers, `d` even (from 2
            to `MAX_D_MODEL`); row `m` is a query or key vector.
        positions: `n` real positions, each from -`MAX_SEQ_LEN` to
            `MAX_SEQ_LEN` (integers in practice).
        base: a finite real number > 1 (10000 in the paper).

    Returns:
        float64 array of the same shape as `x`; row norms are unchanged.

    Raises:
        ValueError: if an argument is out of range or the shapes disagree.

    Example:
        >>> [round(v, 4) for v in rope([[1.0, 0.0]], [1])[0].tolist()]   # turned 1 radian
        [0.5403, 0.8415]
    """
    x = check_paired_vectors("x", x)
    positions = _check_row_positions("positions", positions, x.shape[0])
    return _rotate(x, positions, base, "adjacent")


def rope_rotate(x, positions, base=DEFAULT_BASE, pairing="adjacent", frequencies=None):
    r"""
    Rotate queries or keys to their positions, for one head or several, with
    either pairing of the coordinates: pair $i$ of the vector at position
    $p$ turns by $\theta = p \, \omega_i$, $\omega_i = base^{-2i/d}$,

    $$
    (a, b) \mapsto (a \cos\theta - b \sin\theta,\; a \sin\theta + b \cos\theta),
    $$

    where $(a, b) = (x_{2i}, x_{2i+1})$ for `pairing="adjacent"` (RoFormer,
    GPT-J; the same as `rope`) and $(a, b) = (x_i, x_{i + d/2})$ for
    `pairing="half"` (Hugging Face's `rotate_half`, in LLaMA and GPT-NeoX).
    Every head turns by the same angles: the frequencies run over the head's
    dimension $d$.

    Args:
        x: array-like of shape `(seq_len, d)` or `(heads, seq_len, d)` of
            finite numbers, `d` even (from 2 to `MAX_D_MODEL`).
        positions: `seq_len` real positions, each from -`MAX_SEQ_LEN` to
            `MAX_SEQ_LEN` (integers in practice).
        base: a finite real number > 1 (10000 in the paper).
        pairing: `"adjacent"` or `"half"`.
        frequencies: None, or `d / 2` finite non-negative numbers that replace
            $\omega_i$ pair by pair (then `base` is not used): a stretched
            model's frequencies, as `pelab.stretched_frequencies` gives them.

    Returns:
        float64 array of the same shape as `x`; the norm of every vector
        (last axis) is unchanged.

    Raises:
        ValueError: naming the argument that is out of range, or `positions`
            when there is not one per row of `x`.

    Example:
        >>> rope_rotate([[1.0, 0.0, 0.0, 0.0]], [1], pairing="half").round(4).tolist()
        [[0.5403, 0.0, 0.8415, 0.0]]
    """
    x = check_paired_vectors("x", x, heads=True)
    positions = _check_row_positions("positions", positions, x.shape[-2])
    pairing = check_choice("pairing", pairing, PAIRINGS)
    if frequencies is not None:
        frequencies = check_frequencies("frequencies", frequencies, x.shape[-1] // 2)
    return _rotate(x, positions, base, pairing, frequencies)


def pairing_permutation(d):
    r"""
    The order of the coordinates that turns the half layout into the adjacent
    one:

    $$
    perm = (0, \tfrac{d}{2}, \; 1, \tfrac{d}{2} + 1, \; \dots, \;
            \tfrac{d}{2} - 1, d - 1),
    \qquad z_{\text{adjacent}} = z_{\text{half}}[perm],
    $$

    so that pair $i$, $(z_i, z_{i + d/2})$ in the half layout, lands on
    coordinates $(2i, 2i + 1)$.  Its inverse, $perm^{-1}$ = `np.argsort(perm)`
    $= (0, 2, 4, \dots, 1, 3, 5, \dots)$, is `layout_permutation(d)`.  With
    it the two pairings are one rotation:

    $$
    \text{rope\_rotate}(x[\dots, perm^{-1}], p, \text{"half"})[\dots, perm]
    = \text{rope\_rotate}(x, p, \text{"adjacent"})
    $$

    exactly, bit for bit: only coordinates move, and each pair meets the same
    angle and the same arithmetic either way.  A model trained with one
    pairing runs with the other once the rows of $W_Q$ and $W_K$ are
    permuted.

    Args:
        d: the head dimension, an even integer from 2 to `MAX_D_MODEL`.

    Returns:
        int64 array of shape `(d,)`, a permutation of `range(d)`.

    Raises:
        ValueError: if `d` is not an even integer in range.

    Example:
        >>> pairing_permutation(6).tolist()
        [0, 3, 1, 4, 2, 5]
    """
    d = check_even_size("d", d, MAX_D_MODEL)
    # Row 0 holds the first halves' indices, row 1 the second halves'; reading the
    # columns in turn interleaves them: 0, h, 1, h + 1, ...
    return np.arange(d, dtype=np.int64).reshape(2, d // 2).T.ravel()


def _rotate(x, positions, base, pairing, frequencies=None):
    """Turn each pair of `x` (checked, `(..., seq_len, d)`) by `positions[m] * w_i`."""
    d = x.shape[-1]
    # w_i, one per pair: shape (d / 2,); given ones (checked) replace base^(-2i/d).
    omega = angular_frequencies(d, base) if frequencies is None else frequencies
    # theta = m w_i for every (row, pair): shape (seq_len, d / 2), the same for every head.
    theta = positions[:, np.newaxis] * omega[np.newaxis, :]
    cos, sin = np.cos(theta), np.sin(theta)
    if pairing == "adjacent":
        first, second = slice(0, None, 2), slice(1, None, 2)  # (x_2i, x_2i+1)
    else:
        first, second = slice(0, d // 2), slice(d // 2, None)  # (x_i, x_i+d/2)
    # Each pair's two coordinates, (a, b), shape (..., seq_len, d / 2).
    a, b = x[..., first], x[..., second]
    rotated = np.empty_like(x)
    # (a, b) -> (a cos t - b sin t, a sin t + b cos t): the pair turned by t.
    rotated[..., first] = a * cos - b * sin
    rotated[..., second] = a * sin + b * cos
    return rotated


def rope_scores(q, k, positions_q, positions_k, base=DEFAULT_BASE):
    r"""
    Dot products of rotated queries and rotated keys:

    $$
    S_{mn} = (R_{p_m} q_m) \cdot (R_{p'_n} k_n)
           = q_m^\top R_{p'_n - p_m} \, k_n ,
    $$

    with $p$ = `positions_q` and $p'$ = `positions_k`.  (Attention would
    divide by $\sqrt{d}$ and take a softmax; that does not change which
    offsets score alike.)

    Args:
        q: queries, array-like `(n_q, d)`, `d` even.
        k: keys, array-like `(n_k, d)`, the same `d`.
        positions_q: `n_q` real positions (see `rope`).
        positions_k: `n_k` real positions.
        base: a finite real number > 1.
        `n_q * n_k` may not exceed `MAX_ELEMENTS`.

    Returns:
        float64 array of shape `(n_q, n_k)`.

    Example:
        >>> s = rope_scores([[1.0, 0.0]], [[1.0, 0.0]], [3], [5])
        >>> abs(float(s[0, 0]) - math.cos(2.0)) < 1e-12   # only 5 - 3 matters
        True
    """
    q = check_paired_vectors("q", q)
    k = check_paired_vectors("k", k)
    if q.shape[1] != k.shape[1]:
        raise ValueError(
            f"q and k must have the same width, got {q.shape[1]} and {k.shape[1]}"
        )
    check_product("n_q * n_k", (q.shape[0], k.shape[0]), MAX_ELEMENTS, total=False)
    positions_q = _check_row_positions("positions_q", positions_q, q.shape[0])
    positions_k = _check_row_positions("positions_k", positions_k, k.shape[0])
    # S = (R q)(R k)^T: every rotated query against every rotated key.
    return rope(q, positions_q, base) @ rope(k, positions_k, base).T


def rope_relative_residual(q, k, seq_len, base=DEFAULT_BASE):
    r"""
    Check that the RoPE score of a query at $m$ and a key at $n$ depends
    only on $m - n$: place the query $q$ and the key $k$ at every position
    $0, \dots, seq\_len - 1$, score all pairs,
    $S_{mn} = (R_m q) \cdot (R_n k)$, and measure

    $$
    \max_{m, n, t} \big| S_{mn} - S_{m+t,\, n+t} \big|
    $$

    which is `toeplitz_residual(S)`: 0 up to rounding.  The rounding grows
    with the angles and the vectors' size, roughly
    $\lVert q \rVert \lVert k \rVert \cdot seq\_len \cdot 10^{-16}$: below
    1e-10 for vectors of norm up to 30 and `seq_len` up to a thousand.

    Args:
        q: the query, array-like of shape `(d,)`, `d` even.
        k: the key, shape `(d,)`.
        seq_len: the number of positions, an integer from 1 to
            `math.isqrt(MAX_ELEMENTS)` (7071).
        base: a finite real number > 1.
        `seq_len * d` may not exceed `MAX_ELEMENTS`: the rotated copies of
        q and k are `(seq_len, d)` arrays.

    Returns:
        a float >= 0.

    Raises:
        ValueError: if an argument is out of range, or if q and k are so
            large (|q| |k| near 1.8e308) that their scores overflow: the
            message names q and k.

    Example:
        >>> rng = np.random.default_rng(0)
        >>> rope_relative_residual(rng.standard_normal(8), rng.standard_normal(8), 50) < 1e-12
        True
    """
    q = check_paired_vectors("q", q, vector=True)
    k = check_paired_vectors("k", k, vector=True)
    seq_len = check_size("seq_len", seq_len, math.isqrt(MAX_ELEMENTS))
    check_product("seq_len * len(q)", (seq_len, q.size), MAX_ELEMENTS, total=False)
    positions = np.arange(seq_len)
    # The same q at every position, and the same k: shapes (seq_len, d).
    queries = np.broadcast_to(q, (seq_len, q.size))
    keys = np.broadcast_to(k, (seq_len, k.size))
    # Finite q and k may still have scores beyond the float range: refuse them by
    # name, without the overflow warnings on the way.
    with np.errstate(over="ignore", invalid="ignore"):
        scores = rope_scores(queries, keys, positions, positions, base)
    if not np.isfinite(scores).all():
        raise ValueError(
            "q and k must be small enough for every score (R_m q) . (R_n k) to be "
            "finite, got scores beyond the float range"
        )
    return toeplitz_residual(scores)



def rope_decay_bound(offsets, d, base=DEFAULT_BASE):
    r"""
    RoFormer's long-term decay (Su et al. 2021, section 3.4.3): the factor of
    the scores' bound that depends on the offset $t = m - n$.

    Write each pair of $q$ and $k$ as a complex number,
    $\tilde q_i = q_{2i} + \mathrm{i}\, q_{2i+1}$, and
    $h_i = \tilde q_i \overline{\tilde k_i}$.  Then the score is
    $(R_m q) \cdot (R_n k) = \mathrm{Re} \sum_i h_i e^{\mathrm{i} (m - n) \omega_i}$,
    and summing by parts with the partial sums
    $S_j = \sum_{i=0}^{j-1} e^{\mathrm{i} t \omega_i}$ (and $h_{d/2} = 0$) gives

    $$
    \Big| \sum_{i=0}^{d/2-1} h_i e^{\mathrm{i} t \omega_i} \Big|
    \le \max_i |h_{i+1} - h_i| \sum_{j=1}^{d/2} |S_j| .
    $$

    This function returns the paper's plotted quantity, the mean
    $\frac{1}{d/2} \sum_{j=1}^{d/2} |S_j|$, for each offset: $(d/2 + 1)/2$
    at $t = 0$ (there $S_j = j$), and smaller, with ripples, as $|t|$ grows.  It bounds the score;
    it is not the score of any particular $q$ and $k$.

    Args:
        offsets: the offsets $|m - n|$, a 1-D array of at least one real
            number, each from 0 to `MAX_SEQ_LEN`.
        d: the head dimension, an even integer from 2 to `MAX_D_MODEL`.
        base: a finite real number > 1.
        `len(offsets) * d` may not exceed `MAX_ELEMENTS`.

    Returns:
        float64 array of the same shape as `offsets`, each from 0 to
        $(d/2 + 1)/2$.

    Raises:
        ValueError: naming the argument that is out of range.

    Example:
        >>> rope_decay_bound([0.0], 8).tolist()   # every S_j = j at t = 0: mean of 1, 2, 3, 4
        [2.5]
    """
    offsets = check_positions(offsets, name="offsets")
    d = check_even_size("d", d, MAX_D_MODEL)
    check_product("len(offsets) * d", (offsets.size, d), MAX_ELEMENTS, total=False)
    omega = angular_frequencies(d, base)
    # e^{i t w_i} for every (offset, pair): shape (len(offsets), d / 2).
    turns = np.exp(1j * offsets[:, np.newaxis] * omega[np.newaxis, :])
    # S_j = sum_{i < j} e^{i t w_i}, j = 1 .. d/2: the running sums along the pairs.
    partial = np.cumsum(turns, axis=1)
    # (1 / (d/2)) sum_j |S_j|.
    return np.abs(partial).mean(axis=1)


# The draws `rope_bound_looseness` takes by default: the lesson quotes their range.
LOOSENESS_DRAWS = 2000


def rope_bound_looseness(d, draws=LOOSENESS_DRAWS, base=DEFAULT_BASE):
    r"""
    How loose RoFormer's bound is at offset 0 for a query and a key alike:
    for each draw $q$ = `default_rng(seed).standard_normal(d)`, seed 0 to
    `draws` - 1, and $k = q$, the bound
    $(d/2) \max_i |h_{i+1} - h_i| \cdot$ `rope_decay_bound(0)` over the score
    $|q|^2$, where $h_i = |\tilde q_i|^2$ and $h_{d/2} = 0$.

    A sample, not a limit: more draws widen the range a little.

    Args:
        d: the head dimension, an even integer from 2 to `MAX_D_MODEL`.
        draws: how many seeds, an integer from 1 to 100000.
        base: a finite real number > 1 (the bound at offset 0 does not
            depend on it).

    Returns:
        float64 array of shape (draws,), each ratio >= 1.

    Example:
        >>> float(rope_bound_looseness(2, 1)[0])   # one pair: the bound is the score
        1.0
    """
    d = check_even_size("d", d, MAX_D_MODEL)
    draws = check_size("draws", draws, 100000)
    factor = rope_decay_bound([0.0], d, base)[0]
    ratios = np.empty(draws)
    for seed in range(draws):
        q = np.random.default_rng(seed).standard_normal(d)
        # h_i = q~_i conj(q~_i) = |q~_i|^2, then h_{d/2} = 0.
        h = np.append(q[0::2] ** 2 + q[1::2] ** 2, 0.0)
        ratios[seed] = np.max(np.abs(np.diff(h))) * (d // 2) * factor / float(np.sum(q * q))
    return ratios


def rope_mean_score(offsets, d, base=DEFAULT_BASE, rho=1.0):
    r"""
    The mean RoPE score of a random query and a key like it, at each offset: for $q$ with
    independent standard normal entries and $k = \rho\, q + \sqrt{1 - \rho^2}\, z$, $z$ another
    such vector independent of $q$ (so each $k_j$ is standard normal too, with correlation
    $\rho$ to $q_j$),

    $$
    \mathbb{E}\big[(R_m q) \cdot (R_n k)\big] = \rho \sum_{i=0}^{d/2-1} 2 \cos(t\, \omega_i),
    \qquad t = m - n .
    $$

    Why: $(R_m q) \cdot (R_n k) = q^\top R_{n-m} k
    = \rho\, q^\top R_{n-m}\, q + \sqrt{1 - \rho^2}\, q^\top R_{n-m}\, z$.  The second term
    has mean 0 ($z$ is independent of $q$, with mean 0).  In the first, a pair turned by
    $\theta$ against itself keeps $|\tilde q_i|^2 \cos\theta$ of its dot product, with
    $|\tilde q_i|^2 = q_{2i}^2 + q_{2i+1}^2$, whose mean is 2; and $\cos$ is even.  The
    mean is largest at $t = 0$, where it is $\rho\, d$ (the mean of $|q|^2$ is $d$), and
    falls, with ripples, as the pairs turn out of step.

    With $\rho = 1$ ($k = q$) it is $2\, PE_p \cdot PE_{p+t}$ for the sinusoidal encoding
    of width $d_{model} = d$ and the same base (`pelab.similarity`: the same sum of
    cosines), and $2\, \mathrm{Re}\, S_{d/2}$, the last partial sum of `rope_decay_bound`.
    With $\rho = 0$ (independent $q$ and $k$) it is 0 at every offset; the size of those
    scores, which does not fall either, is `rope_independent_abs_score`.

    These are expectations, exact but for rounding (at $t = 0$ exactly $\rho\, d$, a sum of
    ones); a sample mean over $N$ draws is off by about its standard error.  For $\rho = 1$
    the score's variance is $4 \sum_i \cos^2(t\, \omega_i)$ (each $|\tilde q_i|^2$ is
    $\chi^2_2$, of variance 4): with $d = 128$ and base 10000 the means 128, 85.64, 61.09
    and 38.21 at $t$ = 0, 10, 100 and 500 come with standard deviations 16.0, 14.3, 12.9
    and 12.2, so the mean of 10,000 draws has a standard error of 0.12 to 0.16: 127.9, 85.4,
    60.9 and 38.0, one such sample's means, are within two standard errors of them.

    Args:
        offsets: the offsets $|m - n|$, a 1-D array of at least one real number, each from
            0 to `MAX_SEQ_LEN` (the mean is even in $m - n$).
        d: the head dimension, an even integer from 2 to `MAX_D_MODEL`.
        base: a finite real number > 1.
        rho: the correlation of each entry of $k$ with that of $q$, a real number from -1
            to 1: 1 for $k = q$, 0 for independent $q$ and $k$.
        `len(offsets) * d` may not exceed `MAX_ELEMENTS`.

    Returns:
        float64 array of the same shape as `offsets`, each from $-|\rho|\, d$ to
        $|\rho|\, d$.

    Raises:
        ValueError: naming the argument that is out of range.

    Example:
        >>> rope_mean_score([0.0, 10.0, 100.0, 500.0], 128).round(2).tolist()
        [128.0, 85.64, 61.09, 38.21]
        >>> rope_mean_score([0.0], 8, rho=0.5).tolist()   # rho d at offset 0
        [4.0]
    """
    offsets = check_positions(offsets, name="offsets")
    d = check_even_size("d", d, MAX_D_MODEL)
    base = check_base(base)
    rho = check_real("rho", rho, -1, maximum=1)
    check_product("len(offsets) * d", (offsets.size, d), MAX_ELEMENTS, total=False)
    omega = angular_frequencies(d, base)
    # cos(t w_i) for every (offset, pair): shape (len(offsets), d / 2).
    turned = np.cos(offsets[:, np.newaxis] * omega[np.newaxis, :])
    # rho sum_i 2 cos(t w_i): a sum along each row, no BLAS (at t = 0, d / 2 ones: exact).
    return rho * (2.0 * turned.sum(axis=1))


def rope_independent_abs_score(d):
    r"""
    The mean size of the RoPE score of a random query and an independent random key, the same
    at every offset: for $q$ and $k$ with independent standard normal entries,

    $$
    \mathbb{E}\,\big|(R_m q) \cdot (R_n k)\big|
    = \sqrt{2/\pi}\; \mathbb{E}\lVert q \rVert
    = \frac{2}{\sqrt{\pi}} \frac{\Gamma\big(\frac{d+1}{2}\big)}{\Gamma\big(\frac{d}{2}\big)}
    = \frac{d}{2^d} \binom{d}{d/2}
    $$

    for every $m$ and $n$.  Why: $R_m q$ is again a vector of independent standard normal
    entries (a rotation keeps that distribution), independent of $R_n k$, so the score has
    the same distribution at every offset, that of $q \cdot k$.  Given $q$, $q \cdot k$ is
    normal with mean 0 and variance $\lVert q \rVert^2$, whose mean size is
    $\sqrt{2/\pi}\, \lVert q \rVert$; $\lVert q \rVert$ has the chi distribution with $d$
    degrees of freedom, of mean $\sqrt 2\, \Gamma(\frac{d+1}{2}) / \Gamma(\frac{d}{2})$.
    For an even $d = 2j$, $\Gamma(j + \frac12) = \sqrt{\pi}\, (2j)! / (4^j j!)$ turns that
    into the binomial form, which is computed here in integers and rounded once.  Its mean
    score is 0 (`rope_mean_score` with $\rho = 0$).

    For $d = 128$ it is 9.0094.  The mean of the squared score is $d$, so $|score|$ has the
    standard deviation $\sqrt{128 - 9.0094^2} \approx 6.8$, and the mean of 10,000 draws a
    standard error of 0.07: 8.99 at one offset and 8.95 at another are one sample's wobble,
    not a trend.

    Args:
        d: the head dimension, an even integer from 2 to `MAX_D_MODEL`.

    Returns:
        a float, from 1 (at $d = 2$) up, about $\sqrt{2 d / \pi}$ for a large $d$.

    Raises:
        ValueError: if `d` is not an even integer in range.

    Example:
        >>> rope_independent_abs_score(2), round(rope_independent_abs_score(128), 4)
        (1.0, 9.0094)
    """
    d = check_even_size("d", d, MAX_D_MODEL)
    # d C(d, d/2) / 2^d: exact integers, and Python's int / int rounds the quotient once.
    return d * math.comb(d, d // 2) / 2**d

# ---------------------------------------------------------------------------
# Argument checks used only here
# ---------------------------------------------------------------------------


def _check_row_positions(name, values, n):
    """
    Check the positions of `n` rows, one each: `n` real numbers, each from
    `-MAX_SEQ_LEN` to `MAX_SEQ_LEN`.

    Returns:
        the positions as a float64 numpy array of shape `(n,)`.

    Raises:
        ValueError: "<name> must be <n> real numbers (one per row), each from
            -<MAX_SEQ_LEN> to <MAX_SEQ_LEN>, got ...".
    """
    positions = as_real_array(values)
    if (
        not isinstance(values, (str, bytes))
        and positions is not None
        and positions.shape == (n,)
        and np.all(np.abs(positions) <= MAX_SEQ_LEN)  # False for NaN
    ):
        return positions
    shape = "not real numbers" if positions is None else f"shape {positions.shape}"
    raise ValueError(
        f"{name} must be {n} real numbers (one per row), each from "
        f"-{MAX_SEQ_LEN} to {MAX_SEQ_LEN}, got {shape}"
    )
