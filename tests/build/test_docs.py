"""The documents keep up with the code: docs/architecture.md names every module of app/, py/ and
tools/ under its folder (a demo's own modules by the pattern NAME.js or NAME.py, one per demo
section of the lesson), and the README stays a guide (about 8 KB)."""

from __future__ import annotations

import re
import subprocess

from site_server import ROOT
from tools.course import read_course
from tools.lesson import demo_sections


def listed_modules() -> set[str]:
    """The modules docs/architecture.md lists in "Every module, by folder", as paths. An entry
    `NAME.js` or `NAME.py` stands for that folder's module of each demo section of the lesson."""
    demos = demo_sections()
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text.split("## 5. Every module, by folder", 1)[1]
    listed, folder = set(), None
    for line in section.splitlines():
        heading = re.fullmatch(r"`([\w./-]+)/`", line.strip())
        if heading:
            folder = heading.group(1)
        entry = re.match(r"- `([\w.-]+)`: \S", line)
        if entry and folder:
            stem, dot, extension = entry.group(1).rpartition(".")
            if stem == "NAME":
                named = {f"{folder}/{demo}.{extension}" for demo in demos}
                listed |= {path for path in named if (ROOT / path).exists()}
            else:
                listed.add(f"{folder}/{entry.group(1)}")
    return listed


def test_architecture_names_every_module():
    tracked = subprocess.run(
        ["git", "ls-files", "app", "py", "tools"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    modules = {p for p in tracked if p.endswith((".js", ".mjs", ".py"))}
    listed = listed_modules()
    assert sorted(modules - listed) == [], "add these to the module list of docs/architecture.md"
    assert sorted(listed - modules) == [], (
        "docs/architecture.md lists modules that do not exist, or that git does not track yet "
        "(git add a new one)"
    )


def test_the_readme_stays_a_guide():
    assert (ROOT / "README.md").stat().st_size <= 8192


def test_the_course_doc_lists_the_chapters_pages_as_index_html_orders_them():
    """docs/course.md's table of chapters names each chapter's page, in order. It lists no
    section and no minutes: index.html and the build own those, and a new section changes no
    doc."""
    text = (ROOT / "docs" / "course.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| [^|]+ \| `([\w-]+\.html)` \|$", text, flags=re.M)
    assert rows == [chapter.page for chapter in read_course().chapters], "docs/course.md's table"
