"""tools/scorm.py and tools/packages.py: the SCORM 1.2 packages that `build.py packages` writes
into packages/scorm/, beside dist/. Each manifest is parsed with the standard library and checked
for what SCORM 1.2 requires; every file it lists is in the zip and every file in the zip is
listed; a full package is the built site, byte for byte, less what an LMS cannot use; the thin
one is a few KB framing the hosted site; a language or a chapter chooses its packages."""

from __future__ import annotations

import html
import json
import re
import zipfile
import zlib
from pathlib import Path

import pytest

import build as build_cli
from pages import PAGE_OF
from scorm_manifest import checked_manifest, launch_target
from site_server import DIST, SCORM_PACKAGES, needs_packages
from tools import packages, scorm
from tools.i18n import TRANSLATED
from tools.project import ROOT
from tools.teacher_kit import PACKAGE_LIST

SCORM_JS = (ROOT / "app" / "lms" / "scorm.js").read_text()
CHAPTER_JS = (ROOT / "app" / "lms" / "chapter-to-lms.js").read_text()
EMBED_JS = (ROOT / "app" / "pages" / "embed.js").read_text()
FULL = sorted(SCORM_PACKAGES.glob("*.zip"))


@needs_packages
def test_there_is_a_package_for_the_lesson_one_per_chapter_and_one_per_graded_demo():
    lesson = "".join(page.read_text() for page in scorm.lesson_pages(DIST))
    chapters = [page.stem for page in scorm.lesson_pages(DIST)]
    assert chapters == list(dict.fromkeys(p.removesuffix(".html") for p in PAGE_OF.values()))
    graded = scorm.graded_demos(lesson)
    # the quiz is graded once the lesson has a whole-lesson test (questions with data-test)
    assert ("quiz" in graded) == ('data-test="lesson"' in lesson)
    # the English site's, then the same for each translation, named by its language
    stems = ["positional-encoding-lab", *(f"positional-encoding-lab-{t}" for t in TRANSLATED)]
    assert [p.name for p in FULL] == sorted(
        name
        for stem in stems
        for name in [
            f"{stem}.zip",
            *(f"{stem}-chapter-{n}-{c}.zip" for n, c in enumerate(chapters, 1)),
            *(f"{stem}-{d}.zip" for d in graded),
        ]
    )


def test_graded_demos_are_the_sections_holding_a_test():
    """A test (tools/lesson.py's form data-quiz="test") makes its demo section graded; a check
    after a section, or a chapter's end test in a section of its own, makes none."""
    page = """<main><section id="intro" class="lesson-text">
      <form class="quiz" data-quiz="test"></form></section>
      <section id="waves" class="demo"><p>no questions</p></section>
      <aside class="quiz-check"><form class="quiz" data-quiz="check"></form></aside>
      <section id="check" class="demo"><form class="quiz" data-quiz="test" data-test="lesson">
      <fieldset class="quiz-question"></fieldset></form></section>
      <section id="more" class="demo x"><form class="quiz" data-quiz="test"></form></section>
      <section id="test-x" class="chapter-test"><form class="quiz" data-quiz="test"></form>
      </section></main>"""
    assert scorm.graded_demos(page) == ["check", "more"]


@needs_packages
@pytest.mark.parametrize("package", FULL, ids=lambda p: p.stem)
def test_each_full_package_is_valid_scorm_1_2_and_is_the_built_site(package):
    with zipfile.ZipFile(package) as archive:
        manifest = checked_manifest(archive)
        assert manifest["mastery"] == str(scorm.MASTERY_SCORE) == "80"
        # the built site, less the .br/.gz siblings, the service worker, the answer key and the
        # packages themselves
        built = sorted(
            p.relative_to(DIST).as_posix()
            for p in DIST.rglob("*")
            if p.is_file() and p.suffix not in (".br", ".gz") and p.parent != DIST / "scorm"
        )
        built.remove("service-worker.js")
        built.remove("answer-key.html")  # a learner could open it by name in a graded attempt
        for language in TRANSLATED:  # in any language
            built.remove(f"{language}/answer-key.html")
        # and the package's own launch.html, which opens its page (app/lms/launch.js)
        assert manifest["launch"] == "launch.html"
        assert manifest["launch_data"] == "attempts=0"  # the default: no limit
        page, query = launch_target(archive.read("launch.html").decode())
        assert f"?{query}" == manifest["parameters"]  # the same, whether the LMS appends it or not
        assert page in built
        # a demo without Python (the quiz) leaves Python's files out: its package is 0.3 MB
        if "lesson=none" in (manifest["parameters"] or ""):
            built = [name for name in built if name.split("/")[0] not in scorm.PYTHON_FOLDERS]
            demo = package.stem.removeprefix("positional-encoding-lab-")
            demo = re.sub(rf"^({'|'.join(TRANSLATED)})-", "", demo)  # a translation's package
            assert demo in scorm.demos_without_python((DIST / "embed.html").read_text())
        assert sorted(manifest["files"]) == sorted([*built, "launch.html"])
        for name in built:
            assert archive.getinfo(name).CRC == zlib.crc32((DIST / name).read_bytes()), name
    assert package.stat().st_size < 50e6  # LMS upload limits are often 50 to 100 MB


