"""The lesson's notebook carries the code each demo's cell shows at first paint: what
tools/notebook-code.mjs computes without a browser, from the demo's own module (firstCode) and its
section's controls at their first values as the build reads them, is what the page shows, to the
character. Python is held on its way: every demo offers its code from its first settings, before
Python, so no Python boots here."""

from __future__ import annotations

import json
import subprocess

import pytest

from pages import PageLog, chapter_pages, code_of, figures_first, open_context
from tools.demo_lists import not_live, pictured
from tools.first_results import controls
from tools.lesson import demo_sections, read_section
from tools.project import ROOT

# The demos whose section holds a "Show the Python" cell, by name: each offers its code there.
WITH_CELLS = [
    name
    for name in demo_sections()
    if 'class="show-python"' in read_section(name, 0).source_html
]

# The cell each demo of an open page offers its code to, by name: its section's first .cell, as
# cellIn (app/cells/cells.js) finds it; most are named as their demo ("compare" is learned's).
CELLS = """() => Object.fromEntries([...document.querySelectorAll('section.demo')]
  .filter((s) => s.querySelector('.show-python .cell'))
  .map((s) => [s.id, s.querySelector('.cell').dataset.cell]))"""


@pytest.fixture(scope="module")
def notebook_code() -> dict[str, str]:
    """{name: code} from tools/notebook-code.mjs, for every demo with a cell at its first
    controls (tools.first_results.controls, as the build reads them)."""
    asked = {name: controls(read_section(name, 0).source_html) for name in WITH_CELLS}
    run = subprocess.run(
        ["node", "tools/notebook-code.mjs"],
        cwd=ROOT,
        input=json.dumps(asked),
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


@pytest.fixture(scope="module")
def first_paint(browser, site_url):
    """The chapter pages at first paint, each opened once when first asked for: Python's
    requests are never answered, so what the cells show is what the demos offer before it."""
    log = PageLog()
    context = open_context(browser, log)
    context.route("**/pyodide/**", lambda route: None)  # never answered: Python stays on its way
    yield chapter_pages(context, site_url, opened_by=figures_first)
    context.close()
    assert log.blocked == [], "the lesson tried to leave the machine"


def test_every_demo_with_a_cell_has_its_code_for_the_notebook(notebook_code):
    # every live demo offers its Python, and only they do
    assert WITH_CELLS == [name for name in demo_sections() if name not in not_live()]
    assert list(notebook_code) == WITH_CELLS
    for name, code in notebook_code.items():
        assert code.startswith("import ") and "pelab." in code, name


@pytest.mark.parametrize("name", WITH_CELLS)
def test_the_notebook_code_is_what_the_cell_shows_at_first_paint(first_paint, notebook_code, name):
    page = first_paint(name)
    cell = page.evaluate(CELLS)[name]
    # "Show the Python" opened, as a learner opens it: the editor is made when it comes into view.
    page.evaluate("(id) => { document.querySelector(`#${id} .show-python`).open = true; }", name)
    shown = code_of(page, cell)
    # A cell holds the code it is offered trimmed, with one newline at its end (cells.js offer).
    assert shown == notebook_code[name].strip() + "\n"
    # Still at first paint: the figures are the shipped results (a pictured demo's, its picture).
    live = page.evaluate("(id) => document.getElementById(id).dataset.live ?? null", name)
    assert live == (None if name in pictured() else "shipped")
