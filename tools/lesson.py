"""The course's pages, written from the course model (tools/course.py reads index.html, the
skeleton, and lesson/NAME.html, one source per section): the entrance, index.html, and a page per
chapter from lesson/pages/chapter.html.

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

Each number the build works out enters a sentence through `number()`, which the catalogs keep
whole as a placeholder. tools/custom_lesson.py makes a lesson of chosen sections with the same
assembly."""

from __future__ import annotations

import html
import json
import math
import re
from dataclasses import dataclass

from tools.computed import BENCH_FIGURES
from tools.course import (
    CHAPTER,
    INCLUDE,
    LESSON_TEST,
    REFERENCE,
    REMEMBER,
    REMEMBER_LINE,
    SKELETON,
    SOURCES,
    Chapter,
    Course,
    course_names,
    lesson_sources,
    plain,
    read_chapters,
    read_course,
    read_skeleton,
    slider_value,
    template_keys,
    template_legends,
)
from tools.course import Question as SourceQuestion
from tools.course import Section as SourceSection
from tools.course import read_section as read_section_source
from tools.project import BuildError
from tools.sealed_keys import seal

# Read by others from here as before; the course model owns them (tools/course.py).
__all__ = [
    "INCLUDE", "LESSON_TEST", "REFERENCE", "SKELETON", "SOURCES", "Chapter",
    "lesson_sources", "plain", "read_chapters", "slider_value",
]

CHAPTER_TEMPLATE = SOURCES / "pages" / "chapter.html"
ENTRANCE = "index.html"

# How long a section takes on the core path (docs/course.md says why these numbers): its words at
# READING_WPM, each control's time to try (CONTROL_MINUTES: a slider, a toggle, a text box, a
# code cell), each experiment's run time as the bench measured it (EXPERIMENT_BENCH) plus
# RESULT_MINUTES to read what it gives, QUESTION_MINUTES a question (a prediction included) and
# EXERCISE_MINUTES an exercise to write and check. The folds (FOLDS: "Going deeper", "Show the
# Python") are off the core path: neither their words nor their controls count.
READING_WPM = 150
CONTROL_MINUTES = {"slider": 1.0, "toggle": 0.5, "text": 1.5, "cell": 2.0}
RESULT_MINUTES = 2
QUESTION_MINUTES = 1
EXERCISE_MINUTES = 6
# A chapter's core path stays within this (tests/build/test_lesson_sources.py holds it).
CHAPTER_LIMIT_MINUTES = 45
FOLDS = re.compile(r'<details class="(?:deeper|show-python)\b.*?</details>', flags=re.S)
EXERCISE = '<div class="exercise"'
DIV = re.compile(r"<div\b|</div>")
# The bench's figures (bench/training-results.json, `python3 build.py bench --only training`, on
# 2 cores), committed and read at build time, never measured here.
# Each section's experiment (its "training-buttons"), by the bench figure that times its default
# run from the click, its Python's boot included. The stretching experiment is not benched: it
# trains 3 models of 250 steps, fewer steps than the extrapolation experiment's Quick setting
# (12 models of 120 steps), whose figure it is counted at, an overestimate.
EXPERIMENT_BENCH = {
    "training": "train_ms",
    "extrapolation": "experiment_default_ms",
    "stretching": "experiment_quick_ms",
}

CONTENTS = re.compile(r"^( *)<!-- lesson-contents -->\n", flags=re.M)
QUIZ_SLOT = re.compile(r"^ *<!-- lesson-quiz-questions -->\n", flags=re.M)
TITLE = re.compile(r'(<h2 id="([\w-]+)-title">)(.*?)</h2>', flags=re.S)
EXPLAIN = re.compile(r'<p class="quiz-explain" hidden>(.*)</p>(\s*</fieldset>)', flags=re.S)
KEY_ATTRIBUTES = re.compile(r' (?:data-correct(?![\w-])|data-(?:why|answer|tolerance)="[^"]*")')
# A picture drawn at build time that the page shows first (the heatmap's): preloaded in the head.
HIGH_PRIORITY_IMAGE = re.compile(r'<img [^>]*?src="([^"]+)"[^>]*? fetchpriority="high"')
# Where a demo's first result is served: the build writes it, the chapter page preloads it.
FIRST_RESULT = "py/first-results/{name}.json"
SLIDER = re.compile(r"^( *)<lesson-slider ([^>]*)>(.*?)</lesson-slider>\n", flags=re.M)
ATTRIBUTE = re.compile(r'([\w-]+)="([^"]*)"')
CHAPTER_FIELD = re.compile(r"<!-- chapter: ([\w-]+) -->")
COURSE_FIELD = re.compile(r"<!-- course: ([\w-]+) -->")
LOCAL_LINK = re.compile(r'href="#([\w-]+)"')
OLD_ANCHOR = re.compile(r'<span id="([\w-]+)" class="old-anchor">')


