"""The training demo: a learned table trains in a Python of its own, as a learner drives it (Train,
Pause, Resume, Stop, Reset, from the keyboard), to the same numbers as under CPython, while the
rest of the lesson stays live."""

from __future__ import annotations

import pytest

from pages import (
    PHONE,
    canvas_size,
    chart_geometry,
    colour_bar,
    dataset,
    matrix_axes,
    poll,
    wait_for_state,
    wait_rendered,
)
from pelab.browser.demos import training as adapter
from pelab.experiments.training import LEARNING_RATE, Trainer


def steps(page) -> int:
    return int(dataset(page, "#training", "steps") or 0)


def workers(page) -> int:
    return len(page.workers)


def test_a_table_trains_in_its_own_python_and_grows_a_band(lesson):
    demo = lesson.locator("#training")
    wait_rendered(lesson, "#training", "0/1/32@0")
    assert canvas_size(lesson, ".training-cosine") == [32, 32]
    untrained = adapter.training_reset(seed=0, max_train_len=32, shift=1)
    # Cosines of the same table in Pyodide (no BLAS) and CPython: a few ulps apart.
    assert float(dataset(lesson, "#training", "contrast")) == pytest.approx(
        untrained["band_contrast"], abs=1e-12
    )
    assert "not structured yet" in demo.locator(".training-cosine").get_attribute("aria-label")
    before = workers(lesson)

    demo.locator(".training-train").focus()
    lesson.keyboard.press("Enter")  # from the keyboard
    poll(
        lesson,
        "() => document.querySelector('#training').dataset.phase",
        lambda p: p == "training",
        timeout=90,
    )
    assert workers(lesson) == before + 1  # a Python of its own

    # Meanwhile the other demos of its page answer: the similarity demo follows its slider.
    before_move = dataset(lesson, "#similarity", "rendered")
    lesson.locator("#similarity [name=seq_len]").press("ArrowRight")
    poll(
        lesson,
        "() => document.querySelector('#similarity').dataset.rendered",
        lambda v: v != before_move,
    )
    assert dataset(lesson, "#training", "phase") == "training"

    poll(
        lesson, "() => document.querySelector('#training').dataset.structuredAt", bool, timeout=120
    )
    structured_at = int(dataset(lesson, "#training", "structuredAt"))
    assert "structured since step" in demo.locator(".training-cosine").get_attribute("aria-label")

    demo.get_by_role("button", name="Pause").click()
    poll(lesson, "() => document.querySelector('#training').dataset.phase", lambda p: p == "paused")
    # The slice in flight lands, and no other follows.
    poll(lesson, "() => document.querySelector('#training').dataset.slice", lambda s: s == "none")
    paused_at = steps(lesson)
    lesson.wait_for_timeout(1000)
    assert steps(lesson) == paused_at and workers(lesson) == before + 1  # kept, not training
    demo.get_by_role("button", name="Resume").click()
    poll(
        lesson,
        "() => Number(document.querySelector('#training').dataset.steps)",
        lambda s: s > paused_at,
    )

    demo.get_by_role("button", name="Stop").click()
    assert dataset(lesson, "#training", "phase") == "stopped"
    poll(lesson, "() => 0", lambda _: workers(lesson) == before)  # its worker is gone at once
    stopped_at = steps(lesson)
    assert f"Stopped at step {stopped_at}" in demo.locator(".training-status").inner_text()

    # The same numbers as CPython: the same seed, the same losses step by step.
    trainer = Trainer(scheme="learned", task="copy", max_train_len=32, table_len=32, shift=1,
                      learning_rate=LEARNING_RATE, seed=0)
    trainer.step(stopped_at)
    demo.get_by_text("Show the numbers: the training loss").click()
    rows = demo.locator(".numbers-table").filter(has_text="Training loss").locator("tbody tr")
    # <details> fires "toggle", which fills the table, after the click returns
    rows.first.wait_for()
    assert rows.count() >= 2
    for row in rows.all():
        step = int(row.locator("th").inner_text())
        shown = float(row.locator("td").inner_text())
        # Shown to 6 decimals; the runs themselves agree to ~1e-15 (tests/build).
        assert shown == pytest.approx(trainer.losses[step - 1], abs=1e-6), step
    check = adapter.training_reset(seed=0, max_train_len=32, shift=1)
    while check["structured_at"] is None:
        check = adapter.training_step(25)
    assert check["structured_at"] == structured_at

    demo.get_by_role("button", name="Reset").click()
    wait_rendered(lesson, "#training", "0/1/32@0")
    assert dataset(lesson, "#training", "phase") == "idle"


def test_moving_a_setting_while_training_ends_that_run(lesson):
    demo = lesson.locator("#training")
    wait_rendered(lesson, "#training", "0/1/32@0")
    before = workers(lesson)
    demo.get_by_role("button", name="Train").click()
    poll(
        lesson,
        "() => document.querySelector('#training').dataset.phase",
        lambda p: p in ("starting", "training"),
    )
    demo.get_by_role("slider", name="Shift").press("ArrowRight")
    wait_rendered(lesson, "#training", "0/2/32@0")
    assert dataset(lesson, "#training", "phase") == "idle"
    poll(lesson, "() => 0", lambda _: workers(lesson) == before)


def test_an_embed_takes_its_settings_from_the_link_clamped_with_a_notice(page, site_url, page_log):
    page.goto(f"{site_url}embed.html?demo=training#seed=7&shift=9&max_train_len=20")
    assert wait_for_state(page) == "ready"
    wait_rendered(page, "#training", "7/4/24@0")
    notices = page.locator(".share-notices li").all_inner_texts()
    assert any("Shift" in n and "outside" in n for n in notices), notices
    assert any("not one of its steps" in n for n in notices), notices
    untrained = adapter.training_reset(seed=7, max_train_len=24, shift=4)
    assert float(dataset(page, "#training", "contrast")) == pytest.approx(
        untrained["band_contrast"], abs=1e-12
    )
    assert page_log.foreign_requests(site_url) == [] and page_log.console_errors() == []


@pytest.mark.parametrize("context_options", [{}, PHONE], ids=["wide", "phone"])
def test_the_text_says_where_the_chart_is_at_every_width(lesson):
    """The text said the components were "beside" the matrix, and they were below it. It says
    "with the matrix" now, which is true wherever the layout puts them; and the figures read on
    their own: the square's axes and bar, the chart's key."""
    wait_rendered(lesson, "#training", "0/1/32@0")
    text = lesson.locator("#training").evaluate(
        "(s) => [...s.querySelectorAll(':scope > p')].map((p) => p.textContent).join(' ')"
    )
    said = "With the matrix, a chart plots the table’s two principal components"
    assert said in " ".join(text.split())
    assert "beside the matrix" not in text.lower() and "below the matrix" not in text.lower()
    axes = matrix_axes(lesson, ".training-cosine")
    assert (axes["rowTitle"], axes["columnTitle"]) == ("position", "position")
    assert axes["rows"][:2] == ["0", "10"]
    assert colour_bar(lesson, "#training .matrix-figure .colour-bar")["labels"] == ["−1", "0", "+1"]
    chart = chart_geometry(lesson, ".training-components")
    assert chart["key"] == [
        "first component", "its closest sinusoid", "second component", "its closest sinusoid"
    ]
