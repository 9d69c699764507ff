"""The take-home notebook: the lesson's code cells, in the course's order, as a Jupyter notebook
(nbformat 4) at dist/positional-encoding-lab.ipynb.

It is made from the same sources as the pages, so it cannot drift from them:
- each demo's cell holds the code that demo's cell shows at first paint, from the demo's own
  `firstCode` (app/demos/NAME.js, run under Node by tools/notebook-code.mjs) at its section's
  first control values (tools/first_results.py reads them as the page does);
- the scratch cell comes from lesson/cell.html, and each exercise's task, staged hints and
  starter from the section it follows (tools/course.py), the starter followed by its check,
  `pelab.check_exercise(NAME, globals())`.

Each section's cell comes after a markdown cell with its number, title and takeaway. Every code
cell from a lesson cell names it in its metadata (`"pelab": {"cell": NAME}`): the page's
"Download as notebook" (app/cells/take-home.js) puts the learner's own edits there when asked,
and points the first cell at the wheel's full address on the site it came from.
"""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
import tempfile

from tools.course import REFERENCE, SCRATCH, plain, read_course
from tools.i18n import Translator, translate_comments, translate_fragment
from tools.lesson import number
from tools.pelab_wheel import pelab_version
from tools.project import ROOT, BuildError

NOTEBOOK = "positional-encoding-lab.ipynb"


def wheel_name() -> str:
    """pelab's wheel, as dist/py/ holds it: its address stays the same until pelab's version
    changes."""
    return f"pelab-{pelab_version()}-py3-none-any.whl"


def install_source() -> str:
    """The first code cell: pelab installed from its wheel's file name (the page's download puts
    the wheel's full address on the site instead: app/cells/notebook-file.js)."""
    return (
        "# pelab, the lesson's own package, from the site this notebook came from (numpy comes\n"
        "# with it; matplotlib with Jupyter, JupyterLite and Colab). If that site cannot be\n"
        "# read from here (a lesson served on 127.0.0.1, seen from Colab; a JupyterLite on\n"
        "# another site, which the browser keeps from reading this one), download the wheel\n"
        "# from its py/ folder, put it beside this notebook and install the file:\n"
        f"# %pip install -q {wheel_name()}\n"
        f"%pip install -q {wheel_name()}"
    )


def markdown(text: str) -> str:
    """Lesson HTML as Markdown: code as code, variables and sub/superscripts as text."""
    text = re.sub(r"<code>(.*?)</code>", r"`\1`", text, flags=re.S)
    for tag, mark in (("sub", "_"), ("sup", "^")):  # x_i, x_(2i+1), base^(2i/d)
        text = re.sub(
            rf"<{tag}>(.*?)</{tag}>",
            lambda m, mark=mark: mark + (m[1] if len(plain(m[1])) == 1 else f"({m[1]})"),
            text,
            flags=re.S,
        )
    return plain(text)


