"""The formula demo: the table of terms reproduces the worked example."""

from __future__ import annotations

import pelab
from pages import poll


def formula_values(page) -> list[str]:
    return page.locator("#formula .formula-table tbody tr td:last-child").all_inner_texts()


def test_the_formula_table_reproduces_the_worked_example(lesson):
    demo = lesson.locator("#formula")
    poll(
        lesson,
        "() => document.querySelector('.formula-table').dataset.rendered",
        lambda v: v == "1/4",
    )
    assert formula_values(lesson) == ["0.841471", "0.540302", "0.010000", "0.999950"]
    # the seeds' four decimals, 0.8415 0.5403 0.0100 0.9999, each within 1e-4 of what is shown
    for shown, seed in zip(formula_values(lesson), [0.8415, 0.5403, 0.0100, 0.9999]):
        assert abs(float(shown) - seed) <= 1e-4
    assert demo.locator(".formula-example").is_visible()
    assert "0.99995" in demo.locator(".formula-example").inner_text()
    first = demo.locator(".formula-table tbody tr").first.locator("td").all_inner_texts()
    assert first[:2] == ["0", "0"] and first[4] == "sin(1.000000)"
    demo.get_by_role("slider", name="Position").press("ArrowRight")
    poll(
        lesson,
        "() => document.querySelector('.formula-table').dataset.rendered",
        lambda v: v == "2/4",
    )
    assert formula_values(lesson) == ["0.909297", "−0.416147", "0.019999", "0.999800"]
    for shown, seed in zip(formula_values(lesson), [0.9093, -0.4161, 0.0200, 0.9998]):
        assert abs(float(shown.replace("−", "-")) - seed) <= 1e-4
    demo.get_by_role("slider", name="d_model").press("End")
    poll(
        lesson,
        "() => document.querySelector('.formula-table').dataset.rendered",
        lambda v: v == "2/16",
    )
    expected = [f"{v:.6f}".replace("-", "−") for v in pelab.sinusoidal(3, 16)[2]]
    assert formula_values(lesson) == expected
    assert not demo.locator(".formula-example").is_visible()
