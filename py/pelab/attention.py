r"""
# Self-attention is blind to word order

Single-head scaled dot-product self-attention (Vaswani et al. 2017,
section 3.2.1) turns the token vectors $X \in \mathbb{R}^{n \times d_{model}}$
into

$$
\mathrm{Attention}(X) = \mathrm{softmax}\Big(\frac{Q K^\top}{\sqrt{d_k}}\Big) V,
\qquad Q = X W_Q,\; K = X W_K,\; V = X W_V,
$$

with the softmax taken along each row.  Nothing in it says where a token
sits: it is built from dot products $q_a \cdot k_b$ and weighted sums over
all tokens.  Shuffle the tokens with a permutation matrix $P$ and

$$
\mathrm{softmax}\Big(\frac{P Q (P K)^\top}{\sqrt{d_k}}\Big) P V
= P \, \mathrm{softmax}\Big(\frac{Q K^\top}{\sqrt{d_k}}\Big) P^\top P V
= P \, \mathrm{Attention}(X),
$$

because a row-wise softmax commutes with reordering rows and columns,
$\mathrm{softmax}(P S P^\top) = P\,\mathrm{softmax}(S)\,P^\top$, and
$P^\top P = I$.  Attention is *permutation-equivariant*: the outputs are
shuffled exactly as the inputs were, and each token's own output does not
change at all.  Any summary that ignores order, such as the mean of the
outputs, is then identical: "dog bites man" and "man bites dog" look the
same.

Adding a positional encoding first breaks the symmetry.  Token $k$ of either
sentence gets $PE_k$, so the shuffled input is $P X + PE$, not
$P (X + PE)$, and the outputs really change.

All of this holds for attention in which every token sees every other, as
in an encoder.  A GPT-style decoder adds a *causal mask*: token $a$ sees
only tokens $b \le a$.  Which tokens a token may see then depends on where
it stands, so masked attention is not permutation-equivariant, and
decoders trained with no positional encoding at all still learn position
(Haviv et al. 2022; Kazemnejad et al. 2023).  `self_attention` and
`order_blindness` take `causal=True` to show the break.

Everything here is a fixed toy, not a trained model: `pelab.tokens`'
`tokenize` splits words and its `embed` gives each word a fixed random
vector, `projections` gives
fixed random $W_Q, W_K, W_V$, `self_attention` applies the formula,
`permutation_matrix` builds $P$, and `order_blindness` runs the whole
demonstration.  Nothing is random from run to run, and the numbers are the
same under CPython and in the browser (Pyodide) up to rounding in the last
bits, which depends on how a machine's BLAS orders its sums.
"""

import math
import reprlib
from dataclasses import dataclass

import numpy as np

from .checks import (
    MAX_ELEMENTS,
    NOT_A_LIST,
    check_base,
    check_bool,
    check_matrix,
    check_size,
    is_integer,
    read_items,
)
from .positional_encoding import DEFAULT_BASE, add_positions
from .tokens import embed, tokenize

# Largest d_model or d_k for the projections: each matrix is at most
# 1024 x 1024 float64 (8 MB).
MAX_WIDTH = 1024
# Longest permutation accepted: P is n x n, at most MAX_ELEMENTS entries.
MAX_ORDER = math.isqrt(MAX_ELEMENTS)
# ---------------------------------------------------------------------------
# Attention
# ---------------------------------------------------------------------------


def projections(d_model=8, d_k=None, seed=0):
    r"""
    Fixed random query, key and value matrices for one attention head:
    entries drawn independently from $\mathcal{N}(0, 1/d_{model})$.

    The variance $1/d_{model}$ (LeCun's initialisation) keeps a coordinate
    of $q = x W_Q$ about as large as a coordinate of $x$.  $W_V$ is square,
    so the outputs live in the same $d_{model}$-wide space as the inputs
    (a single head with no output projection, $d_v = d_{model}$).

    Args:
        d_model: input width, an integer from 1 to `MAX_WIDTH`.
        d_k: query/key width, an integer from 1 to `MAX_WIDTH`; `None`
            (the default) means `d_model`.
        seed: seed for `numpy.random.default_rng`, an integer from 0 to
            2**64 - 1.  The same seed gives the same matrices.

    Returns:
        `(w_q, w_k, w_v)`: float64 arrays of shapes `(d_model, d_k)`,
        `(d_model, d_k)` and `(d_model, d_model)`.

    Example:
        >>> w_q, w_k, w_v = projections(8, d_k=4)
        >>> w_q.shape, w_k.shape, w_v.shape
        ((8, 4), (8, 4), (8, 8))
    """
    d_model = check_size("d_model", d_model, MAX_WIDTH)
    d_k = d_model if d_k is None else check_size("d_k", d_k, MAX_WIDTH)
    seed = check_size("seed", seed, 2**64 - 1, minimum=0)
    rng = np.random.default_rng(seed)
    # Standard deviation 1 / sqrt(d_model), so variance 1 / d_model.
    scale = 1.0 / math.sqrt(d_model)
    w_q = scale * rng.standard_normal((d_model, d_k))
    w_k = scale * rng.standard_normal((d_model, d_k))
    w_v = scale * rng.standard_normal((d_model, d_model))
    return w_q, w_k, w_v


