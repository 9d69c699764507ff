"""The similarity demo: the dot product of two positions depends only on their offset."""

from __future__ import annotations

import pytest

from pages import canvas_size, chart_geometry, colour_bar, dataset, matrix_axes, wait_rendered


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


def test_the_squares_and_the_chart_read_on_their_own(lesson):
    """Axes on both squares, each with its colour bar (the dot products' range, ±d_model/2, and
    the cosine's ±1), and a chart whose peak has room above it."""
    wait_rendered(lesson, "#similarity", "100x64@10000:50")
    for canvas in (".similarity-dot", ".similarity-cosine"):
        axes = matrix_axes(lesson, canvas)
        assert (axes["rowTitle"], axes["columnTitle"]) == ("position p", "position q")
        assert axes["rows"] == axes["columns"] == ["0", "20", "40", "60", "80"]
    dot = colour_bar(lesson, "#similarity .matrix-figure:nth-child(1) .colour-bar")
    # Every dot product and cosine is positive here: each bar is the sequential white-to-red
    # half, from 0 up, with no blue for values that do not occur. |PE(p)|² = d_model / 2 = 32,
    # summed over 32 pairs: within rounding of 32.
    assert dot["labels"] == ["0", "+32"] and dot["low"] == 0
    assert dot["high"] == pytest.approx(32, abs=1e-12)
    assert dot["name"] == "Colour scale of the dot products: white 0, red +32"
    cosines = colour_bar(lesson, "#similarity .matrix-figure:nth-child(2) .colour-bar")
    assert cosines["labels"] == ["0", "+1"]
    chart = chart_geometry(lesson, ".similarity-chart")
    # PE(50) · PE(50) = 32 is the highest point; the axis goes on to a round 35 above it.
    assert chart["series"][0]["top"] > chart["gridTop"] + 10
    assert chart["xTitle"] == ["position q", "PE(50) · PE(q)"]
    # The marker's label sits above the plot, where no line can run through it.
    [marker] = chart["markerLabels"]
    assert marker["text"] == "p = 50" and marker["bottom"] <= chart["gridTop"]
    # Base 10: far positions point apart, the similarities turn negative, and each bar shows the
    # whole diverging scale, blue to red.
    lesson.locator("#similarity-base").press("Home")
    wait_rendered(lesson, "#similarity", "100x64@10:50")
    cosines = colour_bar(lesson, "#similarity .matrix-figure:nth-child(2) .colour-bar")
    assert cosines["labels"] == ["−1", "0", "+1"]
    dot = colour_bar(lesson, "#similarity .matrix-figure:nth-child(1) .colour-bar")
    assert dot["low"] == -dot["high"]
