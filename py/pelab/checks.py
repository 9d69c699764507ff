r"""
# Argument checks

Every function in `pelab` checks its arguments before it computes anything, and refuses a bad
one with a `ValueError` that names the parameter, says what was expected and shows what came:

    >>> check_size("d_model", 0, 512)
    Traceback (most recent call last):
    ...
    ValueError: d_model must be an integer from 1 to 512, got 0

A learner typing into a code cell gets that sentence instead of a numpy traceback from deep
inside a computation, or a silently wrong picture.  The checks all live here, once each:

* numbers: `check_size` (an integer in a range), `check_even_size` (an even one, a paired
  width), `check_real` (a finite real number above a bound), `check_base` (a finite real
  number $> 1$), `check_range` (a colour range $vmin < vmax$), `check_product` (a product of
  sizes, the work or memory a call asks for, under a limit), `check_bool`, `check_str`,
  `check_choice` (one of a few words);
* arrays: `check_matrix` (2-D and finite), `check_rows` (2-D), `check_values` (any shape),
  `check_paired_vectors` (an even width, for RoPE), `check_heatmap_matrix`, `check_rgba`;
* positions: `check_position` (one real position), `check_positions` (many, for sampling
  waves), `check_row_positions` (one per row, signed, for RoPE), `checked_integers` (integer
  positions, read lazily);
* lists: `check_pairs` (pair indices), `check_permutation` (an order), `check_tokens` (words);
* a whole table: `check_table`, the sizes and base of a `(seq_len, d_model)` encoding.

Under them are the conversions that turn what a learner may pass (a list, a numpy scalar, a
`Fraction`, a range, an iterator) into plain Python and numpy values, or into None for the
caller to refuse by name: `real_number`, `as_real_array` and `read_items`, and `describe`,
which shows a refused value briefly in the message.

This module imports only numpy, never another `pelab` module, so every module can import it.
The size limits it enforces by default are defined here, and `pelab.positional_encoding`
exposes them as before.
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
# Largest sequence, in tokens, that the functions behind the chapter on today's models
# (multimodal and partial RoPE) place: more than an image grid between two texts needs, few
# enough for a heatmap of every token against every other to stay quick in the page.
MAX_DEMO_TOKENS = 4096

# Containers whose items are unordered (or are characters), which no list check accepts even
# though they are iterable: {2, 1, 0} has no order to keep, "210" is not a list of integers.
NOT_A_LIST = (str, bytes, dict, set, frozenset)


# ---------------------------------------------------------------------------
# Numbers
# ---------------------------------------------------------------------------


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

    Example:
        >>> check_size("seq_len", 50, MAX_SEQ_LEN)
        50
    """
    if is_integer(value) and minimum <= value <= maximum:
        return int(value)
    raise ValueError(
        f"{name} must be an integer from {minimum} to {maximum}, "
        f"got {describe(value)}"
    )


def check_base(value):
    r"""
    Check that `value` is a usable base: a finite real number greater than 1.

    `base` must exceed 1 so that the frequencies $\omega_i = base^{-2i/d}$
    strictly decrease (and the wavelengths strictly increase) with `i`;
    `base = 1` would give every pair the same frequency.

    Args:
        value: an `int`, `float` or numpy real scalar (not `bool`, not `str`).

    Returns:
        `value` as a Python `float`.

    Raises:
        ValueError: "base must be a finite real number greater than 1,
            got <value>".

    Example:
        >>> check_base(10000)
        10000.0
    """
    return check_real("base", value, 1, strict=True)


def check_real(name, value, minimum, *, strict=False, minimum_name=None, maximum=None):
    """
    Check that `value` is one finite real number, at least `minimum` (greater
    than it when `strict`) and, if `maximum` is given, at most `maximum`: a
    scale factor, a ramp bound.

    Args:
        name: parameter name to put in the error message.
        value: an `int`, `float`, `Fraction` or numpy real scalar (not `bool`,
            not `str`, not an array).
        minimum: the bound, a real number.
        strict: whether `value` must exceed `minimum` rather than reach it.
        minimum_name: the parameter the bound comes from, if any, for the
            message ("greater than alpha (1.0)").
        maximum: the largest value allowed, or `None` for no bound.

    Returns:
        `value` as a Python `float`.

    Raises:
        ValueError: "<name> must be a finite real number greater than
            <minimum>, got <value>" ("at least <minimum>" when not `strict`;
            "... and at most <maximum>" when there is a maximum).

    Example:
        >>> check_real("scale", 4, 1)
        4.0
    """
    number = real_number(value)
    if (
        number is not None
        and math.isfinite(number)
        and (number > minimum if strict else number >= minimum)
        and (maximum is None or number <= maximum)
    ):
        return number
    bound = describe(minimum) if minimum_name is None else f"{minimum_name} ({describe(minimum)})"
    relation = "greater than" if strict else "at least"
    upper = "" if maximum is None else f" and at most {describe(maximum)}"
    raise ValueError(
        f"{name} must be a finite real number {relation} {bound}{upper}, got {describe(value)}"
    )


