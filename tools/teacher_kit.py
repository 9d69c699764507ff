"""The teacher's kit: teaching.html, the instructor notes, answer-key.html, the answer key, and
report.html, the class report, all written by the build beside the course's pages so that they
cannot drift from it. Everything about the course comes from the course model (tools/course.py):

- the chapters, their sections and steps, and each section's minutes as the course map counts
  them (tools/lesson.py, course_minutes);
- the prerequisites: the entrance's "Before you start" paragraph (index.html owns them);
- the misconceptions: the sections' exam traps (`<aside class="trap">` in lesson/NAME.html);
- the answer key: each question's place, its interaction id and version
  (Question.interaction_id) and each option's code as the LMS records it
  (Question.response_code). Not its key: the page holds none, and app/pages/answer-key.js fills
  in the answers, explanations and each wrong option's "why" from app/quiz/keys.js's loadKeys()
  when the teacher presses "Show the answers".

The learning goals and discussion prompts, which no other file holds, are
lesson/pages/teaching-notes.html, one block per chapter; the page around them is
lesson/pages/teaching.html, the class report's lesson/pages/report.html (its code
app/pages/report.js and app/report/), and the pages' frame (head, footer) lesson/pages/kit.html.

And scorm/packages.json, the list of the SCORM packages `build.py packages` wrote (each zip's
file name, its manifest's title and its size), which the guide's download links are made from
(app/pages/package-downloads.js): written after the packages, since the full ones hold the
guide, so no package holds the list. The site alone (`build.py build`) lists none.

The answer key is a public page on a hosted site (a static site cannot hide a file); no
learner's page links to it, and `build.py build --no-answer-key` leaves it out.
"""

from __future__ import annotations

import html
import json
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path

from tools.course import (
    PARAM,
    SOURCES,
    Question,
    plain,
    read_course,
    template_legends,
    variant_id,
)
from tools.course import Section as SourceSection
from tools.lesson import QUIZ_SLOT, course_minutes, number
from tools.project import BuildError

TEACHING = "teaching.html"
ANSWER_KEY = "answer-key.html"
REPORT = "report.html"  # the class report: an LMS's export of the answers, read in the browser
KIT_FRAME = SOURCES / "pages" / "kit.html"  # the head and footer of the kit's pages
REPORT_TEMPLATE = SOURCES / "pages" / "report.html"  # report.html's body
TEACHING_TEMPLATE = SOURCES / "pages" / "teaching.html"  # teaching.html's body
TEACHING_NOTES = SOURCES / "pages" / "teaching-notes.html"

PACKAGE_LIST = "packages.json"  # in dist/scorm/
MANIFEST_TITLE = re.compile(r"<organization\b[^>]*>\s*<title>(.*?)</title>", flags=re.S)
KIT_FIELD = re.compile(r"<!-- kit: ([\w-]+) -->")
NOTES = re.compile(
    r'<div class="chapter-notes" data-chapter="([\w-]+)">(.*?)</div>', flags=re.S
)
NOTES_LIST = r'<ul class="{}">(.*?)</ul>'
SECTION_REF = re.compile(r'<a href="#([\w-]+)" class="section-ref">([Ss]ections?)</a>')
ANY_LINK = re.compile(r"<a\b[^>]*>(.*?)</a>", flags=re.S)


@dataclass
class MapSection:
    name: str
    step: int
    title: str  # inner HTML, as the map shows it
    minutes: int
    source: SourceSection | None = None  # as tools/course.py reads it: questions, traps

    @property
    def questions(self) -> list[Question]:
        return self.source.questions if self.source else []


@dataclass
class MapChapter:
    name: str
    page: str
    title: str
    minutes: int
    sections: list[MapSection]


def course_of() -> list[MapChapter]:
    """The chapters, sections, steps and minutes of the course, from the course model
    (tools/course.py), timed as the course map times them (tools/lesson.py)."""
    course = read_course()
    minutes = course_minutes(course)
    return [
        MapChapter(
            chapter.name,
            chapter.page,
            chapter.title,
            sum(minutes[name] for name in chapter.sections),
            [
                MapSection(
                    name, course.step(name), course.sections[name].title, minutes[name],
                    course.sections[name],
                )
                for name in chapter.sections
            ],
        )
        for chapter in course.chapters
    ]


