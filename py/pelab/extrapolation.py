r"""
# How close can two positions' encodings come?

A model trained on sequences of up to $L$ tokens meets longer ones later.
A learned table has no row for position $L$ (see `learned`).  The
sinusoidal formula can be *computed* at every position: Vaswani et al.
hoped it "may allow the model to extrapolate to sequence lengths longer
than the ones encountered during training".  That is a hope about models,
and this module does not test it: it measures only how far apart the
*vectors* of two positions are.  (Press et al. 2022, Figure 1, found that
sinusoidal language models in fact degrade soon after their training
length.)

Each pair $i$ turns with period $\lambda_i = 2\pi / \omega_i$ positions,
the slowest one $\lambda_{max} = 2\pi \cdot base^{(d_{model}-2)/d_{model}}$.
Two positions whose offset $t = q - p$ is close to a whole number of turns
of *every* pair get almost the same encoding:

$$
\lVert PE_p - PE_q \rVert^2 = \sum_i 2\big(1 - \cos(t\,\omega_i)\big)
= 4 \sum_i \sin^2\!\Big(\frac{t\,\omega_i}{2}\Big)
\qquad (\text{even } d_{model}).
$$

What makes two positions collide is having *few pairs*: with one pair
(d_model = 2) offset 710 is within 0.0001 of 113 whole turns; with two
pairs (d_model = 4) and the paper's base, two positions among the first
1024 come within about 0.07.  The more pairs, the rarer an offset that
brings every hand round at once.  Over the first 1024 positions (the
lesson's chart) and at each base its slider offers ($10^{0.2}$ to $10^5$,
the exponent in steps of 0.05, rounded to 3 significant figures: 1.58,
1.78, 2, ..., 100000):

- with 10 or more pairs (d_model 20 to 64, the rest of the chart's range)
  the closest two positions are neighbours, every other offset at least
  3% farther (the least: d_model 64, base 1.58, offset 8), and a
  *smaller* base moves them *further* apart;
- with 8 or 9 pairs (d_model 16 or 18), two bases each bring two distant
  positions closer than neighbours: d_model 16 at base 1.58 (offset 133)
  and 2.82 (offset 685: 1.84 against 1.91), d_model 18 at 3.16 (offset
  892) and 12.6 (offset 541: 1.18 against 1.48);
- with fewer pairs, more bases do: 9 of the 97 at d_model 14, 18 at 12,
  54 at 10, 94 at 8, and all of them at 6 and below.

Neighbours alone move apart as the base shrinks, at every d_model >= 4
and every base: their squared distance is $\sum_i 2(1 - \cos \omega_i)$,
each $\omega_i = base^{-2i/d_{model}}$ ($i \ge 1$) grows towards 1 as the
base shrinks, and $1 - \cos$ grows on $[0, \pi]$ (about 2.28 at base 1.58,
1.46 at 10, 1.01 at 10000, for d_model = 16; at d_model 2 the one pair
turns 1 radian per position whatever the base).  So the smallest distance
falls as the base grows wherever neighbours are the closest pair, and need
not elsewhere (d_model 16: 1.84 at base 2.82, 1.85 at the larger 3.16).
The near returns at 8 or 9 pairs are sharp: a base that differs in its
third figure moves or removes them (d_model 18 at $10^{1.1} = 12.589\ldots$
rather than 12.6: 1.09 at offset 949; d_model 16 at
$10^{0.65} = 4.4668\ldots$: 1.53 at offset 1023, while at 4.47 neighbours
are the closest), and between the slider's steps there are such bases at
d_model 20 too ($10^{1.2216} \approx 16.66$: 1.01 at offset 949, against
1.48 for neighbours).  Over longer sequences, or with a base so near 1
that every pair turns at almost one speed, some offset does come closer
than neighbours (d_model 16, base 2: 1.74 within 2048 positions against
2.11 for neighbours), though nowhere near as close as with few pairs.

What a small base costs is the slow pairs: every wavelength is short, so
the cosine similarity of two positions $t$ apart, the mean of
$\cos(t\,\omega_i)$ over the pairs, falls to about zero within a few
steps.  In a wide model it stays near zero (d_model 512, base 10: between
-0.23 and 0.10 from 5 apart to 1023 apart, so positions 5 apart look as
unlike as positions 500 apart), and nothing tells near from far at a
coarse scale; with few pairs it swings instead (d_model 16, base 10: 0.60
at 100 apart).  `nearest_distances` tracks the closest two positions as
the sequence grows.

The second half of this module is about *layout*.  The paper interleaves
sines and cosines (sin, cos, sin, cos, ...); TensorFlow's Transformer
tutorial puts all the sines first, then all the cosines, with the paper's
frequencies.  Same numbers, columns in another order: `layout_permutation`
gives the order, so the two carry the same information for any model with
a linear layer after them.  (tensor2tensor, fairseq and Whisper also put
the sines first, but space their frequencies as
$10000^{-i/(d_{model}/2 - 1)}$, so that the slowest is exactly 1/10000:
close to the paper's, not the same numbers.)
"""

