"""
# The stretching demo's entry points (app/demos/stretching.js)

A real model's RoPE stretched past its trained length by each method, and the experiment that
trains a tiny RoPE model at L and tests it stretched to 2L and 4L
(`pelab.experiments.stretch_experiment`).
"""

from __future__ import annotations

import numpy as np

from ...checks import check_choice, check_size
from ...context_scaling import (
    MODEL_HEAD_DIM,
    MODEL_SETTINGS,
    ntk_scaled_base,
    stretched_frequencies,
    yarn_attention_scale,
)
from ...experiments.stretch_experiment import StretchExperiment
from ...positional_encoding import angular_frequencies
from ...stretch_effects import angle_coverage, stretched_scores
from .. import sessions
from ..limits import MAX_SEED


def stretching(model: str, scale: float, method: str, seed: int = 0) -> dict:
    """
    A real model's RoPE stretched to `scale` times its trained length by `method`.

    Args:
        model: a key of `MODEL_SETTINGS` ("llama2", "codellama", "llama3").
        scale: s = L' / L, a real number from 1 to `MAX_SCALE`.
        method: one of `pelab.context_scaling.METHODS`.
        seed: the draw of the query and key whose scores are shown, an integer from 0 to
            2**32 - 1.

    Returns:
        name: str, base: float, train_len: int, d: int (MODEL_HEAD_DIM), last: int, L' - 1,
        omega, frequencies: float64, shape (d / 2,), radians per position before and after,
        trained, reached: float64, shape (d / 2,), (L - 1) w_i and (L' - 1) w'_i,
        trained_arc: float64, shape (d / 2,), min(trained, 2 pi): the dial's trained sweep,
        hand, hand_before: float64, shape (d / 2,), reached and (L' - 1) w_i modulo 2 pi,
        state, state_before: uint8, shape (d / 2,), `angle_coverage`'s states after and before,
        outside, just_past, outside_before: int, how many pairs are in those states,
        changed_pairs: int, how many pairs' frequencies the method changed (not by rounding),
        fastest_step, slowest_ratio: floats, w'_0 (radians per position; 1 before) and
            w'_{d/2-1} / w_{d/2-1},
        attention_factor: float, YaRN's factor on q and k (1 for the other methods),
        new_base: float or None, the NTK-aware base for "ntk",
        offsets, scores_before, scores_after: float64, shape (samples,), the scores of one q, k
            pair, query at offset t after the key, divided by |q| |k|.
    """
    model = check_choice("model", model, tuple(MODEL_SETTINGS))
    seed = check_size("seed", seed, MAX_SEED, minimum=0)
    settings = MODEL_SETTINGS[model]
    base, train_len, d = settings["base"], settings["train_len"], MODEL_HEAD_DIM
    after = angle_coverage(method, d, base, train_len, scale)  # checks method and scale
    before = angle_coverage("none", d, base, train_len, scale)
    omega = angular_frequencies(d, base)
    frequencies = stretched_frequencies(method, d, base, train_len, scale)
    q, k = np.random.default_rng(seed).standard_normal((2, d))
    offsets, scores_before, scores_after = stretched_scores(q, k, method, base, train_len, scale)
    norms = np.linalg.norm(q) * np.linalg.norm(k)
    two_pi = 2.0 * np.pi
    return {
        "name": settings["name"],
        "base": base,
        "train_len": train_len,
        "d": d,
        "last": after["last"],
        "omega": omega,
        "frequencies": frequencies,
        "trained": after["trained"],
        "reached": after["reached"],
        "trained_arc": np.minimum(after["trained"], two_pi),
        "hand": np.mod(after["reached"], two_pi),
        "hand_before": np.mod(before["reached"], two_pi),
        "state": after["state"].astype(np.uint8),
        "state_before": before["state"].astype(np.uint8),
        "outside": int(np.sum(after["state"] == 2)),
        "just_past": int(np.sum(after["state"] == 1)),
        "outside_before": int(np.sum(before["state"] == 2)),
        # Pairs whose angle per position the method changed (beyond rounding): those whose
        # angles at the trained positions are no longer the ones the model learned with.
        "changed_pairs": int(np.sum(~np.isclose(frequencies, omega, rtol=1e-12, atol=0.0))),
        "fastest_step": float(frequencies[0]),
        "slowest_ratio": float(frequencies[-1] / omega[-1]),
        "attention_factor": yarn_attention_scale(scale) if method == "yarn" else 1.0,
        "new_base": ntk_scaled_base(base, scale, d) if method == "ntk" else None,
        "offsets": offsets,
        "scores_before": scores_before / norms,
        "scores_after": scores_after / norms,
    }


def stretch_experiment_reset(quick: bool = False, task: str = "copy") -> dict:
    """
    A fresh stretching experiment (`pelab.experiments.stretch_experiment.StretchExperiment`),
    replacing any this worker was running; nothing is trained yet.

    Returns:
        what `stretch_experiment_step` returns, with nothing done.
    """
    experiment = StretchExperiment(quick=quick, task=task)
    return sessions.reset_experiment("stretch_experiment", experiment)


def stretch_experiment_step(steps: int = 50) -> dict:
    """
    Run at most `steps` (1 to `pelab.browser.sessions.MAX_SLICE_STEPS`) more training steps of
    the stretching experiment.

    Returns:
        `StretchExperiment.summary()`, its arrays flattened row-major: accuracy, accuracy_min
        and accuracy_max float64 (methods * lengths,).

    Raises:
        ValueError: if no experiment was made (call stretch_experiment_reset first).
    """
    return sessions.step_experiment("stretch_experiment", steps)


ENTRY_POINTS = {
    "stretching": stretching,
    "stretch_experiment_reset": stretch_experiment_reset,
    "stretch_experiment_step": stretch_experiment_step,
}