def _unlinked(inner: str, steps: dict[str, int], pages: dict[str, str]) -> str:
    """Source HTML for a kit page: a cross-reference gets its section's number and a link to
    the chapter page holding it (plain text if the build left that section out), and any
    other in-page link becomes its text."""

    def reference(match: re.Match) -> str:
        target, word = match.groups()
        if target not in steps:
            return word
        return f'<a href="{pages[target]}#{target}">{word} {number(steps[target])}</a>'

    def other(match: re.Match) -> str:
        link = match.group(0)
        if 'class="section-ref"' in link or re.match(r'<a href="https?://', link):
            return link
        return match.group(1)

    return SECTION_REF.sub(reference, ANY_LINK.sub(other, inner))


def _page(title: str, body: str, scripts: str = "") -> str:
    """A kit page in lesson/pages/kit.html's frame; `scripts`, its module script (a path under
    app/pages/, bundled by tools/bundles.py), if it has one."""
    frame = KIT_FRAME.read_text(encoding="utf-8")
    for name in ("title", "body", "scripts"):
        if frame.count(f"<!-- kit: {name} -->") != 1:
            raise BuildError(f"lesson/pages/{KIT_FRAME.name} needs <!-- kit: {name} --> once")
    script = f'<script type="module" src="{scripts}"></script>' if scripts else ""
    return (
        frame.replace("<!-- kit: title -->", title)
        .replace("<!-- kit: body -->", body)
        .replace("<!-- kit: scripts -->", script)
    )


def answer_key(chapters: list[MapChapter]) -> str:
    """answer-key.html: every question of the built course, chapter by chapter, with its answer,
    the reason for it, and why each wrong option is wrong."""
    steps = {s.name: s.step for c in chapters for s in c.sections}
    where = {s.name: c.page for c in chapters for s in c.sections}
    lines = []
    count = in_lesson_test = 0
    for chapter_number, chapter in enumerate(chapters, start=1):
        items = []
        in_chapter_test = 0
        for section in chapter.sections:
            in_check = 0
            for question in section.questions:
                count += 1
                # its number where the learner meets it, as tools/lesson.py numbers each block
                if question.version_of:
                    role = (
                        "a graded version of the test item before it: a graded test shows it, "
                        "or another version, in that item’s place"
                    )
                elif question.test:
                    in_chapter_test += 1
                    in_lesson_test += 1
                    role = (
                        f"end test of chapter {number(chapter_number)}, question "
                        f"{number(in_chapter_test)}; whole-lesson test, question "
                        f"{number(in_lesson_test)}"
                    )
                else:
                    in_check += 1
                    role = (
                        f"check after section {number(section.step)}, question "
                        f"{number(in_check)}"
                    )
                items.append(_key_item(count, question, section, chapter, steps, where, role))
        if items:
            lines.append(
                f'<section class="key-chapter" aria-labelledby="key-{chapter.name}">'
                f'<h2 id="key-{chapter.name}">Chapter {number(chapter_number)}: '
                f"{chapter.title}</h2>"
                f'<ol class="answer-key">{"".join(items)}</ol></section>'
            )
    if not count:
        lines.append("<p>This build of the course has no questions.</p>")
    lines.append(exercise_key(chapters, steps, where))
    return "\n".join(lines)