@dataclass
class Question:
    """A quiz question as the pages show it: no key, no explanation, not yet numbered."""

    section: str
    name: str  # its inputs' shared name: the key's name in quiz-keys.json and in saved answers
    kind: str  # "choice", "truefalse" or "numeric"
    test: bool  # an end-test item (data-test), else its section's check
    refers: str  # the id in its section it tests: its feedback links back there
    html: str  # as the page shows it: no key, no explanation, not numbered
    keys: dict  # its entries of quiz-keys.json by id (a template's: one per variant), the
    #             explanations still unlinked
    item: str = ""  # the test item it is a version of ("" for a section's check)
    graded_version: bool = False  # a graded version of a test item, shown in graded tests only
    placement: str = ""  # "before-try": a prediction, asked before its section's "Try this"


@dataclass
class Section:
    """A section as its chapter's page shows it, numbered."""

    name: str
    step: int
    title: str  # the <h2>'s inner HTML, without the step number
    html: str  # the section as the page shows it
    questions: list[SourceQuestion]
    source_html: str = ""  # the section as its source has it (what its minutes are counted on)
    quiz_questions: int = 0  # how many questions it shows: its check and test items, or the quiz's
    first_call: bool = False  # a live demo whose first result the build computes


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


def placed(course: Course, name: str, step: int) -> Section:
    """Section `name` of `course` at step `step`: its number in its title, its sliders written
    out."""
    return numbered_section(course.sections[name], step)


def numbered_section(section: SourceSection, step: int) -> Section:
    """A section as its page shows it at step `step`."""
    title = TITLE.search(section.source)
    body = section.source.replace(
        title.group(0), f'{title.group(1)}<span class="step">{step}</span> {title.group(3)}</h2>', 1
    )
    return Section(
        section.name,
        step,
        section.title,
        expand_sliders(body, section.path),
        section.questions,
        section.source,
        first_call=section.first_call is not None,
    )


def read_section(name: str, step: int) -> Section:
    """Section `name` as its page shows it at step `step` (its source read by tools/course.py)."""
    return numbered_section(read_section_source(name), step)


def shown_question(question: SourceQuestion) -> Question:
    """A question split into what the page shows and its key (quiz-keys.json). A test item's
    fieldset names its item and version (`data-item`, `data-version`); a graded version is
    hidden and disabled until a graded test draws it (app/quiz/versions.js), and a template
    carries what its legend shows in each variant (`data-variants`), not their answers."""
    shown = KEY_ATTRIBUTES.sub("", question.source)
    shown = re.sub(
        r" data-(?:test|version-of|version|placement)(?![\w-])(=\"[^\"]*\")?", "", shown
    )
    shown = EXPLAIN.sub(lambda m: f'<p class="quiz-explain" hidden></p>{m.group(2)}', shown)
    if question.test or question.version_of:
        marks = f' data-item="{question.item}" data-version="{question.version}"'
        if question.version_of:
            marks += " hidden disabled"
        if question.template:
            variants = json.dumps(template_legends(question), ensure_ascii=False)
            marks += f" data-variants='{html.escape(variants, quote=False)}'"
        shown = re.sub(r'^( *<fieldset class="quiz-question")', rf"\1{marks}", shown, count=1)
    if question.template:
        keys = template_keys(question)
    else:
        keys = {question.name: question.key}
    return Question(
        question.section,
        question.name,
        question.kind,
        question.test,
        question.anchor,
        shown,
        keys,
        question.item,
        bool(question.version_of),
        question.placement,
    )


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


def prediction_block(section: Section, items: list[str]) -> str:
    """A section's prediction check (data-placement="before-try"): asked inside the section,
    right before its "Try this" line, answered like any check."""
    return (
        f'<aside class="quiz-check quiz-predict" data-section="{section.name}" '
        f'aria-labelledby="{section.name}-predict-title">\n'
        f'<h3 id="{section.name}-predict-title">Predict first: {section.title}</h3>\n'
        '<form class="quiz" data-quiz="check" novalidate>\n' + "".join(items) + "</form>\n"
        "</aside>\n"
    )


def before_try(section: Section, block: str) -> str:
    """`section`'s HTML with `block` right before its "Try this" line (tools/section_source.py
    made sure it has exactly one)."""
    start = re.search(r'^ *<p class="try">', section.html, flags=re.M).start()
    return section.html[:start] + block + section.html[start:]


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


