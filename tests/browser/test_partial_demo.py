"""The partial-rotary demo: a head that rotates part of its width, as a learner moves it."""

from __future__ import annotations

from pages import dataset, wait_rendered


def test_the_flat_part_shrinks_as_more_of_the_head_turns(lesson):
    demo = lesson.locator("#partial")
    wait_rendered(lesson, "#partial", "0.25/64/0")
    # The try line's numbers: 16 of the 64 dims turn, 48 do not.
    assert demo.locator(".partial-rotated").inner_text() == "16 of 64"
    assert demo.locator(".partial-still").inner_text() == "48 of 64"
    assert int(dataset(lesson, "#partial", "rotated")) == 16
    low = float(dataset(lesson, "#partial", "share"))
    assert 0 < low < 0.25

    slider = demo.get_by_role("slider", name="Rotated fraction")
    slider.focus()
    slider.press("End")
    wait_rendered(lesson, "#partial", "1/64/0")
    assert demo.locator(".partial-still").inner_text() == "0 of 64"
    # With nothing passed through, the score chart draws no flat line: two lines in its key.
    assert demo.locator("ul.chart-legend").first.locator("li").count() == 2
    high = float(dataset(lesson, "#partial", "share"))
    assert low < high < 1

    demo.get_by_role("slider", name="Head dimension").press("End")
    wait_rendered(lesson, "#partial", "1/128/0")
    assert demo.locator(".partial-rotated").inner_text() == "128 of 128"
    demo.get_by_role("slider", name="Draw of q and k").press("ArrowRight")
    wait_rendered(lesson, "#partial", "1/128/1")