def exercise_key(chapters: list[MapChapter], steps: dict[str, int], where: dict[str, str]) -> str:
    """The exercises of the built course, each with its worked solution as the lesson has it
    (tools/course.py; pelab.check_exercise tests a learner's code against the same facts)."""
    shown = [e for c in chapters for s in c.sections if s.source for e in s.source.exercises]
    if not shown:
        return ""
    items = "".join(
        f'<li class="key-item" data-exercise="{exercise.name}">'
        f'<p class="key-question">{exercise.title}</p>'
        f'<p class="key-facts"><a href="{where[exercise.section]}#exercise-{exercise.name}">'
        f"section {number(steps[exercise.section])}</a>; its Check runs "
        f'<code>pelab.check_exercise("{exercise.name}", globals())</code></p>'
        # A named region: the box scrolls sideways, so it takes the keyboard's focus (as
        # app/figures/scroll-region.js makes a wide table's box), and a <pre> may carry a name
        # only with such a role.
        '<pre class="snippet" tabindex="0" role="region" aria-label="Worked solution. '
        f'{plain(exercise.title)}"><code>{html.escape(exercise.solution)}</code></pre>'
        "</li>"
        for exercise in shown
    )
    return (
        '<section class="key-chapter" aria-labelledby="key-exercises">'
        '<h2 id="key-exercises">The exercises, with their worked solutions</h2>'
        f'<ul class="answer-key exercise-key">{items}</ul></section>'
    )


def _key_item(position, question, section, chapter, steps, where, role) -> str:
    """One question of the key, without its key: its words, where the learner meets it, its
    interaction id and version, and each option with the code an LMS records for it. Its answer,
    explanation and each wrong option's "why" are empty boxes that app/pages/answer-key.js fills
    from loadKeys() when the teacher asks (no served file holds a key readable at a glance)."""

    def text(inner: str) -> str:
        return _unlinked(inner, steps, where)

    kind = {"choice": "multiple choice", "truefalse": "true or false", "numeric": "a number"}.get(
        question.kind, question.kind
    )
    facts = [
        f'<a href="{chapter.page}#{section.name}">section {number(section.step)}, '
        f"{section.title}</a>",
        role,
        kind,
    ]
    if question.refers:
        facts.append(f'tests <a href="{chapter.page}#{question.refers}">this paragraph</a>')
    if question.setup:
        facts.append(
            f"set the demo of section {number(steps.get(question.setup, question.setup))} first"
        )
    ident = question.interaction_id
    legend = question.legend
    variants = ""
    if question.template:  # its numbers drawn per attempt: each variant under its own id
        legend = PARAM.sub(lambda m: f'<var class="key-param">{m.group(1)}</var>', legend)
        table = template_legends(question)
        params = list(table[0])
        head = "".join(f"<th scope=\"col\"><var>{p}</var></th>" for p in params)
        rows = "".join(
            f'<tr data-interaction="{variant_id(question, k)}"><th scope="row">'
            f"<code>{variant_id(question, k)}</code></th>"
            + "".join(f"<td>{html.escape(shown[p])}</td>" for p in params)
            + '<td class="key-variant-answer"></td></tr>'
            for k, shown in enumerate(table, start=1)
        )
        variants = (
            '<div class="table-scroll"><table class="key-variants"><caption>Its numbers in each '
            "variant, and the answer</caption>"
            f'<thead><tr><th scope="col">Interaction id</th>{head}<th scope="col">Answer</th>'
            f"</tr></thead><tbody>{rows}</tbody></table></div>"
        )
    if question.kind == "numeric":
        options = (
            '<p class="key-codes">Response: the number as the learner typed it, read with a '
            "decimal point (<code>0.25</code>).</p>"
            '<p class="key-why" hidden></p>'
        )
    else:
        rows = "".join(
            f'<li data-value="{html.escape(o.value)}" data-code="{question.response_code(o)}">'
            f'<code class="key-code">{question.response_code(o)}</code>'
            # blocks of their own, so that an option's words are a message of their own
            f'<p class="key-option">{text(o.html)}</p>'
            '<p class="key-mark" hidden></p><p class="key-why" hidden></p></li>'
            for o in question.options
        )
        options = f'<ul class="key-codes">{rows}</ul>'
    if question.template:
        identity = (
            f'<p class="key-id">Interaction ids <code>{variant_id(question, 1)}</code> to '
            f"<code>{variant_id(question, len(template_legends(question)))}</code>, one per "
            "variant of its numbers</p>"
        )
        marks = f'data-template="{ident}"'
    else:
        identity = (
            f'<p class="key-id">Interaction id <code>{ident}</code>, version '
            f"<code>{question.version}</code></p>"
        )
        marks = f'data-interaction="{ident}"'
    return (
        f'<li class="key-item" id="item-{ident}" data-number="{position}" '
        f'data-section="{section.name}" {marks} data-kind="{question.kind}">'
        f'<p class="key-question"><span class="key-number">{position}.</span> '
        f"{text(legend)}</p>"
        f'<p class="key-facts">{"; ".join(facts)}</p>'
        f"{identity}"
        f"{variants}"
        f"{options}"
        '<div class="key-reveal" hidden><p class="key-answer"></p>'
        '<div class="key-explain"></div></div></li>'
    )


