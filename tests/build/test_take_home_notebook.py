"""The take-home notebook (tools/notebook.py, dist/positional-encoding-lab.ipynb): valid
nbformat 4, every code cell of the lesson's pages in their order, each after a markdown cell
naming its section, the exercises with their checks, an install cell naming the wheel dist/
serves; and every code cell runs, in order, under plain CPython with only the wheel installed."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap

import nbformat
import pytest

from site_server import DIST
from tools.course import read_course
from tools.i18n import TRANSLATED
from tools.lesson import SKELETON, read_chapters
from tools.notebook import NOTEBOOK, markdown, notebook, wheel_name

BOOK = json.loads((DIST / NOTEBOOK).read_text(encoding="utf-8"))
CODE = [cell for cell in BOOK["cells"] if cell["cell_type"] == "code"]


def source(cell: dict) -> str:
    return "".join(cell["source"])


def role(cell: dict) -> dict:
    return cell["metadata"].get("pelab", {})


def test_the_notebook_is_valid_nbformat_4():
    book = nbformat.reads((DIST / NOTEBOOK).read_text(encoding="utf-8"), as_version=4)
    nbformat.validate(book)
    assert book.nbformat == 4
    assert book.metadata.kernelspec.language == "python"
    ids = [cell["id"] for cell in BOOK["cells"]]
    assert len(set(ids)) == len(ids)


def test_it_holds_every_code_cell_of_the_pages_in_the_course_order():
    """The built chapter pages, read in the course's order, name their cells (data-cell); the
    notebook's lesson cells are those, in that order, each after a markdown cell naming its
    section's number and title as the page's heading does."""
    chapters = read_chapters(SKELETON.read_text(encoding="utf-8"))
    on_pages = []
    headings = {}
    for chapter in chapters:
        page = (DIST / chapter.page).read_text(encoding="utf-8")
        on_pages += re.findall(r'<div class="cell" data-cell="([\w-]+)"', page)
        for step, title in re.findall(
            r'<h2 id="[\w-]+-title"><span class="step">(\d+)</span> (.*?)</h2>', page
        ):
            headings[int(step)] = markdown(title)  # the page's heading, its M<sub>k</sub> as M_k
    in_book = [role(cell)["cell"] for cell in CODE if "cell" in role(cell)]
    assert in_book == on_pages
    assert len(on_pages) >= 20  # 14 demos, the scratch cell and six exercises, at least
    cells = BOOK["cells"]
    for n, cell in enumerate(cells):
        if "cell" in role(cell) and not role(cell)["cell"].startswith("exercise-"):
            before = next(c for c in reversed(cells[:n]) if c["cell_type"] == "markdown")
            heading = re.match(r"### (\d+)\. (.*)", source(before))
            assert heading, source(before)
            assert heading[2] == headings[int(heading[1])]


def test_each_exercise_is_its_starter_then_its_check():
    tasks = read_course().exercises
    found = []
    for n, cell in enumerate(CODE):
        name = role(cell).get("cell", "")
        if name.startswith("exercise-"):
            exercise = name.removeprefix("exercise-")
            found.append(exercise)
            assert source(cell) == tasks[exercise].starter.strip("\n")
            check = CODE[n + 1]
            assert role(check) == {"role": "check", "exercise": exercise}
            assert source(check) == f'pelab.check_exercise("{exercise}", globals())'
    assert found == list(tasks)


def test_each_exercise_follows_its_section_with_its_task_and_staged_hints():
    """Issue 50: the exercises sit after the sections they practise, in the notebook as on the
    pages; the markdown cell before each starter holds its task and its hints, in order, each
    behind a disclosure (<details>), then where the worked solution is."""
    course = read_course()
    cells = BOOK["cells"]
    for name, exercise in course.exercises.items():
        at = next(n for n, c in enumerate(cells) if role(c).get("cell") == f"exercise-{name}")
        text = source(cells[at - 1])
        assert text.startswith("#### " + markdown(exercise.title)), text[:80]
        heading = next(source(c) for c in reversed(cells[:at]) if source(c).startswith("### "))
        assert markdown(course.sections[exercise.section].title) in heading
        places = [text.index(f"<details><summary>Hint {n}</summary>")
                  for n in range(1, len(exercise.hints) + 1)]
        assert places == sorted(places) and 2 <= len(places) <= 3
        for hint in exercise.hints:
            assert markdown(hint) in text
        assert f"#exercise-{name})" in text


def test_the_first_cells_install_pelab_from_the_wheel_dist_serves_then_import_it():
    install, imports = CODE[0], CODE[1]
    assert role(install) == {"role": "install"}
    assert source(install).splitlines()[-1] == f"%pip install -q {wheel_name()}"
    assert (DIST / "py" / wheel_name()).is_file()
    assert BOOK["metadata"]["pelab"]["wheel"] == f"py/{wheel_name()}"
    assert source(imports) == "import numpy as np\nimport pelab"


# Runs a notebook's code cells in order in one namespace, as a notebook kernel does: each cell's
# last expression is shown (its repr printed). The install cell is done by the test beforehand
# (pip, from dist/'s wheel); its %pip line is checked here and not run. Each cell's output is
# printed between markers, so the test can read it.
RUNNER = textwrap.dedent(
    """
    import ast, json, sys
    import matplotlib
    matplotlib.use("Agg")
    book = json.load(open(sys.argv[1], encoding="utf-8"))
    namespace = {"__name__": "__main__"}
    for n, cell in enumerate(c for c in book["cells"] if c["cell_type"] == "code"):
        code = "".join(cell["source"])
        print(f"--- cell {n} {json.dumps(cell['metadata'].get('pelab', {}))}", flush=True)
        if cell["metadata"].get("pelab", {}).get("role") == "install":
            assert code.splitlines()[-1].startswith("%pip install -q "), code
            continue
        tree = ast.parse(code)
        last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        exec(compile(tree, f"<cell {n}>", "exec"), namespace)
        if last is not None:
            value = eval(compile(ast.Expression(last.value), f"<cell {n}>", "eval"), namespace)
            if value is not None:
                print(repr(value))
    import pelab
    print("--- pelab from", pelab.__file__)
    """
)


def run_notebook(book: dict, tmp_path) -> dict[str, str]:
    """Install dist/'s wheel into a folder of its own, run `book` there under CPython (with
    nothing of py/ on the path), and return each code cell's output by its pelab metadata."""
    site = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-index",
         "--target", str(site), str(DIST / "py" / wheel_name())],
        check=True, capture_output=True,
    )
    (tmp_path / "book.ipynb").write_text(json.dumps(book), encoding="utf-8")
    (tmp_path / "run.py").write_text(RUNNER, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "run.py", "book.ipynb"],
        cwd=tmp_path,
        env={"PYTHONPATH": str(site), "MPLBACKEND": "Agg", "OPENBLAS_NUM_THREADS": "1",
             "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
        capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    *cells, last = done.stdout.split("--- ")
    assert last.startswith("pelab from " + str(site)), last
    outputs = {}
    for part in cells[1:] if cells and not cells[0] else cells:
        header, _, output = part.partition("\n")
        outputs[header.split(" ", 2)[2]] = output
    return outputs


def check_outputs(outputs: dict[str, str]) -> dict[str, str]:
    return {
        json.loads(key)["exercise"]: value
        for key, value in outputs.items()
        if json.loads(key).get("role") == "check"
    }


@pytest.mark.parametrize("folder", ["", *(f"{language}/" for language in TRANSLATED)])
def test_every_code_cell_runs_under_cpython_with_the_wheel_and_the_starters_fail(tmp_path, folder):
    """The English notebook, and each language's, whose comments are translated."""
    book = json.loads((DIST / folder / NOTEBOOK).read_text(encoding="utf-8"))
    outputs = run_notebook(book, tmp_path)
    assert len(outputs) == len(CODE)
    checks = check_outputs(outputs)
    assert set(checks) == set(read_course().exercises)
    for name, report in checks.items():
        assert report.startswith("✗"), (name, report)
        # pelab speaks English under CPython, whatever the notebook's language (the page words
        # its reports from its catalog instead: tests/browser/test_exercises_in_page.py)
        assert report.splitlines()[0].endswith("checks pass."), (name, report)


def test_with_the_worked_solutions_as_edits_every_check_passes(tmp_path):
    """A learner's edits go into the notebook (app/cells/notebook-file.js): the worked
    solutions, put where the starters were, pass their checks in plain CPython too (the
    notebook's first two cells, then its exercises)."""
    tasks = read_course().exercises
    cells = []
    for cell in json.loads(json.dumps(BOOK))["cells"]:
        name = role(cell).get("cell", "")
        if name.startswith("exercise-"):
            cell["source"] = tasks[name.removeprefix("exercise-")].solution.splitlines(True)
        kept = role(cell).get("role") in ("install", "imports", "check")
        if kept or name.startswith("exercise-"):
            cells.append(cell)
    checks = check_outputs(run_notebook({**BOOK, "cells": cells}, tmp_path))
    assert set(checks) == set(read_course().exercises)
    for name, report in checks.items():
        assert report.startswith("✓ All"), (name, report)


def test_the_guide_names_the_wheel_dist_serves():
    guide = (DIST / "embedding.html").read_text(encoding="utf-8")
    named = re.findall(r"py/(pelab-[\w.-]+\.whl)", guide)
    assert named and set(named) == {wheel_name()}


def test_its_links_to_the_lesson_are_absolute_when_the_sites_address_is_known():
    """Built without the site's address (dist/ here), a section's link is relative to the
    notebook's folder and the first cell says so; with it (build.py --site-url), every link is
    the page's full address, in the notebook's language's folder, and the note is gone."""
    linked = r"\[([\w-]+\.html#[\w-]+)\]\(([^)]+)\)"
    text = "".join("".join(c["source"]) for c in BOOK["cells"] if c["cell_type"] == "markdown")
    links = re.findall(linked, text)
    assert links and all(shown == target for shown, target in links)
    assert "its links to the lesson are relative" in "".join(BOOK["cells"][0]["source"])
    site = "https://example.org/lab/"
    for folder in ("", "zh/"):
        book = notebook(site_url=site, folder=folder)
        text = "".join("".join(c["source"]) for c in book["cells"] if c["cell_type"] == "markdown")
        absolute = re.findall(linked, text)
        assert [shown for shown, _ in absolute] == [shown for shown, _ in links]
        assert all(target == site + folder + shown for shown, target in absolute)
        assert "its links to the lesson are relative" not in text