def bench_figures() -> dict:
    """The bench's committed figures (BENCH_FIGURES), by name."""
    return json.loads(BENCH_FIGURES.read_text(encoding="utf-8"))


def core_path(source_html: str) -> str:
    """A section's source without its folds (FOLDS) and its exercises, whose task, cell, hints
    and solution EXERCISE_MINUTES covers."""
    text = FOLDS.sub(" ", source_html)
    while (start := text.find(EXERCISE)) >= 0:
        depth = 0
        for tag in DIV.finditer(text, start):
            depth += 1 if tag.group(0) == "<div" else -1
            if depth == 0:
                text = text[:start] + " " + text[tag.end():]
                break
        else:
            raise BuildError("a section's exercise <div> is not closed")
    return text


def section_controls(source_html: str) -> dict[str, int]:
    """How many controls of each kind (CONTROL_MINUTES) a section's core path has to try: a
    slider; a toggle (a checkbox, a group of radio buttons, a button other than an experiment's);
    a text box; a code cell. Its questions, its folds, its experiments' buttons and the take-home
    notebook's download box are none. A group of radio buttons named "…-prediction" is a
    question (a prediction), not a control."""
    body = core_path(source_html)
    body = re.sub(r'<fieldset class="quiz-question".*?</fieldset>', " ", body, flags=re.S)
    body = re.sub(r'<div class="(?:take-home|training-buttons)\b.*?</div>', " ", body, flags=re.S)
    radios = set(re.findall(r'<input\b[^>]*\btype="radio"[^>]*\bname="([^"]+)"', body))
    radios |= set(re.findall(r'<input\b[^>]*\bname="([^"]+)"[^>]*\btype="radio"', body))
    return {
        "slider": len(re.findall(r"<lesson-slider\b|<input\b[^>]*\btype=\"range\"", body)),
        "toggle": len(re.findall(r'<input\b[^>]*\btype="checkbox"', body))
        + len(re.findall(r"<button\b", body))
        + len(re.findall(r"<select\b", body))
        + len({name for name in radios if not name.endswith("prediction")}),
        "text": len(re.findall(r'<input\b[^>]*\btype="(?:text|number)"', body))
        + len(re.findall(r"<textarea\b", body)),
        "cell": len(re.findall(r'<div class="cell"', body)),
    }


def section_minutes(section: Section, bench: dict | None = None) -> int:
    """How long a learner needs for a section's core path, as the course shows it
    (docs/course.md): its prose at READING_WPM words a minute (not its code, not its folds), each
    control's time to try (CONTROL_MINUTES), each experiment's run time as the bench measured it
    (`bench`, else BENCH_FIGURES) and RESULT_MINUTES to read its result, its exercises and a
    minute a question (a prediction included); rounded up to a whole minute."""
    core = core_path(section.source_html)
    prose = re.sub(r"<(textarea|script|pre)\b.*?</\1>", " ", core, flags=re.S)
    words = len(html.unescape(re.sub(r"<[^>]*>", " ", prose)).split())
    minutes = words / READING_WPM
    for kind, count in section_controls(section.source_html).items():
        minutes += CONTROL_MINUTES[kind] * count
    runs = core.count('class="training-buttons"')
    if runs:
        if section.name not in EXPERIMENT_BENCH:
            raise BuildError(
                f"lesson/{section.name}.html runs an experiment that tools/lesson.py's "
                "EXPERIMENT_BENCH does not time: name the bench figure of its run there"
            )
        figures = bench_figures() if bench is None else bench
        minutes += runs * (figures[EXPERIMENT_BENCH[section.name]] / 60000 + RESULT_MINUTES)
    predictions = set(re.findall(r'name="([\w-]*prediction)"', core))
    minutes += EXERCISE_MINUTES * section.source_html.count(EXERCISE)
    minutes += QUESTION_MINUTES * (section.quiz_questions + len(predictions))
    return math.ceil(minutes)


def course_minutes(course: Course, custom: bool = False) -> dict[str, int]:
    """How long each section of `course` takes (section_minutes), in order: the quiz section
    counts the whole-lesson test's questions, every other its own."""
    tests = sum(question.test for question in course.questions)
    minutes = {}
    for step, name in enumerate(course.names, start=1):
        section = placed(course, name, step)
        if name == REMEMBER:
            section = remember_lines(section, course.names, every=not custom)
        # a graded version replaces its item in a graded test: no question more to answer
        own = sum(not q.version_of for q in course.sections[name].questions)
        section.quiz_questions = tests if QUIZ_SLOT.search(section.html) else own
        minutes[name] = section_minutes(section)
    return minutes


