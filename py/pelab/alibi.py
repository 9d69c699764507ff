r"""
# ALiBi: attention with linear biases

Press, Smith and Lewis (2022) add no position vector at all.  Instead each
attention head $h$ adds a fixed penalty to its scores that grows linearly
with the distance between query $i$ and key $j$:

$$
\text{score}_h(i, j) = \frac{q_i \cdot k_j}{\sqrt{d_k}} - m_h \, (i - j),
\qquad j \le i,
$$

and keys after the query are masked (the paper trains causal language
models).  The slope $m_h$ is fixed, not learned.  For $n$ heads, $n$ a power
of two, the slopes are the geometric sequence

$$
m_h = 2^{-8h/n}, \qquad h = 1, \dots, n,
$$

so 8 heads get $1/2, 1/4, \dots, 1/256$.  For other $n$ the paper's code
takes the $2^{\lfloor \log_2 n \rfloor}$ slopes of the power of two below
$n$ and fills the rest with every other slope of the power of two above
(`alibi_slopes`).  A steep head looks only at its recent past; a gentle
one sees far back.

The penalty depends on $i - j$ only, never on $i$ or $j$ alone: ALiBi is a
relative scheme, and it has a value for every distance, so nothing is
missing at positions past the training length.  (The paper's code adds
$m_h \cdot j$ rather than $-m_h (i - j)$: the two differ by $m_h \cdot i$,
the same for a whole row of scores, which softmax ignores.)

`causal=False` gives the symmetric penalty $-m_h |i - j|$, an extension
for encoders that see both directions (used by MosaicBERT, Portes et al.
2023); the ALiBi paper itself defines only the causal form.
"""

import numpy as np

from .checks import MAX_ELEMENTS, check_bool, check_matrix, check_product, check_size

# More heads than any model uses (the largest ALiBi models have tens of heads).
MAX_HEADS = 256
# The longest sequence a bias is built for.
MAX_SEQ_LEN = 4096


def _power_of_two_slopes(n):
    """The slopes $2^{-8h/n}$, $h = 1..n$, for `n` a power of two."""
    return 2.0 ** (-8.0 * np.arange(1, n + 1) / n)


def alibi_slopes(n_heads):
    r"""
    The fixed slope $m_h$ of each head: steepest first for a power of two, and otherwise
    the power of two's slopes first, then the extra ones.

    For a power of two $n$: $m_h = 2^{-8h/n}$, $h = 1, \dots, n$.  Otherwise,
    with $p = 2^{\lfloor \log_2 n \rfloor}$, the $p$ slopes for $p$ heads,
    then the slopes for $2p$ heads at odd $h$ ($h = 1, 3, 5, \dots$), as many
    as are missing.  This is the rule of the paper's reference code
    (`get_slopes` in ofirpress/attention_with_linear_biases).

    Args:
        n_heads: number of attention heads, 1 to `MAX_HEADS`.

    Returns:
        float64 `(n_heads,)`, distinct slopes in $(0, 1)$.

    Raises:
        ValueError: if `n_heads` is not an integer from 1 to `MAX_HEADS`.

    Example:
        >>> alibi_slopes(8).tolist()   # 2^-1 .. 2^-8, exact in binary
        [0.5, 0.25, 0.125, 0.0625, 0.03125, 0.015625, 0.0078125, 0.00390625]
        >>> alibi_slopes(6).tolist()   # 4 heads' slopes, then 8 heads' 1st and 3rd
        [0.25, 0.0625, 0.015625, 0.00390625, 0.5, 0.125]
    """
    n = check_size("n_heads", n_heads, MAX_HEADS)
    p = 1 << (n.bit_length() - 1)  # largest power of two <= n
    slopes = _power_of_two_slopes(p)
    if p == n:
        return slopes
    extra = _power_of_two_slopes(2 * p)[0::2][: n - p]  # h = 1, 3, 5, ... of 2p heads
    return np.concatenate([slopes, extra])


