r"""
# Tasks that need position

Two toy tasks whose answers depend on *where* tokens are, not only on
*which* tokens there are, as deterministic batch generators:

- `copy`: at position $i \ge k$, predict the token $k$ places back,
  $y_i = t_{i-k}$.  The first $k$ positions have no answer and do not count.
  A model must find the key exactly $k$ places before the query: a
  relative position.
- `reverse`: a sequence $s$ of $m$ tokens, a separator, then $s$ backwards.
  Position $m + j$ predicts $s_{m-1-j}$ (it sees the separator and the
  reversed tokens before it, as a causal model writing the answer would).
  The total length is $n = 2m$, so only even lengths exist.  The model must
  find a key whose distance from the query depends on $m$: harder.

Token id 0 is the separator and never a content token in `reverse`;
`copy` draws from every id.  A batch holds sequences of one length; the
trainer varies the length from batch to batch.
"""

from dataclasses import dataclass

import numpy as np

from ..checks import check_choice, check_size

# The task names, for TaskSpec and the trainer.
TASKS = ("copy", "reverse")
# Longest sequence a task makes.
MAX_TASK_LEN = 1024
# Largest batch.
MAX_BATCH = 1024
# The separator id of "reverse".
SEPARATOR = 0


@dataclass(frozen=True)
class Batch:
    """
    One batch of a task.

    Attributes:
        tokens: int64 (B, n), the input ids.
        targets: int64 (B, n), the id to predict at each position (0 where
            `mask` is False).
        mask: bool (B, n), the positions that count in the loss and accuracy.
    """

    tokens: np.ndarray
    targets: np.ndarray
    mask: np.ndarray


def copy_batch(rng, batch_size, seq_len, vocab_size, shift=1):
    """
    A batch of the `copy` task: $y_i = t_{i - shift}$ for $i \\ge shift$.

    Args:
        rng: a `numpy.random.Generator` (its state advances).
        batch_size: an integer from 1 to `MAX_BATCH`.
        seq_len: an integer from `shift + 1` to `MAX_TASK_LEN`.
        vocab_size: an integer from 2 to 64; ids are uniform over all of them.
        shift: how far back, an integer from 1 to 64.

    Returns:
        a `Batch`.

    Raises:
        ValueError: naming the argument that is out of range.

    Example:
        >>> b = copy_batch(np.random.default_rng(0), 1, 5, 8, shift=2)
        >>> bool((b.targets[0, 2:] == b.tokens[0, :3]).all()), b.mask[0].tolist()
        (True, [False, False, True, True, True])
    """
    batch_size = check_size("batch_size", batch_size, MAX_BATCH)
    shift = check_size("shift", shift, 64)
    seq_len = check_size("seq_len", seq_len, MAX_TASK_LEN, minimum=shift + 1)
    vocab_size = check_size("vocab_size", vocab_size, 64, minimum=2)
    tokens = rng.integers(0, vocab_size, size=(batch_size, seq_len))
    targets = np.zeros_like(tokens)
    targets[:, shift:] = tokens[:, :-shift]  # y_i = t_{i - shift}
    mask = np.zeros(tokens.shape, dtype=bool)
    mask[:, shift:] = True
    return Batch(tokens, targets, mask)


def reverse_batch(rng, batch_size, seq_len, vocab_size):
    """
    A batch of the `reverse` task: $s$, separator, then $s$ reversed, with
    the reversed half as the targets.

    Args:
        rng: a `numpy.random.Generator` (its state advances).
        batch_size: an integer from 1 to `MAX_BATCH`.
        seq_len: an even integer from 2 to `MAX_TASK_LEN`, $n = 2m$.
        vocab_size: an integer from 3 to 64; content ids are 1 .. V - 1.

    Returns:
        a `Batch`: tokens `s_0 .. s_{m-1}, 0, s_{m-1} .. s_1`, targets
        `s_{m-1} .. s_0` on positions m .. 2m - 1 (the mask).

    Raises:
        ValueError: naming the argument that is out of range.

    Example:
        >>> b = reverse_batch(np.random.default_rng(0), 1, 6, 8)
        >>> s = b.tokens[0, :3].tolist()
        >>> b.tokens[0, 3:].tolist() == [0, s[2], s[1]], b.targets[0, 3:].tolist() == s[::-1]
        (True, True)
    """
    batch_size = check_size("batch_size", batch_size, MAX_BATCH)
    seq_len = check_size("seq_len", seq_len, MAX_TASK_LEN, minimum=2)
    if seq_len % 2:
        raise ValueError(
            f"seq_len must be even for reverse (s, separator, s reversed), got {seq_len}"
        )
    vocab_size = check_size("vocab_size", vocab_size, 64, minimum=3)
    m = seq_len // 2
    s = rng.integers(1, vocab_size, size=(batch_size, m))
    backwards = s[:, ::-1]
    separator = np.full((batch_size, 1), SEPARATOR, dtype=s.dtype)
    # Inputs: s, separator, then the answer so far (teacher forcing): s reversed, last dropped.
    tokens = np.concatenate([s, separator, backwards[:, :-1]], axis=1)
    targets = np.zeros_like(tokens)
    targets[:, m:] = backwards
    mask = np.zeros(tokens.shape, dtype=bool)
    mask[:, m:] = True
    return Batch(tokens, targets, mask)


def task_batch(task, rng, batch_size, seq_len, vocab_size, shift=1):
    """
    A batch of the task named `task` (`copy` uses `shift`, `reverse` ignores it).

    Raises:
        ValueError: for an unknown task or a bad argument, naming it.
    """
    task = check_choice("task", task, TASKS)
    if task == "copy":
        return copy_batch(rng, batch_size, seq_len, vocab_size, shift)
    return reverse_batch(rng, batch_size, seq_len, vocab_size)


def task_lengths(task, min_len, max_len):
    """
    The sequence lengths of `task` from `min_len` to `max_len` inclusive
    (`reverse` makes only even ones).

    Example:
        >>> task_lengths("reverse", 3, 9)
        [4, 6, 8]
    """
    task = check_choice("task", task, TASKS)
    step_even = task == "reverse"
    return [n for n in range(min_len, max_len + 1) if not (step_even and n % 2)]
