"""tools/scorm.py: the SCORM 1.2 packages in dist/scorm/. Each manifest is parsed with the
standard library and checked for what SCORM 1.2 requires; every file it lists is in the zip and
every file in the zip is listed; a full package is the built site, byte for byte, less what an
LMS cannot use; the thin one is a few KB framing the hosted site."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
import zipfile
import zlib
from pathlib import Path

import pytest

from site_server import DIST
from tools import scorm, site
from tools.project import ROOT

CP = "{http://www.imsproject.org/xsd/imscp_rootv1p1p2}"
ADLCP = "{http://www.adlnet.org/xsd/adlcp_rootv1p2}"
SCORM_JS = (ROOT / "app" / "lms" / "scorm.js").read_text()
EMBED_JS = (ROOT / "app" / "pages" / "embed.js").read_text()
FULL = sorted((DIST / "scorm").glob("*.zip"))


def checked_manifest(archive: zipfile.ZipFile) -> dict:
    """The manifest's launch, parameters and mastery score, after checking SCORM 1.2's required
    structure and that the files it lists are exactly those in the zip (less itself)."""
    root = ET.fromstring(archive.read("imsmanifest.xml"))
    assert root.tag == f"{CP}manifest" and root.get("identifier")
    assert root.findtext(f"{CP}metadata/{CP}schema") == "ADL SCORM"
    assert root.findtext(f"{CP}metadata/{CP}schemaversion") == "1.2"
    organizations = root.find(f"{CP}organizations")
    organization = organizations.find(f"{CP}organization")
    assert organizations.get("default") == organization.get("identifier")
    assert organization.findtext(f"{CP}title")
    items = organization.findall(f"{CP}item")
    assert len(items) == 1 and items[0].findtext(f"{CP}title")
    resources = root.findall(f"{CP}resources/{CP}resource")
    assert len(resources) == 1
    resource = resources[0]
    assert items[0].get("identifierref") == resource.get("identifier")
    assert resource.get("type") == "webcontent" and resource.get(f"{ADLCP}scormtype") == "sco"
    listed = [file.get("href") for file in resource.findall(f"{CP}file")]
    assert len(listed) == len(set(listed))
    in_zip = [name for name in archive.namelist() if name != "imsmanifest.xml"]
    assert sorted(listed) == sorted(in_zip)
    assert resource.get("href") in listed
    assert archive.testzip() is None  # every entry's CRC checks out
    mastery = items[0].findtext(f"{ADLCP}masteryscore")
    return {
        "launch": resource.get("href"),
        "parameters": items[0].get("parameters"),
        "mastery": mastery,
        "files": listed,
    }


def test_there_is_a_package_for_the_lesson_and_one_per_graded_demo():
    lesson = "".join(page.read_text() for page in scorm.lesson_pages(DIST))
    assert len(scorm.lesson_pages(DIST)) > 1  # the chapters' pages
    graded = scorm.graded_demos(lesson)
    # the quiz is graded once the lesson has a whole-lesson test (questions with data-test)
    assert ("quiz" in graded) == ('data-test="lesson"' in lesson)
    assert [p.name for p in FULL] == sorted(
        ["positional-encoding-lab.zip", *(f"positional-encoding-lab-{d}.zip" for d in graded)]
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


@pytest.mark.parametrize("package", FULL, ids=lambda p: p.stem)
def test_each_full_package_is_valid_scorm_1_2_and_is_the_built_site(package):
    with zipfile.ZipFile(package) as archive:
        manifest = checked_manifest(archive)
        assert manifest["mastery"] == str(scorm.MASTERY_SCORE) == "80"
        # the built site, less the .br/.gz siblings, the service worker and the packages themselves
        built = sorted(
            p.relative_to(DIST).as_posix()
            for p in DIST.rglob("*")
            if p.is_file() and p.suffix not in (".br", ".gz") and p.parent != DIST / "scorm"
        )
        built.remove("service-worker.js")
        # a demo without Python (the quiz) leaves Python's files out: its package is 0.3 MB
        if "lesson=none" in (manifest["parameters"] or ""):
            built = [name for name in built if name.split("/")[0] not in scorm.PYTHON_FOLDERS]
            assert package.stem.removeprefix(
                "positional-encoding-lab-"
            ) in scorm.demos_without_python((DIST / "embed.html").read_text())
        assert sorted(manifest["files"]) == built
        for name in built:
            assert archive.getinfo(name).CRC == zlib.crc32((DIST / name).read_bytes()), name
    assert package.stat().st_size < 50e6  # LMS upload limits are often 50 to 100 MB


def test_a_file_of_an_earlier_build_never_goes_into_the_packages(tmp_path, monkeypatch):
    """The build drops what it no longer makes before it packs dist/: a previous build's Pyodide
    folder (named by its content's hash) once went into both packages, doubling their size."""
    import shutil

    shutil.copytree(DIST, tmp_path / "dist", ignore=shutil.ignore_patterns("scorm"))
    stale = tmp_path / "dist" / "pyodide" / "0.27.7-000000000000" / "python_stdlib.zip"
    stale.parent.mkdir()
    stale.write_bytes(b"an earlier build's")
    monkeypatch.setattr(site, "DIST", tmp_path / "dist")
    site.build()
    assert not stale.parent.exists()
    for package in (tmp_path / "dist" / "scorm").glob("*.zip"):
        with zipfile.ZipFile(package) as archive:
            assert not [name for name in archive.namelist() if "000000000000" in name], package.name


def test_the_packages_launch_the_lesson_or_the_demo_as_launched_by_an_lms():
    parameter = re.search(r'LAUNCH_PARAMETER = \["(\w+)", "(\w+)"\]', SCORM_JS).groups()
    assert f"?{parameter[0]}={parameter[1]}" == scorm.LAUNCH_PARAMETERS
    assert f"DEFAULT_MASTERY_SCORE = {scorm.MASTERY_SCORE};" in SCORM_JS
    with zipfile.ZipFile(DIST / "scorm" / "positional-encoding-lab.zip") as archive:
        lesson = checked_manifest(archive)
    assert (lesson["launch"], lesson["parameters"]) == ("index.html", "?lms=scorm12")
    quiz_package = DIST / "scorm" / "positional-encoding-lab-quiz.zip"
    if not quiz_package.exists():  # no whole-lesson test yet: no question has data-test
        return
    with zipfile.ZipFile(quiz_package) as archive:
        quiz = checked_manifest(archive)
    assert (quiz["launch"], quiz["parameters"]) == (
        "embed.html",
        "?demo=quiz&lms=scorm12&lesson=none",
    )
    assert 'query.get("lesson") === "none"' in EMBED_JS and scorm.WITHOUT_LESSON == "&lesson=none"


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
        assert checked_manifest(archive)["files"] == ["app/a.js", "embed.html", "index.html"]
    written = [p.stat().st_mtime_ns for p in first]
    again = scorm.write_packages(site, site / "scorm")
    assert [p.stat().st_mtime_ns for p in again] == written  # nothing changed: nothing written
    (site / "app" / "a.js").write_text("export const a = 2;\n")
    changed = scorm.write_packages(site, site / "scorm")
    with zipfile.ZipFile(changed[1]) as archive:
        assert archive.read("app/a.js") == b"export const a = 2;\n"
    assert not list((site / "scorm").glob("*.part"))


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
