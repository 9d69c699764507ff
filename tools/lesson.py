"""The lesson page, assembled from its sources: index.html is the skeleton (head, hero, boot panel,
contents, and one `<!-- lesson: NAME -->` line per section, in order), and lesson/NAME.html holds
section NAME: its prose, controls, figures, trap and, after the section, its quiz questions.

Everything that follows from the order is written here, never by hand: the step number in each
`<h2>`, the contents list, the number after each cross-reference (`<a href="#NAME"
class="section-ref">section</a>` becomes "section 6"), and the quiz, whose questions are taken
from their sections in order, numbered, and tagged with the section they test
(`data-section`). A range slider is one line, `<lesson-slider id=… name=… min=… max=… step=…
value=…>Label</lesson-slider>`, written out here as the label, input and output that
app/controls/slider.js reads. The public page, dist/index.html, is what a browser gets; its
section ids and every URL stay as they were."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from pathlib import Path

from tools.project import ROOT, BuildError

SKELETON = ROOT / "index.html"
SOURCES = ROOT / "lesson"

INCLUDE = re.compile(r"^ *<!-- lesson: ([\w-]+) -->\n", flags=re.M)
CONTENTS = re.compile(r"^( *)<!-- lesson-contents -->\n", flags=re.M)
QUIZ_SLOT = re.compile(r"^ *<!-- lesson-quiz-questions -->\n", flags=re.M)
SECTION_OPEN = re.compile(r'<section id="([\w-]+)"')
TITLE = re.compile(r'(<h2 id="([\w-]+)-title">)(.*?)</h2>', flags=re.S)
REFERENCE = re.compile(r'<a href="#([\w-]+)" class="section-ref">([Ss]ections?)</a>')
TYPED_NUMBER = re.compile(r"\b[Ss]ections? \d+(?!\.\d)")
QUESTION = re.compile(
    r'^ *<fieldset class="quiz-question"[^>]*>.*?</fieldset>\n', flags=re.S | re.M
)
SLIDER = re.compile(r"^( *)<lesson-slider ([^>]*)>(.*?)</lesson-slider>\n", flags=re.M)
ATTRIBUTE = re.compile(r'([\w-]+)="([^"]*)"')


@dataclass
class Section:
    name: str
    step: int
    title: str  # the <h2>'s inner HTML, without the step number
    html: str  # the section as the page shows it
    questions: list[str]  # its quiz questions, unnumbered


def shown_value(attributes: dict[str, str]) -> str:
    """The text a slider's <output> starts with: what app/controls/slider.js's valueText shows for
    its position (on a log10 scale 10^position to 3 significant figures; then integers as they
    are and others to 6 significant figures)."""
    value = float(attributes["value"])
    if attributes.get("data-scale") == "log10":
        value = float(f"{10**value:.3g}")
    value = float(f"{value:.6g}")
    return str(int(value)) if value.is_integer() else repr(value)


def expand_sliders(text: str, source: str) -> str:
    """Each `<lesson-slider>` written out as app/controls/slider.js expects it."""

    def one(match: re.Match) -> str:
        indent, attribute_text, label = match.groups()
        attributes = dict(ATTRIBUTE.findall(attribute_text))
        missing = [a for a in ("id", "name", "min", "max", "step", "value") if a not in attributes]
        if missing:
            raise BuildError(
                f"{source}: a <lesson-slider> lacks {', '.join(missing)}: {match.group(0).strip()}"
            )
        ident, name = attributes.pop("id"), attributes.pop("name")
        rest = " ".join(f'{key}="{value}"' for key, value in attributes.items())
        return (
            f'{indent}<div class="control">\n'
            f'{indent}  <label for="{ident}">{label}</label>\n'
            f'{indent}  <input id="{ident}" name="{name}" type="range" {rest}>\n'
            f'{indent}  <output for="{ident}">{shown_value(attributes)}</output>\n'
            f"{indent}</div>\n"
        )

    return SLIDER.sub(one, text)


def read_section(name: str, step: int) -> Section:
    path = SOURCES / f"{name}.html"
    source = f"lesson/{name}.html"
    if not path.exists():
        raise BuildError(f"index.html names the section {name}, but {source} does not exist")
    text = path.read_text(encoding="utf-8")
    end = text.find("</section>")
    opened = SECTION_OPEN.search(text)
    if end < 0 or not opened or opened.group(1) != name:
        raise BuildError(f'{source} must hold one <section id="{name}"> … </section>')
    end = text.index("\n", end) + 1
    body, after = text[:end], text[end:]
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
    body = body.replace(
        title.group(0), f'{title.group(1)}<span class="step">{step}</span> {title.group(3)}</h2>', 1
    )
    questions = QUESTION.findall(after)
    leftover = QUESTION.sub("", after)
    if re.sub(r"<!--.*?-->", "", leftover, flags=re.S).strip():
        raise BuildError(f"{source}: after </section> only its quiz questions may follow")
    return Section(name, step, title.group(3).strip(), expand_sliders(body, source), questions)


def number_question(question: str, number: int, section: str) -> str:
    """A question as the quiz shows it: its number in the legend, its section on the fieldset."""
    question = re.sub(
        r'^( *<fieldset class="quiz-question"[^>]*)>',
        rf'\1 data-section="{section}">',
        question,
        count=1,
    )
    return question.replace("<legend>", f'<legend><span class="quiz-number">{number}.</span> ', 1)


def assemble(skeleton: str | None = None) -> str:
    """The lesson page: the skeleton with every section, the contents, the numbers and the quiz."""
    page = SKELETON.read_text(encoding="utf-8") if skeleton is None else skeleton
    names = INCLUDE.findall(page)
    if not names:
        raise BuildError("index.html names no lesson section (<!-- lesson: NAME -->)")
    if len(set(names)) != len(names):
        raise BuildError(
            f"index.html names a section twice: {sorted(n for n in names if names.count(n) > 1)}"
        )
    unused = sorted({p.stem for p in SOURCES.glob("*.html")} - set(names))
    if unused:
        raise BuildError(
            f"lesson/{unused[0]}.html is not in index.html: "
            f"add <!-- lesson: {unused[0]} --> where it belongs"
        )
    sections = {name: read_section(name, step) for step, name in enumerate(names, start=1)}

    def reference(match: re.Match) -> str:
        target, word = match.groups()
        if target not in sections:
            raise BuildError(f"a cross-reference points at #{target}, which is no lesson section")
        return f'<a href="#{target}" class="section-ref">{word} {sections[target].step}</a>'

    questions = []
    for section in sections.values():
        questions += [(section.name, q) for q in section.questions]
    quiz = "".join(number_question(q, n, name) for n, (name, q) in enumerate(questions, start=1))

    def body_of(match: re.Match) -> str:
        section = sections[match.group(1)]
        text = section.html
        if QUIZ_SLOT.search(text):
            text = QUIZ_SLOT.sub(lambda _: quiz, text)
        return text

    page = REFERENCE.sub(reference, INCLUDE.sub(body_of, page))
    if questions and 'class="quiz-number"' not in page:
        raise BuildError(
            "the quiz has questions but no section holds <!-- lesson-quiz-questions -->"
        )
    contents = CONTENTS.search(page)
    if not contents:
        raise BuildError("index.html's contents list lacks <!-- lesson-contents -->")
    indent = contents.group(1)
    lines = "".join(
        f'{indent}<li><a href="#{s.name}">{s.title}</a></li>\n' for s in sections.values()
    )
    return page[: contents.start()] + lines + page[contents.end() :]


def section_titles() -> dict[str, str]:
    """Every section's name and its title as plain text, in the page's order."""
    names = INCLUDE.findall(SKELETON.read_text(encoding="utf-8"))
    return {
        name: html.unescape(re.sub(r"<[^>]*>", "", read_section(name, 0).title)) for name in names
    }


def demo_sections() -> list[str]:
    """The sections that are demos (`class="demo"`: embeddable by name), in the page's order."""
    names = INCLUDE.findall(SKELETON.read_text(encoding="utf-8"))
    return [
        n for n in names if re.search(r'<section id="[\w-]+" class="demo"', read_section(n, 0).html)
    ]


def lesson_sources() -> list[Path]:
    """The files the page is assembled from: what a rebuild watches."""
    return [SKELETON, *sorted(SOURCES.glob("*.html"))]
