"""A lesson of chosen sections only (`build.py packages --sections a,b,c`): the course's assembly
(tools/lesson.py) on a skeleton of one chapter, where a section left out is absent, not an error:
a cross-reference to it is plain text numbered as in the full course, and the lesson adds by
itself the questions on the chosen sections, their "Remember this" lines and the free cell."""

from __future__ import annotations

import html
import re

from tools.course import CHAPTER, REMEMBER, course_names, read_course, read_skeleton
from tools.lesson import assemble, number, section_titles
from tools.project import BuildError

# What a custom lesson adds after the chosen sections, in this order: the questions on them, the
# "Remember this" lines of just those, and the free code cell.
ADDED_BY_ITSELF = ("quiz", REMEMBER, "cell")


def chosen_sections(asked: str) -> list[str]:
    """The sections named in `asked` ("attention,heatmap,rope"), checked, in the course's order:
    a BuildError lists the valid names when one is unknown."""
    course = course_names()
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
    course = read_course()
    remember = course.sections[REMEMBER].source
    lines = [set(tags.split()) for tags in re.findall(r'<li data-sections="([\w -]*)">', remember)]
    wanted = {
        "quiz": any(q.test for name in chosen for q in course.sections[name].questions),
        REMEMBER: any(tags & set(chosen) for tags in lines),
    }
    return [name for name in ADDED_BY_ITSELF if wanted.get(name, True)]


def custom_skeleton(chosen: list[str]) -> str:
    """index.html with one chapter in place of the course's: the sections `chosen`, then what a
    custom lesson adds by itself (ADDED_BY_ITSELF)."""
    skeleton = read_skeleton()
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
