"""The extrapolation demo: how close two positions' vectors come as the sequence grows."""

from __future__ import annotations

import pytest

import pelab
from pages import dataset, wait_rendered


def test_nearest_positions_as_the_sequence_grows(lesson):
    demo = lesson.locator("#extrapolation")
    wait_rendered(lesson, "#extrapolation", "64/512/16@10000")
    at_train = float(dataset(lesson, "#extrapolation", "atTrain"))
    expected = pelab.nearest_distances(seq_len=512, d_model=16)
    assert at_train == pytest.approx(expected[63], abs=1e-9)
    assert float(dataset(lesson, "#extrapolation", "beyond")) == pytest.approx(expected[-1], abs=1e-9)
    demo.get_by_role("slider", name="d_model").press("Home")  # one pair: a single clock hand
    wait_rendered(lesson, "#extrapolation", "64/512/2@10000")
    beyond = float(dataset(lesson, "#extrapolation", "beyond"))
    assert beyond == pytest.approx(pelab.nearest_distances(seq_len=512, d_model=2)[-1], abs=1e-12)
    assert beyond < 0.01 and beyond < at_train  # a single clock hand comes back round: near-collisions
    demo.get_by_role("slider", name="Training length").press("End")
    demo.get_by_role("slider", name="Sequence length").press("Home")  # 16 < training length: clamped
    assert "is longer than the sequence" in demo.locator(".extrapolation-notice").inner_text()
    wait_rendered(lesson, "#extrapolation", "16/16/2@10000")
