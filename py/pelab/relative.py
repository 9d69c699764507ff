r"""
# A relative position is a linear map

Vaswani et al. (2017, section 3.5) chose the sinusoidal encoding because
"for any fixed offset $k$, $PE_{pos+k}$ can be represented as a linear
function of $PE_{pos}$".  Here is that function, written out.

Column pair $(2i, 2i+1)$ of $PE_{pos}$ is $(\sin a, \cos a)$ with
$a = pos \cdot \omega_i$.  Moving $k$ positions on adds $b = k \omega_i$ to
the angle, and the angle-addition formulas

$$
\begin{aligned}
\sin(a + b) &= \phantom{-}\cos b \, \sin a + \sin b \, \cos a \\
\cos(a + b) &= -\sin b \, \sin a + \cos b \, \cos a
\end{aligned}
$$

say that the new pair is the old one times a $2 \times 2$ rotation whose
entries depend on $k$ and $\omega_i$ but **not on** $pos$:

$$
\begin{pmatrix} PE_{pos+k,\,2i} \\ PE_{pos+k,\,2i+1} \end{pmatrix}
=
\begin{pmatrix} \cos k\omega_i & \sin k\omega_i \\ -\sin k\omega_i & \cos k\omega_i \end{pmatrix}
\begin{pmatrix} PE_{pos,\,2i} \\ PE_{pos,\,2i+1} \end{pmatrix}.
$$

Stacking one such block per pair along the diagonal gives a
$d_{model} \times d_{model}$ matrix $M_k$ with $PE_{pos+k} = M_k PE_{pos}$
for every $pos$ (`rotation`).  It is block-diagonal in the paper's
interleaved layout; in the concatenated layout (all sines, then all
cosines) it is the same map with its rows and columns permuted.  Being made
of rotations, $M_k$ is orthogonal, $M_0 = I$ and $M_a M_b = M_{a+b}$:
offsets compose like additions.

Two experiments show that this needs *both* columns of each pair:

* fitting a linear map from $PE_{pos}$ to $PE_{pos+k}$ by least squares
  (`fit_shift`) finds one that is exact to rounding, and the map learned on
  early positions is the map learned on later ones (`map_independence`);
* fitting from the sine columns alone to the later sine columns fails
  badly: $\sin(a + b)$ needs $\cos a$, which the sines do not hold.  At
  $pos = 0$ every sine is 0, so any linear map sends it to 0, while the
  sines of $PE_k$ are not: the error is at least $\max_i |\sin k\omega_i|$.

**Positions used.**  Every function here compares $PE_{pos}$ with
$PE_{pos+k}$ for `seq_len` consecutive positions $pos = s, \dots,
s + seq\_len - 1$ starting at $s = \max(0, -k)$, so that both $pos$ and
$pos + k$ are real positions $\ge 0$ even for a negative $k$.

**Odd `d_model`.**  The last column is then a lone sine with no cosine
partner (see `sinusoidal`), and no matrix can move it exactly: its shifted
value needs the missing cosine.  `rotation` leaves that column unchanged
(diagonal entry 1), which keeps $M_k$ orthogonal and $M_a M_b = M_{a+b}$;
`relative_residual` then reports the error this leaves, up to
$|\sin((pos+k)\omega) - \sin(pos\,\omega)| \le \min(2, |k| \omega)$ for that
column's frequency $\omega$.
"""

import math
from dataclasses import dataclass

import numpy as np

from .checks import MAX_SEQ_LEN, check_base, check_matrix, check_size, check_table
from .positional_encoding import DEFAULT_BASE, angular_frequencies

# Largest d_model for a dense d_model x d_model matrix: 1024 x 1024 float64
# is 8 MB.
MAX_ROTATION_WIDTH = 1024
# Largest offset |k|: as far as the longest table reaches.
MAX_OFFSET = MAX_SEQ_LEN
# Fewest positions for `map_independence`: each half needs at least two
# positions to pin down a 2 x 2 block.
MIN_HALVES_LEN = 4


