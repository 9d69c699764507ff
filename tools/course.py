"""The course model: the lesson's sources, read once into typed objects that every other part of
the build reads (the pages, the teacher's kit, the translations, the notebook, the first results,
the packages) and the tests too. Nothing else parses a lesson source.

- index.html is the skeleton: one `<li class="chapter" data-chapter="NAME">` per chapter, with its
  `<h3>` title, a `<p>` summary and one `<!-- lesson: NAME -->` line per section, in order.
- lesson/NAME.html holds section NAME: `<section id="NAME">` with its `<h2 id="NAME-title">`, its
  prose, controls (`<lesson-slider>`, inputs, selects), figures, exam trap(s), takeaway, code
  cells and exercises, and a live demo's first request (`<script class="first-call">`); after
  `</section>`, only its quiz questions (`<fieldset class="quiz-question">`, see Question).

`read_course()` gives the Course (one section source is read by tools/section_source.py, whose
objects this module hands on); a broken source stops the build with a BuildError that names the
file and what is wrong in it, never a traceback. Numbers that follow from the order (steps, minutes,
chapter numbers) are not in the model's text: tools/lesson.py works them out when it writes the
pages.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tools.project import ROOT, BuildError
from tools.quiz_source import (
    PARAM,
    QUIZ_VARIANTS,
    Option,
    Question,
    plain,
    template_keys,
    template_legends,
    variant_id,
)
from tools.section_source import (
    REFERENCE,
    SCRATCH,
    Control,
    Exercise,
    FirstCall,
    Section,
    Trap,
    first_value,
    read_controls,
    slider_value,
)
from tools.section_source import read_section as read_section_in

# The model's objects and readers, for everyone: importing them from here is the one way in.
__all__ = [
    "REFERENCE", "SCRATCH", "Chapter", "Control", "Course",
    "Exercise", "FirstCall", "Option", "Question", "Section", "Trap", "first_value", "plain",
    "read_controls", "read_course", "read_section", "read_skeleton", "slider_value",
    "PARAM", "template_keys", "template_legends", "variant_id",
]

SKELETON = ROOT / "index.html"
SOURCES = ROOT / "lesson"

INCLUDE = re.compile(r"^ *<!-- lesson: ([\w-]+) -->\n", flags=re.M)
CHAPTER = re.compile(
    r'^( *)<li class="chapter" data-chapter="([\w-]+)">\n(.*?)^\1</li>\n', flags=re.S | re.M
)
CHAPTER_TITLE = re.compile(r"<h3>(.*?)</h3>", flags=re.S)
CHAPTER_SUMMARY = re.compile(r"<p>(.*?)</p>", flags=re.S)
# The entrance's "Before you start": the course's prerequisites.
BEFORE_YOU_START = re.compile(
    r'<section[^>]*aria-labelledby="before-title">.*?<p>(.*?)</p>', flags=re.S
)
# The whole-lesson test's name (the `data-test` of its form): no chapter may have it.
LESSON_TEST = "lesson"
# "Remember this": each line names the sections it sums up (`<li data-sections="NAME …">`).
REMEMBER = "remember"
REMEMBER_LINE = re.compile(r"^( *)<li( data-sections=\"([\w -]*)\")?>.*?</li>\n", flags=re.S | re.M)


@dataclass
class Chapter:
    name: str  # its page is NAME.html
    title: str  # the <h3>'s inner HTML on the entrance
    summary: str  # the <p> after it
    sections: list[str]

    @property
    def page(self) -> str:
        return f"{self.name}.html"


@dataclass
class Course:
    chapters: list[Chapter]
    sections: dict[str, Section]  # in the course's order
    prerequisites: str = ""  # the entrance's "Before you start" paragraph, inner HTML

    @property
    def names(self) -> list[str]:
        return list(self.sections)

    def step(self, name: str) -> int:
        return self.names.index(name) + 1

    @property
    def page_of(self) -> dict[str, str]:
        """Which page holds each section, in the course's order."""
        return {name: chapter.page for chapter in self.chapters for name in chapter.sections}

    @property
    def demos(self) -> list[str]:
        """The sections that are demos (embeddable by name), in order."""
        return [name for name, section in self.sections.items() if section.demo]

    @property
    def live_demos(self) -> list[str]:
        return [name for name, section in self.sections.items() if section.live]

    @property
    def questions(self) -> list[Question]:
        return [q for section in self.sections.values() for q in section.questions]

    @property
    def exercises(self) -> dict[str, Exercise]:
        return {e.name: e for section in self.sections.values() for e in section.exercises}

    @property
    def titles(self) -> dict[str, str]:
        """Every section's title as plain text, in order."""
        return {name: section.plain_title for name, section in self.sections.items()}


