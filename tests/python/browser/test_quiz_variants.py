"""The graded test's numeric templates (pelab/browser/quiz_variants.py): the committed table,
lesson/quiz-variants.json, is what pelab computes now; every variant's answer is worked out
again here from the formula the explanation states, with plain math; a reading rounded as the
legend asks is marked right; and no variant repeats the numbers or the answer practice mode
shows. Values are compared within a hair, never bit for bit."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from pelab.browser.quiz_variants import TEMPLATES, VARIANTS, table

COMMITTED = Path(__file__).resolve().parents[3] / "lesson" / "quiz-variants.json"
TABLE = json.loads(COMMITTED.read_text(encoding="utf-8"))


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def number(text: str) -> float:
    return float(text.replace("\u2212", "-"))


def test_the_committed_table_is_what_pelab_computes():
    fresh = table()
    assert fresh.keys() == TABLE.keys(), (
        "lesson/quiz-variants.json is out of date: PYTHONPATH=py python3 -m "
        "pelab.browser.quiz_variants > lesson/quiz-variants.json"
    )
    for name, entry in fresh.items():
        stored = TABLE[name]
        assert entry["legend"] == stored["legend"], name
        for now, then in zip([entry["practice"], *entry["variants"]],
                             [stored["practice"], *stored["variants"]], strict=True):
            assert now["shown"].keys() == then["shown"].keys(), name
            for key, text in now["shown"].items():
                assert close(number(text), number(then["shown"][key])), (name, key)
            assert close(now["answer"], then["answer"]), name
            assert close(now["tolerance"], then["tolerance"]), name


def w(pair: int, d: int) -> float:
    """A pair's frequency, 1 / 10000^(2i/d), as every explanation states it."""
    return 10000.0 ** (-2 * pair / d)


# Each template's answer from its shown numbers, by the formula its explanation gives.
BY_HAND = {
    "quiz-formula-compute": lambda s: math.sin(int(s["pos"]) * w(int(s["dim"]) // 2, int(s["d"]))),
    "quiz-waves-wavelength": lambda s: 2 * math.pi / w(int(s["pair"]), int(s["d"])),
    "quiz-relative-angle": lambda s: int(s["k"]) * w(int(s["pair"]), int(s["d"])),
    "quiz-similarity-dot": lambda s: sum(
        math.cos((int(s["q"]) - int(s["p"])) * f) for f in (1.0, 0.01)
    ),
    "quiz-alibi-slope": lambda s: 2.0 ** (-8 * int(s["head"]) / int(s["heads"])),
    "quiz-rope-angle": lambda s: int(s["m"]) * w(int(s["pair"]), int(s["d"])),
    "quiz-stretching-interpolation-step": lambda s: int(s["trained"]) / int(s["run"]),
    "quiz-stretching-ntk-base": lambda s: 10000 * int(s["s"]) ** (int(s["d"]) / (int(s["d"]) - 2)),
}


def test_every_template_is_worked_out_by_hand_here():
    assert BY_HAND.keys() == TEMPLATES.keys() == TABLE.keys()


@pytest.mark.parametrize("name", sorted(TABLE))
def test_each_variant_is_right_distinct_and_not_practice_modes(name):
    entry = TABLE[name]
    variants = entry["variants"]
    assert len(variants) == VARIANTS
    practice = entry["practice"]
    assert math.isclose(BY_HAND[name](practice["shown"]), practice["answer"], rel_tol=1e-9)
    legends = [tuple(v["shown"][k] for k in entry["legend"]) for v in variants]
    shown_answers = [v["shown"]["answer"] for v in variants]
    # no two variants alike, and none shows practice mode's numbers or its answer
    assert len(set(legends)) == len(legends)
    assert tuple(practice["shown"][k] for k in entry["legend"]) not in legends
    assert len(set(shown_answers)) == len(shown_answers)
    assert practice["shown"]["answer"] not in shown_answers
    for variant in variants:
        by_hand = BY_HAND[name](variant["shown"])
        assert math.isclose(by_hand, variant["answer"], rel_tol=1e-9), (name, variant)
        # the explanation's own rounded answer is marked right, and is a fair rounding
        written = number(variant["shown"]["answer"])
        assert abs(written - variant["answer"]) <= variant["tolerance"] + 1e-9, (name, variant)
        # the tolerance is a rounding's, not a guess's: within 5% of the answer
        assert variant["tolerance"] <= 0.05 * abs(variant["answer"]), (name, variant)


@pytest.mark.parametrize("name", ["quiz-relative-angle", "quiz-rope-angle"])
def test_an_angle_asked_in_radians_stays_under_a_full_turn(name):
    assert all(v["answer"] < 2 * math.pi for v in TABLE[name]["variants"])
