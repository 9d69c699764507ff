"""The lesson page, assembled from its sources: index.html is the skeleton (head, hero, boot panel,
contents, and one `<!-- lesson: NAME -->` line per section, in order), and lesson/NAME.html holds
section NAME: its prose, controls, figures, trap and, after the section, its quiz questions.

Everything that follows from the order is written here, never by hand: the step number in each
`<h2>`, the contents list, the number after each cross-reference (`<a href="#NAME"
class="section-ref">section</a>` becomes "section 6"), and the questions. A question without
`data-test` is its section's check, shown right after the section; one with `data-test` goes
into its chapter's end test and into the whole-lesson test (the quiz section's slot). Each is
numbered in its block and tagged with the section it tests (`data-section`), and its key (the
right answer, what each wrong one means, the explanation) leaves the HTML for
dist/app/quiz-keys.json (`quiz_keys_json`), so that reading the page does not give it away.
A range slider is one line, `<lesson-slider id=… name=… min=… max=… step=… value=…>Label
</lesson-slider>`, written out here as the label, input and output that app/controls/slider.js
reads. The public page, dist/index.html, is what a browser gets; its
section ids and every URL stay as they were.

`assemble_custom` makes a lesson of chosen sections only (`build.py build --sections`): the same
assembly on a skeleton of one chapter, where a section left out is absent, not an error."""

from __future__ import annotations

import html
import json
import math
import re
from dataclasses import dataclass
from pathlib import Path

from tools.project import ROOT, BuildError

SKELETON = ROOT / "index.html"
SOURCES = ROOT / "lesson"
CHAPTER_TEMPLATE = SOURCES / "pages" / "chapter.html"
ENTRANCE = "index.html"

# How long a section takes (docs/course.md says why these numbers): its words at READING_WPM,
# TRY_MINUTES if it has controls, RUN_MINUTES an experiment to run, QUESTION_MINUTES a question,
# EXERCISE_MINUTES an exercise to write and check.
READING_WPM = 150
TRY_MINUTES = 3
RUN_MINUTES = 3
QUESTION_MINUTES = 1
EXERCISE_MINUTES = 6

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
QUESTION_OPEN = re.compile(r'<fieldset class="quiz-question"([^>]*)>')
QUESTION_INPUT = re.compile(r"<input\b([^>]*)>")
LEGEND = re.compile(r"<legend>(.*?)</legend>", flags=re.S)
EXPLAIN = re.compile(r'<p class="quiz-explain" hidden>(.*)</p>(\s*</fieldset>)', flags=re.S)
KEY_ATTRIBUTES = re.compile(r' (?:data-correct(?![\w-])|data-(?:why|answer|tolerance)="[^"]*")')
QUESTION_KINDS = ("choice", "truefalse", "numeric")
# The whole-lesson test's name (the `data-test` of its form); a chapter's test is named by the
# chapter, so the two never clash with a chapter called "lesson" (read_chapters refuses it).
LESSON_TEST = "lesson"
# A live demo's first request, which the build computes (tools/first_results.py): removed from
# the page, whose demo asks for it again once the learner's Python is up.
FIRST_CALL = re.compile(
    r'^ *<script type="application/json" class="first-call">(.*?)</script>\n', flags=re.S | re.M
)
# A picture drawn at build time that the page shows first (the heatmap's): preloaded in the head.
HIGH_PRIORITY_IMAGE = re.compile(r'<img [^>]*?src="([^"]+)"[^>]*? fetchpriority="high"')
# Where a demo's first result is served: the build writes it, the chapter page preloads it.
FIRST_RESULT = "py/first-results/{name}.json"
SLIDER = re.compile(r"^( *)<lesson-slider ([^>]*)>(.*?)</lesson-slider>\n", flags=re.M)
ATTRIBUTE = re.compile(r'([\w-]+)="([^"]*)"')
CHAPTER = re.compile(
    r'^( *)<li class="chapter" data-chapter="([\w-]+)">\n(.*?)^\1</li>\n', flags=re.S | re.M
)
CHAPTER_TITLE = re.compile(r"<h3>(.*?)</h3>", flags=re.S)
CHAPTER_SUMMARY = re.compile(r"<p>(.*?)</p>", flags=re.S)
CHAPTER_FIELD = re.compile(r"<!-- chapter: ([\w-]+) -->")
COURSE_FIELD = re.compile(r"<!-- course: ([\w-]+) -->")
LOCAL_LINK = re.compile(r'href="#([\w-]+)"')
OLD_ANCHOR = re.compile(r'<span id="([\w-]+)" class="old-anchor">')