def test_a_file_of_an_earlier_build_never_goes_into_the_packages(tmp_path):
    """The build drops what it no longer makes before the packages are made from dist/: a
    previous build's Pyodide folder (named by its content's hash) once went into both packages,
    doubling their size."""
    import shutil

    shutil.copytree(DIST, tmp_path / "dist", ignore=shutil.ignore_patterns("scorm"))
    stale = tmp_path / "dist" / "pyodide" / "0.27.7-000000000000" / "python_stdlib.zip"
    stale.parent.mkdir()
    stale.write_bytes(b"an earlier build's")
    written = packages.make_packages(
        language="en", chapter="1", dist=tmp_path / "dist", out=tmp_path / "packages"
    )
    assert not stale.parent.exists()
    assert [p.name for p in written] == ["positional-encoding-lab-chapter-1-why-order.zip"]
    with zipfile.ZipFile(written[0]) as archive:
        assert not [name for name in archive.namelist() if "000000000000" in name]
    # dist/ itself holds no package, and its list says so: the guide then says how to get them
    listing = tmp_path / "dist" / "scorm" / PACKAGE_LIST
    assert list(listing.parent.iterdir()) == [listing]
    assert json.loads(listing.read_text()) == {"packages": []}
    # the packages' own list names what this run wrote, and nothing else is left beside it
    built = tmp_path / "packages" / "scorm"
    assert sorted(built.iterdir()) == sorted([*written, built / PACKAGE_LIST])
    assert [p["file"] for p in json.loads((built / PACKAGE_LIST).read_text())["packages"]] == [
        written[0].name
    ]


def test_a_language_or_a_chapter_chooses_its_packages():
    every = scorm.packages_of(DIST)
    chapters = [page.stem for page in scorm.lesson_pages(DIST)]
    chinese = scorm.chosen_packages(DIST, language="zh")
    assert chinese == [p for p in every if p.stem.startswith("positional-encoding-lab-zh")]
    assert scorm.chosen_packages(DIST, language="en") == [p for p in every if p.language == "en"]
    second = scorm.chosen_packages(DIST, chapter="2")
    assert second == scorm.chosen_packages(DIST, chapter=chapters[1])
    assert [p.language for p in second] == ["en", *TRANSLATED]
    assert all(p.stem.endswith(f"-chapter-2-{chapters[1]}") for p in second)
    [one] = scorm.chosen_packages(DIST, language="es", chapter=chapters[0])
    assert one.stem == f"positional-encoding-lab-es-chapter-1-{chapters[0]}"
    assert scorm.chosen_packages(DIST) == every
    with pytest.raises(SystemExit, match=r"--language wants one of en, zh, es; got 'fr'"):
        scorm.chosen_packages(DIST, language="fr")
    with pytest.raises(SystemExit, match=rf"--chapter wants one of 1 or {chapters[0]}, .*'9'"):
        scorm.chosen_packages(DIST, chapter="9")


@pytest.mark.parametrize(
    "options, says",
    [
        ({"scorm_site": "https://example.org/lab/", "language": "zh"}, "--scorm-site makes the"),
        ({"sections": "rope", "scorm_site": "https://example.org/lab/"}, "--sections makes a"),
        ({"sections": "no-such-section"}, "there is no section no-such-section"),
    ],
)
def test_options_that_do_not_go_together_stop_before_any_work(tmp_path, options, says):
    with pytest.raises(SystemExit, match=says):
        packages.make_packages(**options, dist=tmp_path / "dist", out=tmp_path / "out")
    assert not (tmp_path / "dist").exists() and not (tmp_path / "out").exists()


def test_build_py_packages_passes_its_options_on(monkeypatch):
    seen = {}
    monkeypatch.setattr(build_cli, "make_packages", lambda **options: seen.update(options))
    build_cli.main(["packages", "--language", "zh", "--chapter", "2", "--mastery", "70"])
    assert seen == {
        "language": "zh",
        "chapter": "2",
        "scorm_site": None,
        "mastery": "70",
        "attempts": None,
        "sections": None,
    }


