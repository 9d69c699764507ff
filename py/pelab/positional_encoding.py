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

Besides the table (`sinusoidal`) the module gives the formula's terms for
one position (`formula_terms`), each pair's wave over real positions
(`pair_waves`) and its clock-hand angle (`clock_angles`), and the addition
itself, $x_{pos} + PE_{pos}$ (`add_positions`).

This module only needs numpy.  It also holds the argument checks that the
rest of `pelab` shares: `check_size`, `check_base`, `check_table`,
`check_matrix`, `check_pairs`, and the conversions under them,
`real_number`, `as_real_array` and `read_items`.
"""

import itertools
import math
import numbers
import reprlib

import numpy as np

# Largest sequence length accepted: more rows than a lesson can show.
MAX_SEQ_LEN = 100_000
# Largest model width accepted.
MAX_D_MODEL = 100_000
# Largest table, in elements (float64: 400 MB), so that a typo such as
# seq_len=100000, d_model=100000 fails at once instead of exhausting memory.
MAX_ELEMENTS = 50_000_000

DEFAULT_BASE = 10000.0

# The largest finite float64, about 1.8e308.
MAX_FLOAT = float(np.finfo(np.float64).max)


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
        f"got {describe(value)}"
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
    number = real_number(value)
    if number is not None and math.isfinite(number) and number > 1:
        return number
    raise ValueError(
        f"base must be a finite real number greater than 1, got {describe(value)}"
    )


def check_table(seq_len, d_model, base, max_d_model=MAX_D_MODEL):
    """
    Check the arguments of a (seq_len, d_model) encoding table; d_model may be
    capped lower than `MAX_D_MODEL` by a caller that builds d_model x d_model.

    Returns:
        (seq_len, d_model, base) as (int, int, float).

    Raises:
        ValueError: naming the parameter, or the product when the table would
            exceed `MAX_ELEMENTS` values.
    """
    seq_len = check_size("seq_len", seq_len, MAX_SEQ_LEN)
    d_model = check_size("d_model", d_model, max_d_model)
    base = check_base(base)
    if seq_len * d_model > MAX_ELEMENTS:
        raise ValueError(
            f"seq_len * d_model must be at most {MAX_ELEMENTS}, "
            f"got {seq_len} * {d_model} = {seq_len * d_model}"
        )
    return seq_len, d_model, base


def check_matrix(name, value):
    """
    Check that `value` is a non-empty 2-D array of finite numbers.

    Returns:
        `value` as a float64 numpy array.

    Raises:
        ValueError: "<name> must be a non-empty 2-D array of finite numbers, got ...".
    """
    array = as_real_array(value)
    if array is not None and array.ndim == 2 and array.size > 0 and np.isfinite(array).all():
        return array
    shape = "not an array of real numbers" if array is None else f"shape {array.shape}"
    raise ValueError(f"{name} must be a non-empty 2-D array of finite numbers, got {shape}")


def real_number(value):
    """
    `value` as a Python float if it is one real number: an `int`, `float`,
    `Fraction` or numpy real scalar, but not a `bool`, and not an array
    (not even one of one element).  An int beyond the float range becomes
    inf or -inf, for the caller's range check to refuse by name.

    Returns:
        a float, or None if `value` is not a real number.
    """
    if not _is_number(value, numbers.Real):
        return None
    try:
        return float(value)
    except OverflowError:  # an int beyond the float range
        return math.inf if value > 0 else -math.inf


def as_real_array(value):
    """
    `value` (a number or a nested sequence or array of them) as a float64
    numpy array, without copying one that already is.

    Returns None, for the caller to refuse by name, instead of letting numpy
    raise its own error or warning: for strings that are not numbers,
    ragged lists, ints beyond the float range, and complex numbers (which a
    cast to float64 would silently replace by their real parts).
    """
    try:
        array = np.asarray(value)
        if array.dtype.kind == "c" or (
            array.dtype == object
            and any(isinstance(v, (complex, np.complexfloating)) for v in array.flat)
        ):
            return None
        return array.astype(np.float64, copy=False)
    except (TypeError, ValueError, OverflowError):
        return None


def read_items(values, limit):
    """
    The items of the iterable `values` as a list, or None if it is not
    iterable or holds more than `limit` items.

    The length of a sized `values` is checked before anything is read, and
    at most `limit + 1` items are read from any other iterable, so that
    `range(10**9)` is refused at once instead of being listed first.
    """
    try:
        if len(values) > limit:
            return None
    except TypeError:  # no length: an iterator, or not iterable at all
        pass
    except OverflowError:  # a length beyond sys.maxsize, e.g. range(10**20)
        return None
    try:
        items = list(itertools.islice(values, limit + 1))
    except TypeError:
        return None
    return items if len(items) <= limit else None


def _is_number(value, kind):
    """True if `value` is an instance of the `numbers` ABC `kind` but not a bool."""
    return isinstance(value, kind) and not isinstance(value, (bool, np.bool_))


def describe(value):
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
    array = as_real_array(x)
    if array is None or array.ndim != 2:
        got = "not an array of real numbers" if array is None else f"shape {array.shape}"
        raise ValueError(f"x must be a 2-D array of shape (seq_len, d_model), got {got}")
    x = array
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
    positions = _check_positions(positions)
    if len(pairs) * len(positions) > MAX_ELEMENTS:
        raise ValueError(
            f"len(pairs) * len(positions) must be at most {MAX_ELEMENTS}, "
            f"got {len(pairs)} * {len(positions)}"
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


def _check_position(name, value):
    """A real position: a finite number from 0 to `MAX_SEQ_LEN`, returned as a float."""
    number = real_number(value)
    if number is not None and 0.0 <= number <= MAX_SEQ_LEN:  # False for NaN
        return number
    raise ValueError(
        f"{name} must be a real number from 0 to {MAX_SEQ_LEN}, got {describe(value)}"
    )


def _check_positions(values):
    """A 1-D array of at least one real position, each from 0 to `MAX_SEQ_LEN`."""
    positions = as_real_array(values)
    if (
        positions is not None
        and positions.ndim == 1
        and positions.size >= 1
        and np.all(positions >= 0.0)  # False for NaN
        and np.all(positions <= MAX_SEQ_LEN)
    ):
        return positions
    raise ValueError(
        "positions must be a 1-D array of at least one real number, "
        f"each from 0 to {MAX_SEQ_LEN}, got {reprlib.repr(values)}"
    )


def check_pairs(pairs, n_pairs):
    """
    Check that `pairs` holds distinct pair indices, integers from 0 to
    `n_pairs - 1`; None means all of them.  `pairs` is read once, so a
    one-shot iterator works.

    Returns:
        the indices as an intp numpy array, in the order given.

    Raises:
        ValueError: "pairs must be a list of distinct integers from 0 to
            <n_pairs - 1>, got <pairs>".
    """
    if pairs is None:
        return np.arange(n_pairs)
    if not isinstance(pairs, (str, bytes, dict, set, frozenset)):
        # Distinct indices below n_pairs: there cannot be more than n_pairs.
        indices = read_items(pairs, n_pairs)
        if (
            indices is not None
            and all(_is_number(p, numbers.Integral) and 0 <= p < n_pairs for p in indices)
            and len(set(int(p) for p in indices)) == len(indices)
        ):
            return np.array([int(p) for p in indices], dtype=np.intp)
    raise ValueError(
        f"pairs must be a list of distinct integers from 0 to {n_pairs - 1}, "
        f"got {reprlib.repr(pairs)}"
    )