def attention_scores(x, w_q, w_k):
    r"""
    The scaled dot-product scores of one head, before any mask or softmax:

    $$
    S = \frac{Q K^\top}{\sqrt{d_k}}, \qquad Q = X W_Q,\; K = X W_K,
    $$

    so $s_{ab}$ says how well the query of token $a$ matches the key of token $b$.

    Args:
        x: token vectors, shape `(n, d_model)`, finite.
        w_q: query matrix, shape `(d_model, d_k)`.
        w_k: key matrix, shape `(d_model, d_k)`.

    Returns:
        float64 array of shape `(n, n)`.

    Raises:
        ValueError: if an array is not 2-D and finite, or the shapes do not fit together.

    Example:
        >>> attention_scores(np.eye(2), np.eye(2), 4.0 * np.eye(2))   # 4 I / sqrt(2)
        array([[2.82842712, 0.        ],
               [0.        , 2.82842712]])
    """
    x = check_matrix("x", x)
    w_q, w_k = check_matrix("w_q", w_q), check_matrix("w_k", w_k)
    if w_q.shape[0] != x.shape[1] or w_q.shape != w_k.shape:
        raise ValueError(
            "shapes do not fit: need x (n, d_model), w_q and w_k (d_model, d_k); "
            f"got x {x.shape}, w_q {w_q.shape}, w_k {w_k.shape}"
        )
    # Q = X W_Q, K = X W_K: shape (n, d_k); s_ab = q_a . k_b / sqrt(d_k), shape (n, n).
    return ((x @ w_q) @ (x @ w_k).T) / math.sqrt(w_q.shape[1])


def self_attention(x, w_q, w_k, w_v, causal=False):
    r"""
    Single-head scaled dot-product self-attention, with no positional
    information anywhere:

    $$
    A = \mathrm{softmax}\Big(\frac{Q K^\top}{\sqrt{d_k}}\Big), \qquad
    Y = A V, \qquad Q = X W_Q,\; K = X W_K,\; V = X W_V.
    $$

    Row $a$ of $A$ says how much token $a$ attends to each token $b$; it is
    non-negative and sums to 1.  The softmax subtracts each row's maximum
    before exponentiating, $\mathrm{softmax}(s) = \mathrm{softmax}(s - \max s)$,
    so no `exp` can overflow.

    With `causal=True` (a decoder's mask) token $a$ sees only tokens
    $b \le a$: $s_{ab} = -\infty$ for $b > a$, so $A_{ab} = 0$ there and $A$
    is lower-triangular.  The first token then attends only to itself.

    Args:
        x: token vectors, shape `(n, d_model)`, finite.
        w_q: query matrix, shape `(d_model, d_k)`.
        w_k: key matrix, shape `(d_model, d_k)`.
        w_v: value matrix, shape `(d_model, d_v)`.
        causal: mask out later tokens (a bool).

    Returns:
        `(outputs, weights)`: float64 arrays of shapes `(n, d_v)` (row `a`
        is token `a`'s output) and `(n, n)` (the attention weights $A$).

    Raises:
        ValueError: if an array is not 2-D and finite, or the shapes do
            not fit together.

    Example:
        >>> x = embed(["dog", "bites", "man"])
        >>> outputs, weights = self_attention(x, *projections(8))
        >>> outputs.shape, weights.shape
        ((3, 8), (3, 3))
        >>> bool(np.allclose(weights.sum(axis=1), 1.0))
        True
    """
    x = check_matrix("x", x)
    w_q, w_k, w_v = (check_matrix(n, w) for n, w in (("w_q", w_q), ("w_k", w_k), ("w_v", w_v)))
    d_model = x.shape[1]
    if w_q.shape[0] != d_model or w_q.shape != w_k.shape or w_v.shape[0] != d_model:
        raise ValueError(
            "shapes do not fit: need x (n, d_model), w_q and w_k (d_model, d_k), "
            f"w_v (d_model, d_v); got x {x.shape}, w_q {w_q.shape}, "
            f"w_k {w_k.shape}, w_v {w_v.shape}"
        )
    d_k = w_q.shape[1]
    causal = check_bool("causal", causal)

    # Q = X W_Q, K = X W_K: shape (n, d_k).  V = X W_V: shape (n, d_v).
    q, k, v = x @ w_q, x @ w_k, x @ w_v
    # s_ab = q_a . k_b / sqrt(d_k), shape (n, n): how well query a matches key b.
    scores = (q @ k.T) / math.sqrt(d_k)
    if causal:
        # s_ab = -inf above the diagonal (b > a): exp(-inf) = 0, later tokens get no weight.
        scores[np.triu_indices(len(x), 1)] = -np.inf
    # Subtract each row's maximum: the largest exponent becomes exp(0) = 1.
    scores -= scores.max(axis=1, keepdims=True)
    # A_ab = exp(s_ab) / sum_b' exp(s_ab'), each row sums to 1.
    weights = np.exp(scores)
    weights /= weights.sum(axis=1, keepdims=True)
    # y_a = sum_b A_ab v_b: each output is a weighted average of the values.
    outputs = weights @ v
    return outputs, weights


