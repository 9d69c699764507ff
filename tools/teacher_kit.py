"""The teacher's kit: teaching.html, the instructor notes, and answer-key.html, the answer key,
both written by the build beside the course's pages so that they cannot drift from it. Everything
about the course comes from the course model (tools/course.py):

- the chapters, their sections and steps, and each section's minutes as the course map counts
  them (tools/lesson.py, course_minutes);
- the prerequisites: the entrance's "Before you start" paragraph (index.html owns them);
- the misconceptions: the sections' exam traps (`<aside class="trap">` in lesson/NAME.html);
- the answer key: each question's key as its source marks it (`data-correct`, `data-answer` and
  `data-tolerance`, `data-why`, `data-test`, `data-refers`, `data-setup`, the explanation).

The learning goals and discussion prompts, which no other file holds, are
lesson/pages/teaching-notes.html, one block per chapter; the page around them is
lesson/pages/teaching.html, and both pages' frame (head, footer) lesson/pages/kit.html.

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

from tools.course import SOURCES, Question, plain, read_course
from tools.course import Section as SourceSection
from tools.lesson import course_minutes, number
from tools.project import BuildError

TEACHING = "teaching.html"
ANSWER_KEY = "answer-key.html"
KIT_FRAME = SOURCES / "pages" / "kit.html"  # the head and footer of both pages
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


def _page(title: str, body: str) -> str:
    frame = KIT_FRAME.read_text(encoding="utf-8")
    for name in ("title", "body"):
        if frame.count(f"<!-- kit: {name} -->") != 1:
            raise BuildError(f"lesson/pages/{KIT_FRAME.name} needs <!-- kit: {name} --> once")
    return frame.replace("<!-- kit: title -->", title).replace("<!-- kit: body -->", body)


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
                if question.test:
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
    if question.kind == "numeric":
        answer = f"{html.escape(question.answer)}, give or take {html.escape(question.tolerance)}"
        wrong = (
            f"<p><strong>A wrong value</strong> usually means: {text(question.why)}</p>"
            if question.why
            else ""
        )
    else:
        right = next(o for o in question.options if o.correct)
        answer = text(right.html)
        others = "".join(
            f'<li><p class="key-option">{text(o.html)}</p><p>{text(o.why)}</p></li>'
            for o in question.options
            if not o.correct
        )
        wrong = f'<p><strong>Why not the others</strong></p><ul class="key-wrong">{others}</ul>'
    return (
        f'<li class="key-item" data-number="{position}" data-section="{section.name}">'
        f'<p class="key-question"><span class="key-number">{position}.</span> '
        f"{text(question.legend)}</p>"
        f'<p class="key-facts">{"; ".join(facts)}</p>'
        f'<p class="key-answer"><strong>Answer:</strong> {answer}</p>'
        f'<p class="key-explain">{text(question.explain)}</p>{wrong}</li>'
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
            f'<p>The <a href="{ANSWER_KEY}">answer key</a> lists every question with its answer, '
            "the reason for it and why each wrong option is wrong. No page a learner reads "
            "links to it, but on a hosted site anyone who knows its address can open it: a "
            "static site cannot hide a file. The SCORM packages leave it out, so that a learner "
            "in a graded attempt cannot open it there. To leave it out of the site, build with "
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
    }


def kit_pages(with_answer_key: bool = True) -> dict[str, str]:
    """teaching.html and (unless left out) answer-key.html, from the course model."""
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
            '<p class="lede">Every question of the course, in the course’s order, with its '
            "answer, why it is right, and why each wrong option is wrong. Answers are named by "
            "their words, not by their place among the options. For teachers: no page a "
            "learner reads links here, but the page is public on a hosted site.</p>"
            "</header><main>" + answer_key(chapters) + "</main>",
        )
    return kit


def kit_sources() -> list:
    """The files the kit is written from, besides the lesson's: what a rebuild watches."""
    return [KIT_FRAME, TEACHING_TEMPLATE, TEACHING_NOTES]


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