def number(value: int | str) -> str:
    """A number the build works out (a step, a chapter, minutes, a count), as the page shows it
    inside a sentence: in an element of its own, which the catalogs keep whole as a placeholder
    (tools/i18n.py), so that a sentence reads the same to a translator whatever the number is,
    and moving or adding a section changes no translation."""
    return f'<span class="number">{value}</span>'


def assemble_with_keys(
    skeleton: str | None = None, custom: bool = False
) -> tuple[dict[str, str], dict[str, dict]]:
    """Every page of the course by file name (`assemble`), and every question's key by its
    name (quiz-keys.json). `custom`: the skeleton names only some sections (custom_skeleton);
    the rest are absent, not forgotten, and its one chapter's test is the quiz section's."""
    page = read_skeleton() if skeleton is None else skeleton
    course = read_course(skeleton, custom)
    chapters, names = course.chapters, course.names
    sections = {name: placed(course, name, step) for step, name in enumerate(names, start=1)}
    if REMEMBER in sections:  # its lines, each tagged with the sections it sums up
        sections[REMEMBER] = remember_lines(sections[REMEMBER], names, every=not custom)
    page_of = course.page_of
    # Every id a section holds is on its chapter's page: a link to it from elsewhere names that
    # page, and an old link index.html#ID is sent there (app/pages/old-links.js).
    id_page = {
        ident: page_of[name]
        for name, section in sections.items()
        for ident in re.findall(r'\bid="([\w-]+)"', section.html)
    }
    questions = [shown_question(q) for q in course.questions]
    tests = [q for q in questions if q.test]
    versions = {q.item: [] for q in tests}
    for q in questions:
        if q.graded_version:
            versions[q.item].append(q)

    def test_items(items: list[Question]) -> list[str]:
        """Each item numbered, then its graded versions, numbered the same."""
        return [
            number_question(shown, n)
            for n, q in enumerate(items, 1)
            for shown in (q, *versions[q.item])
        ]

    for section in sections.values():
        checks = [
            q for q in questions
            if q.section == section.name and not q.test and not q.graded_version
        ]
        predictions = [q for q in checks if q.placement == "before-try"]
        checks = [q for q in checks if q.placement != "before-try"]
        if predictions:
            section.html = before_try(
                section,
                prediction_block(
                    section, [number_question(q, n) for n, q in enumerate(predictions, 1)]
                ),
            )
        if checks:
            section.html += check_block(
                section, [number_question(q, n) for n, q in enumerate(checks, 1)]
            )
    whole = test_items(tests)
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
            slots += 1
    minutes = course_minutes(course, custom)
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
                chapter, test_items([q for q in tests if q.section in chapter.sections])
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

    keys = {
        name: {**key, "explain": anywhere(key["explain"])}
        for q in questions
        for name, key in q.keys.items()
    }
    return pages, keys


def assemble(skeleton: str | None = None, custom: bool = False) -> dict[str, str]:
    """Every page of the course by file name: the entrance (index.html) and one page per
    chapter, with the sections' steps, the map, the cross-references, the checks and tests."""
    return assemble_with_keys(skeleton, custom)[0]


def quiz_keys_json(keys: dict[str, dict]) -> str:
    """dist/app/quiz-keys.json: every question's key by its id (app/quiz/keys.js reads it),
    sealed so that it shows no answer at a glance (tools/sealed_keys.py)."""
    return json.dumps(seal(keys)) + "\n"


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


def remember_lines(section: Section, names: list[str], every: bool = True) -> Section:
    """The "Remember this" section with the lines of the sections in `names` only (each line,
    `<li data-sections="NAME …">`, names the sections it sums up: tools/course.py checks them).
    With `every`, all lines are kept."""

    def line(match: re.Match) -> str:
        tagged = (match.group(3) or "").split()
        return match.group(0) if every or set(tagged) & set(names) else ""

    kept = REMEMBER_LINE.sub(line, section.html)
    return Section(**{**section.__dict__, "html": kept, "source_html": kept})


def absent_reference(target: str, word: str) -> str:
    """A cross-reference to a section a custom lesson leaves out: plain text, numbered as in the
    full course, which says so."""
    course = course_names()
    if target not in course:
        raise BuildError(f"a cross-reference points at #{target}, which is no lesson section")
    step = course.index(target) + 1
    return f'<span class="section-ref-absent">{word} {number(step)} of the full course</span>'


def section_titles() -> dict[str, str]:
    """Every section's name and its title as plain text, in the page's order."""
    return read_course().titles


def demo_sections() -> list[str]:
    """The sections that are demos (`class="demo"`: embeddable by name), in the page's order."""
    return read_course().demos


def page_of_sections() -> dict[str, str]:
    """Which page holds each section, in the course's order."""
    return read_course().page_of