# ---------------------------------------------------------------------------
# Shuffling
# ---------------------------------------------------------------------------


def permutation_matrix(order):
    r"""
    The permutation matrix $P$ that reorders rows by `order`:
    $P_{k m} = 1$ if $m = order[k]$ else 0, so

    $$
    (P x)_k = \sum_m P_{k m} x_m = x_{order[k]}.
    $$

    Every row and column of $P$ holds exactly one 1, and $P^\top P = I$:
    $P^\top$ undoes the shuffle.

    Args:
        order: a permutation of `range(n)`, a list (or tuple, range or
            integer numpy array) holding each of 0, ..., n - 1 exactly
            once, with n from 1 to `MAX_ORDER`.

    Returns:
        float64 array of shape `(n, n)`.

    Raises:
        ValueError: if `order` is not such a permutation; the message names
            `order`.

    Example:
        >>> permutation_matrix([2, 0, 1]) @ np.array([10.0, 20.0, 30.0])
        array([30., 10., 20.])

        (Exact on any machine: each output is one entry times 1 plus
        entries times 0, and no rounding happens in either.)
    """
    order = _check_permutation(order, MAX_ORDER)
    n = len(order)
    p = np.zeros((n, n), dtype=np.float64)
    # P[k, order[k]] = 1 for each row k.
    p[np.arange(n), order] = 1.0
    return p


# ---------------------------------------------------------------------------
# The demonstration
# ---------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class OrderBlindness:
    """
    The result of `order_blindness`: one sentence and a shuffle of it, both
    through the same attention head.  `n` is the number of tokens.

    Attributes:
        tokens: the sentence's tokens t, n strings.
        shuffled: the shuffled tokens t'[k] = t[order[k]].
        order: the permutation used, n ints.
        with_pe: whether positional encodings were added before attention.
        causal: whether the head used a causal mask.
        outputs: float64 (n, d_model), attention outputs for `tokens`.
        shuffled_outputs: float64 (n, d_model), outputs for `shuffled`.
        weights: float64 (n, n), attention weights for `tokens`.
        shuffled_weights: float64 (n, n), attention weights for `shuffled`.
        token_match: max_k max |shuffled_outputs[k] - outputs[order[k]]|:
            0 up to rounding when attention is order-blind.
        pooled_diff: max |mean_k outputs[k] - mean_k shuffled_outputs[k]|:
            about 1e-16 without positions, clearly positive with them.
        truncated: True if the sentence had more than `MAX_TOKENS` words.
    """

    tokens: list
    shuffled: list
    order: list
    with_pe: bool
    causal: bool
    outputs: np.ndarray
    shuffled_outputs: np.ndarray
    weights: np.ndarray
    shuffled_weights: np.ndarray
    token_match: float
    pooled_diff: float
    truncated: bool


