"""`build.py packages --sections a,b,c` (tools/lesson.py: chosen_sections, assemble_custom): a
lesson of just those sections, numbered from 1, its contents, cross-references to absent sections
as plain text, only their questions, the "Remember this" lines of just those sections and the
free cell last; an unknown name fails with the valid ones. tools/scorm.py packs it into
packages/custom/, beside dist/, never in it."""

from __future__ import annotations

import re
import zipfile

import pytest

import tools.course as course
import tools.lesson as lesson
from scorm_manifest import checked_manifest, launch_target
from site_server import DIST
from tools import packages, scorm
from tools.custom_lesson import ADDED_BY_ITSELF, assemble_custom, chosen_sections
from tools.lesson import section_titles

COURSE = list(section_titles())
CHOSEN = ["attention", "heatmap", "rope"]
TITLE, PAGE = assemble_custom(CHOSEN)


def section_of(page: str, name: str) -> str:
    return page.split(f'<section id="{name}"', 1)[1].split("</section>", 1)[0]


def test_the_sections_are_taken_in_the_course_s_order_whatever_order_they_are_named_in():
    assert chosen_sections("rope, attention,heatmap") == CHOSEN
    assert chosen_sections("stretching") == ["stretching"]


@pytest.mark.parametrize(
    "asked, says",
    [
        ("attention,heatmaps", "there is no section heatmaps"),
        ("", "it names no section"),
        (" , ", "it names no section"),
        ("attention,quiz", "quiz comes by itself, last"),
    ],
)
def test_an_unknown_section_fails_with_the_list_of_valid_ones(asked, says):
    valid = ",".join(name for name in COURSE if name not in ADDED_BY_ITSELF)
    with pytest.raises(SystemExit, match=re.escape(says)) as failed:
        chosen_sections(asked)
    assert f"from: {valid} (quiz, remember, cell come by themselves, last)" in str(failed.value)


def test_a_section_named_twice_fails():
    with pytest.raises(SystemExit, match="--sections names rope twice"):
        chosen_sections("rope,heatmap,rope")


def test_the_sections_are_numbered_from_1_with_the_questions_reminders_and_free_cell_last():
    steps = re.findall(r'<h2 id="([\w-]+)-title"><span class="step">(\d+)</span>', PAGE)
    assert steps == [(name, str(n)) for n, name in enumerate([*CHOSEN, *ADDED_BY_ITSELF], 1)]
    assert steps[-1][0] == "cell"
    # its contents: the map lists these sections, this page's, and no other page of the course
    mapped = re.findall(r'<li data-section="([\w-]+)" data-minutes="\d+"><a href="#\1">', PAGE)
    assert mapped == [name for name, _ in steps]
    course_map = re.search(r'<nav class="course-map".*?</nav>', PAGE, flags=re.S).group(0)
    assert re.findall(r'href="([^"#]+)', course_map) == ["custom.html"]
    minutes = sum(map(int, re.findall(r'data-minutes="(\d+)"', course_map)))
    assert (
        f'<p class="map-course">This lesson, about <span class="number">{minutes}</span> '
        "minutes</p>" in course_map
    )
    assert "· Chapter <span" not in PAGE and "A lesson of selected sections" in PAGE


def test_a_reference_to_an_absent_section_is_plain_text_numbered_as_in_the_full_course():
    absent = re.findall(
        r'<span class="section-ref-absent">[Ss]ections? <span class="number">(\d+)</span> of the '
        r"full course</span>",
        PAGE,
    )
    assert absent, "rope refers to sections this lesson leaves out"
    assert {COURSE[int(n) - 1] for n in absent} <= set(COURSE) - set(CHOSEN)
    # no link leads to a section the page lacks, nor to another page's section
    ids = set(re.findall(r'\bid="([\w-]+)"', PAGE))
    assert {target for target in re.findall(r'href="#([\w-]+)"', PAGE)} <= ids
    chapters = set(lesson.page_of_sections().values())
    assert not {page for page in re.findall(r'href="([\w-]+\.html)#', PAGE) if page in chapters}
    # a reference to a section it holds is numbered by this lesson, and linked
    here = assemble_custom(["relative", "rope"])[1]
    assert re.search(
        r'<a href="#relative" class="section-ref">[Ss]ection <span class="number">1</span></a>',
        here,
    )


def test_only_the_chosen_sections_questions_are_in_the_quiz():
    """The lesson's test (its quiz section) holds the chosen sections' test items, as the whole
    course's test does; each section's check stays right after it."""
    quiz = section_of(PAGE, "quiz")
    tagged = re.findall(r'<fieldset class="quiz-question"[^>]*data-section="([\w-]+)"', quiz)
    assert tagged and set(tagged) == set(CHOSEN)
    whole = section_of(lesson.assemble()["review.html"], "quiz")
    for name in CHOSEN:  # all of each chosen section's test items
        assert tagged.count(name) == len(
            re.findall(rf'<fieldset class="quiz-question"[^>]*data-section="{name}"', whole)
        )
    checks = re.findall(r'<aside class="quiz-check" data-section="([\w-]+)"', PAGE)
    assert checks == CHOSEN