@dataclass
class Question:
    """One quiz question of a section, read and checked (`read_question`)."""

    section: str
    name: str  # its inputs' shared name: the key's name in quiz-keys.json and in saved answers
    kind: str  # "choice", "truefalse" or "numeric"
    test: bool  # an end-test item (data-test), else its section's check
    refers: str  # the id in its section it tests: its feedback links back there
    html: str  # as the page shows it: no key, no explanation, not numbered
    key: dict  # its entry of quiz-keys.json, the explanation still unlinked


@dataclass
class Section:
    name: str
    step: int
    title: str  # the <h2>'s inner HTML, without the step number
    html: str  # the section as the page shows it
    questions: list[str]  # its quiz questions as the source has them
    source_html: str = ""  # the section as its source has it (what its minutes are counted on)
    quiz_questions: int = 0  # how many questions it shows: its check and test items, or the quiz's
    first_call: str = ""  # a live demo's first request as its source states it (JSON), or ""


def slider_value(attributes: dict[str, str]) -> float:
    """A slider's value at its position `value`, as app/controls/slider.js's valueAt reads it: on
    data-scale="log10" the position is the exponent, and the value 10^position to 3 significant
    figures."""
    value = float(attributes["value"])
    return float(f"{10**value:.3g}") if attributes.get("data-scale") == "log10" else value


def shown_value(attributes: dict[str, str]) -> str:
    """The text a slider's <output> starts with: what app/controls/slider.js's valueText shows for
    its position (its value, `slider_value`; then integers as they are and others to 6
    significant figures)."""
    value = float(f"{slider_value(attributes):.6g}")
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
    body = body.replace(
        title.group(0), f'{title.group(1)}<span class="step">{step}</span> {title.group(3)}</h2>', 1
    )
    questions = QUESTION.findall(after)
    leftover = QUESTION.sub("", after)
    if re.sub(r"<!--.*?-->", "", leftover, flags=re.S).strip():
        raise BuildError(f"{source}: after </section> only its quiz questions may follow")
    return Section(
        name,
        step,
        title.group(3).strip(),
        expand_sliders(body, source),
        questions,
        body,
        first_call=first_calls[0].strip() if first_calls else "",
    )


def read_question(text: str, section: str, body: str) -> Question:
    """A question of lesson/`section`.html checked and split into what the page shows and its
    key. `body` is the section's HTML, which must hold the id `data-refers` names."""
    source = f"lesson/{section}.html"
    legend = LEGEND.search(text)
    what = f"{source}: the question “{plain(legend.group(1)) if legend else text[:60]}”"
    opening = QUESTION_OPEN.search(text).group(1)
    attributes = dict(ATTRIBUTE.findall(opening))
    kind = attributes.get("data-kind", "")
    if kind not in QUESTION_KINDS:
        raise BuildError(f"{what} needs data-kind, one of {', '.join(QUESTION_KINDS)}")
    inputs = [
        (dict(ATTRIBUTE.findall(a)), re.search(r"\bdata-correct(?![\w-])", a) is not None)
        for a in QUESTION_INPUT.findall(text)
    ]
    names = {fields.get("name") for fields, _ in inputs}
    if len(names) != 1 or None in names:
        raise BuildError(f"{what}: its inputs must share one name that no other question uses")
    name = names.pop()
    explain = EXPLAIN.search(text)
    if not explain or not explain.group(1).strip():
        raise BuildError(f'{what} needs its explanation, <p class="quiz-explain" hidden>…</p>')
    key: dict = {"kind": kind, "why": {}, "explain": explain.group(1).strip()}
    if kind == "numeric":
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
        key.update(answer=answer, tolerance=tolerance)
        if "data-why" in fields:
            key["why"]["*"] = html.unescape(fields["data-why"])
    else:
        right = [fields.get("value") for fields, correct in inputs if correct]
        if len(right) != 1:
            raise BuildError(
                f"{what} needs exactly one option with data-correct; it has {len(right)}"
            )
        if kind == "truefalse" and len(inputs) != 2:
            raise BuildError(f"{what} is true or false: it needs two options")
        key["correct"] = right[0]
        for fields, correct in inputs:
            if not correct and not fields.get("data-why"):
                raise BuildError(f"{what}: its wrong option {fields.get('value')} needs a data-why")
            if not correct:
                key["why"][fields["value"]] = html.unescape(fields["data-why"])
    refers = attributes.get("data-refers", section)
    if not re.search(rf'\bid="{re.escape(refers)}"', body):
        raise BuildError(
            f'{what} refers to #{refers} (data-refers), but section "{section}" has no such id'
        )
    shown = KEY_ATTRIBUTES.sub("", text)
    shown = re.sub(r" data-test(?![\w-])(=\"[^\"]*\")?", "", shown, count=1)
    shown = EXPLAIN.sub(lambda m: f'<p class="quiz-explain" hidden></p>{m.group(2)}', shown)
    test = re.search(r"\bdata-test(?![\w-])", opening) is not None
    return Question(section, name, kind, test, refers, shown, key)


