r"""
# Sinusoidal positional encoding

A Transformer's attention is blind to order: permute the tokens and every
token sees the same set of keys.  Vaswani et al. (2017, "Attention Is All You
Need", section 3.5) fix this by *adding* to each token embedding a vector that
depends only on the token's position `pos`:

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
from $2\pi$ (pair $i = 0$, which turns one radian per position) up to almost
$10000 \cdot 2\pi$ (the last pair, which barely moves).  Because
$PE_{pos + k}$ is a rotation of $PE_{pos}$ pair by pair, with angles that do
not depend on $pos$, a relative offset $k$ is a linear function of the
encoding, which the paper gives as the reason for this choice.

The constant 10000 is called `base` here and can be changed.

This module only needs numpy.  It also holds the argument checks that the
rest of `pelab` shares: `check_size` and `check_base`.
"""

import math
import numbers

import numpy as np

# Largest sequence length accepted: more rows than a lesson can show.
MAX_SEQ_LEN = 100_000
# Largest model width accepted.
MAX_D_MODEL = 100_000
# Largest table, in elements (float64: 400 MB), so that a typo such as
# seq_len=100000, d_model=100000 fails at once instead of exhausting memory.
MAX_ELEMENTS = 50_000_000

DEFAULT_BASE = 10000.0


def check_size(name, value, maximum, minimum=1):
    """
    Check that `value` is an integer from `minimum` to `maximum` inclusive.

    Python `int` and numpy integers are accepted.  `bool` is refused although
    it is an `int` subclass (`True` is not a length), and so is any float,
    even an integral one such as `4.0`, so that a computed size that is not
    an integer is reported instead of silently truncated.

    Args:
        name: parameter name to put in the error message.
        value: the value to check.
        maximum: largest allowed value.
        minimum: smallest allowed value (default 1).

    Returns:
        `value` as a Python `int`.

    Raises:
        ValueError: "<name> must be an integer from <minimum> to <maximum>,
            got <value>".
    """
    if _is_number(value, numbers.Integral) and minimum <= value <= maximum:
        return int(value)
    raise ValueError(
        f"{name} must be an integer from {minimum} to {maximum}, "
        f"got {_describe(value)}"
    )


def check_base(value):
    """
    Check that `value` is a usable base: a finite real number greater than 1.

    `base` must exceed 1 so that the frequencies $\\omega_i = base^{-2i/d}$
    strictly decrease (and the wavelengths strictly increase) with `i`;
    `base = 1` would give every pair the same frequency.

    Args:
        value: an `int`, `float` or numpy real scalar (not `bool`, not `str`).

    Returns:
        `value` as a Python `float`.

    Raises:
        ValueError: "base must be a finite real number greater than 1,
            got <value>".
    """
    if _is_number(value, numbers.Real):
        try:
            number = float(value)
        except OverflowError:  # an int beyond the float range
            number = math.inf
        if math.isfinite(number) and number > 1:
            return number
    raise ValueError(
        f"base must be a finite real number greater than 1, got {_describe(value)}"
    )


def _is_number(value, kind):
    """True if `value` is an instance of the `numbers` ABC `kind` but not a bool."""
    return isinstance(value, kind) and not isinstance(value, (bool, np.bool_))


def _describe(value):
    """Show a rejected value briefly: `0`, `2.5`, `nan`, `'4'`, `None`."""
    if _is_number(value, numbers.Integral):
        value = int(value)
        # str() of an int with thousands of digits is slow or refused.
        return str(value) if value.bit_length() <= 64 else "an integer beyond 64 bits"
    if isinstance(value, (float, np.floating)):
        return str(float(value))  # 2.5 and nan, not np.float64(2.5)
    return repr(value)


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

    Args:
        d_model: model width, an integer from 1 to `MAX_D_MODEL`.
        base: a finite real number > 1.

    Returns:
        float64 array of shape `(ceil(d_model / 2),)`.

    Example:
        >>> [round(x, 4) for x in wavelengths(4).tolist()]
        [6.2832, 628.3185]
    """
    return 2.0 * np.pi / angular_frequencies(d_model, base)


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
    seq_len = check_size("seq_len", seq_len, MAX_SEQ_LEN)
    d_model = check_size("d_model", d_model, MAX_D_MODEL)
    base = check_base(base)
    if seq_len * d_model > MAX_ELEMENTS:
        raise ValueError(
            f"seq_len * d_model must be at most {MAX_ELEMENTS}, "
            f"got {seq_len} * {d_model} = {seq_len * d_model}"
        )

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
