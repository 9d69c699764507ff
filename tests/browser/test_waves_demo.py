"""The waves demo: each pair's clock hand turns at its own speed; the shown position is shared with
the heatmap."""

from __future__ import annotations

import math

import pytest

import pelab
from pages import PHONE, poll, put_back

# The pairs drawn as waves as served, by rank among the dials' pairs (waves.js's `plotted`).
PLOTTED = [0, 4, 6]
# Ticks (or unticks) the pairs' boxes, which are no settings (they have no name), as served.
TICK_AS_SERVED = """(plotted) => {
  const boxes = [...document.querySelectorAll('#waves .waves-pairs input')];
  boxes.forEach((box, rank) => { if (box.checked !== plotted.includes(rank)) box.click(); });
}"""


def show_as_served(page) -> None:
    """Put the demo's settings and drawn pairs back as served and wait until it shows them."""
    put_back(page, "#waves")
    page.evaluate(TICK_AS_SERVED, PLOTTED)
    poll(
        page,
        "() => [document.querySelector('#waves').dataset.rendered,"
        " document.querySelectorAll('#waves .waves-chart path.wave').length]",
        lambda shown: shown == ["128@10000:3", 2 * len(PLOTTED)],
    )


def dial_angles(page) -> dict[int, float]:
    return {
        int(pair): float(angle)
        for pair, angle in page.evaluate(
            "() => [...document.querySelectorAll('#waves .dial')]"
            ".map(d => [d.dataset.pair, d.dataset.angle])"
        )
    }


def test_the_clock_hands_turn_at_each_pairs_own_speed(as_served):
    lesson = as_served
    demo = lesson.locator("#waves")
    poll(
        lesson,
        "() => document.querySelector('#waves').dataset.rendered",
        lambda v: v == "128@10000:3",
    )
    angles = dial_angles(lesson)
    assert sorted(angles) == [0, 1, 2, 5, 10, 19, 34, 63]
    omega = pelab.angular_frequencies(128)
    for pair, angle in angles.items():
        assert angle == pytest.approx((3 * omega[pair]) % (2 * math.pi), abs=1e-12)
    demo.get_by_role("slider", name="Position").press("ArrowRight")
    poll(
        lesson,
        "() => document.querySelector('#waves').dataset.rendered",
        lambda v: v == "128@10000:4",
    )
    later = dial_angles(lesson)
    assert later[0] == pytest.approx(4.0) and later[63] - angles[63] == pytest.approx(
        omega[63], abs=1e-12
    )
    assert lesson.locator("#waves .waves-chart path.wave").count() == 6  # 3 pairs, sine and cosine
    demo.get_by_role("checkbox", name="i = 63").check()
    poll(
        lesson,
        "() => document.querySelectorAll('#waves .waves-chart path.wave').length",
        lambda n: n == 8,
    )
    assert lesson.locator("#waves .wavelength-chart path.wavelength").count() == 1
    label = lesson.locator("#waves .wavelength-chart").get_attribute("aria-label")
    slowest = float(f"{pelab.wavelengths(128)[-1]:.4g}")  # 4 significant figures, as the page shows
    assert (
        f"about {int(slowest) if slowest.is_integer() else slowest} positions for i = 63" in label
    )


def test_the_chosen_position_is_the_highlighted_heatmap_row_and_back(as_served):
    lesson = as_served
    waves = lesson.locator("#waves")
    poll(lesson, "() => document.querySelector('.heatmap-row').dataset.pos", lambda v: v == "3")
    slider = waves.get_by_role("slider", name="Position")
    for _ in range(4):
        slider.press("ArrowRight")
    poll(lesson, "() => document.querySelector('.heatmap-row').dataset.pos", lambda v: v == "7")
    assert "pos 7" in lesson.locator(".heatmap-row").inner_text()
    canvas = lesson.locator(".heatmap-canvas")
    box = canvas.bounding_box()
    canvas.click(position={"x": box["width"] / 2, "y": (20 + 0.5) * box["height"] / 64})
    poll(lesson, "() => document.querySelector('#waves-pos').value", lambda v: v == "20")
    poll(
        lesson,
        "() => document.querySelector('#waves').dataset.rendered",
        lambda v: v == "128@10000:20",
    )
    assert waves.locator("output[for='waves-pos']").inner_text() == "20"


@pytest.mark.parametrize("context_options", [{}, PHONE], ids=["wide", "phone"])
def test_the_dials_fill_their_rows_and_the_charts_title_both_axes(as_served_or_own):
    """8 dials wrapped 6 + 2 on a wide screen: now every row of dials is as full as the others.
    Both charts are drawn at the width they are shown, with a title on each axis."""
    lesson = as_served_or_own
    poll(
        lesson,
        "() => document.querySelector('#waves').dataset.rendered",
        lambda v: v == "128@10000:3",
    )
    rows = lesson.evaluate(
        """() => { const rows = new Map();
                   for (const d of document.querySelectorAll('#waves .dial')) {
                     const top = Math.round(d.getBoundingClientRect().top);
                     rows.set(top, (rows.get(top) ?? 0) + 1);
                   }
                   return [...rows.values()]; }"""
    )
    assert sum(rows) == 8 and len(set(rows)) == 1, rows
    for chart, titles in (
        (".waves-chart", ["position pos", "sin and cos"]),
        (".wavelength-chart", ["pair index i (0 to 63)", "wavelength λ (log)"]),
    ):
        drawn = lesson.evaluate(
            """(s) => {
                 const c = document.querySelector(s);
                 const titles = [...c.querySelectorAll('text.axis')].map((t) => t.textContent);
                 return [c.viewBox.baseVal.width, c.getBoundingClientRect().width, titles];
               }""",
            chart,
        )
        assert drawn[0] == pytest.approx(drawn[1], abs=1) and drawn[2] == titles, (chart, drawn)
