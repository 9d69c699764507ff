"""The learned demo: a learned table has no row past its length; the formula has."""

from __future__ import annotations

import numpy as np
import pytest

import pelab
from pages import canvas_size, colour_bar, matrix_axes, wait_rendered
from pelab.browser.entry_points import call


def test_a_learned_table_has_no_row_past_its_length_but_the_formula_does(lesson):
    demo = lesson.locator("#learned")
    wait_rendered(lesson, "#learned", "64/48")
    error = demo.locator(".learned-error")
    # What the square shows, said in its figure: a note, not a problem (at the page's defaults).
    assert error.is_visible()
    assert error.evaluate("(e) => e.closest('figure') !== null && !e.matches('.problem')")
    assert demo.locator(".problem").is_hidden()
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


def test_the_rope_square_is_coloured_over_the_scores_it_holds(lesson):
    """A random q and k score far below |q| |k|: over [−1, 1] the RoPE square was almost white.
    Its bar's ends are the largest |score| shown, as pelab computes it, and its most extreme
    cell is drawn in an end colour of the map."""
    wait_rendered(lesson, "#learned", "64/48")
    expected = call("learned", {"seq_len": 64, "d_model": 64, "max_len": 48})
    bar = colour_bar(lesson, "#learned .matrix-figure:nth-child(3) .colour-bar")
    # Pyodide's numpy has no BLAS: the norms and sums round differently, far below 1e-12.
    assert bar["high"] == pytest.approx(expected["rope_scale"], abs=1e-12)
    assert bar["low"] == -bar["high"]
    assert expected["rope_scale"] < 0.5
    scale = expected["rope_scale"]
    assert bar["labels"] == [f"−{scale:.4g}", "0", f"+{scale:.4g}"]
    # The sinusoidal cosines are all positive: their bar shows the white-to-red half, 0 to +1;
    # the learned table's, positive and negative, the whole scale.
    figure = "#learned .matrix-figure:has(.learned-panel-{}) .colour-bar"
    sinusoidal = colour_bar(lesson, figure.format("sinusoidal"))
    assert sinusoidal["labels"] == ["0", "+1"]
    learned = colour_bar(lesson, figure.format("learned"))
    assert learned["labels"] == ["−1", "0", "+1"]
    rope = expected["rope"]
    extreme = int(np.argmax(np.abs(rope)))
    pixel = lesson.evaluate(
        """(k) => { const c = document.querySelector('.learned-panel-rope');
                    const pixel = c.getContext('2d')
                      .getImageData(k % c.width, Math.floor(k / c.width), 1, 1);
                    return Array.from(pixel.data); }""",
        extreme,
    )
    assert pixel in ([59, 76, 192, 255], [180, 4, 38, 255])  # COOL_WARM's blue and red ends
    axes = matrix_axes(lesson, ".learned-panel-rope")
    assert (axes["rowTitle"], axes["columnTitle"]) == ("query position m", "key position n")
    # The learned square's grey is named on its bar while some positions have no row.
    learned = "#learned .matrix-figure:nth-child(1) .colour-bar"
    assert colour_bar(lesson, learned)["missing"] == "no row"
    lesson.locator("#learned").get_by_role("slider", name="Learned table length").press("End")
    wait_rendered(lesson, "#learned", "64/128")
    assert colour_bar(lesson, learned)["missing"] is None