def teaching_notes(chapters: list[MapChapter], answer_key_built: bool) -> str:
    """teaching.html's body fields: the prerequisites, each chapter's plan (minutes, sections,
    goals, misconceptions, prompts) and where the answer key is."""
    notes_source = TEACHING_NOTES.read_text(encoding="utf-8")
    notes = {name: body for name, body in NOTES.findall(notes_source)}
    course = read_course()
    all_chapters = [chapter.name for chapter in course.chapters]
    unknown = sorted(set(notes) - set(all_chapters))
    if unknown:
        raise BuildError(
            f"lesson/pages/{TEACHING_NOTES.name} has notes for the chapter {unknown[0]}, which "
            f"index.html does not list (its chapters: {', '.join(all_chapters)})"
        )
    steps = {s.name: s.step for c in chapters for s in c.sections}
    where = {s.name: c.page for c in chapters for s in c.sections}
    parts = []
    for place, chapter in enumerate(chapters, start=1):
        if chapter.name not in notes:
            raise BuildError(
                f"lesson/pages/{TEACHING_NOTES.name} has no notes for the chapter "
                f'{chapter.name}: add <div class="chapter-notes" data-chapter="{chapter.name}">'
            )
        lists = {}
        for kind in ("goals", "prompts"):
            found = re.search(NOTES_LIST.format(kind), notes[chapter.name], flags=re.S)
            if not found or "<li>" not in found.group(1):
                raise BuildError(
                    f"lesson/pages/{TEACHING_NOTES.name}: the chapter {chapter.name} needs a "
                    f'<ul class="{kind}"> with at least one item'
                )
            lists[kind] = _unlinked(found.group(1).strip(), steps, where)
        rows = "".join(
            f'<tr data-section="{s.name}"><td>{s.step}</td>'
            f'<td><a href="{chapter.page}#{s.name}">{s.title}</a></td>'
            f'<td class="kit-minutes">{s.minutes}</td></tr>'
            for s in chapter.sections
        )
        traps = []
        for section in chapter.sections:
            for trap in section.source.traps if section.source else []:
                label, body = trap.label, trap.html
                body = " ".join(_unlinked(body, steps, where).split())
                body = re.sub(r"</?p>", " ", body).strip()
                traps.append(
                    f'<li data-section="{section.name}"><strong>{html.escape(label)}</strong> '
                    f"(section {number(section.step)}). {body}</li>"
                )
        misconceptions = (
            f'<ul class="kit-traps">{"".join(traps)}</ul>'
            if traps
            else "<p>This chapter's sections have no exam trap of their own: it reviews "
            "the others'.</p>"
        )
        parts.append(
            f'<section class="kit-chapter" data-chapter="{chapter.name}" '
            f'aria-labelledby="kit-{chapter.name}">'
            f'<h3 id="kit-{chapter.name}">Chapter {number(place)}: '
            f'<a href="{chapter.page}">{chapter.title}</a></h3>'
            f'<p class="kit-chapter-minutes">About <span class="kit-minutes">{chapter.minutes}'
            "</span> minutes, as the course map estimates them.</p>"
            '<div class="table-scroll"><table class="kit-sections">'
            f"<caption>The sections of chapter {number(place)} and their minutes</caption>"
            '<thead><tr><th scope="col">section</th><th scope="col">title</th>'
            '<th scope="col">minutes</th></tr></thead>'
            f"<tbody>{rows}</tbody></table></div>"
            f'<h4>Learning goals</h4><ul class="kit-goals">{lists["goals"]}</ul>'
            f"<h4>Misconceptions: the exam traps</h4>{misconceptions}"
            f'<h4>Discussion prompts</h4><ul class="kit-prompts">{lists["prompts"]}</ul>'
            "</section>"
        )
    if not course.prerequisites:
        raise BuildError(
            'index.html needs its "Before you start" section (aria-labelledby="before-title") '
            "with a <p>: the teacher's kit quotes it as the prerequisites"
        )
    total = sum(c.minutes for c in chapters)
    if answer_key_built:
        key = (
            f'<p>The <a href="{ANSWER_KEY}">answer key</a> lists every question with its '
            "interaction id, its version and the code an LMS records for each option; its "
            "“Show the answers” button adds each answer, the reason for it and why each wrong "
            "option is wrong, read from the site as a quiz reads them after Submit. No page a "
            "learner reads links to it, but on a hosted site anyone who knows its address can "
            "open it: a static site cannot hide a file. The SCORM packages leave it out. To "
            "leave it out of the site, build with "
            f"<code>python3 build.py build --no-answer-key</code>, or delete "
            f"<code>{ANSWER_KEY}</code> from the site.</p>"
        )
    else:
        key = (
            "<p>This site was built without its answer key "
            "(<code>python3 build.py build --no-answer-key</code>). A build without that option "
            f"writes it as <code>{ANSWER_KEY}</code>.</p>"
        )
    return {
        "prerequisites": course.prerequisites,
        "total": f"{number(len(chapters))} chapters, about {number(total)} minutes in all",
        "chapters": "\n".join(parts),
        "answer-key": key,
        "package-items": package_items(chapters),
    }


