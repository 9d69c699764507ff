"""The NoPE demo: position read back from causal attention alone."""

from __future__ import annotations

import math

from pages import canvas_size, dataset, wait_rendered


def test_position_is_read_back_with_the_mask_and_not_without(lesson):
    demo = lesson.locator("#nope")
    wait_rendered(lesson, "#nope", "16/0/true/0")
    assert float(dataset(lesson, "#nope", "exactError")) <= 1e-12
    assert float(dataset(lesson, "#nope", "causalRank")) > 0.999999
    assert math.isnan(float(dataset(lesson, "#nope", "openRank")))
    assert canvas_size(lesson, ".nope-weights") == [16, 16]
    assert demo.locator(".nope-rank").inner_text().startswith("with the mask: 1.00")
    demo.get_by_role("checkbox", name="Causal mask").uncheck()
    wait_rendered(lesson, "#nope", "16/0/false/0")
    slider = demo.get_by_role("slider", name="Score spread")
    slider.focus()
    slider.press("End")
    wait_rendered(lesson, "#nope", "16/2/false/0")
    assert float(dataset(lesson, "#nope", "causalMeanRank")) > 0.4
    assert abs(float(dataset(lesson, "#nope", "openMeanRank"))) < 0.1
    assert float(dataset(lesson, "#nope", "causalRank")) < 1
    demo.locator("[name=n]").press("End")
    wait_rendered(lesson, "#nope", "64/2/false/0")
    assert canvas_size(lesson, ".nope-weights") == [64, 64]
