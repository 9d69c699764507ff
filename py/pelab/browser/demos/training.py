"""
# The training demo's entry points (app/demos/training.js)

A tiny Transformer with a learned position table, trained in the page a slice at a time
(`pelab.experiments.training.TrainingSession`), and what its table has learned.
"""

from __future__ import annotations

from ...checks import check_size
from ...colormap import to_rgba
from ...experiments.training import TrainingSession
from .. import sessions
from ..limits import MAX_SEED
from ..plain import flat_arrays

# Longest training length the training demo offers, and the largest shift.
MAX_TRAINING_LEN = 64
MAX_TRAINING_SHIFT = 4


def training_reset(seed: int = 0, max_train_len: int = 32, shift: int = 1) -> dict:
    """
    A fresh tiny Transformer with a learned position table, to be trained on the `copy` task
    (predict the token `shift` places back) on lengths max(4, shift + 1) .. max_train_len; it
    replaces any model this worker was training. Nothing is trained yet: the result is the
    table at initialisation.

    Args:
        seed: an integer from 0 to 2**32 - 1.
        max_train_len: L, the longest training sequence and the table's rows, 8 to 64.
        shift: how far back to copy, 1 to 4.

    Returns:
        what `training_step` returns, at step 0.
    """
    seed = check_size("seed", seed, MAX_SEED, minimum=0)
    max_train_len = check_size("max_train_len", max_train_len, MAX_TRAINING_LEN, minimum=8)
    shift = check_size("shift", shift, MAX_TRAINING_SHIFT)
    session = TrainingSession(seed=seed, max_train_len=max_train_len, shift=shift)
    return _shown(sessions.start("training", session))


def training_step(steps: int = 25) -> dict:
    """
    Train the model of the last `training_reset` `steps` more steps, then measure its table.

    Args:
        steps: an integer from 1 to `pelab.browser.sessions.MAX_SLICE_STEPS`.

    Returns:
        steps_done: int, n: int (the table's rows, L), shift: int, seed: int,
        losses: float64 (steps_done,), the loss of every step so far,
        accuracy: float, the share of right answers over the last (up to) 25 steps
            (`RECENT_STEPS`), or None,
        cosine: float64 (n * n,), the table's row-by-row cosine similarity, row-major,
        cosine_rgba: uint8 (n * n * 4,), the same coloured over [-1, 1],
        band_contrast: float, `pelab.band_contrast` of the table,
        structured: bool, band_contrast >= STRUCTURED_CONTRAST,
        structured_at: int or None, the first measured step at which it was,
        threshold: float, STRUCTURED_CONTRAST,
        components: float64 (2 * n,), the two leading principal components (row-major),
        component_shares: float64 (2,), the variance each explains,
        sinusoid_fits: float64 (2 * n,), the closest sinusoid to each component,
        sinusoid_periods, sinusoid_r_squared: float64 (2,), each fit's period (in positions)
            and the share of its component's variance it explains,
        sinusoid_at_longest: list of 2 ints, 1 where that fit is at the longest period tried,
            4 (n - 1), the edge of closest_sinusoid's grid (a trend, not a wave), else 0.

    Raises:
        ValueError: if no model was made (call training_reset first) or steps is out of range.
    """
    return _shown(sessions.advance("training", steps, missing="no model to train"))


def _shown(session) -> dict:
    """The session's summary for the worker: its table's cosines coloured, arrays flattened."""
    summary = session.summary()
    return flat_arrays({**summary, "cosine_rgba": to_rgba(summary["cosine"])})


ENTRY_POINTS = {"training_reset": training_reset, "training_step": training_step}
