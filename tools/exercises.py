"""The lesson's exercises, read from their section sources: each `<div class="exercise">` holds a
code cell with `data-exercise="NAME"` (its starter, `.cell-source`) and, in its hint, the worked
solution (`.exercise-solution-code`). pelab.exercises holds their checks; the tests run both
codes against them, and the take-home notebook is made from the same sources."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

from tools.lesson import SOURCES
from tools.project import BuildError

STARTER = re.compile(
    r'<div class="cell" data-cell="exercise-([\w-]+)"[^>]*data-exercise="([\w-]+)"[^>]*>\s*'
    r'<pre class="cell-source"><code>(.*?)</code></pre>',
    re.S,
)
SOLUTION = re.compile(r'<code class="exercise-solution-code">(.*?)</code>', re.S)
# An exercise's heading and the task before its cell: <div class="exercise" id="exercise-NAME">.
TASK = re.compile(
    r'<div class="exercise" id="exercise-([\w-]+)">\s*<h4>(.*?)</h4>(.*?)<div class="cell"', re.S
)
PARAGRAPH = re.compile(r"<p>(.*?)</p>", re.S)


@dataclass(frozen=True)
class Exercise:
    name: str
    section: str  # the lesson source it is in, lesson/SECTION.html
    starter: str
    solution: str
    title: str = ""  # its <h4>'s inner HTML ("1. The table from the formula")
    task: tuple[str, ...] = ()  # the inner HTML of each paragraph of its task


def exercises() -> dict[str, Exercise]:
    """Every exercise of the lesson's sources, by name, in the order of the files and the page."""
    found: dict[str, Exercise] = {}
    for source in sorted(SOURCES.glob("*.html")):
        text = source.read_text(encoding="utf-8")
        starters = list(STARTER.finditer(text))
        for n, starter in enumerate(starters):
            name = starter.group(2)
            where = f"lesson/{source.name}, exercise {name}"
            if starter.group(1) != name:
                raise BuildError(f'{where}: its cell must be data-cell="exercise-{name}"')
            end = starters[n + 1].start() if n + 1 < len(starters) else len(text)
            solution = SOLUTION.search(text, starter.end(), end)
            if not solution:
                raise BuildError(
                    f'{where}: needs its worked solution in <code class="exercise-solution-code">'
                )
            if name in found:
                raise BuildError(f"{where}: a second exercise of that name")
            task = next((t for t in TASK.finditer(text) if t.group(1) == name), None)
            if not task:
                raise BuildError(
                    f'{where}: needs <div class="exercise" id="exercise-{name}"> with its <h4> '
                    "and its task before its cell"
                )
            found[name] = Exercise(
                name,
                source.stem,
                html.unescape(starter.group(3)),
                html.unescape(solution.group(1)),
                task.group(2).strip(),
                tuple(p.strip() for p in PARAGRAPH.findall(task.group(3))),
            )
    return found