def check_product(expression, factors, limit, *, total=True, why=""):
    """
    Check that the product of the integer `factors` (sizes already checked one
    by one) is at most `limit`: the elements of an array, or the work of a call.

    Args:
        expression: the product in words for the message, e.g. "seq_len * d_model".
        factors: the Python ints to multiply.
        limit: largest allowed product.
        total: whether the message shows the product after the factors.
        why: text put after the limit in the message, e.g. " to keep the page responsive".

    Raises:
        ValueError: "<expression> must be at most <limit><why>, got <a> * <b>"
            followed by " = <product>" when `total` is True.

    Example:
        >>> check_product("seq_len * d_model", (512, 64), MAX_ELEMENTS)
        >>> check_product("n_q * n_k", (10, 10), 50, total=False)
        Traceback (most recent call last):
        ...
        ValueError: n_q * n_k must be at most 50, got 10 * 10
    """
    product = math.prod(factors)
    if product > limit:
        shown = " * ".join(str(f) for f in factors)
        if total:
            shown += f" = {product}"
        raise ValueError(f"{expression} must be at most {limit}{why}, got {shown}")


def check_bool(name, value):
    """
    Check that `value` is `True` or `False` (a Python or numpy bool, not 0 or 1).

    Returns:
        `value` as a Python `bool`.

    Raises:
        ValueError: "<name> must be True or False, got <value>".
    """
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise ValueError(f"{name} must be True or False, got {reprlib.repr(value)}")


def check_choice(name, value, choices):
    """
    Check that `value` is one of the strings `choices` (a `str`, compared
    exactly: no case folding, no stripping).

    Returns:
        `value` as a plain `str`.

    Raises:
        ValueError: "<name> must be one of 'a', 'b', got <value>".

    Example:
        >>> check_choice("pairing", "half", ("adjacent", "half"))
        'half'
    """
    if isinstance(value, str) and value in choices:
        return str(value)
    listed = ", ".join(repr(c) for c in choices)
    raise ValueError(f"{name} must be one of {listed}, got {reprlib.repr(value)}")


def check_even_size(name, value, maximum, minimum=2, *, why=""):
    """
    Check that `value` is an even integer from `minimum` to `maximum`: a width
    whose coordinates come in pairs.  `why`, if given, goes after the range in
    the message, e.g. " (RoPE rotates pairs)".

    Returns:
        `value` as a Python `int`.

    Raises:
        ValueError: "<name> must be an even integer from <minimum> to
            <maximum><why>, got <value>".

    Example:
        >>> check_even_size("d", 8, MAX_D_MODEL)
        8
    """
    if is_integer(value) and minimum <= value <= maximum and value % 2 == 0:
        return int(value)
    raise ValueError(
        f"{name} must be an even integer from {minimum} to {maximum}{why}, got {describe(value)}"
    )


# ---------------------------------------------------------------------------
# Arrays
# ---------------------------------------------------------------------------


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
    raise ValueError(
        f"{name} must be a non-empty 2-D array of finite numbers, got {shape_of(array)}"
    )


def check_paired_vectors(name, value, vector=False, heads=False):
    """
    Check vectors whose coordinates come in pairs, as RoPE rotates them: finite
    numbers with an even width `d` from 2 to `MAX_D_MODEL`, of shape `(n, d)`
    with `n >= 1`, or `(d,)` when `vector` is True, or `(seq_len, d)` or
    `(heads, seq_len, d)` when `heads` is True.

    Returns:
        `value` as a float64 numpy array.

    Raises:
        ValueError: "<name> must be a non-empty 2-D array (n, d) of finite
            numbers with d even, from 2 to <MAX_D_MODEL> (RoPE rotates pairs
            of coordinates), got ..." (or "a 1-D array (d,)", or "a non-empty
            2-D array (seq_len, d) or 3-D array (heads, seq_len, d)").
    """
    array = as_real_array(value)
    if heads:
        ndims = (2, 3)
        kind = "a non-empty 2-D array (seq_len, d) or 3-D array (heads, seq_len, d)"
    elif vector:
        ndims, kind = (1,), "a 1-D array (d,)"
    else:
        ndims, kind = (2,), "a non-empty 2-D array (n, d)"
    if (
        array is not None
        and array.ndim in ndims
        and array.size > 0
        and array.shape[-1] % 2 == 0
        and array.shape[-1] <= MAX_D_MODEL
        and np.isfinite(array).all()
    ):
        return array
    raise ValueError(
        f"{name} must be {kind} of finite numbers with d even, from 2 to "
        f"{MAX_D_MODEL} (RoPE rotates pairs of coordinates), got {shape_of(array)}"
    )