def number_question(question: Question, position: int) -> str:
    """A question as a check or test shows it: its number in the legend, its section on the
    fieldset, and the link back to what it tests, shown with the feedback."""
    text = re.sub(
        r'^( *<fieldset class="quiz-question"[^>]*)>',
        rf'\1 data-section="{question.section}">',
        question.html,
        count=1,
    )
    back = (
        f'<p class="quiz-refers" hidden><a href="#{question.refers}">Back to what this question '
        f'tests</a>, in <a href="#{question.section}" class="section-ref">section</a>.</p>'
    )
    text = text.replace('<p class="quiz-explain"', f'{back}\n<p class="quiz-explain"', 1)
    setup = re.search(r'\bdata-setup="([\w-]+)"', text)
    if setup:  # a question read off a live figure: where that figure is
        text = text.replace(
            "</legend>",
            '</legend>\n<p class="quiz-setup">Set the figure of <a '
            f'href="#{setup.group(1)}" class="section-ref">section</a> as the question says.</p>',
            1,
        )
    return text.replace("<legend>", f'<legend><span class="quiz-number">{position}.</span> ', 1)


def test_form(test: str, items: list[str]) -> str:
    """A test's form: its numbered questions, the score, Submit (shown in graded mode only:
    app/quiz/engine.js) and Start again."""
    return (
        f'<form class="quiz" data-quiz="test" data-test="{test}" novalidate>\n'
        + "".join(items)
        + '<p class="quiz-score" aria-live="polite"></p>\n'
        + '<p class="quiz-actions"><button type="submit" class="quiz-submit" hidden>Submit</button>'
        + ' <button type="reset" class="quiz-reset">Start again</button></p>\n'
        + "</form>\n"
    )


def check_block(section: Section, items: list[str]) -> str:
    """A section's check, right after it: its questions, answered at once."""
    return (
        f'<aside class="quiz-check" data-section="{section.name}" '
        f'aria-labelledby="{section.name}-check-title">\n'
        f'<h3 id="{section.name}-check-title">Check: {section.title}</h3>\n'
        '<form class="quiz" data-quiz="check" novalidate>\n' + "".join(items) + "</form>\n"
        "</aside>\n"
    )


def chapter_test(chapter: Chapter, items: list[str]) -> str:
    """A chapter's end test, at the end of its page; nothing when no question is a test item."""
    if not items:
        return ""
    return (
        f'<section id="test-{chapter.name}" class="chapter-test" '
        f'aria-labelledby="test-{chapter.name}-title">\n'
        f'<h2 id="test-{chapter.name}-title">End of chapter test</h2>\n'
        '<p class="chapter-test-note">Questions on this chapter’s sections. Some ask you to set a '
        "figure’s sliders as the question says and read the result. In practice mode each answer "
        "is marked as you give it; in a graded test (launched by your course, or opened with "
        "?graded), answers are marked once you submit them.</p>\n"
        + test_form(chapter.name, items)
        + "</section>\n"
    )


@dataclass
class Chapter:
    name: str  # its page is NAME.html
    title: str  # the <h3>'s inner HTML on the entrance
    summary: str  # the <p> after it
    sections: list[str]

    @property
    def page(self) -> str:
        return f"{self.name}.html"


