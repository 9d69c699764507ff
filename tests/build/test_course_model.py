"""The course model (tools/course.py, tools/section_source.py): the lesson's sources read once,
what it holds, and what a broken source gets: a build error naming the file and what is wrong,
never a traceback. And the vertical slice of a live demo: the files CONTRIBUTING.md's recipe
names, each found where the recipe puts it."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from site_server import ROOT
from tools import course
from tools.course import read_course
from tools.project import BuildError

COURSE = read_course()


def test_the_model_holds_the_course_as_index_html_orders_it():
    listed = re.findall(r"<!-- lesson: ([\w-]+) -->", course.read_skeleton())
    assert COURSE.names == listed
    assert [name for chapter in COURSE.chapters for name in chapter.sections] == listed
    assert all(section.title and section.plain_title for section in COURSE.sections.values())
    assert COURSE.questions and all(q.explain for q in COURSE.questions)
    names = [q.name for q in COURSE.questions]
    assert len(names) == len(set(names))  # a question's inputs have a name of their own
    assert COURSE.exercises and COURSE.prerequisites
    for name in COURSE.live_demos:
        section = COURSE.sections[name]
        assert section.controls and section.cells, name


# ---- a live demo is a vertical slice ---------------------------------------------------------


def slice_files(name: str) -> dict[str, str]:
    """The files of live demo NAME beside its section source and its line in index.html, with
    what each must hold (CONTRIBUTING.md, "A new demo")."""
    return {
        f"app/demos/{name}.js": f"export function {name}Demo(",
        f"py/pelab/browser/demos/{name}.py": "ENTRY_POINTS",
        f"tests/browser/test_{name}_demo.py": "def test_",
        f"tests/python/browser/demos/test_{name}_entry.py": "def test_",
    }


@pytest.mark.parametrize("name", COURSE.live_demos)
def test_each_live_demo_has_its_files_where_the_recipe_puts_them(name):
    for path, holds in slice_files(name).items():
        file = ROOT / path
        assert file.exists(), (
            f"demo {name}: {path} is missing (CONTRIBUTING.md, A new demo: {holds.strip('(')})"
        )
        assert holds in file.read_text(encoding="utf-8"), f"demo {name}: {path} lacks {holds}"


def test_contributings_recipe_names_exactly_the_slice():
    """CONTRIBUTING.md's "Adding a demo" lists, as its numbered files, the section source, the
    line in index.html and the slice this module checks: no more, no fewer."""
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    recipe = text.split("## Adding a demo", 1)[1].split("\n## ", 1)[0]
    listed = re.findall(r"^\d\. \*\*`([\w./-]+)`\*\*", recipe, flags=re.M)
    assert sorted(listed) == sorted(["lesson/NAME.html", "index.html", *slice_files("NAME")])
    assert "**six files**" in recipe and len(listed) == 6


# The chapter written on the recipe (issue 51): each of its demos must have needed the six files
# and nothing else of the code. Its words go to the catalogs and its sources to the teaching notes;
# app/demos/demos.js and app/course/page-of.js are written by the build from index.html.
RECIPE_CHAPTER = "today"
NOT_CODE = ("locale/", "docs/")
WRITTEN_BY_THE_BUILD = {"app/demos/demos.js", "app/course/page-of.js"}
# The course's summary names the sections each of its lines sums up: a line of the course's, not
# a file the demo needs.
COURSE_WIDE = {"lesson/remember.html"}


def naming(name: str) -> re.Pattern:
    """What names demo NAME in a file: its factory, its name as a string or in a link or an
    embed, its section's id and its classes' prefix."""
    n = re.escape(name)
    return re.compile(
        rf"{n}Demo\b|[\"']{n}[\"'-]|#{n}\b|\.{n}-|demo={n}\b|id=\"{n}\b|lesson: {n}\b"
    )


def test_each_demo_of_the_recipe_chapter_is_six_files_and_no_other_code_names_it():
    chapters = {chapter.name: chapter for chapter in COURSE.chapters}
    assert RECIPE_CHAPTER in chapters, f"index.html has no chapter {RECIPE_CHAPTER}"
    chapter = chapters[RECIPE_CHAPTER]
    demos = [name for name in chapter.sections if name in COURSE.live_demos]
    assert len(demos) == 3, chapter.sections  # images, partial rotary, NoPE layers
    tracked = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    for name in demos:
        own = {f"lesson/{name}.html", "index.html", *slice_files(name)}
        assert all((ROOT / path).exists() for path in own), name
        pattern = naming(name)
        others = [
            path
            for path in tracked
            if path not in own | WRITTEN_BY_THE_BUILD | COURSE_WIDE
            and not path.startswith(NOT_CODE)
            and (ROOT / path).is_file()
            and (ROOT / path).suffix in {".html", ".js", ".mjs", ".py", ".css", ".json", ".md"}
            and pattern.search((ROOT / path).read_text(encoding="utf-8", errors="replace"))
        ]
        assert not others, f"demo {name} needed more than its six files: {others} name it"
        assert len(own) == 6


def test_each_first_call_names_an_entry_point_of_its_own_demo_module():
    from pelab.browser.entry_points import DEMO_OF

    for name in COURSE.live_demos:
        call = COURSE.sections[name].first_call
        if call is not None:
            assert DEMO_OF.get(call.entry) == name, (
                f"lesson/{name}.html's first call names {call.entry!r}, which "
                f"py/pelab/browser/demos/{name}.py does not define"
            )


# ---- a broken source is a named build error --------------------------------------------------

FORMULA = (course.SOURCES / "formula.html").read_text(encoding="utf-8")
BROKEN = {
    "no title": (
        lambda t: re.sub(r'<h2 id="formula-title">.*?</h2>', "", t, flags=re.S),
        '<h2 id="formula-title">',
    ),
    "an empty title": (
        lambda t: re.sub(r'(<h2 id="formula-title">).*?(</h2>)', r"\1 \2", t, flags=re.S),
        "has no words",
    ),
    "a question without its key": (
        lambda t: t.replace(' data-correct>', ' data-why="It is not.">', 1),
        "needs exactly one option with data-correct; it has 0",
    ),
    "a numeric question without its answer": (
        lambda t: re.sub(r' data-answer="[^"]*"', "", t, count=1),
        'its input needs data-answer="NUMBER"',
    ),
    "a question without its explanation": (
        lambda t: re.sub(r'<p class="quiz-explain" hidden>.*?</p>', "", t, count=1, flags=re.S),
        "needs its explanation",
    ),
    "a slider without its value": (
        lambda t: t.replace('step="1" value="1">', 'step="1">', 1),
        "lacks value",
    ),
    "a slider whose value is no number": (
        lambda t: t.replace('step="1" value="1">', 'step="1" value="one">', 1),
        "needs numbers in min, max, step and value",
    ),
    "a first call naming an unknown control": (
        lambda t: t.replace('"controls": ["pos", "d_model"]', '"controls": ["pos", "width"]', 1),
        "names the controls ['width'], which the section lacks",
    ),
    "a first call that is not JSON": (
        lambda t: t.replace('{"entry": "formula"', '{entry: "formula"', 1),
        "its first-call script is not JSON",
    ),
    "prose after the section": (
        lambda t: t + "<p>stray</p>\n",
        "after </section> only its quiz questions may follow",
    ),
    "a typed section number": (
        lambda t: t.replace("The fix of", f"As {'section'} 1 showed, the fix of", 1),
        "types a section number",
    ),
}


@pytest.mark.parametrize("broken", list(BROKEN))
def test_a_broken_source_stops_the_build_naming_its_file_and_what_is_wrong(
    broken, tmp_path, monkeypatch
):
    change, says = BROKEN[broken]
    changed = change(FORMULA)
    assert changed != FORMULA, f"the case {broken!r} no longer changes lesson/formula.html"
    shutil.copytree(course.SOURCES, tmp_path, dirs_exist_ok=True)
    (tmp_path / "formula.html").write_text(changed, encoding="utf-8")
    monkeypatch.setattr(course, "SOURCES", tmp_path)
    with pytest.raises(BuildError) as error:
        read_course()
    assert "lesson/formula.html" in str(error.value) and says in str(error.value), str(error.value)


def test_a_section_the_skeleton_names_but_nobody_wrote_is_named():
    skeleton = course.read_skeleton().replace(
        "<!-- lesson: formula -->", "<!-- lesson: formula -->\n          <!-- lesson: nowhere -->"
    )
    with pytest.raises(BuildError, match="names the section nowhere, but lesson/nowhere.html"):
        read_course(skeleton)
