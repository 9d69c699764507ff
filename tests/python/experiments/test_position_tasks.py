"""Tests for pelab.experiments.position_tasks: what each batch asks for, by construction."""

import doctest

import numpy as np
import pytest

import pelab.experiments.position_tasks as tasks_module
from pelab.experiments.position_tasks import (
    SEPARATOR,
    copy_batch,
    reverse_batch,
    task_batch,
    task_lengths,
)


def test_docstring_examples_hold():
    assert doctest.testmod(tasks_module).failed == 0


@pytest.mark.parametrize("shift", [1, 2, 5])
def test_copy_targets_are_the_tokens_shift_places_back(shift):
    b = copy_batch(np.random.default_rng(1), 4, 12, 7, shift)
    for row in range(4):
        for i in range(12):
            assert b.mask[row, i] == (i >= shift)
            if i >= shift:
                assert b.targets[row, i] == b.tokens[row, i - shift]
    assert b.tokens.min() >= 0 and b.tokens.max() < 7


def test_reverse_asks_for_the_first_half_backwards_after_the_separator():
    b = reverse_batch(np.random.default_rng(2), 3, 10, 9)
    for row in range(3):
        s = b.tokens[row, :5].tolist()
        assert SEPARATOR not in s
        assert b.tokens[row, 5] == SEPARATOR
        assert b.targets[row, 5:].tolist() == s[::-1]
        # Teacher forcing: each answer token is the input of the next position.
        assert b.tokens[row, 6:].tolist() == b.targets[row, 5:9].tolist()
        assert b.mask[row].tolist() == [False] * 5 + [True] * 5


def test_batches_follow_the_generator_state():
    first = copy_batch(np.random.default_rng(3), 2, 6, 5)
    again = copy_batch(np.random.default_rng(3), 2, 6, 5)
    assert np.array_equal(first.tokens, again.tokens)
    assert np.array_equal(task_batch("reverse", np.random.default_rng(3), 2, 6, 5).tokens,
                          reverse_batch(np.random.default_rng(3), 2, 6, 5).tokens)


def test_lengths_of_each_task():
    assert task_lengths("copy", 3, 6) == [3, 4, 5, 6]
    assert task_lengths("reverse", 3, 6) == [4, 6]


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: copy_batch(np.random.default_rng(), 0, 5, 5), "batch_size"),
        (lambda: copy_batch(np.random.default_rng(), 1, 2, 5, shift=2), "seq_len"),
        (lambda: copy_batch(np.random.default_rng(), 1, 5, 1), "vocab_size"),
        (lambda: copy_batch(np.random.default_rng(), 1, 5, 5, shift=0), "shift"),
        (lambda: reverse_batch(np.random.default_rng(), 1, 5, 5), "seq_len"),
        (lambda: reverse_batch(np.random.default_rng(), 1, 4, 2), "vocab_size"),
        (lambda: task_batch("sort", np.random.default_rng(), 1, 4, 5), "task"),
    ],
)
def test_bad_arguments_name_themselves(call, name):
    with pytest.raises(ValueError, match=f"^{name} "):
        call()
