"""
# The numbers of the graded test's numeric items

Drawn per attempt from the tables made here, which are generated and committed, as
app/computed.js is (the build runs on the standard library alone):

    PYTHONPATH=py python3 -m pelab.browser.quiz_variants > lesson/quiz-variants.json

`tests/python/browser/test_quiz_variants.py` recomputes every table and says when the file is
out of date.

A numeric test item has its practice version, the source's own numbers, which a learner meets
in practice mode with its answer shown; and a template, its graded version
(`<fieldset … data-version-of="NAME" data-version="v">`, inputs named NAME.v), whose numbers
are `<span data-param="KEY">…</span>` in its legend and explanation. Each template here draws
VARIANTS sets of numbers (never the practice version's) with a fixed seed, so every build writes
the same table, and computes each one's answer with the lesson's own functions (pelab): variant
K is interaction `NAME.vK` (K from 1), its numbers shown in the page (`data-variants`, the
legend's keys only) and its answer and filled explanation in the quiz's sealed keys. A graded
attempt draws one variant per template (app/quiz/versions.js); the teacher's answer key lists
every variant with its answer, so what a learner saw can be looked up by the id the LMS holds.

A value is shown as the learner reads it: plain digits, a decimal point, no thousands
separator (a digits-only span is kept whole in every language, and "40,890" would read as a
decimal in Spanish), a minus sign for a negative number.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..alibi import alibi_slopes
from ..context_scaling import interpolated_positions, ntk_scaled_base
from ..positional_encoding import angular_frequencies, sinusoidal

VARIANTS = 12  # per template: graded attempts draw among them


@dataclass(frozen=True)
class Variant:
    shown: dict[str, str]  # every data-param's text: the legend's and the explanation's
    answer: float
    tolerance: float


@dataclass(frozen=True)
class Template:
    name: str  # the practice item's name, e.g. "quiz-formula-compute"
    legend: tuple[str, ...]  # the params its legend shows (the rest only explain the answer)
    draws: Callable[[random.Random], tuple]  # one candidate set of numbers
    practice: tuple  # the practice version's numbers, never drawn
    variant: Callable[..., Variant]  # numbers -> what is shown, the answer, the tolerance
    # an angle asked "in radians" stays under a full turn, where it has one answer
    below: float = math.inf


def shown(value: float, decimals: int | None = None) -> str:
    """A number as the learner reads it: `decimals` places, else as short as it is exact to
    six significant figures; a minus sign, no thousands separator."""
    text = f"{value:.{decimals}f}" if decimals is not None else f"{float(f'{value:.6g}'):.10f}"
    if decimals is None:
        text = text.rstrip("0").rstrip(".")
    if text in ("-0", "-0.0") or set(text) <= {"-", "0", "."}:
        text = text.lstrip("-")
    return text.replace("-", "\u2212")


def _formula(pos: int, dim: int, d: int) -> Variant:
    pair = dim // 2
    frequency = float(angular_frequencies(d)[pair])
    value = float(sinusoidal(pos + 1, d)[pos, dim])
    return Variant(
        {
            "pos": str(pos),
            "dim": str(dim),
            "d": str(d),
            "pair": str(pair),
            "two-i": str(2 * pair),
            "frequency": shown(frequency),
            "angle": shown(pos * frequency),
            "answer": shown(value, 4),
        },
        value,
        0.001,
    )


def _wavelength(pair: int, d: int) -> Variant:
    wavelength = 2 * math.pi / float(angular_frequencies(d)[pair])
    return Variant(
        {
            "pair": str(pair),
            "d": str(d),
            "two-i": str(2 * pair),
            "power": shown(wavelength / (2 * math.pi), 3),
            "answer": shown(wavelength, 1),
        },
        wavelength,
        0.1,
    )


def _pair_turn(count: str, tolerance: float) -> Callable[..., Variant]:
    """A pair's turn after `count` positions (k for M_k, m for a RoPE query), in radians: the
    count times the pair's frequency."""

    def variant(steps: int, pair: int, d: int) -> Variant:
        frequency = float(angular_frequencies(d)[pair])
        angle = steps * frequency
        return Variant(
            {
                count: str(steps),
                "pair": str(pair),
                "d": str(d),
                "two-i": str(2 * pair),
                "frequency": shown(frequency),
                "answer": shown(angle, 2),
            },
            angle,
            tolerance,
        )

    return variant


def _similarity(p: int, q: int) -> Variant:
    rows = sinusoidal(max(p, q) + 1, 4)
    value = float(np.sum(rows[p] * rows[q]))  # elementwise: no BLAS kernel decides the bits
    offset = q - p
    return Variant(
        {
            "p": str(p),
            "q": str(q),
            "offset": str(offset),
            "slow-angle": shown(offset * 0.01),
            "fast-cos": shown(math.cos(offset), 3),
            "slow-cos": shown(math.cos(offset * 0.01), 3),
            "answer": shown(value, 2),
        },
        value,
        0.01,
    )