def test_remember_this_keeps_the_lines_of_the_chosen_sections_only():
    source = (lesson.SOURCES / "remember.html").read_text()
    lines = re.findall(r'<li data-sections="([\w -]+)">', source)
    kept = re.findall(r'<li data-sections="([\w -]+)">', section_of(PAGE, "remember"))
    assert kept == [tags for tags in lines if set(tags.split()) & set(CHOSEN)]
    assert 0 < len(kept) < len(lines)
    # every line of the source names sections of the course; the course keeps them all
    assert all(set(tags.split()) <= set(COURSE) for tags in lines)
    assert len(re.findall(r"<li data-sections=", (DIST / "review.html").read_text())) == len(lines)


def test_a_reminder_line_that_names_no_section_stops_the_build(tmp_path, monkeypatch):
    for path in lesson.SOURCES.glob("*.html"):
        (tmp_path / path.name).write_text(path.read_text())
    remember = tmp_path / "remember.html"
    remember.write_text(remember.read_text().replace('<li data-sections="alibi">', "<li>", 1))
    monkeypatch.setattr(course, "SOURCES", tmp_path)
    with pytest.raises(SystemExit, match=r"remember\.html: a line names no section, but each"):
        lesson.assemble()
    remember.write_text(remember.read_text().replace("<li>", '<li data-sections="alibis">', 1))
    with pytest.raises(SystemExit, match="a line names alibis, not a section, but each"):
        assemble_custom(CHOSEN)


def test_the_custom_package_is_the_built_site_with_its_page_beside_dist(tmp_path):
    package = scorm.write_custom_package(DIST, tmp_path, CHOSEN, PAGE, scorm.grading(70, 2))
    assert package.name == "positional-encoding-lab-custom-attention-heatmap-rope.zip"
    with zipfile.ZipFile(package) as archive:
        manifest = checked_manifest(archive)
        assert archive.read("custom.html").decode() == PAGE
        opens = launch_target(archive.read("launch.html").decode())
    assert (manifest["mastery"], manifest["launch_data"]) == ("70", "attempts=2")
    assert opens == ("custom.html", "lms=scorm12&sco=custom")
    assert f"?{opens[1]}" == manifest["parameters"]
    assert set(scorm.package_files(DIST)) < set(manifest["files"])
    assert "attention, heatmap, rope" in manifest["title"]
    written = package.stat().st_mtime_ns
    scorm.write_custom_package(DIST, tmp_path, CHOSEN, PAGE, scorm.grading(70, 2))
    assert package.stat().st_mtime_ns == written  # nothing changed: nothing written
    assert not (DIST / "custom.html").exists() and not (DIST / "scorm" / package.name).exists()


def test_an_unknown_section_or_a_thin_build_stops_the_build_before_any_work(tmp_path):
    out = {"dist": tmp_path / "dist", "out": tmp_path / "packages"}
    with pytest.raises(SystemExit, match="there is no section no-such-section"):
        packages.make_packages(sections="attention,no-such-section", **out)
    with pytest.raises(SystemExit, match="--sections makes a full package"):
        packages.make_packages(sections="attention", scorm_site="https://example.org/lab/", **out)
    assert not (tmp_path / "dist").exists() and not (tmp_path / "packages").exists()


def test_a_lesson_leaves_out_an_empty_quiz_and_an_empty_remember_this(tmp_path, monkeypatch):
    """The quiz and "Remember this" come only when they would hold something of the sections
    chosen: here rope's questions and its reminder line are taken out of a copy of the sources."""
    for path in lesson.SOURCES.glob("*.html"):
        (tmp_path / path.name).write_text(path.read_text())
    rope = tmp_path / "rope.html"
    text = rope.read_text()
    rope.write_text(text[: text.index("\n", text.index("</section>")) + 1])
    remember = tmp_path / "remember.html"
    remember.write_text(
        re.sub(r' *<li data-sections="rope">.*?</li>\n', "", remember.read_text(), flags=re.S)
    )
    monkeypatch.setattr(course, "SOURCES", tmp_path)
    page = assemble_custom(["rope"])[1]
    steps = re.findall(r'<h2 id="([\w-]+)-title"><span class="step">(\d+)</span>', page)
    assert steps == [("rope", "1"), ("cell", "2")]
    with_attention = assemble_custom(["attention", "rope"])[1]
    assert re.findall(r'<h2 id="([\w-]+)-title">', with_attention) == [
        "attention",
        "rope",
        "quiz",
        "remember",
        "cell",
    ]
