r"""
# Sinusoidal positional encoding

A Transformer's attention, without a causal mask, is blind to order:
permute the tokens and every token sees the same set of keys.
Vaswani et al. (2017, "Attention Is All You Need", section 3.5) fix this by
*adding* to each token embedding a vector that depends only on the token's
position `pos`:

$$
\begin{aligned}
PE_{pos, 2i}   &= \sin\Big(\frac{pos}{10000^{2i / d_{model}}}\Big) \\
PE_{pos, 2i+1} &= \cos\Big(\frac{pos}{10000^{2i / d_{model}}}\Big)
\end{aligned}
$$

Write $\omega_i = 10000^{-2i / d_{model}}$.  Column pair $(2i, 2i+1)$ is then
the point $(\sin \omega_i pos, \cos \omega_i pos)$ on the unit circle, turning
at angular frequency $\omega_i$ radians per position, so its wavelength is
$\lambda_i = 2\pi / \omega_i$.  The wavelengths form a geometric progression
from $2\pi$ (pair $i = 0$, which turns one radian per position) up to
$2\pi \cdot 10000^{1 - 2/d_{model}}$ for the last pair: almost
$10000 \cdot 2\pi$ in a wide model, but 628 at $d_{model} = 4$.  Because
$PE_{pos + k}$ is a rotation of $PE_{pos}$ pair by pair, with angles that do
not depend on $pos$, a relative offset $k$ is a linear function of the
encoding.  The paper gives this as the reason for the choice: its authors
hypothesised that it would let the model learn to attend by relative
position (a hope about trained models, not a property of the formula).

The constant 10000 is called `base` here and can be changed.

Besides the table (`sinusoidal`) the module gives the formula's terms for
one position (`formula_terms`), each pair's wave over real positions
(`pair_waves`) and its clock-hand angle (`clock_angles`), and the addition
itself, $x_{pos} + PE_{pos}$ (`add_positions`).

This module only needs numpy and `pelab.checks`, where the argument checks
and the limits they enforce (`MAX_SEQ_LEN`, `MAX_D_MODEL`, `MAX_ELEMENTS`)
are.
"""

import numpy as np

from .checks import (
    MAX_D_MODEL,
    MAX_ELEMENTS,
    MAX_SEQ_LEN,
    as_real_array,
    check_base,
    check_pairs,
    check_positions,
    check_product,
    check_size,
    check_table,
    describe,
    real_number,
    shape_of,
)

DEFAULT_BASE = 10000.0

# The largest finite float64, about 1.8e308.
MAX_FLOAT = float(np.finfo(np.float64).max)


def angular_frequencies(d_model, base=DEFAULT_BASE):
    r"""
    Angular frequency of each sine/cosine pair:
    $\omega_i = base^{-2i / d_{model}}$ for $i = 0, \dots, \lceil d_{model}/2 \rceil - 1$.

    For an odd `d_model` the last pair has only its sine column (see
    `sinusoidal`); its frequency is still listed.

    Args:
        d_model: model width, an integer from 1 to `MAX_D_MODEL`.
        base: a finite real number > 1 (10000 in the paper).

    Returns:
        float64 array of shape `(ceil(d_model / 2),)`, strictly decreasing,
        starting at 1.0.

    Example:
        >>> angular_frequencies(4).tolist()
        [1.0, 0.01]
    """
    d_model = check_size("d_model", d_model, MAX_D_MODEL)
    base = check_base(base)
    # 2i for each pair: 0, 2, 4, ..., one entry per sine column.
    two_i = np.arange(0, d_model, 2, dtype=np.float64)
    # w_i = base ** (-2i / d_model); the exponent divides by the real d_model,
    # odd or even.
    return np.power(base, -two_i / d_model)


