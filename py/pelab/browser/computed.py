"""
# What pelab computes that the page quotes

The lesson's prose quotes results of pelab ("a factor of about 1.65"), and a demo's code shows
settings that pelab owns (the training demo's learning rate). Neither types them: a sentence
names the number, `<span data-computed="NAME" data-decimals="2">`, and the build writes it in
(tools/computed.py); a demo's module imports it. Both read `app/computed.js`, which is generated
from `COMPUTED` here and committed:

    PYTHONPATH=py python3 -m pelab.browser.computed > app/computed.js

`tests/python/browser/test_computed.py` recomputes every value and says when the file is out of
date. Each entry is the value itself, unrounded: the sentence says how many decimals it shows.
The settings a value is computed at are those its sentence states.
"""

from __future__ import annotations

import json
import math

import numpy as np

from ..alibi import alibi_slopes
from ..experiments.sliced import MODEL as EXPERIMENT_MODEL
from ..experiments.tiny_transformer import TINY_MODEL
from ..experiments.training import LEARNING_RATE
from ..positional_encoding import DEFAULT_BASE, sinusoidal, wavelengths
from ..rope import (
    LOOSENESS_DRAWS,
    rope_bound_looseness,
    rope_independent_abs_score,
    rope_mean_score,
)
from .demos.rope import DECAY_HEAD_DIM, rope

# The extrapolation chart's longest sequence (its slider's end): "over the 1024 positions this
# chart can show".
CHART_LEN = 1024
# The RoPE demo's first settings, which its quiz item states ("m = 5, n = 2, d = 8, base 10000,
# draw 0"); tests/python/test_quiz_answers.py holds them to the section's sliders.
ROPE_FIRST = {"m": 5, "n": 2, "shift": 100, "d": 8, "base": DEFAULT_BASE, "seed": 0}


def offset_distances(d_model: int, base: float, seq_len: int = CHART_LEN) -> np.ndarray:
    """|PE(p + t) - PE(p)| for t = 1 .. seq_len - 1, the same at every p (each pair turns by
    t times its frequency whatever p is)."""
    pe = sinusoidal(seq_len, d_model, base)
    return np.linalg.norm(pe[1:] - pe[0], axis=1)


def _formula(pos: int, dimension: int, d_model: int = 4) -> float:
    return float(sinusoidal(pos + 1, d_model)[pos, dimension])


def _computed() -> dict[str, float | int]:
    aliased = offset_distances(18, 12.6)  # "d_model 18, base 12.6"
    alike = rope_mean_score([10.0, 100.0, 500.0], DECAY_HEAD_DIM, DEFAULT_BASE)
    looseness = rope_bound_looseness(DECAY_HEAD_DIM, LOOSENESS_DRAWS)
    return {
        # formula: the worked example at d_model 4, positions 1 and 2; its trap's slowest
        # wavelength at d_model 4; its quiz item, PE(3, 2) at d_model 8
        **{
            f"formula.pe-{pos}-{dimension}": _formula(pos, dimension)
            for pos in (1, 2)
            for dimension in range(4)
        },
        "formula.slowest-wavelength": float(wavelengths(4)[-1]),
        "formula.pe-3-2-d8": _formula(3, 2, d_model=8),
        # heatmap: how many times as fast the slowest pair of d_model 128 turns at base 10 as at
        # base 10000 (its prediction check)
        "heatmap.slowest-speedup": float(
            wavelengths(128, DEFAULT_BASE)[-1] / wavelengths(128, 10.0)[-1]
        ),
        # rope: the first score at the demo's first settings, and with m and n swapped; the mean
        # score of a random query and a key like it at offsets 10, 100 and 500, and of an
        # independent one at any offset (d = 128, base 10000)
        "rope.first-score": float(rope(**ROPE_FIRST)["score"]),
        "rope.swapped-score": float(
            rope(**{**ROPE_FIRST, "m": ROPE_FIRST["n"], "n": ROPE_FIRST["m"]})["score"]
        ),
        "rope.alike-mean-10": float(alike[0]),
        "rope.alike-mean-100": float(alike[1]),
        "rope.alike-mean-500": float(alike[2]),
        "rope.independent-abs": float(rope_independent_abs_score(DECAY_HEAD_DIM)),
        # rope: how loose RoFormer's bound is at offset 0 for q = k, d = 128, over the draws of
        # seeds 0 to LOOSENESS_DRAWS - 1: the sample's smallest and largest ratio
        "rope.bound-looseness-draws": LOOSENESS_DRAWS,
        "rope.bound-looseness-min": float(looseness.min()),
        "rope.bound-looseness-max": float(looseness.max()),
        # extrapolation: ALiBi's weight factor per step back, e^slope, for the experiments' 8
        # heads' steepest slope and for 2 heads'; the closest two positions at d_model 18, base
        # 12.6, and neighbours
        "extrapolation.steepest-factor": math.exp(alibi_slopes(EXPERIMENT_MODEL["n_heads"])[0]),
        "extrapolation.two-heads-factor": math.exp(alibi_slopes(2)[0]),
        "extrapolation.aliased-offset": int(aliased.argmin()) + 1,
        "extrapolation.aliased-distance": float(aliased.min()),
        "extrapolation.neighbour-distance": float(aliased[0]),
        # training: what its code shows of the model it trains
        "training.learning-rate": LEARNING_RATE,
        "training.width": TINY_MODEL["d_model"],
    }


def computed() -> dict[str, float | int]:
    """Every value by name, a float to 12 significant figures (what another BLAS kernel's order
    of adding changes lies far below them)."""
    return {
        name: value if isinstance(value, int) else float(f"{value:.12g}")
        for name, value in _computed().items()
    }


def module_text() -> str:
    """app/computed.js: COMPUTED, the values by name, as a frozen object."""
    return (
        "// Generated by py/pelab/browser/computed.py, which says how to remake it: do not edit.\n"
        "/**\n"
        " * What pelab computes that the page quotes: the numbers of the lesson's prose (each a\n"
        ' * <span data-computed="NAME"> in lesson/, written in by the build: tools/computed.py)\n'
        " * and the settings a demo's code shows, by name, unrounded.\n"
        " */\n"
        f"export const COMPUTED = Object.freeze({json.dumps(computed(), indent=2)});\n"
    )


if __name__ == "__main__":
    print(module_text(), end="")
