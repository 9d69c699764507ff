"""One section source, lesson/NAME.html, read and checked into the objects of the course model
(tools/course.py gives them to everyone else): the section with its title, controls, first call,
traps, takeaway, code cells and exercises, and after `</section>` its quiz questions. A broken
source stops the build with a BuildError naming the file and what is wrong in it."""

from __future__ import annotations

import html
import json
import math
import re
from dataclasses import dataclass, field
from functools import cached_property
from html.parser import HTMLParser
from pathlib import Path

from tools.computed import filled
from tools.demo_lists import not_live, pictured
from tools.project import ROOT, BuildError

SECTION_OPEN = re.compile(r'<section id="([\w-]+)"')
DEMO_OPEN = re.compile(r'<section id="[\w-]+" class="demo"')
TITLE = re.compile(r'(<h2 id="([\w-]+)-title">)(.*?)</h2>', flags=re.S)
# A cross-reference to a section: the build adds its number after the word.
REFERENCE = re.compile(r'<a href="#([\w-]+)" class="section-ref">([Ss]ections?)</a>')
TYPED_NUMBER = re.compile(r"\b[Ss]ections? \d+(?!\.\d)")
ATTRIBUTE = re.compile(r'([\w-]+)="([^"]*)"')
IDENT = re.compile(r'\bid="([\w-]+)"')
# A live demo's first request (tools/first_results.py): out of the page, into the model.
FIRST_CALL = re.compile(
    r'^ *<script type="application/json" class="first-call">(.*?)</script>\n', flags=re.S | re.M
)
QUESTION = re.compile(
    r'^ *<fieldset class="quiz-question"[^>]*>.*?</fieldset>\n', flags=re.S | re.M
)
QUESTION_OPEN = re.compile(r'<fieldset class="quiz-question"([^>]*)>')
QUESTION_INPUT = re.compile(r"<input\b([^>]*)>")
LEGEND = re.compile(r"<legend>(.*?)</legend>", flags=re.S)
EXPLAIN = re.compile(r'<p class="quiz-explain" hidden>(.*)</p>(\s*</fieldset>)', flags=re.S)
OPTION = re.compile(r'<label class="quiz-option">\s*<input ([^>]*)>(.*?)</label>', flags=re.S)
QUESTION_KINDS = ("choice", "truefalse", "numeric")
TEMPLATE_VERSION = "v"  # a numeric item's graded template
PARALLEL_VERSION = re.compile(r"^[b-u]$")  # a choice or true/false item's parallel version
PARAM = re.compile(r'<span data-param="([\w-]+)">([^<]*)</span>')
# The numbers of every template, made by pelab (py/pelab/browser/quiz_variants.py says how).
QUIZ_VARIANTS = ROOT / "lesson" / "quiz-variants.json"
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


def plain(inner_html: str) -> str:
    """Inner HTML as plain text (for a <title>, a description, an aria-label)."""
    return " ".join(html.unescape(re.sub(r"<[^>]*>", "", inner_html)).split())


# ---- the objects ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Control:
    """A named control of a section (quiz inputs aside), at its first value."""

    name: str
    kind: str  # "slider", "checkbox", "radio", "text", "select"
    first: object  # its value as the page starts: a number, a bool, a string
    attributes: dict = field(default_factory=dict, compare=False, hash=False)


@dataclass(frozen=True)
class Option:
    value: str
    correct: bool
    why: str  # what is wrong with it, as written (entities and all); "" for the right one
    html: str  # the label's inner HTML, after its input

    @property
    def text(self) -> str:
        return plain(self.html)


