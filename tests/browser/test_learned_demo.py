"""The learned demo: a learned table has no row past its length; the formula has."""

from __future__ import annotations

import pytest

import pelab
from pages import canvas_size, wait_rendered


def test_a_learned_table_has_no_row_past_its_length_but_the_formula_does(lesson):
    demo = lesson.locator("#learned")
    wait_rendered(lesson, "#learned", "64/48")
    error = demo.locator(".learned-error")
    assert error.is_visible()
    assert "63" in error.inner_text() and "48" in error.inner_text()
    with pytest.raises(IndexError) as raised:
        pelab.learned(max_len=48, d_model=64).lookup([63])
    assert str(raised.value) in error.inner_text()
    for kind in ["learned", "sinusoidal", "rope"]:
        assert canvas_size(lesson, f".learned-panel-{kind}") == [64, 64]
    assert (
        "depends on the positions only through m − n"
        in demo.locator(".learned-rope-check").inner_text()
    )
    demo.get_by_role("slider", name="Learned table length").press("End")
    wait_rendered(lesson, "#learned", "64/128")
    assert not error.is_visible()