def read_chapters(skeleton: str) -> list[Chapter]:
    """The chapters the entrance lists, each with its sections, in order."""
    chapters = []
    for match in CHAPTER.finditer(skeleton):
        name, body = match.group(2), match.group(3)
        title, summary = CHAPTER_TITLE.search(body), CHAPTER_SUMMARY.search(body)
        if not title or not summary:
            raise BuildError(
                f'index.html: the chapter "{name}" needs an <h3> title and a <p> summary'
            )
        sections = INCLUDE.findall(body)
        if name == LESSON_TEST:
            raise BuildError(
                f'index.html: no chapter may be called "{LESSON_TEST}": the whole-lesson test is'
            )
        if not sections:
            raise BuildError(f'index.html: the chapter "{name}" lists no section')
        chapters.append(Chapter(name, title.group(1).strip(), summary.group(1).strip(), sections))
    outside = INCLUDE.findall(CHAPTER.sub("", skeleton))
    if outside:
        raise BuildError(
            f"index.html lists the section {outside[0]} outside any chapter: "
            '<li class="chapter" data-chapter="NAME"> … </li>'
        )
    return chapters


def section_minutes(section: Section) -> int:
    """How long a learner needs for a section, as the course shows it (docs/course.md): its
    prose at READING_WPM words a minute (not its code), the time to try its controls, to run its
    experiments and to do its exercises, and a minute a quiz question; rounded up to a whole
    minute."""
    body = re.sub(r"<(textarea|script|pre)\b.*?</\1>", " ", section.source_html, flags=re.S)
    words = len(html.unescape(re.sub(r"<[^>]*>", " ", body)).split())
    minutes = words / READING_WPM
    # a control to try (the take-home notebook's download box is none: it takes no trying)
    tried = re.sub(r'<div class="take-home">.*?</div>', " ", body, flags=re.S)
    if re.search(r"<(input|select|textarea|button|lesson-slider)\b", tried):
        minutes += TRY_MINUTES
    minutes += RUN_MINUTES * body.count('class="training-buttons"')
    minutes += EXERCISE_MINUTES * body.count('class="exercise"')
    minutes += QUESTION_MINUTES * section.quiz_questions
    return math.ceil(minutes)


def number(value: int | str) -> str:
    """A number the build works out (a step, a chapter, minutes, a count), as the page shows it
    inside a sentence: in an element of its own, which the catalogs keep whole as a placeholder
    (tools/i18n.py), so that a sentence reads the same to a translator whatever the number is,
    and moving or adding a section changes no translation."""
    return f'<span class="number">{value}</span>'


def plain(inner_html: str) -> str:
    """Inner HTML as plain text (for a <title>, a description, an aria-label)."""
    return " ".join(html.unescape(re.sub(r"<[^>]*>", "", inner_html)).split())