def wavelengths(d_model, base=DEFAULT_BASE):
    r"""
    Wavelength of each sine/cosine pair, in positions:
    $\lambda_i = 2\pi / \omega_i = 2\pi \cdot base^{2i / d_{model}}$.

    Pair `i` repeats itself every $\lambda_i$ positions.  Since `base > 1`
    the wavelengths strictly increase with `i`, from $2\pi$ for `i = 0`.

    Every `base` is allowed, up to the largest double, but above
    `MAX_FLOAT / (2 pi)` (about 2.9e307) the longest wavelengths exceed the
    float range.  They are given as `MAX_FLOAT` (about 1.8e308) instead of
    inf: such a pair turns by less than 1e-302 radians over every position
    allowed, so as far as pelab can tell it never repeats at all.  (Only
    there do the wavelengths stop increasing strictly.)

    Args:
        d_model: model width, an integer from 1 to `MAX_D_MODEL`.
        base: a finite real number > 1.

    Returns:
        float64 array of shape `(ceil(d_model / 2),)`, finite.

    Example:
        >>> [round(x, 4) for x in wavelengths(4).tolist()]
        [6.2832, 628.3185]
    """
    omega = angular_frequencies(d_model, base)
    # 2 pi / w_i overflows (w_i below 2 pi / MAX_FLOAT) only for a base above MAX_FLOAT / (2 pi).
    with np.errstate(over="ignore"):
        lengths = 2.0 * np.pi / omega
    return np.minimum(lengths, MAX_FLOAT)