def order_blindness(
    sentence, order=None, with_pe=False, d_model=8, base=DEFAULT_BASE, causal=False
):
    r"""
    Run a sentence and a shuffle of it through the same attention head and
    measure how much the shuffle mattered.

    With tokens $t$ and the shuffle $t'_k = t_{order[k]}$, i.e. $X' = P X$:

    * without positions, attention sees $X$ and $P X$, and equivariance
      gives $Y' = P Y$: `token_match` (the largest difference between
      $Y'$ and $P Y$) and `pooled_diff` (between the mean outputs) are 0 up
      to rounding, about 1e-16;
    * with positions (`with_pe=True`) it sees $X + PE$ and $P X + PE$, each
      token getting the encoding of its *new* place, and both measures
      become clearly positive: the order is now visible;
    * with a causal mask (`causal=True`) the order is visible even without
      positions: a token sees itself and the tokens before it, and which
      those are changes with the shuffle.

    The embeddings are `embed`'s, the head is `projections(d_model)`
    (seed 0), the encoding is `sinusoidal` with `base`.

    Args:
        sentence: the text, split by `tokenize` (at most `MAX_TOKENS` tokens).
        order: a permutation of `range(n)` for the n tokens (a list of
            ints); `None` means the identity (no shuffle).
        with_pe: add sinusoidal positional encodings before attention (a bool).
        d_model: model width, an integer from 1 to `MAX_WIDTH`.
        base: the encoding's base, a finite real number > 1.
        causal: use a decoder's causal mask in the attention head (a bool).

    Returns:
        an `OrderBlindness`.

    Raises:
        ValueError: for a bad argument; the message names it.

    Example:
        >>> plain = order_blindness("dog bites man", [2, 1, 0])
        >>> plain.shuffled
        ['man', 'bites', 'dog']
        >>> plain.token_match < 1e-12, plain.pooled_diff < 1e-12
        (True, True)
        >>> order_blindness("dog bites man", [2, 1, 0], with_pe=True).pooled_diff > 1e-3
        True
        >>> order_blindness("dog bites man", [2, 1, 0], causal=True).token_match > 1e-3
        True
    """
    tokens, truncated = tokenize(sentence)
    n = len(tokens)
    order = list(range(n)) if order is None else _check_permutation(order, MAX_ORDER, n)
    with_pe = check_bool("with_pe", with_pe)
    causal = check_bool("causal", causal)
    w_q, w_k, w_v = projections(d_model)
    base = check_base(base)

    # t'_k = t_{order[k]}
    shuffled = [tokens[m] for m in order]
    # X and X' = P X: the same word gets the same vector wherever it is.
    x, x_shuffled = embed(tokens, d_model), embed(shuffled, d_model)
    if with_pe:
        # X + PE and P X + PE: position k gets PE_k in both sentences.
        x, x_shuffled = add_positions(x, base), add_positions(x_shuffled, base)

    outputs, weights = self_attention(x, w_q, w_k, w_v, causal)
    shuffled_outputs, shuffled_weights = self_attention(x_shuffled, w_q, w_k, w_v, causal)

    # Y' against P Y: (P Y)_k = Y_{order[k]}, gathered by fancy indexing.
    token_match = np.max(np.abs(shuffled_outputs - outputs[order]))
    # mean_k Y_k against mean_k Y'_k: an order-free summary of each sentence.
    pooled_diff = np.max(np.abs(outputs.mean(axis=0) - shuffled_outputs.mean(axis=0)))
    return OrderBlindness(
        tokens=tokens,
        shuffled=shuffled,
        order=order,
        with_pe=with_pe,
        causal=causal,
        outputs=outputs,
        shuffled_outputs=shuffled_outputs,
        weights=weights,
        shuffled_weights=shuffled_weights,
        token_match=float(token_match),
        pooled_diff=float(pooled_diff),
        truncated=truncated,
    )

# ---------------------------------------------------------------------------
# Argument checks used only here
# ---------------------------------------------------------------------------


def _check_permutation(order, max_order, n=None):
    """
    Check that `order` is a permutation of `range(n)`: each of 0, ..., n - 1
    exactly once.  When `n` is None any length from 1 to `max_order` will do.

    Returns:
        `order` as a list of Python ints.

    Raises:
        ValueError: "order must be a permutation of range(<n>), each of
            0..<n - 1> once, got <order>".

    Example:
        >>> _check_permutation((2, 0, 1), max_order=10)
        [2, 0, 1]
    """
    indices = None
    if not isinstance(order, NOT_A_LIST):
        # Read at most one item too many: range(10**9) is refused without being listed.
        indices = read_items(order, max_order if n is None else n)
    if indices is not None and all(is_integer(m) for m in indices):
        indices = [int(m) for m in indices]
        size = len(indices) if n is None else n
        if 1 <= size <= max_order and sorted(indices) == list(range(size)):
            return indices
    if n is None:
        expected = f"a permutation of range(n), each of 0..n-1 once, n from 1 to {max_order}"
    else:
        expected = f"a permutation of range({n}), each of 0..{n - 1} once"
    raise ValueError(f"order must be {expected}, got {reprlib.repr(order)}")
