"""The relative demo: moving k positions on is one rotation matrix."""

from __future__ import annotations

import numpy as np

from pages import canvas_size, dataset, wait_rendered


def test_moving_k_positions_is_one_rotation_matrix(lesson):
    demo = lesson.locator("#relative")
    wait_rendered(lesson, "#relative", "5/8")
    assert float(dataset(lesson, "#relative", "residual")) <= 1e-12
    assert float(dataset(lesson, "#relative", "sineOnly")) > 0.1
    assert canvas_size(lesson, ".relative-matrix") == [8, 8]
    assert (
        demo.locator(".relative-residual")
        .inner_text()
        .endswith(("(exactly)", "e−13", "e−14", "e−15", "e−16", "e−17"))
    )
    labels = demo.locator(".relative-table tbody th").all_inner_texts()
    assert labels[:2] == ["PE(0 + 5)", "M · PE(0)"] or labels[0].startswith("PE(")
    values = lesson.evaluate(
        """() => [...document.querySelectorAll('.relative-table tbody tr')].map(tr =>
             [...tr.querySelectorAll('td[title]')].map(td => Number(td.title.split(': ')[1])))"""
    )
    for shifted, mapped in zip(values[::2], values[1::2]):
        np.testing.assert_allclose(shifted, mapped, atol=1e-12)
    slider = demo.get_by_role("slider", name="Offset")
    slider.focus()
    slider.press("Home")
    wait_rendered(lesson, "#relative", "-20/8")
    demo.get_by_role("slider", name="d_model").press("End")
    wait_rendered(lesson, "#relative", "-20/32")
    assert canvas_size(lesson, ".relative-matrix") == [32, 32]
    assert float(dataset(lesson, "#relative", "residual")) <= 1e-12