# A question's invitation to try it in its demo (app/quiz/without-demos.js drops it where the
# demo is not): no part of what the item asks.
TRY_IT = re.compile(r'\s*<span class="quiz-try">.*?</span>', flags=re.S)
PACKAGE_STEM = "positional-encoding-lab"  # tools/scorm.py: NAME (it imports this module's list)


def graded_items(questions: list[Question]) -> list[Question]:
    """The items a graded test asks of `questions`: its test items (data-test) that can be
    answered without Python. One read off a live demo (data-setup) is practice only: the quiz's
    package holds no Python, and a graded attempt skips it wherever it runs."""
    return [q for q in questions if q.test and not q.setup]


def _items_table(items: list[Question], steps: dict[str, int], where: dict[str, str]) -> str:
    rows = "".join(
        f'<tr data-item="{q.name}"><td><code>{q.name}</code></td>'
        f'<td><span class="key-number">{n}.</span> '
        f"{_unlinked(TRY_IT.sub('', q.legend), steps, where)}</td></tr>"
        for n, q in enumerate(items, start=1)
    )
    return (
        '<div class="table-scroll"><table class="kit-items"><thead><tr>'
        '<th scope="col">item</th><th scope="col">question</th></tr></thead>'
        f"<tbody>{rows}</tbody></table></div>"
    )


def package_items(chapters: list[MapChapter]) -> str:
    """teaching.html's list of what each SCORM package grades (tools/scorm.py names and makes
    them): the whole course's and the quiz's, the whole-lesson test; each chapter's, its end
    test, the whole-lesson test on the chapter that holds it, or none. Each item by its name (its
    inputs' `name`, the interaction id an LMS records before any version's dot) and its question
    as the lesson asks it."""
    steps = {s.name: s.step for c in chapters for s in c.sections}
    where = {s.name: c.page for c in chapters for s in c.sections}
    lesson_items = graded_items([q for c in chapters for s in c.sections for q in s.questions])
    sections = [s for c in chapters for s in c.sections if s.source]
    quiz_sections = [s.name for s in sections if QUIZ_SLOT.search(s.source.source)]
    # the whole course's package, and the package of each demo that holds the test (the quiz)
    whole = [f"<code>{PACKAGE_STEM}.zip</code>"] + [
        f"<code>{PACKAGE_STEM}-{s.name}.zip</code>"
        for s in sections
        if s.name in quiz_sections and s.source.demo
    ]
    parts = [
        f'<h4 id="items-lesson">{" and ".join(whole)}</h4>'
        f"<p>The whole-lesson test: {number(len(lesson_items))} items.</p>"
        + _items_table(lesson_items, steps, where)
    ]
    for place, chapter in enumerate(chapters, start=1):
        own = graded_items([q for s in chapter.sections for q in s.questions])
        heading = f"<h4><code>{PACKAGE_STEM}-chapter-{place}-{chapter.name}.zip</code></h4>"
        if any(s.name in quiz_sections for s in chapter.sections) and lesson_items:
            parts.append(f"{heading}<p>The whole-lesson test, as above.</p>")
        elif own:
            parts.append(
                f"{heading}<p>Its chapter’s end test: {number(len(own))} items.</p>"
                + _items_table(own, steps, where)
            )
        else:
            parts.append(
                f"{heading}<p>No test: the LMS records the chapter completed once the learner "
                "reaches its end.</p>"
            )
    return "\n".join(parts)