import numpy as np

from .checks import MAX_D_MODEL, check_size, check_table
from .positional_encoding import DEFAULT_BASE, angular_frequencies, sinusoidal

# Longest sequence for `nearest_distances`: its (seq_len, seq_len) float64
# matrices are 32 MB each at 2048.
MAX_NEAREST_LEN = 2048
# Widest encoding for `nearest_distances`.
MAX_NEAREST_WIDTH = 1024


def nearest_distances(seq_len, d_model, base=DEFAULT_BASE):
    r"""
    How close the two nearest *different* positions come, as the sequence
    grows:

    $$
    \text{nearest}[L - 1] = \min_{0 \le p < q \le L - 1} \lVert PE_p - PE_q \rVert,
    \qquad L = 1, \dots, seq\_len .
    $$

    Entry 0 ($L = 1$, a single position, no pair) is `inf`.  The entries
    never increase: a longer sequence holds every pair of a shorter one.

    Computed from the Gram matrix $G = PE \, PE^\top$ by
    $\lVert a - b \rVert^2 = \lVert a \rVert^2 + \lVert b \rVert^2 - 2\, a \cdot b$
    (clamped at 0, which rounding can undershoot), then for each $q$ the
    closest earlier position, then a running minimum over $q$.  The
    subtraction loses about $\sqrt{d_{model} \cdot 2^{-52}}$, so distances
    below about 1e-7 are rounding noise.  The work is $seq\_len^2 \cdot
    d_{model}$ multiply-adds (for an even `d_model` the closed form in the
    module notes gives the same numbers in $seq\_len \cdot d_{model}$).

    Args:
        seq_len: the longest sequence, an integer from 1 to `MAX_NEAREST_LEN`.
        d_model: model width, an integer from 1 to `MAX_NEAREST_WIDTH`.
        base: a finite real number > 1.

    Returns:
        float64 array of shape `(seq_len,)`: entry 0 is inf, the rest are
        finite, >= 0 and non-increasing.

    Example:
        >>> [round(x, 3) for x in nearest_distances(4, 16).tolist()]
        [inf, 1.015, 1.015, 1.015]
        >>> float(nearest_distances(1024, 2)[-1]) < 1e-4    # one pair: 710 is nearly 113 turns
        True
    """
    seq_len = check_size("seq_len", seq_len, MAX_NEAREST_LEN)
    d_model = check_size("d_model", d_model, MAX_NEAREST_WIDTH)
    pe = sinusoidal(seq_len, d_model, base)
    # G_pq = PE_p . PE_q, shape (seq_len, seq_len).
    squared = pe @ pe.T
    # |PE_p|^2, the diagonal of G, shape (seq_len,).
    norms = np.diag(squared).copy()
    # |PE_p - PE_q|^2 = |PE_p|^2 + |PE_q|^2 - 2 G_pq, in place over G.
    squared *= -2.0
    squared += norms[:, np.newaxis]
    squared += norms[np.newaxis, :]
    # Rounding can make a tiny distance slightly negative: clamp at 0.
    np.maximum(squared, 0.0, out=squared)
    # Keep only pairs p < q (above the diagonal); the rest can never be
    # the minimum.
    index = np.arange(seq_len)
    squared[index[:, np.newaxis] >= index[np.newaxis, :]] = np.inf
    # Column q: the squared distance from q to its closest earlier position.
    closest = squared.min(axis=0)
    # nearest[L - 1] = min over q <= L - 1 of closest[q]: a running minimum.
    return np.sqrt(np.minimum.accumulate(closest))