def rotation(k, d_model, base=DEFAULT_BASE):
    r"""
    The matrix $M_k$ that moves a sinusoidal encoding $k$ positions on:
    $PE_{pos+k} = M_k \, PE_{pos}$ for every $pos$.

    $M_k$ is block diagonal, one $2 \times 2$ block per pair acting on
    $(PE_{2i}, PE_{2i+1}) = (\sin, \cos)$:

    $$
    M_k[2i{:}2i{+}2,\; 2i{:}2i{+}2] =
    \begin{pmatrix}
      \cos k\omega_i & \sin k\omega_i \\
      -\sin k\omega_i & \cos k\omega_i
    \end{pmatrix},
    \qquad \omega_i = base^{-2i / d_{model}},
    $$

    and zero off the blocks.  For an odd `d_model` the lone last sine
    column gets a 1 on the diagonal (it is left unchanged; no matrix can
    shift it exactly, see the module notes).

    Args:
        k: the offset, an integer from -`MAX_OFFSET` to `MAX_OFFSET`
            (negative moves back).
        d_model: model width, an integer from 1 to `MAX_ROTATION_WIDTH`.
        base: a finite real number > 1 (10000 in the paper).

    Returns:
        float64 array of shape `(d_model, d_model)`, orthogonal.

    Raises:
        ValueError: if an argument is out of range; the message names it.

    Example:
        >>> m = rotation(1, 2)          # one pair, turned by 1 radian
        >>> [[round(v, 4) for v in row] for row in m.tolist()]
        [[0.5403, 0.8415], [-0.8415, 0.5403]]
        >>> from pelab import sinusoidal
        >>> pe = sinusoidal(8, 6)
        >>> bool(np.allclose(pe[5], rotation(3, 6) @ pe[2], rtol=0, atol=1e-12))
        True
    """
    k = check_size("k", k, MAX_OFFSET, minimum=-MAX_OFFSET)
    d_model = check_size("d_model", d_model, MAX_ROTATION_WIDTH)
    base = check_base(base)

    # b_i = k * w_i, the angle each full pair turns by; a lone last sine
    # (odd d_model) has no pair, so only the first floor(d_model / 2) count.
    n_pairs = d_model // 2
    turn = k * angular_frequencies(d_model, base)[:n_pairs]
    cos_b, sin_b = np.cos(turn), np.sin(turn)
    # Index 2i of each pair's sine column; 2i + 1 is its cosine.
    sine = 2 * np.arange(n_pairs)
    cosine = sine + 1

    m = np.zeros((d_model, d_model), dtype=np.float64)
    # New sine:   sin(a + b) =  cos b * sin a + sin b * cos a
    m[sine, sine] = cos_b
    m[sine, cosine] = sin_b
    # New cosine: cos(a + b) = -sin b * sin a + cos b * cos a
    m[cosine, sine] = -sin_b
    m[cosine, cosine] = cos_b
    if d_model % 2 == 1:
        # The lone sine keeps its value: the identity there, the best an
        # orthogonal map can do without the cosine partner.
        m[d_model - 1, d_model - 1] = 1.0
    return m


def _shifted_rows(k, seq_len, d_model, base):
    r"""
    $PE_{pos}$ and $PE_{pos+k}$ for $pos = s, \dots, s + seq\_len - 1$ with
    $s = \max(0, -k)$.

    The rows are computed at just these positions with `sinusoidal`'s own
    arithmetic (the angle $pos \cdot \omega_i$, then its sine and cosine),
    so they are the very rows of `sinusoidal`'s table, without building the
    $|k|$ rows in between.

    Returns:
        `(positions, now, later)`: int64 `(seq_len,)` and two float64
        arrays of shape `(seq_len, d_model)`; row `r` of `later` is the
        encoding of `positions[r] + k`.
    """
    k = check_size("k", k, MAX_OFFSET, minimum=-MAX_OFFSET)
    seq_len, d_model, base = check_table(seq_len, d_model, base, max_d_model=MAX_ROTATION_WIDTH)
    # s = max(0, -k): start late enough that pos + k >= 0.
    start = max(0, -k)
    positions = np.arange(start, start + seq_len, dtype=np.int64)
    omega = angular_frequencies(d_model, base)
    return positions, _rows_at(positions, omega, d_model), _rows_at(positions + k, omega, d_model)


