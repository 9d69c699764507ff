"""
# The extrapolation demo's entry points (app/demos/extrapolation.js)

How close two positions come as the sequence grows past the training length, and the
experiment that trains each position scheme on lengths up to L and tests it up to 4L
(`pelab.experiments.length_generalisation`).
"""

from __future__ import annotations

import numpy as np

from ...checks import check_product, check_size
from ...experiments.length_generalisation import LengthExperiment
from ...extrapolation import MAX_NEAREST_LEN, nearest_distances
from .. import sessions
from ..limits import MAX_MATRIX_WIDTH, MAX_WORK, RESPONSIVE
from ..plain import flat


def extrapolation(d_model: int, base: float, train_len: int, seq_len: int) -> dict:
    """
    How close the nearest two positions come as the sequence grows past the training length.

    Args:
        d_model: an integer from 1 to MAX_MATRIX_WIDTH, with seq_len**2 * d_model <= MAX_WORK.
        base: the encoding's base (few pairs, a small d_model, is what lets far-apart positions
            come close; a small base moves neighbours apart).
        train_len: the training length, an integer from 2 to seq_len.
        seq_len: the longest sequence, an integer from 2 to MAX_NEAREST_LEN (2048).

    Returns:
        nearest: float64, shape (seq_len,), entry L - 1 the smallest distance |PE(p) - PE(q)|
            over 0 <= p < q <= L - 1; entry 0 (a single position, no pair) is NaN,
        train_len: int,
        at_train: float, nearest[train_len - 1], the nearest pair within the training length,
        beyond: float, nearest[seq_len - 1].
    """
    seq_len = check_size("seq_len", seq_len, MAX_NEAREST_LEN, minimum=2)
    train_len = check_size("train_len", train_len, seq_len, minimum=2)
    d_model = check_size("d_model", d_model, MAX_MATRIX_WIDTH)
    check_product(
        "seq_len * seq_len * d_model", (seq_len, seq_len, d_model), MAX_WORK, why=RESPONSIVE
    )
    nearest = nearest_distances(seq_len, d_model, base)
    # inf (no pair at all) has no JSON form and no meaning on a chart: send NaN.
    nearest[0] = np.nan
    return {
        "nearest": flat(nearest),
        "train_len": train_len,
        "at_train": float(nearest[train_len - 1]),
        "beyond": float(nearest[seq_len - 1]),
    }


def length_generalisation_reset(quick: bool = False, task: str = "copy") -> dict:
    """
    A fresh extrapolation experiment
    (`pelab.experiments.length_generalisation.LengthExperiment`), replacing any this worker was
    running; nothing is trained yet.

    Returns:
        what `length_generalisation_step` returns, with nothing done.
    """
    experiment = LengthExperiment(quick=quick, task=task)
    return sessions.reset_experiment("length_generalisation", experiment)


def length_generalisation_step(steps: int = 50) -> dict:
    """
    Run at most `steps` (1 to `pelab.browser.sessions.MAX_SLICE_STEPS`) more training steps of
    the experiment.

    Returns:
        `LengthExperiment.summary()`, its arrays flattened row-major: accuracy, accuracy_min and
        accuracy_max float64 (runs * lengths,).

    Raises:
        ValueError: if no experiment was made (call length_generalisation_reset first).
    """
    return sessions.step_experiment("length_generalisation", steps)


ENTRY_POINTS = {
    "extrapolation": extrapolation,
    "length_generalisation_reset": length_generalisation_reset,
    "length_generalisation_step": length_generalisation_step,
}
