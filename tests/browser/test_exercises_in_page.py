"""The exercises in the page (issue 37): Check runs the learner's cell, then pelab's checks in the
page's Python, and says in words what holds and what does not; an untouched starter fails and the
worked solution passes; the hint is one click away and the worked solution two; an attempt is
kept like any edit, until Reset."""

from __future__ import annotations

from pages import poll, wait_for_state
from test_cells import cell, output, type_code
from tools.course import read_course

LESSON_SECTION = "cell"  # the lesson fixture opens the page of "Your turn"
SOURCES = read_course().exercises


def check(page, name: str) -> str:
    """Press the exercise's Check and wait for its verdict; returns data-check."""
    box = cell(page, f"exercise-{name}")
    box.locator(".cell-check").click()
    return poll(
        page,
        "(n) => { const c = document.querySelector(`.cell[data-cell='exercise-${n}']`);"
        " return c.querySelector('.cell-check').disabled ? null : (c.dataset.check ?? null); }",
        lambda state: state in ("passed", "failed"),
        timeout=60,
        arg=name,
    )


def verdict(page, name: str) -> str:
    return cell(page, f"exercise-{name}").locator(".exercise-verdict").inner_text()


def test_check_fails_each_starter_and_passes_each_solution_saying_why(lesson):
    for name, exercise in SOURCES.items():
        assert check(lesson, name) == "failed", (name, output(lesson, f"exercise-{name}"))
        said = output(lesson, f"exercise-{name}")
        assert "✗" in said and "checks pass." in said
        assert "What does not hold is marked ✗ above." in verdict(lesson, name)
        type_code(lesson, f"exercise-{name}", exercise.solution)
        assert check(lesson, name) == "passed", (name, output(lesson, f"exercise-{name}"))
        assert verdict(lesson, name).startswith("All ") and "✗" not in output(
            lesson, f"exercise-{name}"
        )
    assert "Your prediction was right." in output(lesson, "exercise-stretch")


def test_code_that_fails_before_the_checks_says_so(lesson):
    type_code(lesson, "exercise-formula", "def pe_table(seq_len, d_model):\n    return 1 / 0")
    assert check(lesson, "formula") == "failed"
    assert "ZeroDivisionError" in output(lesson, "exercise-formula")
    type_code(lesson, "exercise-formula", "pe_table(")  # a syntax error: the cell itself fails
    assert check(lesson, "formula") == "failed"
    assert verdict(lesson, "formula").startswith("Your code stopped before the checks could run")


def test_the_hint_is_one_click_away_the_solution_two_and_an_attempt_is_kept(lesson):
    hint = lesson.locator("#exercise-rope .exercise-hint")
    solution = hint.locator(".exercise-solution")
    assert not solution.locator("pre").is_visible()
    hint.locator("summary").first.click()
    assert hint.locator("p").first.is_visible() and not solution.locator("pre").is_visible()
    solution.locator("summary").click()
    assert solution.locator("pre").is_visible()
    assert solution.locator("pre").inner_text().strip() == SOURCES["rope"].solution.strip()

    attempt = "def rotate(x, pos, base=10000):\n    return x  # my first try"
    type_code(lesson, "exercise-rope", attempt)
    lesson.wait_for_timeout(300)  # the edit is saved as it is typed
    lesson.reload()
    assert wait_for_state(lesson) == "ready"
    editor = cell(lesson, "exercise-rope").locator(".cm-content")
    assert "# my first try" in editor.inner_text()
    cell(lesson, "exercise-rope").locator(".cell-reset").click()
    assert "# my first try" not in editor.inner_text()
