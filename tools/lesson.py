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
import re
from dataclasses import dataclass

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
    plain,
    read_chapters,
    read_course,
    read_skeleton,
    slider_value,
)
from tools.course import Question as SourceQuestion
from tools.course import Section as SourceSection
from tools.course import read_section as read_section_source
from tools.minutes import exercise_minutes, section_minutes
from tools.project import BuildError
from tools.quiz_forms import (
    Question,
    chapter_test,
    number_question,
    shown_question,
    test_form,
)

# Read by others from here as before; the course model owns them (tools/course.py).
__all__ = [
    "INCLUDE", "LESSON_TEST", "REFERENCE", "SKELETON", "SOURCES", "Chapter",
    "plain", "read_chapters", "slider_value",
]

CHAPTER_TEMPLATE = SOURCES / "pages" / "chapter.html"
ENTRANCE = "index.html"


CONTENTS = re.compile(r"^( *)<!-- lesson-contents -->\n", flags=re.M)
QUIZ_SLOT = re.compile(r"^ *<!-- lesson-quiz-questions -->\n", flags=re.M)
TITLE = re.compile(r'(<h2 id="([\w-]+)-title">)(.*?)</h2>', flags=re.S)
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
EXERCISE_ID = re.compile(r'<div class="exercise" id="(exercise-[\w-]+)">')


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
    exercises = {s: exercise_minutes(course.sections[s].source) for s in names}

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

    pages = {ENTRANCE: linked(entrance(page, chapters, sections, minutes, exercises), ENTRANCE)}
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
            "exercise-minutes": plus_exercises(sum(exercises[s] for s in chapter.sections)),
            "first-section": chapter.sections[0],
            "old-links": old_links(link_targets(chapters, sections, leaving=chapter.page)),
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


def plus_exercises(minutes: int) -> str:
    """What a chapter's minutes say of its exercises', which they do not count: "" for none."""
    return f", plus {number(minutes)} for its exercises" if minutes else ""


def entrance(page: str, chapters, sections, minutes, exercises) -> str:
    """index.html as a browser gets it: each chapter with its page, minutes (its exercises'
    apart) and sections; the start link; the total; and the old links' map."""

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
            + (
                f'{indent}  <p class="exercise-minutes">Its exercises take about '
                f"{number(extra)} minutes more.</p>\n"
                if (extra := sum(exercises[s] for s in chapter.sections))
                else ""
            )
            + f'{indent}  <ol class="chapter-sections">\n{items}{indent}  </ol>\n'
            f"{indent}</li>\n"
        )

    total = sum(minutes.values())
    first = chapters[0]
    fields = {
        "total": (
            f"{number(len(chapters))} chapters, about {number(total // 60)} h "
            f"{number(f'{total % 60:02d}')} min in all"
            + (f", and {number(sum(exercises.values()))} min more for the exercises"
               if sum(exercises.values()) else "")
            + ": an estimate from the length of the text and the number of things to try. "
            "Take them in order, at your own pace; your place is kept in this browser."
        ),
        "start": (
            f'<a class="start-link button-link" href="{first.page}">'
            f"Start with chapter {number(1)}: {first.title}</a>"
        ),
        "old-links": old_links(link_targets(chapters, sections)),
    }
    page = CHAPTER.sub(chapter_card, page)
    return COURSE_FIELD.sub(lambda m: fields[m.group(1)], page)


def link_targets(chapters, sections, leaving: str | None = None) -> dict[str, list[str]]:
    """What an old link PAGE#ID may name, by the page that holds it now: a section, an anchor it
    kept from before, or an exercise (once on the review page, now in the section it
    practises). app/pages/old-links.js sends such a link there; `leaving` is the page it runs
    on, left out so that a page never sends a link to itself."""
    return {
        chapter.page: [
            ident
            for name in chapter.sections
            for ident in [
                name,
                *OLD_ANCHOR.findall(sections[name].html),
                *EXERCISE_ID.findall(sections[name].html),
            ]
        ]
        for chapter in chapters
        if chapter.page != leaving
    }


def old_links(targets: dict[str, list[str]]) -> str:
    """The script that sends an old link on to the page that now holds its id."""
    return (
        "<script src=\"app/pages/old-links.js\" data-pages='"
        + json.dumps(targets, separators=(",", ":"))
        + "'></script>"
    )


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
