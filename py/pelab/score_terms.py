r"""
# Four terms in one attention score

With an additive positional encoding a token enters attention as $x_i + p_i$: its word
embedding plus its position's vector.  Its score against token $j$ (rows are tokens, as
everywhere in pelab, so $q_i = (x_i + p_i) W_Q$ and $k_j = (x_j + p_j) W_K$) is

$$
q_i \cdot k_j = (x_i + p_i)\, A\, (x_j + p_j)^\top, \qquad A = W_Q W_K^\top,
$$

and multiplying out gives four terms (Dai et al. 2019, Transformer-XL, section 3.3, write
the same expansion with column vectors, $A = W_q^\top W_k$):

$$
\underbrace{x_i A x_j^\top}_{\text{content·content}}
+ \underbrace{x_i A p_j^\top}_{\text{content·position}}
+ \underbrace{p_i A x_j^\top}_{\text{position·content}}
+ \underbrace{p_i A p_j^\top}_{\text{position·position}}.
$$

Which of them depend on the positions only through the offset $i - j$?

* content·content has no position in it at all: it depends on which words meet.
* content·position and position·content each hold one *absolute* position, $j$ or $i$,
  beside a word.
* position·position is the only one made of positions alone.  For the sinusoidal
  encoding (even $d_{model}$) moving both positions on by $t$ is one rotation,
  $p_{i+t} = p_i M_t^\top$ with $M_t$ orthogonal (`pelab.rotation`), so

  $$
  p_{i+t} A p_{j+t}^\top = p_i M_t^\top A M_t p_j^\top = p_i A p_j^\top
  \quad\text{whenever } A M_t = M_t A \text{ for every } t:
  $$

  for $A = I$ (the dot products of `pelab.similarity`), or $A$ turning and scaling each
  pair of dimensions on its own (a scaled rotation per pair, such as $c\,M_k$).  A general
  $A = W_Q W_K^\top$ does not commute with the rotations, and then position·position is not
  a function of $i - j$ either.

So an attention score with additive positions is only partly relative.  Relative schemes
replace or remove the terms that are not: Transformer-XL rewrites them with relative
encodings, Shaw et al. (2018) add learned vectors for clipped offsets, T5 adds a learned
scalar per head and offset bucket, ALiBi (`pelab.alibi`) adds $-m\,(i - j)$, and RoPE
(`pelab.rope`) rotates $q_i$ and $k_j$ so that their product depends on $i - j$.

The scores here are $q_i \cdot k_j$ before attention divides them by $\sqrt{d_k}$: that
factor scales all four terms alike and changes none of the above.  `score_terms` splits
any such score; `four_terms` does it for a sentence with the toy embeddings and head of
`pelab.attention`, and measures each term with `pelab.toeplitz_residual`.
"""

from dataclasses import dataclass

import numpy as np

from .attention import projections
from .checks import check_base, check_bool, check_matrix, check_size
from .positional_encoding import DEFAULT_BASE, sinusoidal
from .similarity import toeplitz_residual
from .tokens import embed, tokenize

# Widest d_model for `four_terms`: wide enough to see the effect, small enough to draw.
MAX_TERMS_WIDTH = 64

# The four terms, in the order of the expansion, then their sum.
TERM_NAMES = ("content_content", "content_position", "position_content", "position_position")


@dataclass(frozen=True, eq=False)
class ScoreTerms:
    """
    The four terms of $(x_i + p_i) A (x_j + p_j)^\\top$ and the score itself, each a float64
    `(n, n)` array with row $i$ (the query) and column $j$ (the key).

    Attributes:
        content_content: $x_i A x_j^\\top$.
        content_position: $x_i A p_j^\\top$.
        position_content: $p_i A x_j^\\top$.
        position_position: $p_i A p_j^\\top$.
        total: $(x_i + p_i) A (x_j + p_j)^\\top$, computed directly from the sums, not by
            adding the four terms (so comparing the two checks the expansion).
    """

    content_content: np.ndarray
    content_position: np.ndarray
    position_content: np.ndarray
    position_position: np.ndarray
    total: np.ndarray

    def terms(self):
        """The four terms in the expansion's order, as `(name, matrix)` pairs."""
        return [(name, getattr(self, name)) for name in TERM_NAMES]