def _rows_at(positions, omega, d_model):
    """Rows `positions` of the sinusoidal table, by the formula of `sinusoidal`."""
    # pos * w_i for every (pos, i), as in `sinusoidal`.
    angles = positions.astype(np.float64)[:, np.newaxis] * omega[np.newaxis, :]
    pe = np.empty((len(positions), d_model), dtype=np.float64)
    # Even columns 2i: sin(pos w_i); odd columns 2i + 1: cos(pos w_i).
    np.sin(angles, out=pe[:, 0::2])
    np.cos(angles[:, : d_model // 2], out=pe[:, 1::2])
    return pe


def sinusoidal_by_rotation(seq_len, d_model, base=DEFAULT_BASE, *, clip=True):
    r"""
    The sinusoidal table again, built the way this module says it can be:
    from a few rows and the rotations between them.

    Positions are cut into blocks of $B = \lceil \sqrt{seq\_len} \rceil$,
    $pos = aB + b$ with $0 \le b < B$.  Only the block starts $aB$ and the
    offsets $b$ get sines and cosines of their own; every other row is its
    block's start row turned by the offset, $PE_{aB + b} = M_b \, PE_{aB}$,
    pair by pair with the angle-addition formulas above:

    $$
    \begin{aligned}
    \sin(aB\omega_i + b\omega_i)
      &= \sin(aB\omega_i)\cos(b\omega_i) + \cos(aB\omega_i)\sin(b\omega_i) \\
    \cos(aB\omega_i + b\omega_i)
      &= \cos(aB\omega_i)\cos(b\omega_i) - \sin(aB\omega_i)\sin(b\omega_i)
    \end{aligned}
    $$

    For 512 positions that is 23 + 23 rows of sines and cosines instead of
    512, then four products and two sums per pair: about three times faster
    than `sinusoidal` in the browser, so the heatmap demo draws this table
    while a slider is dragged.

    **The same table up to rounding.**  `sinusoidal` rounds each angle
    $pos \cdot \omega_i$ before its sine; this rounds $aB\omega_i$ and
    $b\omega_i$ instead, and the products and sums after them (a numpy
    that fuses a product and a sum rounds once less, so the last bit can
    differ between machines).  The two tables differ by at most
    $2^{-52} (seq\_len + 4)$, below 1.2e-13 for 512 positions: thousands of
    times smaller than a colour step of the map or the last digit the page
    shows.  The first $B$ rows and every block
    start are exactly `sinusoidal`'s.

    Args:
        seq_len: number of positions, an integer from 1 to `MAX_SEQ_LEN`.
        d_model: number of columns, an integer from 1 to `MAX_D_MODEL`.
        base: a finite real number > 1 (10000 in the paper).
        `seq_len * d_model` may not exceed `MAX_ELEMENTS`.
        clip: keep every value in [-1, 1].  A rounded sum of two products
            can step past +-1 by an ulp or two (below 1e-15), where sine
            and cosine cannot; `clip=False` leaves those values as they
            came and saves a pass over the table, for a caller that only
            colours it (see `pelab.browser.demos.heatmap`).

    Returns:
        float64 array of shape `(seq_len, d_model)`, C-contiguous, laid out
        like `sinusoidal`'s (odd `d_model`: the last column is a lone sine);
        every value lies in [-1, 1] (with `clip=False`, within 1e-15 of it).

    Raises:
        ValueError: if an argument is out of range; the message names it.

    Example:
        >>> from pelab import sinusoidal
        >>> pe = sinusoidal_by_rotation(512, 64)
        >>> float(np.max(np.abs(pe - sinusoidal(512, 64)))) < 1.2e-13
        True
    """
    seq_len, d_model, base = check_table(seq_len, d_model, base)
    omega = angular_frequencies(d_model, base)
    pairs = len(omega)  # ceil(d_model / 2): an odd d_model's lone sine gets a pair here, cut below
    # B = ceil(sqrt(seq_len)) rows per block, and enough blocks to cover seq_len.
    block = math.isqrt(seq_len - 1) + 1
    n_blocks = -(-seq_len // block)
    # The exact rows: angles a*B*w_i at the block starts, shape (blocks, pairs),
    # and b*w_i at the offsets, shape (B, pairs), each rounded once as in `sinusoidal`.
    starts = (np.arange(n_blocks, dtype=np.float64) * block)[:, np.newaxis] * omega
    offsets = np.arange(block, dtype=np.float64)[:, np.newaxis] * omega

    # A pair (sin x, cos x) side by side in memory is the complex number
    # sin x + i cos x = i e^(-ix), and turning it by b is one complex product:
    # i e^(-ia) * e^(-ib) = i e^(-i(a + b)).  Written out, that product is the
    # angle-addition formulas above, four real products and two sums, in one pass.
    turned_starts = np.empty((n_blocks, 1, pairs), dtype=np.complex128)
    turned_starts.real[:, 0] = np.sin(starts)
    turned_starts.imag[:, 0] = np.cos(starts)
    turns = np.empty((block, pairs), dtype=np.complex128)  # e^(-ib) = cos b - i sin b
    turns.real = np.cos(offsets)
    np.negative(np.sin(offsets), out=turns.imag)
    # (blocks, B, 2 pairs): row b of block a is position a*B + b.
    pe = np.empty((n_blocks, block, 2 * pairs), dtype=np.float64)
    np.multiply(turned_starts, turns, out=pe.view(np.complex128))
    if clip:
        # A sum of two rounded products can step past +-1 by 2^-52, where sin and cos cannot.
        np.clip(pe, -1.0, 1.0, out=pe)
    # The last block may run past seq_len, and an odd d_model has no last cosine: both are dropped.
    pe = pe.reshape(n_blocks * block, 2 * pairs)[:seq_len]
    return pe if 2 * pairs == d_model else np.ascontiguousarray(pe[:, :d_model])


def relative_residual(k, seq_len, d_model, base=DEFAULT_BASE):
    r"""
    How exactly $M_k$ moves the encoding on:

    $$
    \max_{pos} \max_j \big| PE_{pos+k} - M_k PE_{pos} \big|_j
    $$

    over `seq_len` positions $pos = s, \dots, s + seq\_len - 1$,
    $s = \max(0, -k)$.

    For an even `d_model` this is rounding error only.  It grows slowly
    with the angles involved, since $pos \cdot \omega_i$ is rounded to
    about $2^{-52} \cdot pos$: it stays below 1e-12 for positions up to a
    few thousand (about 1e-13 for `seq_len` 512 and $|k| \le 100$), and is
    roughly $(s + seq\_len + |k|) \cdot 10^{-16}$ beyond.  For an odd
    `d_model` it also holds the lone sine column's real error, up to
    $\min(2, |k|\,\omega_{last})$.

    Args:
        k: the offset, an integer from -`MAX_OFFSET` to `MAX_OFFSET`.
        seq_len: how many positions to check, an integer from 1 to
            `MAX_SEQ_LEN`; `seq_len * d_model` may not exceed `MAX_ELEMENTS`.
        d_model: model width, an integer from 1 to `MAX_ROTATION_WIDTH`.
        base: a finite real number > 1.

    Returns:
        a float >= 0.

    Example:
        >>> relative_residual(5, 64, 16) < 1e-12
        True
        >>> relative_residual(5, 64, 15) > 1e-6   # odd: the lone sine cannot follow
        True
    """
    _, now, later = _shifted_rows(k, seq_len, d_model, base)
    m = rotation(k, d_model, base)
    # M_k PE_pos for every row at once: (M PE^T)^T = PE M^T.
    mapped = now @ m.T
    return float(np.max(np.abs(later - mapped)))


def fit_shift(features_now, features_later):
    r"""
    The least-squares linear map from one set of features to another:

    $$
    M = \arg\min_M \sum_r \big\| y_r - M x_r \big\|^2, \qquad
    Y \approx X M^\top,
    $$

    with rows $x_r$ of `features_now` and $y_r$ of `features_later`
    (`numpy.linalg.lstsq`; when the rows do not determine $M$, the
    smallest such $M$).  The residual says whether *some* linear map fits.

    Used on full encoding rows (later = $PE_{pos+k}$, now = $PE_{pos}$) the
    residual is rounding error, about 1e-14: the map exists.  Used on the
    sine columns only it is large (at least $\max_i |\sin k\omega_i|$, from
    $pos = 0$ where all sines are 0): without the cosines there is no map.

    Args:
        features_now: array-like `(n, p)` of finite numbers, one row per
            example.
        features_later: array-like `(n, q)`, the same number of rows.

    Returns:
        `(M, residual)`: float64 `(q, p)`, and the float
        $\max |X M^\top - Y|$.

    Raises:
        ValueError: if an argument is not a non-empty 2-D finite array, or
            the row counts differ.

    Example:
        >>> x = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
        >>> m, residual = fit_shift(x, x[:, ::-1])      # swapping the columns
        >>> swap = [[0.0, 1.0], [1.0, 0.0]]
        >>> bool(np.allclose(m, swap, rtol=0, atol=1e-12)), residual < 1e-12
        (True, True)

        (The fit is exact only up to rounding: a least-squares solver may
        return `-0.0` or `1e-17` where the map has 0, depending on the
        machine, so compare with a tolerance rather than print `m`.)
    """
    x = check_matrix("features_now", features_now)
    y = check_matrix("features_later", features_later)
    if x.shape[0] != y.shape[0]:
        raise ValueError(
            "features_now and features_later must have the same number of rows, "
            f"got {x.shape[0]} and {y.shape[0]}"
        )
    # lstsq solves X B ~ Y for B of shape (p, q); the map is M = B^T, so
    # that y_r ~ M x_r.
    solution = np.linalg.lstsq(x, y, rcond=None)[0]
    m = solution.T
    residual = np.max(np.abs(x @ solution - y))
    return m, float(residual)


def map_independence(k, seq_len, d_model, base=DEFAULT_BASE):
    r"""
    Does the map depend on where it is learned?  Fit it on the first half
    of the positions and on the second half, and compare:

    $$
    \max \big| M^{(first)} - M^{(second)} \big|.
    $$

    Each half fits the map **pair by pair**: the $2 \times 2$ block taking
    $(PE_{pos,2i}, PE_{pos,2i+1})$ to $(PE_{pos+k,2i}, PE_{pos+k,2i+1})$,
    with `fit_shift` on those two columns, and the blocks are assembled
    into a block-diagonal $d_{model} \times d_{model}$ matrix.  (A full
    $d_{model} \times d_{model}$ fit is not pinned down by a few dozen
    positions: the slow pairs barely turn there, so their columns are
    nearly linearly dependent, the fit is ill-conditioned, and two fits
    that both reproduce the data to 1e-14 can differ by 0.1 in their
    entries.  Each pair's own two columns stay well conditioned.)

    For an even `d_model` both halves find $M_k$ itself and the result is
    rounding error, below 1e-9 for ordinary settings (it grows like
    $2^{-52} / (\omega_{min} \cdot seq\_len)$ when the slowest pair
    barely moves).  For an odd `d_model` the lone sine is fitted on its
    own (a $1 \times 1$ block), cannot be exact, and its best coefficient
    differs between the halves: a clearly positive result.

    Args:
        k: the offset, an integer from -`MAX_OFFSET` to `MAX_OFFSET`.
        seq_len: positions $pos = s, \dots, s + seq\_len - 1$ with
            $s = \max(0, -k)$, split into the first `seq_len // 2` and the
            rest; an integer from `MIN_HALVES_LEN` to `MAX_SEQ_LEN`.
        d_model: model width, an integer from 1 to `MAX_ROTATION_WIDTH`.
        base: a finite real number > 1.

    Returns:
        a float >= 0.

    Example:
        >>> map_independence(5, 64, 16) < 1e-9
        True
    """
    seq_len = check_size("seq_len", seq_len, MAX_SEQ_LEN, minimum=MIN_HALVES_LEN)
    _, now, later = _shifted_rows(k, seq_len, d_model, base)
    half = seq_len // 2
    first = _blockwise_fit(now[:half], later[:half])
    second = _blockwise_fit(now[half:], later[half:])
    return float(np.max(np.abs(first - second)))


def _blockwise_fit(now, later):
    """The block-diagonal map fitted pair by pair: columns (2i, 2i + 1) to the same columns."""
    d_model = now.shape[1]
    m = np.zeros((d_model, d_model), dtype=np.float64)
    for start in range(0, d_model, 2):
        # Pair i = start / 2: columns 2i and 2i + 1 (only 2i for a lone sine).
        block = slice(start, min(start + 2, d_model))
        m[block, block] = fit_shift(now[:, block], later[:, block])[0]
    return m


@dataclass(frozen=True, eq=False)
class RelativeShift:
    """
    The result of `relative_shift`: the encoding moved on by `k`
    positions, three ways.  `n` is `seq_len`, `d` is `d_model`.

    Attributes:
        k: the offset.
        rotation: float64 (d, d), the matrix M_k.
        positions: int64 (n,), pos = s .. s + n - 1 with s = max(0, -k).
        now: float64 (n, d), PE(pos) for each of `positions`.
        later: float64 (n, d), PE(pos + k).
        mapped: float64 (n, d), M_k PE(pos): equals `later` up to rounding
            (except a lone sine column for odd d).
        residual: max |later - mapped| (`relative_residual`).
        full_fit_residual: residual of `fit_shift(now, later)`: about 1e-14.
        sine_only_residual: residual of `fit_shift` on the sine (even)
            columns only: large, at least max_i |sin(k w_i)|.
        independence: `map_independence`: the maps fitted on the two
            halves agree.
    """

    k: int
    rotation: np.ndarray
    positions: np.ndarray
    now: np.ndarray
    later: np.ndarray
    mapped: np.ndarray
    residual: float
    full_fit_residual: float
    sine_only_residual: float
    independence: float


def relative_shift(k, seq_len=64, d_model=16, base=DEFAULT_BASE):
    r"""
    The whole demonstration that "$k$ positions later" is one matrix:
    $M_k$, how well it maps $PE_{pos}$ to $PE_{pos+k}$, a least-squares fit
    with and without the cosine columns, and the fits on the two halves.

    Args:
        k: the offset, an integer from -`MAX_OFFSET` to `MAX_OFFSET`.
        seq_len: the number of positions, an integer from `MIN_HALVES_LEN`
            to `MAX_SEQ_LEN`; `seq_len * d_model` may not exceed
            `MAX_ELEMENTS`.
        d_model: model width, an integer from 1 to `MAX_ROTATION_WIDTH`.
        base: a finite real number > 1.

    Returns:
        a `RelativeShift`.

    Example:
        >>> shift = relative_shift(3, seq_len=32, d_model=8)
        >>> shift.residual < 1e-12, shift.full_fit_residual < 1e-12
        (True, True)
        >>> shift.sine_only_residual > 0.1
        True
    """
    seq_len = check_size("seq_len", seq_len, MAX_SEQ_LEN, minimum=MIN_HALVES_LEN)
    positions, now, later = _shifted_rows(k, seq_len, d_model, base)
    k = int(k)  # checked by _shifted_rows
    m = rotation(k, d_model, base)
    # M_k PE_pos for each row: PE M_k^T.
    mapped = now @ m.T
    # A linear map from all columns exists ...
    _, full_fit = fit_shift(now, later)
    # ... but not from the sines (even columns) to the later sines.
    _, sine_only = fit_shift(now[:, 0::2], later[:, 0::2])
    return RelativeShift(
        k=k,
        rotation=m,
        positions=positions,
        now=now,
        later=later,
        mapped=mapped,
        residual=float(np.max(np.abs(later - mapped))),
        full_fit_residual=full_fit,
        sine_only_residual=sine_only,
        independence=map_independence(k, seq_len, d_model, base),
    )
