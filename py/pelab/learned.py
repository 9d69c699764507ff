r"""
# Learned absolute position embeddings

Instead of a formula, a model can simply *learn* one vector per position:
a table $P \in \mathbb{R}^{max\_len \times d_{model}}$, trained with the rest
of the network, whose row $pos$ is added to the token at position $pos$:

$$
x'_{pos} = x_{pos} + P_{pos}, \qquad pos = 0, \dots, max\_len - 1.
$$

BERT and GPT-2 do this (GPT-2 with $max\_len = 1024$).  Vaswani et al.
(2017, section 3.5) tried it too and found "nearly identical results", but
chose the sinusoids because they "may allow the model to extrapolate to
sequence lengths longer than the ones encountered during training".

The limit is plain in the data structure: the table has exactly
`max_len` rows.  Position `max_len` has no row at all, and there is
nothing to look up.  `LearnedTable.lookup` says so with an `IndexError`.
(The table's length is a design choice, not always the longest sequence
trained on: BERT has 512 rows but was pre-trained mostly on sequences of
128 tokens, the rest at 512.)

Before training the rows are random.  `learned` draws them independently
from $\mathcal{N}(0, 0.02^2)$, the initialisation of Hugging Face's GPT-2
and of nanoGPT (OpenAI's original GPT-2 code draws its position table with
standard deviation 0.01), from a seeded generator, so the same seed gives
the same table under CPython and in the browser.  Random rows in many
dimensions are nearly orthogonal: an untrained table has no notion of
"nearby positions".  Training creates it: in trained models such as
GPT-2, nearby positions end up with similar vectors (Wang and Chen 2020).
This module shows the table *before* training only.
"""

import reprlib
from dataclasses import dataclass

import numpy as np

from .checks import MAX_D_MODEL, MAX_ELEMENTS, NOT_A_LIST, check_product, check_size, is_integer

# Longest table: four times GPT-2's 1024 positions.
MAX_LEN = 4096
# Standard deviation of the initial entries, as in Hugging Face's GPT-2 and nanoGPT.
INIT_STD = 0.02


@dataclass(frozen=True, eq=False)
class LearnedTable:
    """
    A learned position table, before training: one row per position
    0 .. max_len - 1.  Made by `learned`.

    Attributes:
        table: float64 (max_len, d_model), row pos is the embedding of
            position pos; read-only.
        max_len: the number of positions the table has rows for.
        d_model: the width of each row.
        seed: the seed the rows were drawn with.
    """

    table: np.ndarray
    max_len: int
    d_model: int
    seed: int

    def lookup(self, positions):
        """
        The rows for `positions`: $P_{pos}$ for each, in order.

        Args:
            positions: a sequence (or 1-D integer array) of integer
                positions, each from 0 to `max_len - 1`; may be empty.

        Returns:
            float64 array of shape `(len(positions), d_model)`, a copy.

        Raises:
            IndexError: for the first position outside 0 .. max_len - 1,
                e.g. "position 40 is past max_len 32: a learned table has
                no row for it (it was never trained)".
            ValueError: if `positions` is not a sequence of integers.
            The positions are checked in order as they are read, and the
            first bad one is reported, so `range(10**9)` is refused at
            position `max_len` without being listed.

        Example:
            >>> table = learned(32, 4)
            >>> table.lookup([0, 31]).shape
            (2, 4)
            >>> try:
            ...     table.lookup([3, 40])
            ... except IndexError as error:
            ...     print(error)
            position 40 is past max_len 32: a learned table has no row for it (it was never trained)
        """
        items = []
        # Each position is checked as it is read, so that range(10**9) fails at
        # the first position past the table instead of being listed whole.
        for pos in _checked_integers(positions):
            if pos < 0:
                raise IndexError(
                    f"position {pos} is negative: a learned table has rows only "
                    f"for positions 0 to {self.max_len - 1}"
                )
            if pos >= self.max_len:
                raise IndexError(
                    f"position {pos} is past max_len {self.max_len}: a learned table "
                    "has no row for it (it was never trained)"
                )
            items.append(pos)
        # Row gathering, P[positions], shape (len(positions), d_model); fancy
        # indexing copies.
        return self.table[np.array(items, dtype=np.intp)]


def learned(max_len, d_model, seed=0):
    r"""
    A learned position table as it is before training:

    $$
    P_{pos, j} \sim \mathcal{N}(0, 0.02^2) \text{ independently}, \qquad
    0 \le pos < max\_len, \; 0 \le j < d_{model},
    $$

    drawn with `numpy.random.default_rng(seed)`, so one seed always gives
    one table.

    Args:
        max_len: the number of positions, an integer from 1 to `MAX_LEN`.
        d_model: the width, an integer from 1 to `MAX_D_MODEL`;
            `max_len * d_model` may not exceed `MAX_ELEMENTS`.
        seed: an integer from 0 to 2**64 - 1.

    Returns:
        a `LearnedTable`.

    Raises:
        ValueError: if an argument is out of range; the message names it.

    Example:
        >>> table = learned(32, 8, seed=1)
        >>> table.table.shape
        (32, 8)
        >>> bool(np.array_equal(table.table, learned(32, 8, seed=1).table))
        True
    """
    max_len = check_size("max_len", max_len, MAX_LEN)
    d_model = check_size("d_model", d_model, MAX_D_MODEL)
    seed = check_size("seed", seed, 2**64 - 1, minimum=0)
    check_product("max_len * d_model", (max_len, d_model), MAX_ELEMENTS)
    rng = np.random.default_rng(seed)
    # Every entry from N(0, 0.02^2), row by row.
    table = INIT_STD * rng.standard_normal((max_len, d_model))
    table.flags.writeable = False
    return LearnedTable(table=table, max_len=max_len, d_model=d_model, seed=seed)

# ---------------------------------------------------------------------------
# Argument checks used only here
# ---------------------------------------------------------------------------


def _checked_integers(values):
    """
    The integer positions in `values` as Python ints, one at a time, read
    lazily (their range is the caller's to check), so that the caller can
    refuse `range(10**9)` at its first bad position without listing it.

    Yields:
        each item of `values` as a Python `int`.

    Raises:
        ValueError: "positions must be a sequence of integers, got <values>",
            as soon as `values` or one of its items turns out not to be.
    """
    items = None
    if not (isinstance(values, NOT_A_LIST) or is_integer(values)):
        try:
            items = iter(values)
        except TypeError:
            pass
    if items is None:
        raise _not_integers(values)
    for p in items:
        if not is_integer(p):
            raise _not_integers(values)
        yield int(p)


def _not_integers(values):
    """The error for `values` that are not a sequence of integers."""
    return ValueError(f"positions must be a sequence of integers, got {reprlib.repr(values)}")