def alibi_bias(seq_len, n_heads, causal=True):
    r"""
    The bias each head adds to its attention scores: $-m_h (i - j)$.

    Entry `[h, i, j]` is $-m_h (i - j)$ for a key at or before the query
    ($j \le i$).  With `causal=True` keys after the query are masked with
    $-\infty$ (softmax gives them weight 0), as in the paper.  With
    `causal=False` they get $-m_h (j - i)$: the symmetric $-m_h |i - j|$.

    Args:
        seq_len: number of positions, 1 to `MAX_SEQ_LEN`.
        n_heads: number of heads, 1 to `MAX_HEADS` (slopes from `alibi_slopes`).
        causal: mask keys after the query (default) or penalise both sides.

    Returns:
        float64 `(n_heads, seq_len, seq_len)`.  Along every diagonal
        $i - j = \text{const}$ a head's bias is constant: it depends on the
        offset only.

    Raises:
        ValueError: for a bad `seq_len`, `n_heads` or `causal`, or if the
            bias would have more than `MAX_ELEMENTS` entries.

    Example:
        >>> alibi_bias(3, 1, causal=False)[0] * 256   # one head: slope 1/256
        array([[ 0., -1., -2.],
               [-1.,  0., -1.],
               [-2., -1.,  0.]])
    """
    n = check_size("seq_len", seq_len, MAX_SEQ_LEN)
    heads = check_size("n_heads", n_heads, MAX_HEADS)
    causal = check_bool("causal", causal)
    check_product("n_heads * seq_len * seq_len", (heads, n, n), MAX_ELEMENTS)
    slopes = alibi_slopes(heads)
    pos = np.arange(n)
    offset = pos[:, None] - pos[None, :]  # i - j: query row minus key column
    # -m_h |i - j|, written 0 - ... so that the diagonal is +0.0, not -0.0
    bias = 0.0 - slopes[:, None, None] * np.abs(offset)[None, :, :]
    if causal:
        bias[:, offset < 0] = -np.inf  # keys after the query: j > i
    return bias


def alibi_weights(scores, n_heads):
    r"""
    Causal attention weights of every ALiBi head for one set of content scores:

    $$
    w^{(h)}_{ij} = \frac{\exp\big(s_{ij} - m_h (i - j)\big)}
                        {\sum_{j' \le i} \exp\big(s_{ij'} - m_h (i - j')\big)},
    \qquad j \le i,
    $$

    and $w^{(h)}_{ij} = 0$ for $j > i$.  The same scores $s$ go to every head, so the heads
    differ only in their slope $m_h$ (in a real model each head also has its own
    projections).

    Args:
        scores: content scores $s_{ij} = q_i \cdot k_j / \sqrt{d_k}$, shape `(n, n)` with
            $n$ from 1 to `MAX_SEQ_LEN`, finite.
        n_heads: number of heads, 1 to `MAX_HEADS` (slopes from `alibi_slopes`).

    Returns:
        float64 `(n_heads, n, n)`: row `i` of head `h` is non-negative, sums to 1 and is 0
        after the diagonal.

    Raises:
        ValueError: if `scores` is not a square, finite 2-D array of at most `MAX_SEQ_LEN`
            rows, or `n_heads` is out of range, or the result would have more than
            `MAX_ELEMENTS` entries.

    Example:
        >>> w = alibi_weights(np.zeros((3, 3)), 1)[0]   # equal scores: the bias alone decides
        >>> w[2] / w[2, 2]                                # e^{-m d} for d = 2, 1, 0 and m = 1/256
        array([0.99221794, 0.99610137, 1.        ])
    """
    s = _check_square("scores", scores)
    n = s.shape[0]
    check_size("len(scores)", n, MAX_SEQ_LEN)
    # s_ij - m_h (i - j), and -inf for j > i: shape (n_heads, n, n).
    biased = s[None, :, :] + alibi_bias(n, n_heads, causal=True)
    # Each row's largest entry becomes exp(0) = 1 (the diagonal is finite, so every row is).
    biased -= biased.max(axis=2, keepdims=True)
    weights = np.exp(biased)  # exp(-inf) = 0: later keys get no weight
    weights /= weights.sum(axis=2, keepdims=True)
    return weights


def attention_distance(weights):
    r"""
    How far back a head looks, on average: the mean over queries $i$ of
    $\sum_j w_{ij} \, |i - j|$, the expected distance to the keys it attends to.

    Args:
        weights: attention weights, shape `(n, n)`, finite (rows summing to 1 for a
            meaningful answer).

    Returns:
        a float >= 0 for non-negative weights: 0 when every query attends only to itself.

    Raises:
        ValueError: if `weights` is not a square, finite 2-D array.

    Example:
        >>> attention_distance([[1.0, 0.0], [1.0, 0.0]])   # query 1 looks 1 back, query 0 at itself
        0.5
    """
    w = _check_square("weights", weights)
    n = w.shape[0]
    pos = np.arange(n)
    distance = np.abs(pos[:, None] - pos[None, :])  # |i - j|
    # sum_j w_ij |i - j| for each query i, then the mean over the queries.
    return float(np.mean(np.sum(w * distance, axis=1)))


def _check_square(name, value):
    """`value` as a finite float64 (n, n) array (`check_matrix`, then square), else a ValueError
    "<name> must be a square (n, n) array, got shape <shape>"."""
    matrix = check_matrix(name, value)
    if matrix.shape[0] != matrix.shape[1]:
        raise ValueError(f"{name} must be a square (n, n) array, got shape {matrix.shape}")
    return matrix
