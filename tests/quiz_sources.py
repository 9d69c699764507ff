"""The quiz questions as the lesson's sources hold them (lesson/NAME.html, after </section>),
as the course model reads them (tools/course.py), seen as plain text records, for the tests that
check their markup (tests/build/test_quiz_questions.py)
and recompute their keys with pelab (tests/python/test_quiz_answers.py).

The markup, one fieldset a question:
    <fieldset class="quiz-question" data-kind="choice|truefalse|numeric" [data-test]
              [data-refers="ID"] [data-setup="SECTION"]>
      <legend>the question</legend>
      choice, truefalse: <label class="quiz-option"><input type="radio" name="NAME" value="0"
                         data-why="what is wrong with it"> text</label> … (one has data-correct)
      numeric: <label class="quiz-answer">Your answer <input type="text" inputmode="decimal"
               name="NAME" data-answer="0.54" data-tolerance="0.01" data-why="…"></label>
      <p class="quiz-feedback" aria-live="polite" hidden></p>
      <p class="quiz-explain" hidden>why the answer is right</p>
    </fieldset>
No data-test: a check, shown after its section (or, with data-placement="before-try", a
prediction asked inside it, before its "Try this" line); data-test: an item of its chapter's
end test.
A test item's graded versions follow it, data-version-of="NAME": a choice or true/false item's
parallel versions, data-version="b" (then "c"), their inputs named NAME.b (`versions()`), and a
numeric item's template, data-version="v" (`templates()`); `questions()` leaves them out."""

from __future__ import annotations

import html
from dataclasses import dataclass, field

from tools.course import plain, read_course


@dataclass
class Option:
    value: str
    correct: bool
    why: str | None
    text: str  # the label's words as plain text


@dataclass
class Question:
    section: str
    kind: str
    test: bool  # an end-test item (data-test), else a check
    refers: str | None
    setup: str | None
    legend: str  # plain text
    explain: str  # plain text
    name: str  # the input's name: its key in quiz-keys.json
    options: list[Option] = field(default_factory=list)  # choice and truefalse
    answer: str | None = None  # numeric: data-answer, data-tolerance, data-why as written
    tolerance: str | None = None
    why: str | None = None
    source: str = ""  # the fieldset's HTML
    version_of: str | None = None  # a graded version: the test item it is a version of
    template: bool = False  # a numeric item's template (its numbers drawn per attempt)
    placement: str = ""  # a check's data-placement: "before-try" for a prediction


def questions() -> list[Question]:
    """Every question of the lesson but the graded versions, in the order of its sections."""
    return [_record(q) for q in read_course().questions if not q.version_of]


def versions() -> list[Question]:
    """The test items' parallel versions (data-version-of, a letter), in the order of their
    sections; a numeric item's template is `templates()`'."""
    return [_record(q) for q in read_course().questions if q.version_of and not q.template]


def templates() -> list[Question]:
    """The numeric test items' templates (data-version="v"), in the order of their sections."""
    return [_record(q) for q in read_course().questions if q.template]


def _record(q) -> Question:
    numeric = q.kind == "numeric"
    return Question(
        section=q.section,
        kind=q.kind,
        test=q.test,
        refers=q.refers or None,
        setup=q.setup or None,
        legend=plain(q.legend),
        explain=plain(q.explain),
        name=q.name,
        options=[
            Option(o.value, o.correct, html.unescape(o.why) if o.why else None, o.text)
            for o in q.options
        ],
        answer=q.answer if numeric else None,
        tolerance=q.tolerance if numeric else None,
        why=html.unescape(q.why) if q.why else None,
        source=q.source,
        version_of=q.version_of or None,
        template=q.template,
        placement=q.placement,
    )


def section_source(name: str) -> str:
    """Section NAME as its source holds it, up to its </section>."""
    return read_course().sections[name].source