def assemble_with_keys(
    skeleton: str | None = None, custom: bool = False
) -> tuple[dict[str, str], dict[str, dict]]:
    """Every page of the course by file name (`assemble`), and every question's key by its
    name (quiz-keys.json). `custom`: the skeleton names only some sections (custom_skeleton);
    the rest are absent, not forgotten, and its one chapter's test is the quiz section's."""
    page = SKELETON.read_text(encoding="utf-8") if skeleton is None else skeleton
    names = INCLUDE.findall(page)
    if not names:
        raise BuildError("index.html names no lesson section (<!-- lesson: NAME -->)")
    if len(set(names)) != len(names):
        raise BuildError(
            f"index.html names a section twice: {sorted(n for n in names if names.count(n) > 1)}"
        )
    unused = sorted({p.stem for p in SOURCES.glob("*.html")} - set(names))
    if unused and not custom:
        raise BuildError(
            f"lesson/{unused[0]}.html is not in index.html: "
            f"add <!-- lesson: {unused[0]} --> to its chapter, where it belongs"
        )
    chapters = read_chapters(page)
    sections = {name: read_section(name, step) for step, name in enumerate(names, start=1)}
    if REMEMBER in sections:  # its lines, each tagged with the sections it sums up
        sections[REMEMBER] = remember_lines(sections[REMEMBER], names, every=not custom)
    page_of = {name: chapter.page for chapter in chapters for name in chapter.sections}
    # Every id a section holds is on its chapter's page: a link to it from elsewhere names that
    # page, and an old link index.html#ID is sent there (app/pages/old-links.js).
    id_page = {
        ident: page_of[name]
        for name, section in sections.items()
        for ident in re.findall(r'\bid="([\w-]+)"', section.html)
    }

    # Each question's inputs share one name, which no other question may use: the quiz keeps
    # (and an LMS restores) answers by it, and quiz-keys.json holds its key under it.
    named: dict[str, str] = {}
    questions: list[Question] = []
    for section in sections.values():
        for text in section.questions:
            question = read_question(text, section.name, section.source_html)
            if question.name in named:
                raise BuildError(
                    f'lesson/{section.name}.html: a quiz question\'s inputs are named '
                    f'"{question.name}", as one of lesson/{named[question.name]}.html\'s are: '
                    "give them a name of their own"
                )
            named[question.name] = section.name
            questions.append(question)
    for question in questions:
        setup = re.search(r'\bdata-setup="([^"]*)"', question.html)
        if setup and setup.group(1) not in sections:
            raise BuildError(
                f"lesson/{question.section}.html: a question's data-setup names "
                f'"{setup.group(1)}", which is no section: one of {", ".join(sections)}'
            )
    tests = [q for q in questions if q.test]
    for section in sections.values():
        checks = [q for q in questions if q.section == section.name and not q.test]
        if checks:
            section.html += check_block(
                section, [number_question(q, n) for n, q in enumerate(checks, 1)]
            )
        section.quiz_questions = sum(q.section == section.name for q in questions)
    whole = [number_question(q, n) for n, q in enumerate(tests, 1)]
    quiz = (
        test_form(LESSON_TEST, whole)
        if whole
        else '<p class="quiz-empty note">This version of the course has no test questions: '
        "each section’s check, right after it, asks about that section.</p>\n"
    )
    slots = 0
    for section in sections.values():
        if QUIZ_SLOT.search(section.html):
            section.html = QUIZ_SLOT.sub(lambda _: quiz, section.html)
            section.quiz_questions = len(tests)
            slots += 1
    minutes = {name: section_minutes(section) for name, section in sections.items()}
    chapter_minutes = {c.name: sum(minutes[s] for s in c.sections) for c in chapters}

    def linked(text: str, here: str) -> str:
        """Cross-references numbered, and links to an id on another page sent to that page."""

        def reference(match: re.Match) -> str:
            target, word = match.groups()
            if target not in sections and custom:
                return absent_reference(target, word)
            if target not in sections:
                raise BuildError(
                    f"a cross-reference points at #{target}, which is no lesson section"
                )
            step = number(sections[target].step)
            return f'<a href="#{target}" class="section-ref">{word} {step}</a>'

        def elsewhere(match: re.Match) -> str:
            target = id_page.get(match.group(1))
            return match.group(0) if target in (None, here) else f'href="{target}#{match.group(1)}"'

        return LOCAL_LINK.sub(elsewhere, REFERENCE.sub(reference, text))

    pages = {ENTRANCE: linked(entrance(page, chapters, sections, minutes), ENTRANCE)}
    template = CHAPTER_TEMPLATE.read_text(encoding="utf-8")
    for place, chapter in enumerate(chapters, start=1):
        following = chapters[place] if place < len(chapters) else None
        if following:
            onward = (
                f'<nav class="chapter-next" aria-label="Next chapter"><a href="{following.page}">'
                f"Next: chapter {number(place + 1)}, {following.title}</a></nav>"
            )
        else:
            onward = (
                '<nav class="chapter-next" aria-label="The course">'
                '<a href="index.html">Back to the course overview</a></nav>'
            )
        fields = {
            "name": chapter.name,
            "plain-title": plain(chapter.title),
            "plain-summary": html.escape(plain(chapter.summary)),
            "title": chapter.title,
            "summary": chapter.summary,
            "position": f"Chapter {number(place)} of {number(len(chapters))}",
            "minutes": number(chapter_minutes[chapter.name]),
            "first-section": chapter.sections[0],
            "first-results": "".join(
                [
                    # a figure drawn at build time, as early as the page can ask for it
                    *(
                        f'\n  <link rel="preload" href="{src}" as="image" fetchpriority="high">'
                        for name in chapter.sections
                        for src in HIGH_PRIORITY_IMAGE.findall(sections[name].html)
                    ),
                    *(
                        f'\n  <link rel="preload" href="{FIRST_RESULT.format(name=name)}" '
                        'as="fetch" crossorigin>'
                        for name in chapter.sections
                        if sections[name].first_call
                    ),
                ]
            ),
            "sections": "\n".join(sections[name].html for name in chapter.sections),
            "test": "" if custom else chapter_test(
                chapter,
                [
                    number_question(q, n)
                    for n, q in enumerate(
                        (q for q in tests if q.section in chapter.sections), start=1
                    )
                ],
            ),
            "next": onward,
        }
        text = CHAPTER_FIELD.sub(lambda m, fields=fields: fields[m.group(1)], template)
        text = text.replace(
            "<!-- course-map -->", course_map(chapters, sections, minutes, chapter), 1
        )
        pages[chapter.page] = linked(text, chapter.page)
    if tests and not slots:
        raise BuildError(
            "the lesson has test questions (data-test) but no section holds "
            "<!-- lesson-quiz-questions -->, where the whole-lesson test goes"
        )

    def anywhere(text: str) -> str:
        """Links as they work on any page: cross-references numbered, and every link to an id
        of the course naming the id's page."""
        text = linked(text, ENTRANCE)
        return LOCAL_LINK.sub(
            lambda m: f'href="{id_page[m.group(1)]}#{m.group(1)}"'
            if m.group(1) in id_page
            else m.group(0),
            text,
        )

    keys = {q.name: {**q.key, "explain": anywhere(q.key["explain"])} for q in questions}
    return pages, keys


