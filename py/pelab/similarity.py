r"""
# How alike are two positions?

Attention compares vectors by dot products, so the natural question about a
positional encoding is how alike the encodings of two positions $p$ and $q$
are:

$$
\text{dot}_{pq} = PE_p \cdot PE_q, \qquad
\cos_{pq} = \frac{PE_p \cdot PE_q}{\lVert PE_p \rVert \, \lVert PE_q \rVert}.
$$

For the sinusoidal encoding each pair contributes
$\sin a \sin b + \cos a \cos b = \cos(a - b)$ with $a = p\,\omega_i$,
$b = q\,\omega_i$, so for an even $d_{model}$

$$
PE_p \cdot PE_q = \sum_{i=0}^{d_{model}/2 - 1} \cos\big((q - p)\,\omega_i\big):
$$

the similarity depends only on the offset $q - p$, never on where the two
positions are.  It is largest, $d_{model}/2$, at $q = p$ (every
$\lVert PE_p \rVert^2 = d_{model}/2$, so the cosine is $\text{dot} / (d_{model}/2)$),
symmetric in $q - p$, and falls away, with ripples, as the offset grows.

A matrix whose entries depend only on $q - p$ is constant along each
diagonal: a *Toeplitz* matrix.  `toeplitz_residual` measures how far a
matrix is from that, so the claim can be checked on the numbers.  (For an
odd $d_{model}$ the lone sine column adds $\sin(p\,\omega)\sin(q\,\omega)$,
which is not a function of $q - p$: the residual is then clearly positive.)
"""

import numpy as np

from .checks import check_matrix


def similarity(pe):
    r"""
    The dot products and cosine similarities between all rows of `pe`:

    $$
    \text{dot} = PE \, PE^\top, \qquad
    \cos_{pq} = \frac{\text{dot}_{pq}}{\lVert PE_p \rVert \, \lVert PE_q \rVert}.
    $$

    A row of zeros has no direction: its cosine with every row, itself
    included, is 0.  Cosines are clipped to [-1, 1], which they obey
    exactly (Cauchy-Schwarz) and might overstep by a rounding error.

    Args:
        pe: array-like of shape `(n, d)` of finite numbers, one row per
            position (any encoding, not only the sinusoidal one).

    Returns:
        `(dot, cosine)`: two float64 arrays of shape `(n, n)`, symmetric.

    Raises:
        ValueError: if `pe` is not a non-empty 2-D array of finite numbers.

    Example:
        >>> from pelab.positional_encoding import sinusoidal
        >>> dot, cosine = similarity(sinusoidal(4, 8))
        >>> round(float(dot[1, 1]), 12), round(float(cosine[2, 2]), 12)
        (4.0, 1.0)

        ($|PE_p|^2 = d/2$ exactly in mathematics; rounded to 12 digits
        because the last bit of a sum depends on the order a machine adds
        its terms in.)
    """
    pe = check_matrix("pe", pe)
    # dot_pq = PE_p . PE_q for all pairs at once: PE PE^T, shape (n, n).
    dot = pe @ pe.T
    # |PE_p|, shape (n,).
    norms = np.sqrt(np.einsum("pj,pj->p", pe, pe))
    # |PE_p| |PE_q| for every (p, q): the outer product of the norms.
    scale = np.outer(norms, norms)
    # cos_pq = dot_pq / (|PE_p| |PE_q|), and 0 where a norm is 0.
    cosine = np.divide(dot, scale, out=np.zeros_like(dot), where=scale > 0)
    np.clip(cosine, -1.0, 1.0, out=cosine)
    return dot, cosine


def toeplitz_residual(matrix):
    r"""
    How far `matrix` is from depending only on the offset $q - p$: the
    largest spread along any diagonal,

    $$
    \max_{t} \Big( \max_{q - p = t} A_{pq} \; - \min_{q - p = t} A_{pq} \Big).
    $$

    It is 0 exactly when $A_{pq} = f(q - p)$ for some $f$ (a Toeplitz
    matrix), and otherwise the largest change seen moving along a
    diagonal.  For the sinusoidal dot products with an even `d_model` it is
    rounding error, below 1e-12 for a few hundred positions (see the
    module notes).

    Args:
        matrix: array-like of shape `(n, m)` of finite numbers (square or
            not).

    Returns:
        a float >= 0.

    Raises:
        ValueError: if `matrix` is not a non-empty 2-D array of finite
            numbers.

    Example:
        >>> toeplitz_residual([[1.0, 2.0, 3.0], [0.0, 1.0, 2.0]])
        0.0
        >>> toeplitz_residual([[1.0, 2.0], [0.0, 5.0]])   # main diagonal: 1 and 5
        4.0
    """
    a = check_matrix("matrix", matrix)
    n, m = a.shape
    # Diagonal t = q - p runs from -(n - 1) to m - 1; slot t + n - 1 of these two keeps the
    # largest and smallest entry seen on it so far. Row p lies on diagonals -p .. m - 1 - p,
    # the m slots from n - 1 - p: one row at a time, so memory stays O(n + m), not O(n (n + m)).
    highest = np.full(n + m - 1, -np.inf)
    lowest = np.full(n + m - 1, np.inf)
    for p, row in enumerate(a):
        slots = slice(n - 1 - p, n - 1 - p + m)
        np.maximum(highest[slots], row, out=highest[slots])
        np.minimum(lowest[slots], row, out=lowest[slots])
    # max - min of each diagonal (every diagonal has at least one entry).
    spread = highest - lowest
    return float(spread.max())