def concatenated(seq_len, d_model, base=DEFAULT_BASE):
    r"""
    The sinusoidal encoding in the layout of TensorFlow's Transformer
    tutorial: all the sines, then all the cosines,

    $$
    PE^{cat}_{pos} = \big(\sin pos\,\omega_0, \dots, \sin pos\,\omega_{h-1},\;
                          \cos pos\,\omega_0, \dots, \cos pos\,\omega_{c-1}\big),
    $$

    with the paper's frequencies $\omega_i = base^{-2i/d_{model}}$,
    $h = \lceil d_{model}/2 \rceil$ sines and $c = \lfloor d_{model}/2 \rfloor$
    cosines (for an odd `d_model` the last pair's cosine is dropped, as in
    `sinusoidal`).  The angles and their sines and cosines are computed as
    in `sinusoidal`, so the entries are the same numbers bit for bit, only
    in other columns (see `layout_permutation`).

    Args:
        seq_len: number of positions, an integer from 1 to `MAX_SEQ_LEN`.
        d_model: number of columns, an integer from 1 to `MAX_D_MODEL`;
            `seq_len * d_model` may not exceed `MAX_ELEMENTS`.
        base: a finite real number > 1.

    Returns:
        float64 array of shape `(seq_len, d_model)`.

    Example:
        >>> [round(v, 4) for v in concatenated(2, 4)[1].tolist()]
        [0.8415, 0.01, 0.5403, 1.0]
    """
    seq_len, d_model, base = check_table(seq_len, d_model, base)
    # pos * w_i for every (pos, i), shape (seq_len, ceil(d_model / 2)).
    omega = angular_frequencies(d_model, base)
    angles = np.arange(seq_len, dtype=np.float64)[:, np.newaxis] * omega[np.newaxis, :]
    # [sin(angles) | cos(angles)]: the h sines first, then the c cosines.
    sines = np.sin(angles)
    cosines = np.cos(angles[:, : d_model // 2])
    return np.concatenate([sines, cosines], axis=1)


def layout_permutation(d_model):
    r"""
    The column order that turns the interleaved layout into the
    concatenated one:

    $$
    perm = (0, 2, 4, \dots, \; 1, 3, 5, \dots), \qquad
    \text{sinusoidal}(\dots)[:, perm] = \text{concatenated}(\dots)
    $$

    exactly: column $j < h$ of the concatenated layout is sine column $2j$,
    and column $h + i$ is cosine column $2i + 1$ ($h = \lceil d_{model}/2
    \rceil$).  A permutation of the columns is an orthogonal linear map, so
    a model that reads one layout is the same model, up to a permutation of
    its dimensions, as one that reads the other (every weight that reads or
    writes those dimensions permuted to match): the two layouts carry the
    same information.  Its inverse is `np.argsort(perm)`.

    Args:
        d_model: number of columns, an integer from 1 to `MAX_D_MODEL`
            (odd too: the lone last sine goes at the end of the sines).

    Returns:
        int64 array of shape `(d_model,)`, a permutation of `range(d_model)`.

    Example:
        >>> layout_permutation(6).tolist()
        [0, 2, 4, 1, 3, 5]
    """
    d_model = check_size("d_model", d_model, MAX_D_MODEL)
    columns = np.arange(d_model, dtype=np.int64)
    # The even (sine) columns in order, then the odd (cosine) ones.
    return np.concatenate([columns[0::2], columns[1::2]])