def score_terms(x, p, a):
    r"""
    Split the scores $(x_i + p_i) A (x_j + p_j)^\top$ into their four terms.

    $$
    (x_i + p_i) A (x_j + p_j)^\top
    = x_i A x_j^\top + x_i A p_j^\top + p_i A x_j^\top + p_i A p_j^\top.
    $$

    Args:
        x: content vectors (word embeddings), shape `(n, d)`, finite.
        p: position vectors, shape `(n, d)`, finite; row $i$ belongs to the token in row $i$
            of `x`.
        a: the bilinear form, shape `(d, d)`, finite: $W_Q W_K^\top$ for a head whose
            projections are `(d, d_k)` matrices, or the identity for plain dot products.

    Returns:
        a `ScoreTerms`.

    Raises:
        ValueError: if an array is not a non-empty finite 2-D array (naming it), or the
            shapes do not fit together.

    Example:
        >>> x, p = np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([[0.0, 2.0], [3.0, 0.0]])
        >>> t = score_terms(x, p, np.eye(2))
        >>> t.content_position.tolist(), t.position_position.tolist()
        ([[0.0, 3.0], [2.0, 0.0]], [[4.0, 0.0], [0.0, 9.0]])
        >>> t.total.tolist()   # the four terms add up to the score
        [[5.0, 5.0], [5.0, 10.0]]

        (Exact: every product and sum here is of small integers.)
    """
    x = check_matrix("x", x)
    p = check_matrix("p", p)
    a = check_matrix("a", a)
    d = x.shape[1]
    if p.shape != x.shape or a.shape != (d, d):
        raise ValueError(
            "shapes do not fit: need x and p (n, d) and a (d, d); "
            f"got x {x.shape}, p {p.shape}, a {a.shape}"
        )
    # x A and p A once each, shape (n, d): every term is one of them times x^T or p^T.
    xa, pa = x @ a, p @ a
    return ScoreTerms(
        content_content=xa @ x.T,  # x_i A x_j^T: words only
        content_position=xa @ p.T,  # x_i A p_j^T: query's word, key's absolute position
        position_content=pa @ x.T,  # p_i A x_j^T: query's absolute position, key's word
        position_position=pa @ p.T,  # p_i A p_j^T: positions only
        # The score itself, from the sums: ((x + p) A) (x + p)^T.
        total=((x + p) @ a) @ (x + p).T,
    )


@dataclass(frozen=True, eq=False)
class FourTerms:
    """
    The result of `four_terms` for a sentence of `n` tokens.

    Attributes:
        tokens: the sentence's tokens, n strings (the learner's text: show it as text).
        identity: True if $A = I$, False if $A = W_Q W_K^\\top$ of the toy head.
        a: the $(d, d)$ matrix $A$ used.
        scores: the `ScoreTerms`.
        toeplitz: `toeplitz_residual` of each term and of the total, a dict keyed by the
            names of `ScoreTerms`'s attributes: 0 up to rounding for a term that depends on
            the positions only through $i - j$.
        sum_gap: max |sum of the four terms - total|, rounding error.
        truncated: True if words after the first `MAX_TOKENS` were dropped.
    """

    tokens: list
    identity: bool
    a: np.ndarray
    scores: ScoreTerms
    toeplitz: dict
    sum_gap: float
    truncated: bool


def four_terms(sentence, identity=False, d_model=8, base=DEFAULT_BASE):
    r"""
    The four terms of the attention scores of a sentence, with sinusoidal positions added.

    The word vectors are `embed`'s, the positions `sinusoidal(n, d_model, base)`, and $A$ is
    either $W_Q W_K^\top$ of `projections(d_model)` (seed 0, the head of the attention demo)
    or, with `identity=True`, the identity, which commutes with every rotation.

    Args:
        sentence: the text, split by `tokenize` (at most `MAX_TOKENS` tokens).
        identity: use $A = I$ instead of the toy head's $W_Q W_K^\top$ (a bool).
        d_model: the width, an integer from 1 to `MAX_TERMS_WIDTH` (odd widths are allowed;
            their lone sine column is not a rotation, so even $A = I$ is then not exactly
            relative).
        base: the encoding's base, a finite real number > 1.

    Returns:
        a `FourTerms`.

    Raises:
        ValueError: for a bad argument; the message names it.

    Example:
        >>> plain = four_terms("the cat sat on the mat", identity=True)
        >>> plain.toeplitz["position_position"] < 1e-12     # A = I: depends on i - j only
        True
        >>> head = four_terms("the cat sat on the mat")
        >>> head.toeplitz["position_position"] > 0.1        # a general A: it does not
        True
        >>> head.toeplitz["content_position"] > 0.1
        True
    """
    tokens, truncated = tokenize(sentence)
    identity = check_bool("identity", identity)
    d_model = check_size("d_model", d_model, MAX_TERMS_WIDTH)
    base = check_base(base)
    x = embed(tokens, d_model)
    p = sinusoidal(len(tokens), d_model, base)
    if identity:
        a = np.eye(d_model)
    else:
        w_q, w_k, _ = projections(d_model)
        a = w_q @ w_k.T  # A = W_Q W_K^T: q_i . k_j = (x_i W_Q) . (x_j W_K) = x_i A x_j^T
    scores = score_terms(x, p, a)
    matrices = dict(scores.terms(), total=scores.total)
    summed = sum(matrix for _, matrix in scores.terms())
    return FourTerms(
        tokens=tokens,
        identity=identity,
        a=a,
        scores=scores,
        toeplitz={name: toeplitz_residual(matrix) for name, matrix in matrices.items()},
        sum_gap=float(np.max(np.abs(summed - scores.total))),
        truncated=truncated,
    )