def assemble(skeleton: str | None = None, custom: bool = False) -> dict[str, str]:
    """Every page of the course by file name: the entrance (index.html) and one page per
    chapter, with the sections' steps, the map, the cross-references, the checks and tests."""
    return assemble_with_keys(skeleton, custom)[0]


def quiz_keys_json(keys: dict[str, dict]) -> str:
    """dist/app/quiz-keys.json: every question's key by its name (app/quiz/keys.js reads it)."""
    return json.dumps(keys, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def course_map(chapters, sections, minutes, current: Chapter) -> str:
    """The map every chapter page keeps in view: the chapters and their sections, with minutes,
    this chapter marked (app/course/map.js marks the section in view and those visited)."""
    total = sum(minutes.values())
    lines = [
        '<nav class="course-map" aria-label="Course map">',
        '<details class="map-panel" open>',
        # the words of the phone's map bar's button (static/lab.css shows them)
        '<summary data-open-label="Map" data-close-label="Close">'
        f'<span class="map-where">{plain(current.title)}</span> '
        f'<span class="map-left"></span></summary>',
        f'<p class="map-course"><a href="index.html">The course</a>, about {number(total)} '
        "minutes</p>",
        '<ol class="map-chapters">',
    ]
    for chapter in chapters:
        here = ' aria-current="page"' if chapter is current else ""
        lines.append(
            f'<li class="map-chapter" data-chapter="{chapter.name}">'
            f'<a href="{chapter.page}"{here}>{chapter.title}</a> '
            f'<span class="minutes">{number(sum(minutes[s] for s in chapter.sections))} min</span>'
            '<ol class="map-sections">'
        )
        for name in chapter.sections:
            href = f"#{name}" if chapter is current else f"{chapter.page}#{name}"
            lines.append(
                f'<li data-section="{name}" data-minutes="{minutes[name]}"><a href="{href}">'
                f'<span class="map-step">{sections[name].step}</span> {sections[name].title}</a> '
                f'<span class="minutes">{number(minutes[name])} min</span></li>'
            )
        lines.append("</ol></li>")
    lines += ["</ol>", "</details>", "</nav>"]
    return "\n".join(lines)


def entrance(page: str, chapters, sections, minutes) -> str:
    """index.html as a browser gets it: each chapter with its page, minutes and sections; the
    start link; the total; and the old links' map."""

    def chapter_card(match: re.Match) -> str:
        indent, name = match.group(1), match.group(2)
        chapter = next(c for c in chapters if c.name == name)
        place = chapters.index(chapter) + 1
        items = "".join(
            f'{indent}    <li data-section="{s}"><a href="{chapter.page}#{s}">'
            f'<span class="step">{sections[s].step}</span> {sections[s].title}</a> '
            f'<span class="minutes">{number(minutes[s])} min</span></li>\n'
            for s in chapter.sections
        )
        return (
            f'{indent}<li class="chapter" data-chapter="{name}">\n'
            f'{indent}  <h3><span class="chapter-number">Chapter {number(place)}</span> '
            f'<a href="{chapter.page}">{chapter.title}</a> '
            f'<span class="minutes">{number(sum(minutes[s] for s in chapter.sections))} min'
            "</span></h3>\n"
            f"{indent}  <p>{chapter.summary}</p>\n"
            f'{indent}  <ol class="chapter-sections">\n{items}{indent}  </ol>\n'
            f"{indent}</li>\n"
        )

    # What an old link index.html#ID may name: a section, or an anchor it kept from before.
    old_targets = {
        chapter.page: [
            ident
            for name in chapter.sections
            for ident in [name, *OLD_ANCHOR.findall(sections[name].html)]
        ]
        for chapter in chapters
    }
    total = sum(minutes.values())
    first = chapters[0]
    fields = {
        "total": (
            f"{number(len(chapters))} chapters, about {number(total // 60)} h "
            f"{number(f'{total % 60:02d}')} min in all: "
            "an estimate from the length of the text and the number of things to try. "
            "Take them in order, at your own pace; your place is kept in this browser."
        ),
        "start": (
            f'<a class="start-link button-link" href="{first.page}">'
            f"Start with chapter {number(1)}: {first.title}</a>"
        ),
        "old-links": (
            "<script src=\"app/pages/old-links.js\" data-pages='"
            + json.dumps(old_targets, separators=(",", ":"))
            + "'></script>"
        ),
    }
    page = CHAPTER.sub(chapter_card, page)
    return COURSE_FIELD.sub(lambda m: fields[m.group(1)], page)


TEST_ITEM = re.compile(r"<fieldset\b[^>]*\bdata-test\b")  # a question of the tests
REMEMBER = "remember"
REMEMBER_LINE = re.compile(r"^( *)<li( data-sections=\"([\w -]*)\")?>.*?</li>\n", flags=re.S | re.M)
# What a custom lesson adds after the chosen sections, in this order: the questions on them, the
# "Remember this" lines of just those, and the free code cell.
ADDED_BY_ITSELF = ("quiz", REMEMBER, "cell")


def remember_lines(section: Section, names: list[str], every: bool = True) -> Section:
    """The "Remember this" section with the lines of the sections in `names` only. Each line
    (`<li data-sections="NAME …">`) names the sections it sums up; a line without, or naming no
    section of the course, stops the build. With `every`, all lines are kept, but still checked."""
    course = INCLUDE.findall(SKELETON.read_text(encoding="utf-8"))

    def line(match: re.Match) -> str:
        tagged = (match.group(3) or "").split()
        unknown = [name for name in tagged if name not in course]
        if not tagged or unknown:
            said = ", ".join(unknown)
            problem = f"names {said}, not a section," if unknown else "names no section,"
            raise BuildError(
                f"lesson/{REMEMBER}.html: a line {problem} but each must name the sections it "
                f'sums up, <li data-sections="NAME …">: {match.group(0).strip()[:70]}…'
            )
        return match.group(0) if every or set(tagged) & set(names) else ""

    kept = REMEMBER_LINE.sub(line, section.html)
    return Section(**{**section.__dict__, "html": kept, "source_html": kept})


def absent_reference(target: str, word: str) -> str:
    """A cross-reference to a section a custom lesson leaves out: plain text, numbered as in the
    full course, which says so."""
    course = INCLUDE.findall(SKELETON.read_text(encoding="utf-8"))
    if target not in course:
        raise BuildError(f"a cross-reference points at #{target}, which is no lesson section")
    step = course.index(target) + 1
    return f'<span class="section-ref-absent">{word} {number(step)} of the full course</span>'


def chosen_sections(asked: str) -> list[str]:
    """The sections named in `asked` ("attention,heatmap,rope"), checked, in the course's order:
    a BuildError lists the valid names when one is unknown."""
    course = INCLUDE.findall(SKELETON.read_text(encoding="utf-8"))
    valid = [name for name in course if name not in ADDED_BY_ITSELF]
    names = [name.strip() for name in asked.split(",") if name.strip()]
    unknown = [name for name in names if name not in valid]
    if not names or unknown:
        added = [name for name in unknown if name in ADDED_BY_ITSELF]
        said = (
            f"{', '.join(added)} come{'s' if len(added) == 1 else ''} by itself, last"
            if added
            else f"there is no section {', '.join(unknown)}"
            if unknown
            else "it names no section"
        )
        raise BuildError(
            f"--sections: {said}. Name sections of the lesson, with commas between, from: "
            f"{','.join(valid)} ({', '.join(ADDED_BY_ITSELF)} come by themselves, last)"
        )
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise BuildError(f"--sections names {', '.join(twice)} twice")
    return [name for name in course if name in names]


CUSTOM_PAGE = "custom"  # its page is custom.html


def added_sections(chosen: list[str]) -> list[str]:
    """What a lesson of the sections `chosen` adds by itself, of ADDED_BY_ITSELF: the quiz (the
    lesson's test) if they have test items, "Remember this" if it has lines on them, and the
    free cell."""
    remember = read_section(REMEMBER, 0).html
    lines = [set(tags.split()) for tags in re.findall(r'<li data-sections="([\w -]*)">', remember)]
    wanted = {
        "quiz": any(
            TEST_ITEM.search(question)
            for name in chosen
            for question in read_section(name, 0).questions
        ),
        REMEMBER: any(tags & set(chosen) for tags in lines),
    }
    return [name for name in ADDED_BY_ITSELF if wanted.get(name, True)]


def custom_skeleton(chosen: list[str]) -> str:
    """index.html with one chapter in place of the course's: the sections `chosen`, then what a
    custom lesson adds by itself (ADDED_BY_ITSELF)."""
    skeleton = SKELETON.read_text(encoding="utf-8")
    titles = section_titles()
    listed = [titles[name] for name in chosen]
    summary = (
        f"{len(chosen)} section{'s' if len(chosen) > 1 else ''} of Positional Encoding Lab: "
        + (", ".join(listed[:-1]) + " and " + listed[-1] if len(listed) > 1 else listed[0])
        + "."
    )
    first = CHAPTER.search(skeleton)
    indent = first.group(1)
    lines = "".join(
        f"{indent}  <!-- lesson: {name} -->\n" for name in [*chosen, *added_sections(chosen)]
    )
    chapter = (
        f'{indent}<li class="chapter" data-chapter="{CUSTOM_PAGE}">\n'
        f"{indent}  <h3>Selected sections</h3>\n"
        f"{indent}  <p>{html.escape(summary)}</p>\n{lines}{indent}</li>\n"
    )
    chapters = list(CHAPTER.finditer(skeleton))
    return skeleton[: chapters[0].start()] + chapter + skeleton[chapters[-1].end() :]


def assemble_custom(chosen: list[str]) -> tuple[str, str]:
    """A lesson of just the sections `chosen` (chosen_sections): its page's title as plain text,
    and the page, custom.html. It is a chapter page like the course's, but numbered from 1, its
    map listing only its own sections and linking to no other page."""
    pages = assemble(custom_skeleton(chosen), custom=True)
    page = pages[f"{CUSTOM_PAGE}.html"]
    page = page.replace(
        f"· Chapter {number(1)} of {number(1)}</p>", "· A lesson of selected sections</p>", 1
    )
    page = re.sub(
        r'<p class="map-course"><a href="index.html">The course</a>, about '
        r'(<span class="number">\d+</span>) minutes</p>',
        r'<p class="map-course">This lesson, about \1 minutes</p>',
        page,
        count=1,
    )
    page = page.replace(
        '<a href="index.html">Back to the course overview</a>',
        '<a href="index.html">The whole course these sections come from</a>',
        1,
    )
    return "Selected sections", page


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


def page_of_sections() -> dict[str, str]:
    """Which page holds each section, in the course's order."""
    chapters = read_chapters(SKELETON.read_text(encoding="utf-8"))
    return {name: chapter.page for chapter in chapters for name in chapter.sections}


def lesson_sources() -> list[Path]:
    """The files the course is assembled from (the teacher's kit's among lesson/pages/): what a
    rebuild watches."""
    return [SKELETON, *sorted((SOURCES / "pages").glob("*.html")), *sorted(SOURCES.glob("*.html"))]
