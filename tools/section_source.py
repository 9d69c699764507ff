"""One section source, lesson/NAME.html, read and checked into the objects of the course model
(tools/course.py gives them to everyone else): the section with its title, controls, first call,
traps, takeaway, code cells and exercises, and after `</section>` its quiz questions. A broken
source stops the build with a BuildError naming the file and what is wrong in it."""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass, field
from functools import cached_property
from html.parser import HTMLParser
from pathlib import Path

from tools.computed import filled
from tools.demo_lists import not_live, pictured
from tools.project import BuildError
from tools.quiz_source import (
    Question,
    check_versions,
    plain,
    read_question,
)

SECTION_OPEN = re.compile(r'<section id="([\w-]+)"')
DEMO_OPEN = re.compile(r'<section id="[\w-]+" class="demo"')
TITLE = re.compile(r'(<h2 id="([\w-]+)-title">)(.*?)</h2>', flags=re.S)
# A cross-reference to a section: the build adds its number after the word.
REFERENCE = re.compile(r'<a href="#([\w-]+)" class="section-ref">([Ss]ections?)</a>')
TYPED_NUMBER = re.compile(r"\b[Ss]ections? \d+(?!\.\d)")
IDENT = re.compile(r'\bid="([\w-]+)"')
# A live demo's first request (tools/first_results.py): out of the page, into the model.
FIRST_CALL = re.compile(
    r'^ *<script type="application/json" class="first-call">(.*?)</script>\n', flags=re.S | re.M
)
QUESTION = re.compile(
    r'^ *<fieldset class="quiz-question"[^>]*>.*?</fieldset>\n', flags=re.S | re.M
)
TRAP = re.compile(
    r'<aside class="trap" aria-label="Exam trap: ([^"]*)">\s*<p class="trap-title">[^<]*</p>'
    r"(.*?)</aside>",
    flags=re.S,
)
TAKEAWAY = re.compile(r'<p class="takeaway"[^>]*>(.*?)</p>', re.S)
CELL = re.compile(r'<div class="cell" data-cell="([\w-]+)"')
SCRATCH = re.compile(
    r'<div class="cell" data-cell="scratch"[^>]*>\s*<pre class="cell-source"><code>(.*?)</code>',
    re.S,
)
# An exercise: <div class="exercise" id="exercise-NAME"> with its <h4> and task, then its cell
# (data-exercise="NAME", the starter in .cell-source) and, in its hint, the worked solution.
STARTER = re.compile(
    r'<div class="cell" data-cell="exercise-([\w-]+)"[^>]*data-exercise="([\w-]+)"[^>]*>\s*'
    r'<pre class="cell-source"><code>(.*?)</code></pre>',
    re.S,
)
SOLUTION = re.compile(r'<code class="exercise-solution-code">(.*?)</code>', re.S)
TASK = re.compile(
    r'<div class="exercise" id="exercise-([\w-]+)">\s*<h3>(.*?)</h3>(.*?)<div class="cell"', re.S
)
# Its staged hints, each a disclosure inside the one before (a nudge, then closer), the worked
# solution inside the last: <details class="exercise-hint"><summary>Hint 1</summary><p>…</p>.
HINT = re.compile(
    r'<details class="exercise-hint">\s*<summary>(.*?)</summary>\s*<p>(.*?)</p>', re.S
)
HINTS = (2, 3)  # how many an exercise has, at least and at most
PARAGRAPH = re.compile(r"<p>(.*?)</p>", re.S)


def slider_value(attributes: dict[str, str]) -> float:
    """A slider's value at its position `value`, as app/controls/slider.js's valueAt reads it: on
    data-scale="log10" the position is the exponent, and the value 10^position to 3 significant
    figures."""
    value = float(attributes["value"])
    return float(f"{10**value:.3g}") if attributes.get("data-scale") == "log10" else value


def first_value(attributes: dict[str, str]) -> int | float:
    """A slider's value at its first position (`slider_value`), a whole number as an int, as
    Pyodide hands a whole JavaScript number to Python."""
    value = slider_value(attributes)
    return int(value) if value.is_integer() else value


# ---- the objects ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Control:
    """A named control of a section (quiz inputs aside), at its first value."""

    name: str
    kind: str  # "slider", "checkbox", "radio", "text", "select"
    first: object  # its value as the page starts: a number, a bool, a string
    attributes: dict = field(default_factory=dict, compare=False, hash=False)


@dataclass(frozen=True)
class Exercise:
    name: str
    section: str  # the section it is in
    starter: str
    solution: str
    title: str = ""  # its <h3>'s inner HTML ("Exercise: the table from the formula")
    task: tuple[str, ...] = ()  # the inner HTML of each paragraph of its task
    hints: tuple[str, ...] = ()  # the inner HTML of each staged hint's paragraph, in order


