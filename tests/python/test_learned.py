"""Tests for pelab.learned: a seeded table with one row per position, and nothing past max_len."""

import doctest
import importlib

import numpy as np
import pytest

from pelab.learned import INIT_STD, MAX_LEN, LearnedTable, learned

# pelab.learned is also the name of the function, so fetch the module itself.
learned_module = importlib.import_module("pelab.learned")


def test_docstring_examples_hold():
    assert doctest.testmod(learned_module).failed == 0


def test_table_shape_and_initialisation():
    table = learned(32, 8)
    assert isinstance(table, LearnedTable)
    assert table.table.shape == (32, 8) and table.table.dtype == np.float64
    assert (table.max_len, table.d_model, table.seed) == (32, 8, 0)
    big = learned(4096, 64, seed=3).table
    assert abs(big.std() - INIT_STD) < 0.0005 and abs(big.mean()) < 0.0005
    assert INIT_STD == 0.02


def test_same_seed_same_table_other_seed_other_table():
    np.testing.assert_array_equal(learned(16, 4, seed=7).table, learned(16, 4, seed=7).table)
    assert not np.array_equal(learned(16, 4, seed=7).table, learned(16, 4, seed=8).table)
    # The generator is numpy's PCG64 from default_rng(seed): the same under Pyodide.
    np.testing.assert_array_equal(
        learned(3, 2, seed=5).table, 0.02 * np.random.default_rng(5).standard_normal((3, 2))
    )


def test_table_is_read_only():
    table = learned(4, 2)
    with pytest.raises(ValueError):
        table.table[0, 0] = 1.0


def test_lookup_returns_rows_in_order():
    table = learned(32, 4)
    rows = table.lookup([3, 0, 31, 3])
    assert rows.shape == (4, 4) and rows.dtype == np.float64
    np.testing.assert_array_equal(rows, table.table[[3, 0, 31, 3]])
    rows[0, 0] = 99.0  # a copy: the table is untouched
    assert table.table[3, 0] != 99.0
    assert table.lookup([]).shape == (0, 4)
    np.testing.assert_array_equal(table.lookup(range(32)), table.table)
    np.testing.assert_array_equal(table.lookup(np.arange(2)), table.table[:2])


@pytest.mark.parametrize(
    "positions, message",
    [
        (
            [40],
            "position 40 is past max_len 32: a learned table has no row for it (it was never "
            "trained)",
        ),
        (
            [32],
            "position 32 is past max_len 32: a learned table has no row for it (it was never "
            "trained)",
        ),
        (
            [0, 5, 33, 40],
            "position 33 is past max_len 32: a learned table has no row for it (it was never "
            "trained)",
        ),
        ([-1], "position -1 is negative: a learned table has rows only for positions 0 to 31"),
        (
            [2**70],
            f"position {2**70} is past max_len 32: a learned table has no row for it (it was never "
            "trained)",
        ),
    ],
)
def test_lookup_past_the_table_is_an_index_error(positions, message):
    with pytest.raises(IndexError) as error:
        learned(32, 4).lookup(positions)
    assert str(error.value) == message


@pytest.mark.parametrize("positions", [[1.0], [True], "12", 5, None, [[1]]])
def test_lookup_needs_integer_positions(positions):
    with pytest.raises(ValueError, match=r"^positions must be a sequence of integers, got "):
        learned(8, 2).lookup(positions)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"max_len": 0, "d_model": 4}, r"^max_len must be an integer from 1 to 4096, got 0$"),
        ({"max_len": MAX_LEN + 1, "d_model": 4}, r"^max_len must be an integer from 1 to 4096"),
        ({"max_len": 8, "d_model": 0}, r"^d_model must be an integer from 1 to 100000"),
        ({"max_len": 8, "d_model": 4, "seed": -1}, r"^seed must be an integer from 0 to"),
        ({"max_len": 8, "d_model": 4, "seed": 1.5}, r"^seed must be an integer from 0 to"),
        ({"max_len": 4096, "d_model": 20_000}, r"^max_len \* d_model must be at most 50000000"),
    ],
)
def test_learned_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        learned(**kwargs)


def test_extreme_sizes():
    assert learned(1, 1).table.shape == (1, 1)
    assert learned(MAX_LEN, 2).lookup([MAX_LEN - 1]).shape == (1, 2)
