"""A section's quiz questions, read and checked (tools/section_source.py reads the rest of the
section; tools/course.py gives them to everyone else): each question with its options and key,
and a test item's graded versions, the parallel versions of a choice or true/false item and the
template of a numeric one, whose variants come from lesson/quiz-variants.json
(py/pelab/browser/quiz_variants.py). A broken question stops the build with a BuildError naming
its file and what is wrong with it."""

from __future__ import annotations

import html
import json
import math
import re
from dataclasses import dataclass, field

from tools.project import ROOT, BuildError

ATTRIBUTE = re.compile(r'([\w-]+)="([^"]*)"')

QUESTION_OPEN = re.compile(r'<fieldset class="quiz-question"([^>]*)>')
QUESTION_INPUT = re.compile(r"<input\b([^>]*)>")
LEGEND = re.compile(r"<legend>(.*?)</legend>", flags=re.S)
EXPLAIN = re.compile(r'<p class="quiz-explain" hidden>(.*)</p>(\s*</fieldset>)', flags=re.S)
OPTION = re.compile(r'<label class="quiz-option">\s*<input ([^>]*)>(.*?)</label>', flags=re.S)
QUESTION_KINDS = ("choice", "truefalse", "numeric")
TEMPLATE_VERSION = "v"  # a numeric item's graded template
PARALLEL_VERSION = re.compile(r"^[b-u]$")  # a choice or true/false item's parallel version
# Where a check may stand instead of right after its section: "before-try", a prediction, asked
# before the section's "Try this" line (and any text that states its answer), so that the
# learner commits to an answer before the demo shows it.
PLACEMENTS = ("before-try",)
TRY_LINE = re.compile(r'^ *<p class="try">', flags=re.M)
PARAM = re.compile(r'<span data-param="([\w-]+)">([^<]*)</span>')
# The numbers of every template, made by pelab (py/pelab/browser/quiz_variants.py says how).
QUIZ_VARIANTS = ROOT / "lesson" / "quiz-variants.json"


def plain(inner_html: str) -> str:
    """Inner HTML as plain text (for a <title>, a description, an aria-label)."""
    return " ".join(html.unescape(re.sub(r"<[^>]*>", "", inner_html)).split())


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
    test and of the whole-lesson test, in the version practice mode shows ("a"). A check that
    asks for a prediction says `data-placement="before-try"`: the build puts it inside its
    section, right before the "Try this" line, so that it is answered before the demo shows the
    result (a check only: a test item stands in its test).

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
    placement: str = ""  # a check's data-placement: "before-try" (a prediction), else ""

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

    def response_code(self, option: Option) -> str:
        """What cmi.interactions.n.student_response carries when `option` is chosen: "t" or
        "f" for a true/false question (its option that says True is "t", else its first, as
        app/quiz/engine.js's `describe` decides), the option's value for a choice."""
        if self.kind != "truefalse":
            return option.value
        truth = next((o for o in self.options if o.text == "True"), self.options[0])
        return "t" if option is truth else "f"

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
    placement = opening.get("data-placement", "")
    if placement and placement not in PLACEMENTS:
        raise BuildError(f"{what}: data-placement can only be {', '.join(PLACEMENTS)}")
    if placement and (test or version_of):
        raise BuildError(
            f"{what}: only a section's check takes data-placement; a test item stands in its test"
        )
    if placement == "before-try" and len(TRY_LINE.findall(body)) != 1:
        raise BuildError(
            f'{what} is placed before the "Try this" line, but its section needs exactly one '
            '<p class="try">'
        )
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
        placement=placement,
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
