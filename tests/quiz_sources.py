"""The quiz questions as the lesson's sources hold them (lesson/NAME.html, after </section>),
read into plain records, for the tests that check their markup (tests/build/test_quiz_questions.py)
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
No data-test: a check, shown after its section; data-test: an item of its chapter's end test."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

from tools.lesson import SOURCES, section_titles

FIELDSET = re.compile(r'^ *<fieldset class="quiz-question"[^>]*>.*?</fieldset>\n', re.S | re.M)


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


class _Reader(HTMLParser):
    """One fieldset's tags and texts, with what each text sits in."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.fieldset: dict[str, str | None] = {}
        self.inputs: list[dict[str, str | None]] = []
        self.labels: list[str] = []
        self.legend = self.explain = ""
        self._in: list[str] = []  # "legend", "label", "explain" while inside one

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "fieldset":
            self.fieldset = attributes
        elif tag == "legend":
            self._in.append("legend")
        elif tag == "label":
            self._in.append("label")
            self.labels.append("")
        elif tag == "p" and "quiz-explain" in (attributes.get("class") or ""):
            self._in.append("explain")
        elif tag == "input":
            self.inputs.append(attributes)

    def handle_endtag(self, tag):
        if tag in ("legend", "label") or (tag == "p" and self._in[-1:] == ["explain"]):
            if self._in and self._in[-1] in (tag, "explain"):
                self._in.pop()

    def handle_data(self, data):
        if not self._in:
            return
        where = self._in[-1]
        if where == "legend":
            self.legend += data
        elif where == "label":
            self.labels[-1] += data
        else:
            self.explain += data


def plain(text: str) -> str:
    return " ".join(html.unescape(text).split())


def read(section: str, source: str) -> Question:
    reader = _Reader()
    reader.feed(source)
    attributes = reader.fieldset
    kind = attributes.get("data-kind") or ""
    names = {i.get("name") for i in reader.inputs}
    question = Question(
        section=section,
        kind=kind,
        test="data-test" in attributes,
        refers=attributes.get("data-refers"),
        setup=attributes.get("data-setup"),
        legend=plain(reader.legend),
        explain=plain(reader.explain),
        name=next(iter(names)) if len(names) == 1 else f"<{len(names)} names>",
        source=source,
    )
    if kind == "numeric":
        (answer,) = reader.inputs
        question.answer = answer.get("data-answer")
        question.tolerance = answer.get("data-tolerance")
        question.why = answer.get("data-why")
    else:
        for attributes, text in zip(reader.inputs, reader.labels, strict=True):
            question.options.append(
                Option(
                    value=attributes.get("value") or "",
                    correct="data-correct" in attributes,
                    why=attributes.get("data-why"),
                    text=plain(text),
                )
            )
    return question


def questions() -> list[Question]:
    """Every question of the lesson, in the order of its sections."""
    found = []
    for name in section_titles():
        text = (SOURCES / f"{name}.html").read_text(encoding="utf-8")
        after = text[text.index("\n", text.index("</section>")) + 1 :]
        found += [read(name, source) for source in FIELDSET.findall(after)]
    return found


def section_source(name: str) -> str:
    """Section NAME as its source holds it, up to its </section>."""
    text = (SOURCES / f"{name}.html").read_text(encoding="utf-8")
    return text[: text.index("</section>")]