@needs_packages
def test_the_packages_launch_the_lesson_or_the_demo_as_launched_by_an_lms():
    parameter = re.search(r'LAUNCH_PARAMETER = \["(\w+)", "(\w+)"\]', SCORM_JS).groups()
    assert f"?{parameter[0]}={parameter[1]}" == scorm.LAUNCH_PARAMETERS
    assert f"DEFAULT_MASTERY_SCORE = {scorm.MASTERY_SCORE};" in SCORM_JS
    assert f'CHAPTER_PARAMETER = "{scorm.CHAPTER_PARAMETER}";' in CHAPTER_JS
    # the review chapter is the last: its number follows the course
    pages = list(dict.fromkeys(p.removesuffix(".html") for p in PAGE_OF.values()))
    review = f"positional-encoding-lab-chapter-{pages.index('review') + 1}-review"
    assert pages[-1] == "review"
    opens = {}
    for stem in (
        "positional-encoding-lab",
        "positional-encoding-lab-quiz",
        "positional-encoding-lab-chapter-1-why-order",
        review,
    ):
        with zipfile.ZipFile(SCORM_PACKAGES / f"{stem}.zip") as archive:
            opens[stem] = launch_target(archive.read("launch.html").decode())
            title = checked_manifest(archive)["title"]
        if "chapter" in stem:  # the title a teacher sees in the LMS names the chapter
            heading = re.search(r"<h1>(.*?)</h1>", (DIST / opens[stem][0]).read_text()).group(1)
            number = re.search(r"chapter-(\d)", stem).group(1)
            assert title == f"Positional Encoding Lab, chapter {number}: {html.unescape(heading)}"
    assert opens == {
        "positional-encoding-lab": ("index.html", "lms=scorm12"),
        "positional-encoding-lab-quiz": ("embed.html", "demo=quiz&lms=scorm12&lesson=none"),
        "positional-encoding-lab-chapter-1-why-order": (
            "why-order.html",
            "lms=scorm12&sco=why-order&test=why-order",  # graded by its end test
        ),
        review: (  # by the whole-lesson test
            "review.html",
            "lms=scorm12&sco=review&test=lesson",
        ),
    }
    assert 'query.get("lesson") !== "none"' in EMBED_JS and scorm.WITHOUT_LESSON == "&lesson=none"


def test_the_launch_page_holds_no_inline_script_and_shows_odd_names_as_text():
    page = scorm.launch_page('a"><script>x</script>.html', "demo=<b>&lms=scorm12", "<i>T</i>")
    assert re.findall(r"<script\b[^>]*>", page) == [
        '<script src="app/lms/launch.js" data-page="a&quot;&gt;&lt;script&gt;x&lt;/script&gt;.html"'
        ' data-query="demo=&lt;b&gt;&amp;lms=scorm12" type="module">'
    ]
    assert "<i>" not in page and "<b>" not in page
    # the SCO holds the session and shows the lesson's pages in its frame (app/lms/launch.js)
    assert '<iframe class="package-frame" title="&lt;i&gt;T&lt;/i&gt;" hidden></iframe>' in page
    assert launch_target(page) == ('a"><script>x</script>.html', "demo=<b>&lms=scorm12")


@pytest.mark.parametrize(
    "mastery, attempts, expected",
    [(None, None, (80, 0)), ("75", "3", (75, 3)), (0, 0, (0, 0)), ("100", " 1 ", (100, 1))],
)
def test_the_grading_options_are_whole_numbers_in_range(mastery, attempts, expected):
    grade = scorm.grading(mastery, attempts)
    assert (grade.mastery, grade.attempts) == expected
    assert grade.launch_data == f"attempts={expected[1]}"


@pytest.mark.parametrize(
    "mastery, attempts, says",
    [
        ("101", None, r"--mastery wants the pass mark in percent, a whole number 0 to 100; got '1"),
        ("-5", None, r"--mastery wants .*; got '-5'"),
        ("80%", None, r"--mastery wants .*; got '80%'"),
        ("7.5", None, r"--mastery wants .*; got '7.5'"),
        (None, "-1", r"--attempts wants a whole number of attempts \(0: no limit\); got '-1'"),
        (None, "two", r"--attempts wants .*; got 'two'"),
        (None, "", r"--attempts wants .*; got ''"),
    ],
)
def test_a_bad_grading_option_stops_the_build_saying_what_is_wanted(mastery, attempts, says):
    with pytest.raises(SystemExit, match=says):
        scorm.grading(mastery, attempts)


