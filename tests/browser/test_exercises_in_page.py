"""The exercises in the page (issues 37 and 50): each sits after the section it practises, on
its chapter's page; Check runs the learner's cell, then pelab's checks in the page's Python, and
says in words what holds, what does not and which common slip the answer shows; an untouched
starter fails and the worked solution passes; the hints open one after another, then the worked
solution; an attempt is kept like any edit, until Reset; and on a Chinese or Spanish page the
report reads in that language, worded from the page's catalog."""

from __future__ import annotations

import json

import numpy as np
import pytest

import pelab
from exercise_slips import SLIPS, diagnosis, slipped
from pages import PAGE_OF, boot, poll, wait_for_state
from pelab.diagnoses import DIAGNOSES, Said
from test_cells import cell, output, type_code
from tools.catalogs import translations
from tools.course import read_course

SOURCES = read_course().exercises
PAGES = list(dict.fromkeys(PAGE_OF[exercise.section] for exercise in SOURCES.values()))


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


def worded(sentence: dict, catalog: dict[str, str]) -> str:
    """A report's sentence as app/cells/check-report.js words it with `catalog`."""
    if "raw" in sentence:
        return sentence["raw"]
    return str(Said(catalog.get(sentence["text"]) or sentence["text"], **sentence["values"]))


def report_in(code: str, name: str, catalog: dict[str, str]) -> list[str]:
    """The report pelab gives `code` under CPython, worded as the page words it with
    `catalog`: its lines."""
    namespace = {"np": np, "numpy": np, "pelab": pelab, "__name__": "__main__"}
    exec(compile(code, "<cell>", "exec"), namespace)  # noqa: S102 (the lesson's own code)
    page = json.loads(repr(pelab.check_exercise(name, namespace).for_page()))
    lines = []
    for line in page["lines"]:
        what = worded(line["what"], catalog)
        text = what if not line["why"] else str(Said(
            catalog.get("{what}: {why}") or "{what}: {why}", what=what,
            why=worded(line["why"], catalog)))
        lines.append(f"{line['mark']} {text}" if line["mark"] else text)
    return lines


@pytest.mark.parametrize("chapter", PAGES)
def test_check_fails_each_starter_names_a_slip_and_passes_each_solution(page, site_url, chapter):
    boot(page, site_url, chapter)
    here = [name for name, exercise in SOURCES.items() if PAGE_OF[exercise.section] == chapter]
    assert here
    for name in here:
        assert check(page, name) == "failed", (name, output(page, f"exercise-{name}"))
        said = output(page, f"exercise-{name}")
        assert "✗" in said and "checks pass." in said
        assert "What does not hold is marked ✗ above." in verdict(page, name)
        slip = next(iter(SLIPS[name]))
        type_code(page, f"exercise-{name}", slipped(name, [slip]))
        assert check(page, name) == "failed"
        assert str(DIAGNOSES[diagnosis(name, slip)]) in output(page, f"exercise-{name}")
        type_code(page, f"exercise-{name}", SOURCES[name].solution)
        assert check(page, name) == "passed", (name, output(page, f"exercise-{name}"))
        assert verdict(page, name).startswith("All ") and "✗" not in output(
            page, f"exercise-{name}"
        )
    if "stretch" in here:
        assert "Your prediction was right." in output(page, "exercise-stretch")


@pytest.mark.parametrize("language", ["zh", "es"])
def test_on_a_translated_page_a_failing_check_reads_in_its_language(page, site_url, language):
    """Issue 50: the ✓/✗ lines, the diagnosis and the verdict come from the page's catalog, the
    same one as its prose; under CPython pelab says the same in English."""
    catalog = translations(language)
    boot(page, site_url, f"{language}/{PAGE_OF['formula']}")
    for code in (SOURCES["formula"].starter, slipped("formula", ["factor-2"])):
        type_code(page, "exercise-formula", code)
        assert check(page, "formula") == "failed"
        lines = report_in(code, "formula", catalog)
        english = report_in(code, "formula", {})
        assert lines != english
        said = output(page, "exercise-formula")  # the cell's value, then the report
        assert said.splitlines()[-len(lines):] == lines, said
        assert "checks pass" not in said and "Diagnosis" not in said
        summary = lines[0].removeprefix("✗ ")
        assert verdict(page, "formula") == str(Said(
            catalog["{report} What does not hold is marked ✗ above."], report=summary))
    assert catalog[DIAGNOSES["factor-2"].text] in output(page, "exercise-formula")


def test_code_that_fails_before_the_checks_says_so(page, site_url):
    boot(page, site_url, PAGE_OF["formula"])
    type_code(page, "exercise-formula", "def pe_table(seq_len, d_model):\n    return 1 / 0")
    assert check(page, "formula") == "failed"
    assert "ZeroDivisionError" in output(page, "exercise-formula")  # Python's words, as they are
    type_code(page, "exercise-formula", "pe_table(")  # a syntax error: the cell itself fails
    assert check(page, "formula") == "failed"
    assert verdict(page, "formula").startswith("Your code stopped before the checks could run")


def test_the_hints_open_one_after_another_then_the_solution_and_an_attempt_is_kept(
    page, site_url
):
    """Each hint is a disclosure (<details>) inside the one before: the keyboard opens them in
    turn, and the worked solution is behind the last."""
    lesson = boot(page, site_url, PAGE_OF["rope"])
    exercise = lesson.locator("#exercise-rope")
    summaries = exercise.locator("summary")
    hints = len(SOURCES["rope"].hints)
    assert summaries.evaluate_all("(all) => all.map((s) => s.textContent.trim())") == [
        *(f"Hint {n}" for n in range(1, hints + 1)), "Worked solution"]
    solution = exercise.locator(".exercise-solution pre")
    for n in range(hints + 1):
        # only the next one shows; what it opens does not, yet
        assert summaries.nth(n).is_visible()
        assert n == hints or not summaries.nth(n + 1).is_visible()
        assert not solution.is_visible()
        summaries.nth(n).focus()
        lesson.keyboard.press("Enter")
        if n < hints:
            text = exercise.locator(".exercise-hint").nth(n).locator(":scope > p")
            assert text.is_visible()
    assert solution.is_visible()
    assert solution.inner_text().strip() == SOURCES["rope"].solution.strip()

    attempt = "def rotate(x, pos, base=10000):\n    return x  # my first try"
    type_code(lesson, "exercise-rope", attempt)
    poll(lesson, "() => Object.keys(localStorage).filter((k) => k.endsWith(':exercise-rope'))"
         ".length", lambda n: n == 1)
    lesson.reload()
    assert wait_for_state(lesson) == "ready"
    editor = cell(lesson, "exercise-rope").locator(".cm-content")
    assert "# my first try" in editor.inner_text()
    cell(lesson, "exercise-rope").locator(".cell-reset").click()
    assert "# my first try" not in editor.inner_text()