@dataclass
class Question:
    """One quiz question of a section, read and checked. Its markup:

        <fieldset class="quiz-question" data-kind="choice|truefalse|numeric" [data-test]
                  [data-refers="ID"] [data-setup="SECTION"]>
          <legend>the question</legend>
          choice, truefalse: <label class="quiz-option"><input type="radio" name="NAME"
                             value="0" data-why="what is wrong with it"> text</label> … (the
                             right one has data-correct)
          numeric: <label class="quiz-answer">Your answer <input type="text" name="NAME"
                   data-answer="0.54" data-tolerance="0.01" data-why="…"></label>
          <p class="quiz-feedback" aria-live="polite" hidden></p>
          <p class="quiz-explain" hidden>why the answer is right</p>
        </fieldset>

    No data-test: its section's check, right after it; data-test: an item of its chapter's end
    test and of the whole-lesson test, in the version practice mode shows ("a").

    A test item's graded versions follow it, each marked `data-version-of="NAME"` (the item's
    name) and `data-version`: "b", "c", … for a parallel version of a choice or true/false item
    (inputs named NAME.b), "v" for a numeric item's template, whose numbers are
    `<span data-param="KEY">` and are drawn per attempt from lesson/quiz-variants.json (inputs
    named NAME.v; pelab/browser/quiz_variants.py). Only a graded test shows them."""

    section: str
    name: str  # its inputs' shared name: its key's name in quiz-keys.json and in saved answers
    kind: str
    test: bool
    refers: str  # the id in its section it tests, as data-refers names it, or ""
    setup: str  # a section whose figure it is read from, or ""
    legend: str  # inner HTML
    explain: str  # inner HTML
    source: str  # the fieldset as its source has it
    options: list[Option] = field(default_factory=list)  # choice and truefalse
    answer: str = ""  # numeric: data-answer, data-tolerance, data-why as written
    tolerance: str = ""
    why: str = ""
    version: str = "a"  # "a": the item as practice mode shows it; else a graded version
    version_of: str = ""  # a graded version's item (its practice version's name), else ""

    @property
    def item(self) -> str:
        """The test item it is a version of: its own name for the practice version."""
        return self.version_of or self.name

    @property
    def template(self) -> bool:
        """A numeric item's graded template: its numbers drawn per attempt."""
        return self.version == TEMPLATE_VERSION

    @property
    def interaction_id(self) -> str:
        """Its id in an LMS (cmi.interactions.n.id): its name; a template's variant K is
        NAME.vK (variant_id)."""
        return self.name

    @property
    def anchor(self) -> str:
        """The id it tests: data-refers, else its section's."""
        return self.refers or self.section

    @property
    def key(self) -> dict:
        """Its entry of quiz-keys.json, its explanation still unlinked (a template's: one per
        variant, template_keys)."""
        key: dict = {"kind": self.kind, "why": {}, "explain": self.explain.strip()}
        if self.kind == "numeric":
            key.update(answer=float(self.answer), tolerance=float(self.tolerance or "0"))
            if self.why:
                key["why"]["*"] = html.unescape(self.why)
        else:
            key["correct"] = next(o.value for o in self.options if o.correct)
            key["why"] = {o.value: html.unescape(o.why) for o in self.options if not o.correct}
        return key


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


def read_question(text: str, section: str, body: str) -> Question:
    """A question of lesson/`section`.html, checked. `body` is the section's HTML, which must
    hold the id `data-refers` names."""
    source = f"lesson/{section}.html"
    legend = LEGEND.search(text)
    what = f"{source}: the question “{plain(legend.group(1)) if legend else text[:60]}”"
    opening = dict(ATTRIBUTE.findall(QUESTION_OPEN.search(text).group(1)))
    kind = opening.get("data-kind", "")
    if kind not in QUESTION_KINDS:
        raise BuildError(f"{what} needs data-kind, one of {', '.join(QUESTION_KINDS)}")
    if not legend:
        raise BuildError(f"{what} needs its <legend>")
    inputs = [
        (dict(ATTRIBUTE.findall(a)), re.search(r"\bdata-correct(?![\w-])", a) is not None)
        for a in QUESTION_INPUT.findall(text)
    ]
    names = {fields.get("name") for fields, _ in inputs}
    if len(names) != 1 or None in names:
        raise BuildError(f"{what}: its inputs must share one name that no other question uses")
    explain = EXPLAIN.search(text)
    if not explain or not explain.group(1).strip():
        raise BuildError(f'{what} needs its explanation, <p class="quiz-explain" hidden>…</p>')
    test = re.search(r"\bdata-test(?![\w-])", QUESTION_OPEN.search(text).group(1)) is not None
    version_of = opening.get("data-version-of", "")
    version = opening.get("data-version", "a" if not version_of else "")
    if not version_of and "data-version" in opening:
        raise BuildError(f"{what} has data-version but no data-version-of naming its item")
    question = Question(
        section=section,
        name=names.pop(),
        kind=kind,
        test=test,
        refers=opening.get("data-refers", ""),
        setup=opening.get("data-setup", ""),
        legend=legend.group(1).strip(),
        explain=explain.group(1).strip(),
        source=text,
        version=version,
        version_of=version_of,
    )
    if question.template:
        read_template(question, what)
    elif kind == "numeric":
        fields = inputs[0][0]
        try:
            answer = float(fields["data-answer"])
            tolerance = float(fields.get("data-tolerance", "0"))
        except (KeyError, ValueError):
            raise BuildError(
                f'{what} is numeric: its input needs data-answer="NUMBER" (and may have '
                'data-tolerance="NUMBER")'
            ) from None
        if len(inputs) != 1 or not math.isfinite(answer) or not tolerance >= 0:
            raise BuildError(f"{what} is numeric: one input, a finite answer, a tolerance ≥ 0")
        question.answer = fields["data-answer"]
        question.tolerance = fields.get("data-tolerance", "0")
        question.why = fields.get("data-why", "")
    else:
        right = [fields.get("value") for fields, correct in inputs if correct]
        if len(right) != 1:
            raise BuildError(
                f"{what} needs exactly one option with data-correct; it has {len(right)}"
            )
        if kind == "truefalse" and len(inputs) != 2:
            raise BuildError(f"{what} is true or false: it needs two options")
        for fields, correct in inputs:
            if not correct and not fields.get("data-why"):
                raise BuildError(f"{what}: its wrong option {fields.get('value')} needs a data-why")
        labels = [label.strip() for _, label in OPTION.findall(text)]
        if len(labels) != len(inputs):
            raise BuildError(
                f'{what}: each option is <label class="quiz-option"><input …> its words</label>'
            )
        question.options = [
            Option(fields.get("value", ""), correct, fields.get("data-why", ""), label)
            for (fields, correct), label in zip(inputs, labels)
        ]
    if not re.search(rf'\bid="{re.escape(question.anchor)}"', body):
        raise BuildError(
            f'{what} refers to #{question.anchor} (data-refers), but section "{section}" has no '
            "such id"
        )
    return question