@dataclass(frozen=True)
class FirstCall:
    """A live demo's first request: the entry point and its arguments at the section's first
    control values (plus what the demo works out for itself, `also`)."""

    entry: str
    kwargs: dict = field(hash=False)


@dataclass(frozen=True)
class Trap:
    label: str  # its aria-label, after "Exam trap: "
    html: str  # its paragraphs


@dataclass
class Section:
    name: str
    title: str  # the <h2>'s inner HTML
    source: str  # the section as its source has it, up to </section>, its first call taken out
    questions: list[Question]
    controls: dict[str, Control]
    first_call: FirstCall | None
    exercises: list[Exercise]
    traps: list[Trap]
    takeaway: str  # its takeaway's inner HTML, or ""
    cells: list[str]  # its code cells' names (data-cell), in order
    demo: bool  # class="demo": embeddable by name

    @property
    def path(self) -> str:
        return f"lesson/{self.name}.html"

    @property
    def plain_title(self) -> str:
        return plain(self.title)

    @property
    def live(self) -> bool:
        """A demo computed live by Python."""
        return self.demo and self.name not in not_live()

    @cached_property
    def ids(self) -> list[str]:
        return IDENT.findall(self.source)


# ---- reading --------------------------------------------------------------------------------


class _Controls(HTMLParser):
    """The named controls of a section source and their first values (quiz inputs aside)."""

    def __init__(self) -> None:
        super().__init__()
        self.found: dict[str, Control] = {}
        self.sliders: list[dict[str, str]] = []  # every <lesson-slider>'s attributes

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {key: value or "" for key, value in attrs}
        name = attributes.get("name")
        if not name or name.startswith("quiz-"):
            return
        kind = attributes.get("type", "text")
        if tag == "lesson-slider":
            self.sliders.append(attributes)
            if _slider_problem(attributes) is None:
                self.found[name] = Control(name, "slider", first_value(attributes), attributes)
        elif tag == "input" and kind == "checkbox":
            self.found[name] = Control(name, "checkbox", "checked" in attributes, attributes)
        elif tag == "input" and kind == "radio":
            if "checked" in attributes:
                self.found[name] = Control(name, "radio", attributes.get("value", ""), attributes)
        elif tag == "input":
            self.found[name] = Control(name, kind, attributes.get("value", ""), attributes)


SLIDER_FIELDS = ("id", "name", "min", "max", "step", "value")


def _slider_problem(attributes: dict[str, str]) -> str | None:
    """What is wrong with a <lesson-slider>'s attributes, or None."""
    missing = [field for field in SLIDER_FIELDS if not attributes.get(field)]
    if missing:
        return f"lacks {', '.join(missing)}"
    try:
        low, high, step, value = (float(attributes[f]) for f in ("min", "max", "step", "value"))
    except ValueError:
        return "needs numbers in min, max, step and value"
    if not (low <= value <= high and step > 0):
        return "needs min ≤ value ≤ max and a step above 0"
    return None


def read_controls(source_html: str, source: str = "") -> dict[str, Control]:
    """{name: Control} of a section source; a <lesson-slider> that is not whole stops the build
    (`source` names the file in the message)."""
    parser = _Controls()
    parser.feed(source_html)
    parser.close()
    for attributes in parser.sliders:
        if problem := _slider_problem(attributes):
            shown = " ".join(f'{k}="{v}"' for k, v in attributes.items())
            raise BuildError(
                f"{source or 'a section'}: a <lesson-slider> {problem}: <lesson-slider {shown}>"
            )
    return parser.found


def read_exercises(name: str, text: str) -> list[Exercise]:
    """The exercises of section `name`, whose source is `text`."""
    found = []
    starters = list(STARTER.finditer(text))
    for n, starter in enumerate(starters):
        exercise = starter.group(2)
        where = f"lesson/{name}.html, exercise {exercise}"
        if starter.group(1) != exercise:
            raise BuildError(f'{where}: its cell must be data-cell="exercise-{exercise}"')
        end = starters[n + 1].start() if n + 1 < len(starters) else len(text)
        solution = SOLUTION.search(text, starter.end(), end)
        if not solution:
            raise BuildError(
                f'{where}: needs its worked solution in <code class="exercise-solution-code">'
            )
        task = next((t for t in TASK.finditer(text) if t.group(1) == exercise), None)
        if not task:
            raise BuildError(
                f'{where}: needs <div class="exercise" id="exercise-{exercise}"> with its <h3> '
                "and its task before its cell"
            )
        hints = HINT.findall(text, starter.end(), solution.start())
        if not HINTS[0] <= len(hints) <= HINTS[1]:
            raise BuildError(
                f"{where}: needs {HINTS[0]} to {HINTS[1]} staged hints before its worked "
                f'solution, each <details class="exercise-hint"> inside the one before; it has '
                f"{len(hints)}"
            )
        if [summary for summary, _ in hints] != [f"Hint {n}" for n in range(1, len(hints) + 1)]:
            raise BuildError(f"{where}: its hints must be called Hint 1, Hint 2, … in order")
        found.append(
            Exercise(
                exercise,
                name,
                html.unescape(starter.group(3)),
                html.unescape(solution.group(1)),
                task.group(2).strip(),
                tuple(p.strip() for p in PARAGRAPH.findall(task.group(3))),
                tuple(hint.strip() for _, hint in hints),
            )
        )
    return found