# ---------------------------------------------------------------------------
# Positions
# ---------------------------------------------------------------------------


def check_positions(values, name="positions"):
    """
    Check `positions` to sample a wave at (or offsets, under another `name`):
    a 1-D array of at least one real number, each from 0 to `MAX_SEQ_LEN`.

    Returns:
        the positions as a float64 numpy array.

    Raises:
        ValueError: "<name> must be a 1-D array of at least one real number,
            each from 0 to <MAX_SEQ_LEN>, got <values>".
    """
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
        f"{name} must be a 1-D array of at least one real number, "
        f"each from 0 to {MAX_SEQ_LEN}, got {reprlib.repr(values)}"
    )


def check_frequencies(name, value, n):
    """
    Check per-pair angular frequencies: `n` finite numbers, none negative.

    Returns:
        the frequencies as a float64 numpy array of shape `(n,)`.

    Raises:
        ValueError: "<name> must be <n> finite numbers of at least 0 (one per
            pair), got ...".
    """
    array = as_real_array(value)
    if (
        not isinstance(value, (str, bytes))
        and array is not None
        and array.shape == (n,)
        and np.all(np.isfinite(array))
        and np.all(array >= 0)
    ):
        return array
    shape = "not real numbers" if array is None else f"shape {array.shape}"
    raise ValueError(
        f"{name} must be {n} finite numbers of at least 0 (one per pair), got {shape}"
    )


# ---------------------------------------------------------------------------
# Lists
# ---------------------------------------------------------------------------


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

    Example:
        >>> check_pairs([2, 0], 4).tolist()
        [2, 0]
    """
    if pairs is None:
        return np.arange(n_pairs)
    if not isinstance(pairs, NOT_A_LIST):
        # Distinct indices below n_pairs: there cannot be more than n_pairs.
        indices = read_items(pairs, n_pairs)
        if (
            indices is not None
            and all(is_integer(p) and 0 <= p < n_pairs for p in indices)
            and len(set(int(p) for p in indices)) == len(indices)
        ):
            return np.array([int(p) for p in indices], dtype=np.intp)
    raise ValueError(
        f"pairs must be a list of distinct integers from 0 to {n_pairs - 1}, "
        f"got {reprlib.repr(pairs)}"
    )


# ---------------------------------------------------------------------------
# A whole table
# ---------------------------------------------------------------------------


def check_table(seq_len, d_model, base, max_d_model=MAX_D_MODEL):
    """
    Check the arguments of a (seq_len, d_model) encoding table; d_model may be
    capped lower than `MAX_D_MODEL` by a caller that builds d_model x d_model.

    Returns:
        (seq_len, d_model, base) as (int, int, float).

    Raises:
        ValueError: naming the parameter, or the product when the table would
            exceed `MAX_ELEMENTS` values.

    Example:
        >>> check_table(50, 128, 10000)
        (50, 128, 10000.0)
    """
    seq_len = check_size("seq_len", seq_len, MAX_SEQ_LEN)
    d_model = check_size("d_model", d_model, max_d_model)
    base = check_base(base)
    check_product("seq_len * d_model", (seq_len, d_model), MAX_ELEMENTS)
    return seq_len, d_model, base


# ---------------------------------------------------------------------------
# Conversions under the checks
# ---------------------------------------------------------------------------


def real_number(value):
    """
    `value` as a Python float if it is one real number: an `int`, `float`,
    `Fraction` or numpy real scalar, but not a `bool`, and not an array
    (not even one of one element).  An int beyond the float range becomes
    inf or -inf, for the caller's range check to refuse by name.

    Returns:
        a float, or None if `value` is not a real number.
    """
    if not is_number(value, numbers.Real):
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


def describe(value):
    """Show a rejected value briefly: `0`, `2.5`, `nan`, `'4'`, `None`."""
    if is_integer(value):
        value = int(value)
        # str() of an int with thousands of digits is slow or refused.
        return str(value) if value.bit_length() <= 64 else "an integer beyond 64 bits"
    if isinstance(value, (float, np.floating)):
        return str(float(value))  # 2.5 and nan, not np.float64(2.5)
    return repr(value)


def is_number(value, kind):
    """True if `value` is an instance of the `numbers` ABC `kind` but not a bool."""
    return isinstance(value, kind) and not isinstance(value, (bool, np.bool_))


def is_integer(value):
    """True for an int or numpy integer, but not a bool."""
    return is_number(value, numbers.Integral)


def shape_of(array):
    """What an array check got, for its message: the shape, or that it was no array at all."""
    return "not an array of real numbers" if array is None else f"shape {array.shape}"
