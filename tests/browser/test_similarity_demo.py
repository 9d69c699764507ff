"""The similarity demo: the dot product of two positions depends only on their offset."""

from __future__ import annotations

from pages import canvas_size, dataset, wait_rendered


def test_the_dot_product_depends_only_on_the_offset(lesson):
    demo = lesson.locator("#similarity")
    wait_rendered(lesson, "#similarity", "100x64@10000:50")
    assert float(dataset(lesson, "#similarity", "toeplitz")) <= 1e-9
    assert canvas_size(lesson, ".similarity-dot") == [100, 100]
    assert canvas_size(lesson, ".similarity-cosine") == [100, 100]
    assert "depends only on the offset" in demo.locator(".similarity-toeplitz").inner_text()
    assert lesson.locator("#similarity .similarity-chart path.series").count() == 1
    lesson.locator("#similarity-pos").press("Home")
    wait_rendered(lesson, "#similarity", "100x64@10000:0")
    assert "PE(0) · PE(q)" in lesson.locator("#similarity .similarity-chart").inner_html()