def read_first_call(name: str, stated_json: str, controls: dict[str, Control]) -> FirstCall:
    source = f"lesson/{name}.html"
    try:
        stated = json.loads(stated_json)
    except json.JSONDecodeError as error:
        raise BuildError(f"{source}: its first-call script is not JSON ({error})") from None
    unknown = set(stated) - {"entry", "controls", "also"} if isinstance(stated, dict) else {"?"}
    if unknown or not isinstance(stated.get("entry"), str):
        raise BuildError(
            f'{source}: a first-call names "entry" (a pelab entry point) and may name "controls" '
            f'and "also"{f", not {sorted(unknown)}" if unknown else ""}'
        )
    missing = [control for control in stated.get("controls", []) if control not in controls]
    if missing:
        raise BuildError(
            f"{source}: its first-call names the controls {missing}, which the section lacks "
            f"(it has {sorted(controls)})"
        )
    kwargs = {control: controls[control].first for control in stated.get("controls", [])}
    clash = set(kwargs) & set(stated.get("also", {}))
    if clash:
        raise BuildError(f"{source}: its first-call sets {sorted(clash)} twice")
    return FirstCall(stated["entry"], {**kwargs, **stated.get("also", {})})


def read_section(name: str, folder: Path) -> Section:
    """Section NAME from its source, `folder`/NAME.html, checked."""
    path = folder / f"{name}.html"
    source = f"lesson/{name}.html"
    if not path.exists():
        raise BuildError(f"index.html names the section {name}, but {source} does not exist")
    text = filled(path.read_text(encoding="utf-8"), source)  # the numbers pelab computes
    end = text.find("</section>")
    opened = SECTION_OPEN.search(text)
    if end < 0 or not opened or opened.group(1) != name:
        raise BuildError(f'{source} must hold one <section id="{name}"> … </section>')
    end = text.index("\n", end) + 1
    body, after = text[:end], text[end:]
    first_calls = FIRST_CALL.findall(body)
    if len(first_calls) > 1:
        raise BuildError(f'{source} holds two <script class="first-call">: a demo has one')
    body = FIRST_CALL.sub("", body)
    prose = re.sub(r"<[^>]*>", " ", REFERENCE.sub("", text)) + " ".join(
        re.findall(r'data-why="([^"]*)"', text)
    )
    typed = TYPED_NUMBER.findall(prose)
    if typed:
        raise BuildError(
            f"{source} types a section number ({typed[0]!r}): link it instead, "
            f'<a href="#NAME" class="section-ref">section</a>, and the build numbers it'
        )
    title = TITLE.search(body)
    if not title or title.group(2) != name:
        raise BuildError(f'{source} must have <h2 id="{name}-title">')
    if not title.group(3).strip():
        raise BuildError(f'{source}: its <h2 id="{name}-title"> has no words')
    fieldsets = QUESTION.findall(after)
    if re.sub(r"<!--.*?-->", "", QUESTION.sub("", after), flags=re.S).strip():
        raise BuildError(f"{source}: after </section> only its quiz questions may follow")
    controls = read_controls(body, source)
    demo = DEMO_OPEN.search(body) is not None
    first_call = None
    if first_calls:
        first_call = read_first_call(name, first_calls[0], controls)
    elif demo and name not in not_live() and name not in pictured():
        raise BuildError(
            f'{source} is a live demo without a <script type="application/json" '
            'class="first-call">: the build computes its first result from it '
            "(tools/first_results.py)"
        )
    takeaway = TAKEAWAY.search(body)
    questions = [read_question(q, name, body) for q in fieldsets]
    check_versions(name, questions)
    return Section(
        name=name,
        title=title.group(3).strip(),
        source=body,
        questions=questions,
        controls=controls,
        first_call=first_call,
        exercises=read_exercises(name, body),
        traps=[Trap(label, inner) for label, inner in TRAP.findall(body)],
        takeaway=takeaway.group(1) if takeaway else "",
        cells=CELL.findall(body),
        demo=demo,
    )