def _alibi(heads: int, head: int) -> Variant:
    slope = float(alibi_slopes(heads)[head - 1])
    return Variant(
        {
            "heads": str(heads),
            "head": str(head),
            "exponent": shown(-8 * head / heads),
            "answer": shown(slope),
        },
        slope,
        # three significant figures are asked: a rounding of them is off by at most 0.5%
        float(f"{slope * 0.006:.2g}"),
    )


def _interpolation(trained: int, run: int) -> Variant:
    first, second = interpolated_positions([0.0, 1.0], trained, run).tolist()
    step = second - first  # the fastest pair turns 1 radian per position in training
    return Variant(
        {
            "trained": str(trained),
            "run": str(run),
            "s": shown(run / trained),
            "answer": shown(step, 4),
        },
        step,
        0.001,
    )


def _ntk(scale: int, d: int) -> Variant:
    base = float(ntk_scaled_base(10000.0, scale, d))
    return Variant(
        {
            "s": str(scale),
            "d": str(d),
            "d-2": str(d - 2),
            "factor": shown(base / 10000, 3),
            "answer": shown(round(base, -2), 0),
        },
        base,
        100.0,
    )


_TEMPLATES = (
    Template(
        "quiz-formula-compute",
        ("pos", "dim", "d"),
        # sines only (even dimensions), of pairs whose value is neither ~0 nor a whole turn
        lambda r: (r.randint(2, 9), 2 * r.randint(1, 2), r.choice((8, 16))),
        (3, 2, 8),
        _formula,
    ),
    Template(
        "quiz-waves-wavelength",
        ("d", "pair"),
        lambda r: ((d := r.choice((32, 64, 128))), r.randint(d // 16, d // 4)),
        (64, 8),
        lambda d, pair: _wavelength(pair, d),
    ),
    Template(
        "quiz-relative-angle",
        ("d", "k", "pair"),
        lambda r: (r.randint(5, 40), r.randint(1, 2), r.choice((8, 16))),
        (20, 1, 8),
        _pair_turn("k", 0.01),
        2 * math.pi,
    ),
    Template(
        "quiz-similarity-dot",
        ("p", "q"),
        lambda r: ((p := r.randint(0, 60)), p + r.randint(1, 20)),
        (5, 7),
        _similarity,
    ),
    Template(
        "quiz-alibi-slope",
        ("heads", "head"),
        lambda r: ((n := r.choice((4, 8, 16))), r.randint(2, n)),
        (4, 2),
        _alibi,
    ),
    Template(
        "quiz-rope-angle",
        ("d", "m", "pair"),
        lambda r: (r.randint(2, 30), r.randint(1, 2), r.choice((8, 16, 64))),
        (5, 1, 8),
        _pair_turn("m", 0.005),
        2 * math.pi,
    ),
    Template(
        "quiz-stretching-interpolation-step",
        ("trained", "run"),
        lambda r: (
            (t := r.choice((2048, 4096))),
            int(t * r.choice((1.25, 1.5, 1.75, 2, 2.5, 3, 5, 6, 8, 10, 12, 16))),
        ),
        (4096, 16384),
        _interpolation,
    ),
    Template(
        "quiz-stretching-ntk-base",
        ("s", "d"),
        lambda r: (r.choice((2, 3, 5, 6, 8, 16)), r.choice((64, 128))),
        (4, 128),
        _ntk,
    ),
)
TEMPLATES = {template.name: template for template in _TEMPLATES}


def variants(name: str) -> list[Variant]:
    """Template `name`'s VARIANTS variants, 1 to VARIANTS in order: distinct numbers, none the
    practice version's, each with its own answer (never the one practice mode shows); the same
    in every build."""
    template = TEMPLATES[name]
    draw = random.Random(name)
    practice = template.variant(*template.practice).shown["answer"]
    seen = {template.practice}
    answers = {practice}
    found = []
    for _ in range(10_000):
        numbers = template.draws(draw)
        if numbers in seen:
            continue
        seen.add(numbers)
        variant = template.variant(*numbers)
        # an answer practice mode shows, or another variant's, would give one away; so would
        # one near zero, where 0 passes within the tolerance
        if (
            variant.answer >= template.below
            or variant.shown["answer"] in answers
            or variant.tolerance > 0.05 * abs(variant.answer)
        ):
            continue
        answers.add(variant.shown["answer"])
        found.append(variant)
        if len(found) == VARIANTS:
            return found
    raise ValueError(f"{name}: fewer than {VARIANTS} distinct variants can be drawn")


def practice_variant(name: str) -> Variant:
    """The practice version's numbers worked out as a variant's (its source states them)."""
    template = TEMPLATES[name]
    return template.variant(*template.practice)


def table() -> dict:
    """Every template's table, as lesson/quiz-variants.json holds it: the params its legend
    shows, the practice version's numbers, and the variants, 1 to VARIANTS."""

    def entry(variant: Variant) -> dict:
        return {"shown": variant.shown, "answer": variant.answer, "tolerance": variant.tolerance}

    return {
        name: {
            "legend": list(template.legend),
            "practice": entry(practice_variant(name)),
            "variants": [entry(v) for v in variants(name)],
        }
        for name, template in TEMPLATES.items()
    }


if __name__ == "__main__":
    print(json.dumps(table(), ensure_ascii=False, indent=1, sort_keys=True))
