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
# TRY_MINUTES if it has controls, RUN_MINUTES an experiment to run, QUESTION_MINUTES a question.
READING_WPM = 150
TRY_MINUTES = 3
RUN_MINUTES = 3
QUESTION_MINUTES = 1

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
class Section:
    name: str
    step: int
    title: str  # the <h2>'s inner HTML, without the step number
    html: str  # the section as the page shows it
    questions: list[str]  # its quiz questions, unnumbered
    source_html: str = ""  # the section as its source has it (what its minutes are counted on)
    quiz_questions: int = 0  # how many questions it shows: the quiz's, all of them


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
    return Section(
        name, step, title.group(3).strip(), expand_sliders(body, source), questions, body
    )


def number_question(question: str, number: int, section: str) -> str:
    """A question as the quiz shows it: its number in the legend, its section on the fieldset."""
    question = re.sub(
        r'^( *<fieldset class="quiz-question"[^>]*)>',
        rf'\1 data-section="{section}">',
        question,
        count=1,
    )
    return question.replace("<legend>", f'<legend><span class="quiz-number">{number}.</span> ', 1)


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
    prose at READING_WPM words a minute, the time to try its controls and to run its
    experiments, and a minute a quiz question; rounded up to a whole minute."""
    body = re.sub(r"<(textarea|script)\b.*?</\1>", " ", section.source_html, flags=re.S)
    words = len(html.unescape(re.sub(r"<[^>]*>", " ", body)).split())
    minutes = words / READING_WPM
    if re.search(r"<(input|select|textarea|button|lesson-slider)\b", body):
        minutes += TRY_MINUTES
    minutes += RUN_MINUTES * body.count('class="training-buttons"')
    minutes += QUESTION_MINUTES * section.quiz_questions
    return math.ceil(minutes)


def plain(inner_html: str) -> str:
    """Inner HTML as plain text (for a <title>, a description, an aria-label)."""
    return " ".join(html.unescape(re.sub(r"<[^>]*>", "", inner_html)).split())


def assemble(skeleton: str | None = None, custom: bool = False) -> dict[str, str]:
    """Every page of the course by file name: the entrance (index.html) and one page per
    chapter, with the sections' steps, the map, the cross-references and the quiz. `custom`: the
    skeleton names only some sections (custom_skeleton); the rest are absent, not forgotten."""
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

    questions = []
    for section in sections.values():
        questions += [(section.name, q) for q in section.questions]
    # Each question's radios share one name, which no other question may use: the quiz keeps
    # (and an LMS restores) answers by it.
    named: dict[str, str] = {}
    for name, question in questions:
        for radio in dict.fromkeys(re.findall(r'<input type="radio" name="([^"]+)"', question)):
            if radio in named:
                raise BuildError(
                    f'lesson/{name}.html: a quiz question\'s radios are named "{radio}", as one of '
                    f"lesson/{named[radio]}.html's are: give them a name of their own"
                )
            named[radio] = name
    quiz = "".join(number_question(q, n, name) for n, (name, q) in enumerate(questions, start=1))
    for section in sections.values():
        if QUIZ_SLOT.search(section.html):
            section.html = QUIZ_SLOT.sub(lambda _: quiz, section.html)
            section.quiz_questions = len(questions)
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
            return f'<a href="#{target}" class="section-ref">{word} {sections[target].step}</a>'

        def elsewhere(match: re.Match) -> str:
            target = id_page.get(match.group(1))
            return match.group(0) if target in (None, here) else f'href="{target}#{match.group(1)}"'

        return LOCAL_LINK.sub(elsewhere, REFERENCE.sub(reference, text))

    pages = {ENTRANCE: linked(entrance(page, chapters, sections, minutes), ENTRANCE)}
    template = CHAPTER_TEMPLATE.read_text(encoding="utf-8")
    for number, chapter in enumerate(chapters, start=1):
        following = chapters[number] if number < len(chapters) else None
        if following:
            onward = (
                f'<nav class="chapter-next" aria-label="Next chapter"><a href="{following.page}">'
                f"Next: chapter {number + 1}, {following.title}</a></nav>"
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
            "position": f"Chapter {number} of {len(chapters)}",
            "minutes": str(chapter_minutes[chapter.name]),
            "first-section": chapter.sections[0],
            "sections": "\n".join(sections[name].html for name in chapter.sections),
            "next": onward,
        }
        text = CHAPTER_FIELD.sub(lambda m, fields=fields: fields[m.group(1)], template)
        text = text.replace(
            "<!-- course-map -->", course_map(chapters, sections, minutes, chapter), 1
        )
        pages[chapter.page] = linked(text, chapter.page)
    if questions and not any(s.quiz_questions for s in sections.values()):
        raise BuildError(
            "the quiz has questions but no section holds <!-- lesson-quiz-questions -->"
        )
    return pages


def course_map(chapters, sections, minutes, current: Chapter) -> str:
    """The map every chapter page keeps in view: the chapters and their sections, with minutes,
    this chapter marked (app/course/map.js marks the section in view and those visited)."""
    total = sum(minutes.values())
    lines = [
        '<nav class="course-map" aria-label="Course map">',
        '<details class="map-panel" open>',
        f'<summary><span class="map-where">{plain(current.title)}</span> '
        f'<span class="map-left"></span></summary>',
        f'<p class="map-course"><a href="index.html">The course</a>, about {total} minutes</p>',
        '<ol class="map-chapters">',
    ]
    for chapter in chapters:
        here = ' aria-current="page"' if chapter is current else ""
        lines.append(
            f'<li class="map-chapter" data-chapter="{chapter.name}">'
            f'<a href="{chapter.page}"{here}>{chapter.title}</a> '
            f'<span class="minutes">{sum(minutes[s] for s in chapter.sections)} min</span>'
            '<ol class="map-sections">'
        )
        for name in chapter.sections:
            href = f"#{name}" if chapter is current else f"{chapter.page}#{name}"
            lines.append(
                f'<li data-section="{name}" data-minutes="{minutes[name]}"><a href="{href}">'
                f'<span class="map-step">{sections[name].step}</span> {sections[name].title}</a> '
                f'<span class="minutes">{minutes[name]} min</span></li>'
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
        number = chapters.index(chapter) + 1
        items = "".join(
            f'{indent}    <li data-section="{s}"><a href="{chapter.page}#{s}">'
            f'<span class="step">{sections[s].step}</span> {sections[s].title}</a> '
            f'<span class="minutes">{minutes[s]} min</span></li>\n'
            for s in chapter.sections
        )
        return (
            f'{indent}<li class="chapter" data-chapter="{name}">\n'
            f'{indent}  <h3><span class="chapter-number">Chapter {number}</span> '
            f'<a href="{chapter.page}">{chapter.title}</a> '
            f'<span class="minutes">{sum(minutes[s] for s in chapter.sections)} min</span></h3>\n'
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
            f"{len(chapters)} chapters, about {total // 60} h {total % 60:02d} min in all: "
            "an estimate from the length of the text and the number of things to try. "
            "Take them in order, at your own pace; your place is kept in this browser."
        ),
        "start": (
            f'<a class="start-link button-link" href="{first.page}">'
            f"Start with chapter 1: {first.title}</a>"
        ),
        "old-links": (
            "<script src=\"app/pages/old-links.js\" data-pages='"
            + json.dumps(old_targets, separators=(",", ":"))
            + "'></script>"
        ),
    }
    page = CHAPTER.sub(chapter_card, page)
    return COURSE_FIELD.sub(lambda m: fields[m.group(1)], page)


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
    number = course.index(target) + 1
    return f'<span class="section-ref-absent">{word} {number} of the full course</span>'


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
    """What a lesson of the sections `chosen` adds by itself, of ADDED_BY_ITSELF: the quiz if
    they have questions, "Remember this" if it has lines on them, and the free cell."""
    remember = read_section(REMEMBER, 0).html
    lines = [set(tags.split()) for tags in re.findall(r'<li data-sections="([\w -]*)">', remember)]
    wanted = {
        "quiz": any(read_section(name, 0).questions for name in chosen),
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
    page = page.replace("· Chapter 1 of 1</p>", "· A lesson of selected sections</p>", 1)
    page = re.sub(
        r'<p class="map-course"><a href="index.html">The course</a>, about (\d+) minutes</p>',
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