def test_a_bad_grading_option_stops_the_build_before_any_work(tmp_path):
    with pytest.raises(SystemExit, match="--mastery wants"):
        packages.make_packages(mastery="eighty", dist=tmp_path / "dist", out=tmp_path / "out")
    assert not (tmp_path / "dist").exists() and not (tmp_path / "out").exists()


def small_site(folder: Path) -> Path:
    for name, text in {
        "index.html": (
            '<section id="quiz" class="demo"><form class="quiz" data-quiz="test"></form></section>'
        ),
        "embed.html": "<p>embed</p>",
        "app/a.js": "export const a = 1;\n",
        "app/a.js.br": "sibling",
        "service-worker.js": "// worker",
    }.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    return folder


def test_the_demos_without_python_are_read_from_the_start_python_tag():
    page = (
        '<head><script src="app/pages/preflight.js"></script>'
        '<script src="app/python/start-python.js" data-without-python="quiz poll"></script></head>'
    )
    assert scorm.demos_without_python(page) == ["quiz", "poll"]
    assert scorm.demos_without_python('<script src="app/python/start-python.js"></script>') == []


def test_a_rebuild_rewrites_a_package_only_when_a_file_changed(tmp_path):
    site = small_site(tmp_path / "site")
    first = scorm.write_packages(site, site / "scorm")
    assert [p.name for p in first] == [
        "positional-encoding-lab.zip",
        "positional-encoding-lab-quiz.zip",
    ]
    with zipfile.ZipFile(first[0]) as archive:
        assert checked_manifest(archive)["files"] == [
            "app/a.js",
            "embed.html",
            "index.html",
            "launch.html",
        ]
    written = [p.stat().st_mtime_ns for p in first]
    again = scorm.write_packages(site, site / "scorm")
    assert [p.stat().st_mtime_ns for p in again] == written  # nothing changed: nothing written
    (site / "app" / "a.js").write_text("export const a = 2;\n")
    changed = scorm.write_packages(site, site / "scorm")
    with zipfile.ZipFile(changed[1]) as archive:
        assert archive.read("app/a.js") == b"export const a = 2;\n"
    assert not list((site / "scorm").glob("*.part"))


def test_the_teacher_s_grading_goes_into_every_manifest_and_a_change_rewrites_them(tmp_path):
    site = small_site(tmp_path / "site")
    scorm.write_packages(site, site / "scorm")
    graded = scorm.write_packages(site, site / "scorm", scorm.grading("65", "2"))
    for package in graded:
        with zipfile.ZipFile(package) as archive:
            manifest = checked_manifest(archive)
        assert (manifest["mastery"], manifest["launch_data"]) == ("65", "attempts=2")
    thin = scorm.write_thin_package(DIST, "https://example.org/a/", tmp_path, scorm.grading(90, 1))
    with zipfile.ZipFile(thin) as archive:
        manifest = checked_manifest(archive)
    assert (manifest["mastery"], manifest["launch_data"]) == ("90", "attempts=1")


def test_the_thin_package_is_a_few_kb_framing_the_hosted_lesson(tmp_path):
    package = scorm.write_thin_package(DIST, "https://example.org/courses/lab", tmp_path)
    assert package.stat().st_size < 20_000
    with zipfile.ZipFile(package) as archive:
        manifest = checked_manifest(archive)
        launch = archive.read("launch.html").decode()
    assert manifest["launch"] == "launch.html" and manifest["mastery"] == "80"
    assert sorted(manifest["files"]) == [
        "app/lms/relay.css",
        "app/lms/relay.js",
        "app/lms/scorm.js",
        "launch.html",
    ]
    assert 'src="https://example.org/courses/lab/index.html"' in launch
    assert "frame-src https://example.org;" in launch and "<script>" not in launch


def test_the_thin_launch_page_shows_an_odd_address_as_text():
    page = scorm.thin_launch_page(scorm.site_address('https://example.org/a"><script>alert(1)</script>/'))
    assert "<script>alert" not in page and "&lt;script&gt;" in page


@pytest.mark.parametrize(
    "url",
    [
        "ftp://example.org/lab/",
        "example.org/lab",
        "javascript:alert(1)",
        "https://example.org/?a=1",
        "https:///lab",
    ],
)
def test_a_bad_scorm_site_is_refused_with_a_message_that_says_what_is_wanted(url, tmp_path):
    with pytest.raises(SystemExit, match=r"--scorm-site wants the"):
        scorm.write_thin_package(DIST, url, tmp_path)
    assert not list(tmp_path.iterdir())