def quiz_variants() -> dict:
    """lesson/quiz-variants.json: each template's params, practice numbers and variants."""
    try:
        return json.loads(QUIZ_VARIANTS.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise BuildError(
            f"lesson/quiz-variants.json cannot be read ({error}): make it with "
            "PYTHONPATH=py python3 -m pelab.browser.quiz_variants > lesson/quiz-variants.json"
        ) from None


def read_template(question: Question, what: str) -> None:
    """Check a numeric item's template against its table: every number it shows is a param the
    table has, and its legend shows only the params the page is given."""
    table = quiz_variants().get(question.version_of)
    if table is None:
        raise BuildError(
            f"{what} is a template, but lesson/quiz-variants.json has no table for "
            f"{question.version_of}: add one in py/pelab/browser/quiz_variants.py"
        )
    if "data-answer" in question.source:
        raise BuildError(f"{what} is a template: its answers come from its table, not data-answer")
    known = set(table["practice"]["shown"])
    for part, markup in (("legend", question.legend), ("explanation", question.explain)):
        unknown = {key for key, _ in PARAM.findall(markup)} - known
        if unknown:
            raise BuildError(
                f"{what}: its {part} shows {', '.join(sorted(unknown))}, not in its table"
            )
    shown = {key for key, _ in PARAM.findall(question.legend)}
    if shown != set(table["legend"]):
        raise BuildError(f"{what}: its legend must show exactly {', '.join(table['legend'])}")
    question.why = (
        re.search(r'data-why="([^"]*)"', question.source).group(1)
        if ("data-why" in question.source)
        else ""
    )


def template_keys(question: Question) -> dict[str, dict]:
    """A template's keys, one per variant by its interaction id (NAME.vK, K from 1): the
    answer, the tolerance, the hint for a wrong answer and the explanation with its numbers."""
    table = quiz_variants()[question.version_of]
    keys = {}
    for number, variant in enumerate(table["variants"], start=1):
        explain = PARAM.sub(
            lambda m, shown=variant["shown"]: (
                f'<span data-param="{m.group(1)}">{html.escape(shown[m.group(1)])}</span>'
            ),
            question.explain.strip(),
        )
        keys[variant_id(question, number)] = {
            "kind": "numeric",
            "answer": variant["answer"],
            "tolerance": variant["tolerance"],
            "why": {"*": html.unescape(question.why)} if question.why else {},
            "explain": explain,
        }
    return keys


def variant_id(question: Question, number: int) -> str:
    """Variant `number` (from 1) of a template: its interaction id."""
    return f"{question.name}{number}"


def template_legends(question: Question) -> list[dict[str, str]]:
    """What a template's legend shows in each variant (the page's data-variants)."""
    table = quiz_variants()[question.version_of]
    return [{k: v["shown"][k] for k in table["legend"]} for v in table["variants"]]


def check_versions(section: str, questions: list[Question]) -> None:
    """Each graded version (data-version-of) of lesson/`section`.html follows, in its source,
    the test item it is a version of, and keeps to that item's form: the same kind, as many
    options, the same data-refers, no data-test and no data-setup (a graded version is answered
    from its words alone), its inputs named ITEM.LETTER, each letter once."""
    before: dict[str, Question] = {}
    for question in questions:
        if not question.version_of:
            before[question.name] = question
            continue
        what = f"lesson/{section}.html: the version {question.version!r} of {question.version_of}"
        item = before.get(question.version_of)
        if item is None or not item.test:
            raise BuildError(
                f"{what} names no test item (data-test) written before it in this section"
            )
        if not re.fullmatch(r"[b-u]" if item.kind != "numeric" else TEMPLATE_VERSION,
                            question.version):
            raise BuildError(
                f'{what} needs data-version: "v" for a numeric item (its template), else a '
                'letter from "b" to "u"'
            )
        if question.name != f"{item.name}.{question.version}":
            raise BuildError(f'{what}: its inputs must be named "{item.name}.{question.version}"')
        if question.name in before:
            raise BuildError(f"{what} is written twice")
        if question.test or question.setup:
            raise BuildError(f"{what} takes neither data-test nor data-setup")
        if (question.kind, len(question.options), question.refers) != (
            item.kind,
            len(item.options),
            item.refers,
        ):
            raise BuildError(
                f"{what} must have its item's kind ({item.kind}), number of options "
                f"({len(item.options)}) and data-refers ({item.refers or 'none'})"
            )
        before[question.name] = question


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