def kit_pages(with_answer_key: bool = True) -> dict[str, str]:
    """teaching.html, report.html and (unless left out) answer-key.html, from the course
    model."""
    chapters = course_of()
    fields = teaching_notes(chapters, with_answer_key)
    template = TEACHING_TEMPLATE.read_text(encoding="utf-8")
    missing = sorted(set(fields) - set(KIT_FIELD.findall(template)))
    if missing:
        raise BuildError(f"lesson/pages/{TEACHING_TEMPLATE.name} needs <!-- kit: {missing[0]} -->")
    teaching = _page(
        "Teach with Positional Encoding Lab",
        KIT_FIELD.sub(lambda m: fields.get(m.group(1), m.group(0)), template),
    )
    kit = {TEACHING: teaching}
    if with_answer_key:
        kit[ANSWER_KEY] = _page(
            "Answer key",
            '<header class="masthead"><p class="eyebrow"><a href="index.html">Positional '
            'Encoding Lab</a> · <a href="teaching.html">Teach with it</a></p>'
            "<h1>Answer key</h1>"
            '<p class="lede">Every question of the course, in the course’s order: where the '
            "learner meets it, its interaction id and version, and each option with the code "
            "an LMS records for it. The end-test items are what a graded test sends to the "
            "LMS: <code>cmi.interactions.n.id</code> is the interaction id (a numeric item "
            "drawn as variant N adds <code>.vN</code>), and "
            "<code>cmi.interactions.n.student_response</code> the option’s code. For "
            'teachers: no page a learner reads links here. The <a href="report.html">class '
            "report</a> reads these ids and codes from your LMS’s export.</p>"
            '<p class="key-show"><button type="button" class="key-show-button">Show the '
            'answers</button> <span class="key-status" role="status"></span></p>'
            '<p class="note">The page holds no answers: the button reads them from the site, '
            "with the explanations, as a quiz does after Submit, and fills them in below each "
            "question. Print the page after that to have them on paper.</p>"
            "</header><main>" + answer_key(chapters) + "</main>",
            scripts="app/pages/answer-key.js",
        )
    report = REPORT_TEMPLATE.read_text(encoding="utf-8")
    if not with_answer_key:  # its mentions of the key stay, as words
        report = re.sub(rf'<a href="{ANSWER_KEY}[^"]*">(.*?)</a>', r"\1", report, flags=re.S)
    kit[REPORT] = _page("Class report", report, scripts="app/pages/report.js")
    return kit


def kit_sources() -> list:
    """The files the kit is written from, besides the lesson's: what a rebuild watches."""
    return [KIT_FRAME, TEACHING_TEMPLATE, TEACHING_NOTES, REPORT_TEMPLATE]


def package_list(packages: list[Path]) -> str:
    """scorm/packages.json: each package's file name (relative to scorm/), its
    manifest's title and its size in bytes, in the order the build wrote them."""
    rows = []
    for package in packages:
        with zipfile.ZipFile(package) as archive:
            manifest = archive.read("imsmanifest.xml").decode("utf-8")
        title = MANIFEST_TITLE.search(manifest)
        if not title:
            raise BuildError(f"{package.name}: its imsmanifest.xml has no organization title")
        rows.append(
            {
                "file": package.name,
                "title": html.unescape(title.group(1).strip()),
                "bytes": package.stat().st_size,
            }
        )
    return json.dumps({"packages": rows}, indent=1) + "\n"