def read_section(name: str) -> Section:
    """lesson/NAME.html, read and checked (tools/section_source.py)."""
    return read_section_in(name, SOURCES)


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


def read_skeleton() -> str:
    """index.html as its source has it."""
    return SKELETON.read_text(encoding="utf-8")


def course_names(skeleton: str | None = None) -> list[str]:
    """The sections the skeleton names, in order (index.html's by default)."""
    return INCLUDE.findall(read_skeleton() if skeleton is None else skeleton)


_read: dict[tuple, Course] = {}


def _stamp(skeleton: str | None) -> tuple:
    """What a course read depends on: the skeleton's text and every source's time and size,
    the numeric templates' table's too."""
    sources = [*sorted(SOURCES.glob("*.html")), *[p for p in (QUIZ_VARIANTS,) if p.exists()]]
    page = read_skeleton() if skeleton is None else skeleton
    stamps = ((str(p), p.stat().st_mtime_ns, p.stat().st_size) for p in sources)
    return (str(SKELETON), page, *stamps)


def read_course(skeleton: str | None = None, custom: bool = False) -> Course:
    """The course the skeleton (index.html's text by default) lays out, every source checked.
    `custom`: the skeleton names only some sections, and the rest are absent, not forgotten.
    Read once per change of the sources: the build's steps share one reading."""
    key = (_stamp(skeleton), custom)
    if key not in _read:
        _read.clear()
        _read[key] = _course(skeleton, custom)
    return _read[key]


def _course(skeleton: str | None, custom: bool) -> Course:
    page = read_skeleton() if skeleton is None else skeleton
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
    sections = {name: read_section(name) for name in names}
    # Each question's inputs share one name, which no other question may use: the quiz keeps
    # (and an LMS restores) answers by it, and quiz-keys.json holds its key under it.
    named: dict[str, str] = {}
    for section in sections.values():
        for question in section.questions:
            if question.name in named:
                raise BuildError(
                    f'lesson/{section.name}.html: a quiz question\'s inputs are named '
                    f'"{question.name}", as one of lesson/{named[question.name]}.html\'s are: '
                    "give them a name of their own"
                )
            named[question.name] = section.name
            if question.setup and question.setup not in sections:
                raise BuildError(
                    f"lesson/{section.name}.html: a question's data-setup names "
                    f'"{question.setup}", which is no section: one of {", ".join(sections)}'
                )
    exercises: dict[str, str] = {}
    for section in sections.values():
        for exercise in section.exercises:
            if exercise.name in exercises:
                raise BuildError(
                    f"lesson/{section.name}.html, exercise {exercise.name}: a second exercise of "
                    "that name"
                )
            exercises[exercise.name] = section.name
    if REMEMBER in sections:
        check_remember(sections[REMEMBER], course_names())
    before = BEFORE_YOU_START.search(page)
    return Course(chapters, sections, " ".join(before.group(1).split()) if before else "")


def check_remember(section: Section, course: list[str]) -> None:
    """Each "Remember this" line names the sections it sums up, all of the course."""
    for match in REMEMBER_LINE.finditer(section.source):
        tagged = (match.group(3) or "").split()
        unknown = [name for name in tagged if name not in course]
        if not tagged or unknown:
            said = ", ".join(unknown)
            problem = f"names {said}, not a section," if unknown else "names no section,"
            raise BuildError(
                f"lesson/{REMEMBER}.html: a line {problem} but each must name the sections it "
                f'sums up, <li data-sections="NAME …">: {match.group(0).strip()[:70]}…'
            )