def sinusoidal(seq_len, d_model, base=DEFAULT_BASE):
    r"""
    The sinusoidal positional-encoding table of Vaswani et al. (2017):

    $$
    PE_{pos, 2i} = \sin(pos \cdot \omega_i), \qquad
    PE_{pos, 2i+1} = \cos(pos \cdot \omega_i), \qquad
    \omega_i = base^{-2i / d_{model}}
    $$

    with positions $pos = 0, 1, \dots, seq\_len - 1$.  Sine and cosine
    columns are interleaved (sin, cos, sin, cos, ...) as in the paper, not
    concatenated as some implementations do.

    **Odd `d_model`.**  The table has $\lceil d_{model}/2 \rceil$ pairs and
    the last column is the *sine* of the final pair
    $i = (d_{model} - 1) / 2$; that pair's cosine partner is dropped.  The
    result equals the first `d_model` columns of the `d_model + 1` column
    construction, **except** that every exponent $2i / d_{model}$ divides by
    the real, odd `d_model`, not by `d_model + 1`.  (So it is *not*
    `sinusoidal(seq_len, d_model + 1)[:, :d_model]`, whose frequencies are
    slightly different.)

    Args:
        seq_len: number of positions, an integer from 1 to `MAX_SEQ_LEN`.
        d_model: number of columns, an integer from 1 to `MAX_D_MODEL`.
        base: a finite real number > 1 (10000 in the paper).
        `seq_len * d_model` may not exceed `MAX_ELEMENTS`.

    Returns:
        float64 array of shape `(seq_len, d_model)`; row `pos` is the
        encoding of position `pos`, every value lies in [-1, 1].

    Raises:
        ValueError: if an argument is out of range; the message names it.

    Example:
        >>> pe = sinusoidal(3, 4)
        >>> pe.shape, pe.dtype
        ((3, 4), dtype('float64'))
        >>> pe[0].tolist()
        [0.0, 1.0, 0.0, 1.0]
        >>> [round(x, 4) for x in pe[1].tolist()]
        [0.8415, 0.5403, 0.01, 1.0]
    """
    seq_len, d_model, base = check_table(seq_len, d_model, base)

    # w_i, shape (ceil(d_model / 2),)
    omega = angular_frequencies(d_model, base)
    # pos, shape (seq_len,)
    positions = np.arange(seq_len, dtype=np.float64)
    # The angle pos * w_i for every (pos, i), shape (seq_len, ceil(d_model / 2)),
    # by broadcasting a column of positions against a row of frequencies.
    angles = positions[:, np.newaxis] * omega[np.newaxis, :]

    pe = np.empty((seq_len, d_model), dtype=np.float64)
    # Even columns 2i get sin(pos * w_i): there are ceil(d_model / 2) of them,
    # one per pair, so every angle column is used.
    np.sin(angles, out=pe[:, 0::2])
    # Odd columns 2i+1 get cos(pos * w_i): only floor(d_model / 2) of them, so
    # for odd d_model the last pair's cosine is dropped.
    np.cos(angles[:, : d_model // 2], out=pe[:, 1::2])
    return pe


# ---------------------------------------------------------------------------
# The formula term by term, its waves, and adding it to embeddings
# ---------------------------------------------------------------------------


def formula_terms(pos, d_model, base=DEFAULT_BASE):
    r"""
    Every intermediate term of the formula for one position, column by
    column, so that a readout can show the sum being worked:

    $$
    PE_{pos, j} =
    \begin{cases}
      \sin(pos / base^{2i / d_{model}}) & j = 2i \text{ (even)} \\
      \cos(pos / base^{2i / d_{model}}) & j = 2i + 1 \text{ (odd)}
    \end{cases}
    \qquad i = \lfloor j / 2 \rfloor
    $$

    The angle is computed as $pos \cdot \omega_i$ with $\omega_i$ from
    `angular_frequencies`, the same product `sinusoidal` uses, so `value`
    is row `pos` of the table (to the last bit or two).

    Args:
        pos: the position, an integer from 0 to `MAX_SEQ_LEN`.
        d_model: model width, an integer from 1 to `MAX_D_MODEL`.
        base: a finite real number > 1 (10000 in the paper).

    Returns:
        dict of arrays, each of shape `(d_model,)`:
            "j"         float64, the column index 0, 1, ..., d_model - 1;
            "i"         float64, the pair index floor(j / 2);
            "exponent"  float64, 2i / d_model;
            "angle"     float64, pos / base ** exponent, in radians;
            "value"     float64, sin(angle) for even j, cos(angle) for odd j;
            "is_sine"   bool, True for the even (sine) columns.

    Example:
        >>> terms = formula_terms(1, 4)
        >>> terms["exponent"].tolist()
        [0.0, 0.0, 0.5, 0.5]
        >>> [round(v, 4) for v in terms["value"].tolist()]
        [0.8415, 0.5403, 0.01, 1.0]
    """
    pos = check_size("pos", pos, MAX_SEQ_LEN, minimum=0)
    # w_i, one per pair, shape (ceil(d_model / 2),); checks d_model and base.
    omega = angular_frequencies(d_model, base)
    # j = 0, 1, ..., d_model - 1
    j = np.arange(d_model, dtype=np.float64)
    # i = floor(j / 2): columns 2i and 2i + 1 share pair i.
    i = np.floor(j / 2.0)
    # 2i / d_model, the exponent of base in the denominator.
    exponent = 2.0 * i / d_model
    # pos * w_i = pos / base^(2i / d_model), with w_i repeated for both
    # columns of its pair (the final repeat is cut off when d_model is odd).
    angle = pos * np.repeat(omega, 2)[:d_model]
    # Even columns take the sine, odd columns the cosine.
    is_sine = j % 2 == 0
    value = np.where(is_sine, np.sin(angle), np.cos(angle))
    return {
        "j": j,
        "i": i,
        "exponent": exponent,
        "angle": angle,
        "value": value,
        "is_sine": is_sine,
    }


def add_positions(x, base=DEFAULT_BASE):
    r"""
    Give a sequence of token embeddings its positions:
    $x'_{pos} = x_{pos} + PE_{pos}$ for $pos = 0, \dots, seq\_len - 1$.

    The encoding is *added*, not concatenated, so the width stays
    $d_{model}$: each row still has `d_model` numbers, now mixing what the
    token is with where it is.

    Args:
        x: array-like of shape `(seq_len, d_model)`, row `pos` the embedding
            of the token at position `pos`.
        base: a finite real number > 1 (10000 in the paper).

    Returns:
        float64 array of shape `(seq_len, d_model)`, the same shape as `x`.

    Raises:
        ValueError: if `x` is not a 2-D array of real numbers, or its sizes
            or `base` are out of range for `sinusoidal`.

    Example:
        >>> add_positions(np.zeros((2, 4))).tolist() == sinusoidal(2, 4).tolist()
        True
    """
    x = _check_rows("x", x, "(seq_len, d_model)")
    seq_len, d_model = x.shape
    # x + PE, row by row: row pos of PE is the encoding of position pos.
    return x + sinusoidal(seq_len, d_model, base)


def pair_waves(positions, d_model, base=DEFAULT_BASE, pairs=None):
    r"""
    The waves that pairs trace as position varies continuously:
    $\sin(pos \cdot \omega_i)$ and $\cos(pos \cdot \omega_i)$ for each chosen
    pair $i$, sampled at real positions (not only the integers), for
    drawing smooth curves.  Pair $i$ repeats every $\lambda_i = 2\pi/\omega_i$
    positions.

    For an odd `d_model` the last pair has no cosine column in the table
    (see `sinusoidal`); its cosine wave is still returned.

    Args:
        positions: array-like of real positions, shape `(n,)`, each from 0
            to `MAX_SEQ_LEN`.
        d_model: model width, an integer from 1 to `MAX_D_MODEL`.
        base: a finite real number > 1.
        pairs: distinct pair indices from 0 to ceil(d_model / 2) - 1, in the
            order wanted; `None` (the default) means every pair.
        `len(pairs) * n` may not exceed `MAX_ELEMENTS`.

    Returns:
        `(sin, cos)`, two float64 arrays of shape `(len(pairs), n)`; row `r`
        is pair `pairs[r]`.

    Example:
        >>> sin, cos = pair_waves([0.0, 0.5, 1.0], 4, pairs=[0])
        >>> [round(v, 4) for v in sin[0].tolist()]
        [0.0, 0.4794, 0.8415]
    """
    # w_i for every pair; checks d_model and base.
    omega = angular_frequencies(d_model, base)
    pairs = check_pairs(pairs, len(omega))
    positions = check_positions(positions)
    check_product(
        "len(pairs) * len(positions)", (len(pairs), len(positions)), MAX_ELEMENTS, total=False
    )
    # The angle pos * w_i: one row per chosen pair, one column per position.
    angles = omega[pairs][:, np.newaxis] * positions[np.newaxis, :]
    return np.sin(angles), np.cos(angles)


def clock_angles(pos, d_model, base=DEFAULT_BASE):
    r"""
    Where each pair's "clock hand" points at position `pos`: the angle
    $pos \cdot \omega_i \bmod 2\pi$, in $[0, 2\pi)$.

    Pair $i$ is the point $(\sin \theta_i, \cos \theta_i)$ with
    $\theta_i = pos \cdot \omega_i$; like the hands of a clock, pair 0 turns
    fastest (one radian per position) and later pairs ever more slowly, and
    together the hands give each position its own reading.

    Args:
        pos: a real position from 0 to `MAX_SEQ_LEN` (fractions allowed).
        d_model: model width, an integer from 1 to `MAX_D_MODEL`.
        base: a finite real number > 1.

    Returns:
        float64 array of shape `(ceil(d_model / 2),)`, each in [0, 2 pi).

    Example:
        >>> [round(a, 4) for a in clock_angles(7, 4).tolist()]
        [0.7168, 0.07]
    """
    pos = _check_position("pos", pos)
    # theta_i = pos * w_i, wrapped to one turn: theta_i - 2 pi floor(theta_i / 2 pi).
    return np.mod(pos * angular_frequencies(d_model, base), 2.0 * np.pi)

# ---------------------------------------------------------------------------
# Argument checks used only here
# ---------------------------------------------------------------------------


def _check_rows(name, value, shape):
    """
    Check that `value` is a 2-D array of real numbers, one row per position
    (empty rows, NaN and infinities allowed).

    Args:
        name: parameter name to put in the error message.
        value: the array-like to check.
        shape: the expected shape in words, e.g. "(seq_len, d_model)".

    Returns:
        `value` as a float64 numpy array.

    Raises:
        ValueError: "<name> must be a 2-D array of shape <shape>, got ...".
    """
    array = as_real_array(value)
    if array is None or array.ndim != 2:
        raise ValueError(f"{name} must be a 2-D array of shape {shape}, got {shape_of(array)}")
    return array


def _check_position(name, value):
    """
    Check that `value` is a real position: a number from 0 to `MAX_SEQ_LEN`
    (fractions allowed).

    Returns:
        `value` as a Python float.

    Raises:
        ValueError: "<name> must be a real number from 0 to <MAX_SEQ_LEN>, got <value>".
    """
    number = real_number(value)
    if number is not None and 0.0 <= number <= MAX_SEQ_LEN:  # False for NaN
        return number
    raise ValueError(
        f"{name} must be a real number from 0 to {MAX_SEQ_LEN}, got {describe(value)}"
    )