def demo_codes(firsts: dict[str, dict], messages: dict[str, str] | None = None) -> dict[str, str]:
    """{demo: the code its cell shows at first paint}, from each demo's `firstCode` under Node
    (tools/notebook-code.mjs), given {demo: its section's first control values}; its comments
    in the language of `messages` (a catalog: app/i18n.js's)."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", encoding="utf-8") as catalog:
        json.dump(messages or {}, catalog, ensure_ascii=False)
        catalog.flush()
        done = subprocess.run(
            ["node", str(ROOT / "tools" / "notebook-code.mjs")],
            input=json.dumps(firsts),
            capture_output=True,
            text=True,
            cwd=ROOT,
            env={**os.environ, "PELAB_MESSAGES": catalog.name},
        )
    if done.returncode:
        raise BuildError(f"tools/notebook-code.mjs failed: {done.stderr.strip()}")
    return json.loads(done.stdout)


def notebook(
    translator: Translator | None = None,
    up: str = "",
    site_url: str | None = None,
    folder: str = "",
) -> dict:
    """The notebook, as nbformat 4 JSON data: in English, or in `translator`'s language (its
    prose, headings and code comments; `up` is the way from its folder to the site's root).
    Its links to the lesson are absolute with `site_url` (the site's root, checked: build.py's
    --site-url), to the pages of `folder` ("zh/"), so that they work wherever the notebook is
    opened (Colab, a local Jupyter); without it they are relative to the notebook's folder, and
    its first cell says so."""

    def say(text: str, **values) -> str:
        """One of this module's own sentences, translated, its {names} filled in."""
        found = translator.look_up(text) if translator else None
        return (found or text).format(**values)

    def prose(fragment: str) -> str:
        return translate_fragment(fragment, translator, NOTEBOOK) if translator else fragment

    def commented(source: str) -> str:
        return translate_comments(source, translator) if translator else source

    course = read_course()
    chapters, sections = course.chapters, course.sections
    step_of_id = {
        ident: course.step(name) for name, section in sections.items() for ident in section.ids
    }

    def numbered(text: str) -> str:
        """Cross-references as the pages number them ("section N", N its step), the number a
        placeholder to the catalogs, as on the pages."""
        return REFERENCE.sub(lambda m: f"{m.group(2)} {number(step_of_id[m.group(1)])}", text)

    demos = {
        name: {control: c.first for control, c in section.controls.items()}
        for name, section in sections.items()
        if section.cells and name != "cell"
    }
    codes = demo_codes(demos, translator.catalog if translator else None)
    relative = "" if site_url else "\n\n" + say(
        "This notebook was built without the site's address, so its links to the lesson are "
        "relative: they work only beside the lesson's pages. Opened elsewhere (Colab, a local "
        "Jupyter), open the lesson on its site and find each section by its number."
    )
    cells = [
        md(
            "# " + say("Positional Encoding Lab: the lesson's code") + "\n\n"
            + say(
                "Every code cell of the lesson, in the course's order: each demo's Python at its "
                "first settings, each exercise after the section it practises, with its hints and "
                "its check, and the scratch cell. "
                "Run the cells from the top: the first installs `pelab`, the second imports it "
                "and numpy, as the page's Python has them. The sliders stay in the lesson; here "
                "you change the numbers in the code. `pelab.show` draws its heatmap as a picture."
            )
            + relative
        ),
        code(commented(install_source()), role="install"),
        code("import numpy as np\nimport pelab", role="imports"),
    ]
    tasks = course.exercises
    for place, chapter in enumerate(chapters, start=1):
        shown = [name for name in chapter.sections if sections[name].cells]
        if not shown:
            continue
        heading = say("Chapter {number}: {title}", number=place,
                      title=markdown(prose(chapter.title)))
        cells.append(md(f"## {heading}\n\n{markdown(prose(numbered(chapter.summary)))}"))
        for name in shown:
            section = sections[name]
            heading = f"### {course.step(name)}. {markdown(prose(section.title))}"
            link = f"{chapter.page}#{name}"
            target = f"{site_url}{folder}{link}" if site_url else link
            where = say("In the lesson: {link}.", link=f"[{link}]({target})")
            lines = [heading]
            if section.takeaway:
                lines.append(markdown(prose(numbered(section.takeaway))))
            lines.append(where)
            cells.append(md("\n\n".join(lines)))
            if name != "cell":
                for cell in section.cells:
                    if not cell.startswith("exercise-"):
                        cells.append(code(codes[name], cell=cell))  # translated by app/i18n.js
            else:
                scratch = SCRATCH.search(section.source)
                if not scratch:
                    raise BuildError("lesson/cell.html: the scratch cell has no .cell-source")
                cells.append(code(commented(html.unescape(scratch.group(1))), cell="scratch"))
            for exercise in (e for e in tasks.values() if e.section == name):
                task = "\n\n".join(markdown(prose(p)) for p in exercise.task)
                hints = "\n\n".join(
                    "<details><summary>" + say("Hint {number}", number=n) + "</summary>\n\n"
                    + markdown(prose(hint)) + "\n\n</details>"
                    for n, hint in enumerate(exercise.hints, start=1)
                )
                anchor = f"{chapter.page}#exercise-{exercise.name}"
                after = say("Run your cell, then the check under it. The worked solution is "
                            "under the exercise in the lesson: {link}.",
                            link=f"[{anchor}]({site_url}{folder}{anchor})" if site_url
                            else f"[{anchor}]({anchor})")
                title = markdown(prose(exercise.title))
                cells.append(md(f"#### {title}\n\n{task}\n\n{hints}\n\n{after}"))
                cells.append(code(commented(exercise.starter), cell=f"exercise-{exercise.name}"))
                cells.append(code(f'pelab.check_exercise("{exercise.name}", globals())',
                                  role="check", exercise=exercise.name))
    for index, cell in enumerate(cells):  # nbformat 4.5's cell ids: the same lesson, the same file
        cell["id"] = f"cell-{index}"
    return {
        "cells": cells,
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
            "pelab": {"wheel": f"{up}py/{wheel_name()}", "version": pelab_version()},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def md(text: str) -> dict:
    return {"cell_type": "markdown", "metadata": {}, "source": _lines(text)}


def code(source: str, **pelab: str) -> dict:
    return {
        "cell_type": "code",
        "execution_count": None,
        "metadata": {"pelab": pelab},
        "outputs": [],
        "source": _lines(source.strip("\n")),
    }


def _lines(text: str) -> list[str]:
    """A cell's source as nbformat keeps it: lines, each but the last with its newline."""
    return text.splitlines(keepends=True)


def notebook_text(
    translator: Translator | None = None,
    up: str = "",
    site_url: str | None = None,
    folder: str = "",
) -> str:
    """The notebook file's text (`notebook`): JSON, one key per line as Jupyter writes it."""
    book = notebook(translator, up, site_url, folder)
    return json.dumps(book, indent=1, ensure_ascii=False) + "\n"

