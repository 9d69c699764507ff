"""tools/teacher_kit.py and what it writes: teaching.html (the instructor notes) with the build's
minutes and every section's exam trap, answer-key.html from the questions' markup (choice,
true/false and numeric, checks and end-test items), which no learner's page links and
`--no-answer-key` leaves out, scorm/packages.json (the guide's download links: none in dist/,
every package in packages/scorm/), and the licences: LICENSE, THIRD-PARTY.md naming every
vendored part, the README and every page's footer."""

from __future__ import annotations

import html
import json
import re
import zipfile

import pytest

import build as build_cli
from site_server import DIST, SCORM_PACKAGES, needs_packages
from tools import course, teacher_kit
from tools.course import PARAM, read_course
from tools.lesson import number, plain
from tools.project import ROOT, BuildError
from tools.teacher_kit import MapChapter, MapSection

KIT_PAGES = (teacher_kit.TEACHING, teacher_kit.ANSWER_KEY, teacher_kit.REPORT)
LEARNER_PAGES = [p for p in DIST.glob("*.html") if p.name not in KIT_PAGES]
SECTIONS = read_course().names

CHOICE = """
<!-- questions -->
      <fieldset class="quiz-question" data-kind="choice" data-refers="toy-fact">
        <legend>Which is <em>right</em>? See <a href="#toy" class="section-ref">section</a>.</legend>
          <label class="quiz-option"><input type="radio" name="q-a" value="0" data-why="Not so: it is the other."> The first</label>
          <label class="quiz-option"><input type="radio" name="q-a" value="1" data-correct> The second</label>
        <p class="quiz-feedback" aria-live="polite" hidden></p>
        <p class="quiz-explain" hidden>Because the second is.</p>
      </fieldset>
      <fieldset class="quiz-question" data-kind="numeric" data-test data-setup="toy">
        <legend>Set the sliders so, and read the value.</legend>
        <label class="quiz-answer">Your answer <input type="text" inputmode="decimal" name="q-b" data-answer="0.54" data-tolerance="0.01" data-why="A value near 0.84 is the sine."></label>
        <p class="quiz-feedback" aria-live="polite" hidden></p>
        <p class="quiz-explain" hidden>cos(1) = 0.5403.</p>
      </fieldset>
"""  # noqa: E501 (the markup as a lesson source has it)


TOY_STEP = 4  # the toy section's number in its course


def toy_course(tmp_path, monkeypatch, questions: str) -> list[MapChapter]:
    (tmp_path / "toy.html").write_text(
        '<section id="toy"><h2 id="toy-title">Toy</h2>'
        '<p id="toy-fact">A fact.</p></section>\n' + questions,
        encoding="utf-8",
    )
    monkeypatch.setattr(course, "SOURCES", tmp_path)
    toy = course.read_section("toy")
    return [
        MapChapter("toys", "toys.html", "Toys", 3, [MapSection("toy", TOY_STEP, "Toy", 3, toy)])
    ]


def test_the_key_gives_each_question_its_place_id_and_codes_but_not_its_key(
    tmp_path, monkeypatch
):
    chapters = toy_course(tmp_path, monkeypatch, CHOICE)
    key = teacher_kit.answer_key(chapters)
    items = re.findall(r'<li class="key-item".*?</li>(?=<li class="key-item"|</ol>)', key, re.S)
    assert len(items) == 2
    choice, numeric = items
    assert 'data-number="1"' in choice and 'data-number="2"' in numeric
    assert "Which is <em>right</em>? See " in choice
    # a reference numbered
    assert f'<a href="toys.html#toy">section {number(TOY_STEP)}</a>' in choice
    # its interaction id and version, each option with the code the LMS records
    assert 'data-interaction="q-a"' in choice and 'id="item-q-a"' in choice
    assert "Interaction id <code>q-a</code>, version <code>a</code>" in choice
    assert re.findall(r'data-code="(\w+)"><code class="key-code">\1</code><p', choice) == [
        "0", "1"
    ]
    # where the learner meets each, numbered as there
    assert f"check after section {number(TOY_STEP)}, question {number(1)}" in choice
    assert 'href="toys.html#toy-fact"' in choice
    assert (
        f"end test of chapter {number(1)}, question {number(1)}; whole-lesson test, question "
        f"{number(1)}"
    ) in numeric
    assert "a number" in numeric and "the number as the learner typed it" in numeric
    assert f"set the demo of section {number(TOY_STEP)}" in numeric
    # and no key: no answer, explanation or "why" (app/pages/answer-key.js fills them in)
    for secret in ("Because the second is.", "Not so: it is the other.", "0.54", "cos(1)",
                   "A value near 0.84", "data-correct", "Answer:"):
        assert secret not in key, secret


def test_a_version_s_interaction_id_and_a_true_false_question_s_codes(tmp_path, monkeypatch):
    truefalse = CHOICE.replace('data-kind="choice"', 'data-kind="truefalse"').replace(
        "The first</label>", "True</label>").replace("The second</label>", "False</label>")
    [chapter] = toy_course(tmp_path, monkeypatch, truefalse)
    question = chapter.sections[0].questions[0]
    assert [question.response_code(o) for o in question.options] == ["t", "f"]
    assert (question.item, question.interaction_id) == ("q-a", "q-a")
    # a parallel version: named NAME.b, as its inputs are, and its item's
    question.name, question.version, question.version_of = "q-a.b", "b", "q-a"
    assert (question.item, question.interaction_id) == ("q-a", "q-a.b")


@pytest.mark.parametrize(
    "broken, says",
    [
        (CHOICE.replace('value="0" data-why="Not so: it is the other."', 'value="0" data-correct'),
         "needs exactly one option with data-correct; it has 2"),
        (CHOICE.replace(' data-correct>', ' data-why="no">'),
         "needs exactly one option with data-correct; it has 0"),
        (CHOICE.replace(' data-answer="0.54"', ""), 'its input needs data-answer="NUMBER"'),
        (CHOICE.replace('<p class="quiz-explain" hidden>cos(1) = 0.5403.</p>', ""),
         'needs its explanation, <p class="quiz-explain" hidden>'),
    ],
)
def test_a_question_without_its_key_stops_the_build_and_names_its_file(
    tmp_path, monkeypatch, broken, says
):
    with pytest.raises(BuildError, match=re.escape(says)) as error:
        teacher_kit.answer_key(toy_course(tmp_path, monkeypatch, broken))
    assert "lesson/toy.html" in str(error.value)


def test_the_built_key_holds_every_question_of_the_lesson_once_in_order():
    key = (DIST / teacher_kit.ANSWER_KEY).read_text(encoding="utf-8")
    # a template's legend names its numbers (its variants' are in its table)
    legends = [
        plain(PARAM.sub(r"\1", question.legend)) for question in read_course().questions
    ]
    shown = [
        plain(q)
        for q in re.findall(
            r'<p class="key-question"><span class="key-number">\d+\.</span> (.*?)</p>', key, re.S
        )
    ]
    assert legends and shown == legends
    assert re.findall(r'data-number="(\d+)"', key) == [str(n) for n in range(1, len(legends) + 1)]


def test_no_learner_page_links_the_answer_key_and_the_kit_does():
    assert LEARNER_PAGES and all(
        teacher_kit.ANSWER_KEY not in page.read_text(encoding="utf-8") for page in LEARNER_PAGES
    )
    assert f'href="{teacher_kit.ANSWER_KEY}"' in (DIST / teacher_kit.TEACHING).read_text()


def test_no_answer_key_leaves_it_out_and_the_kit_says_how_it_was_built(monkeypatch):
    kit = teacher_kit.kit_pages(with_answer_key=False)
    assert list(kit) == [teacher_kit.TEACHING, teacher_kit.REPORT]
    assert "built without its answer key" in kit[teacher_kit.TEACHING]
    for page in kit.values():  # no link to it, from the kit's pages
        assert f'href="{teacher_kit.ANSWER_KEY}' not in page
    # build.py's option reaches the build.
    seen = {}
    monkeypatch.setattr(build_cli, "build", lambda **options: seen.update(options))
    build_cli.main(["build", "--no-answer-key"])
    assert seen["answer_key"] is False
    build_cli.main(["build"])
    assert seen["answer_key"] is True


def test_the_kit_has_every_chapter_with_the_builds_minutes_and_every_exam_trap():
    teaching = (DIST / teacher_kit.TEACHING).read_text(encoding="utf-8")
    entrance = (DIST / "index.html").read_text(encoding="utf-8")
    chapters = re.findall(
        r'data-chapter="([\w-]+)">\s*<h3>.*?<span class="minutes">'
        r'<span class="number">(\d+)</span> min</span></h3>',
        entrance,
        flags=re.S,
    )
    kit = re.findall(
        r'<section class="kit-chapter" data-chapter="([\w-]+)".*?'
        r'<span class="kit-minutes">(\d+)</span>',
        teaching,
        flags=re.S,
    )
    assert kit == chapters
    for name in SECTIONS:  # each section's minutes, as the entrance lists them
        shown = re.search(rf'<li data-section="{name}">.*?(\d+)</span> min</span></li>', entrance)
        row = re.search(rf'<tr data-section="{name}">.*?kit-minutes">(\d+)<', teaching)
        assert row and row.group(1) == shown.group(1), name
    traps = [
        (name, html.unescape(trap.label))
        for name, section in read_course().sections.items()
        for trap in section.traps
    ]
    listed = re.findall(
        r'<li data-section="([\w-]+)"><strong>([^<]*)</strong>', teaching
    )
    assert traps and [(n, html.unescape(label)) for n, label in listed] == traps
    prerequisites = re.search(r'<p class="kit-prerequisites">(.*?)</p>', teaching, re.S)
    assert prerequisites and plain(prerequisites.group(1)) in plain(entrance)
    assert teaching.count('<ul class="kit-goals"><li>') == len(chapters)
    assert teaching.count('<ul class="kit-prompts"><li>') == len(chapters)


def test_notes_must_match_the_chapters(tmp_path, monkeypatch):
    notes = teacher_kit.TEACHING_NOTES.read_text(encoding="utf-8")
    missing = tmp_path / "missing.html"
    missing.write_text(re.sub(r'<div class="chapter-notes" data-chapter="geometry">.*?</div>',
                              "", notes, flags=re.S))
    monkeypatch.setattr(teacher_kit, "TEACHING_NOTES", missing)
    with pytest.raises(BuildError, match="no notes for the chapter geometry"):
        teacher_kit.kit_pages()
    unknown = tmp_path / "unknown.html"
    unknown.write_text(notes.replace('data-chapter="geometry"', 'data-chapter="geometri"'))
    monkeypatch.setattr(teacher_kit, "TEACHING_NOTES", unknown)
    with pytest.raises(BuildError, match="chapter geometri, which index.html does not list"):
        teacher_kit.kit_pages()
    empty = tmp_path / "empty.html"
    empty.write_text(re.sub(r'<ul class="prompts">.*?</ul>', '<ul class="prompts"></ul>',
                            notes, count=1, flags=re.S))
    monkeypatch.setattr(teacher_kit, "TEACHING_NOTES", empty)
    with pytest.raises(BuildError, match='needs a <ul class="prompts"> with at least one item'):
        teacher_kit.kit_pages()


@needs_packages
def test_the_package_list_is_every_package_the_build_wrote_with_its_size_and_title():
    listed = json.loads((SCORM_PACKAGES / teacher_kit.PACKAGE_LIST).read_text())["packages"]
    zips = sorted(SCORM_PACKAGES.glob("*.zip"))
    assert sorted(p["file"] for p in listed) == [z.name for z in zips]
    # dist/ holds none: its list, which the guide reads unless packages/scorm/ is copied over it
    assert json.loads((DIST / "scorm" / teacher_kit.PACKAGE_LIST).read_text()) == {"packages": []}
    for entry in listed:
        package = SCORM_PACKAGES / entry["file"]
        assert entry["bytes"] == package.stat().st_size
        with zipfile.ZipFile(package) as archive:
            manifest = archive.read("imsmanifest.xml").decode()
            assert teacher_kit.PACKAGE_LIST not in " ".join(archive.namelist())
        assert f"<title>{html.escape(entry['title'])}</title>" in manifest


@needs_packages
def test_no_scorm_package_holds_the_answer_key():
    packages = sorted(SCORM_PACKAGES.glob("*.zip"))
    assert packages
    for package in packages:
        with zipfile.ZipFile(package) as archive:
            assert teacher_kit.ANSWER_KEY not in archive.namelist(), package.name


def test_the_package_list_of_a_zip_without_a_title_stops_the_build(tmp_path):
    package = tmp_path / "x.zip"
    with zipfile.ZipFile(package, "w") as archive:
        archive.writestr("imsmanifest.xml", "<manifest><organizations/></manifest>")
    with pytest.raises(BuildError, match="x.zip: its imsmanifest.xml has no organization title"):
        teacher_kit.package_list([package])
    assert json.loads(teacher_kit.package_list([])) == {"packages": []}


def test_the_guide_no_longer_promises_a_package_per_demo_and_links_the_kit():
    guide = (ROOT / "embedding.html").read_text(encoding="utf-8")
    assert "one package per demo with questions in it" not in guide
    assert 'href="teaching.html"' in guide and 'class="scorm-downloads"' in guide


def test_the_licences_are_stated_and_every_vendored_part_is_named():
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")
    assert "CC BY 4.0" in (ROOT / "README.md").read_text()
    notice = (ROOT / "THIRD-PARTY.md").read_text().lower()
    wheels = {
        re.sub(r"[-_.]+", "-", w.name.split("-")[0]).lower()
        for w in DIST.glob("pyodide/*/*.whl")
    }
    assert wheels, "no vendored wheel in dist/"
    assert sorted(w for w in wheels if f"| {w} |" not in notice) == []
    dependencies = json.loads((ROOT / "package.json").read_text())["dependencies"]
    for name in dependencies:  # a scoped package by its scope: `@codemirror/*`
        assert name.split("/")[0] in notice, name
    for name in ("pyodide", "mpl-2.0", "psf license", "codemirror"):
        assert name in notice
    built = [*LEARNER_PAGES, *(DIST / page for page in KIT_PAGES)]
    for page in built:
        if page.name == "embed.html":  # a demo alone in someone else's page: no footer
            continue
        footer = re.search(r"<footer.*?</footer>", page.read_text(encoding="utf-8"), re.S)
        assert footer and "CC BY 4.0" in footer.group(0) and "code MIT" in footer.group(0), page


@pytest.mark.parametrize("kit_page", KIT_PAGES)
def test_every_link_of_the_kit_lands_on_a_page_and_an_id_of_the_site(kit_page):
    text = (DIST / kit_page).read_text(encoding="utf-8")
    links = re.findall(r'href="([^"]+)"', text)
    local = [link for link in links if not re.match(r"https?:|data:", link)]
    assert local
    for link in local:
        name, _, fragment = link.partition("#")
        target = (DIST / (name or kit_page)).read_text(encoding="utf-8")
        assert not fragment or f'id="{fragment}"' in target, link


def test_the_answer_key_gives_each_exercise_its_worked_solution_as_the_lesson_has_it():
    key = (DIST / teacher_kit.ANSWER_KEY).read_text(encoding="utf-8")
    for name, exercise in read_course().exercises.items():
        item = re.search(
            rf'<li class="key-item" data-exercise="{name}">(.*?)</li>', key, flags=re.S
        )
        assert item, name
        solution = re.search(r"<pre [^>]*><code>(.*?)</code></pre>", item.group(1), flags=re.S)
        assert html.unescape(solution.group(1)) == exercise.solution
        assert f'pelab.check_exercise("{name}", globals())' in item.group(1)
        page = next(c.page for c in read_course().chapters if exercise.section in c.sections)
        assert f'href="{page}#exercise-{name}"' in item.group(1)


def test_the_kit_links_the_class_report_and_the_guide_s_example_is_a_graded_question():
    assert f'href="{teacher_kit.REPORT}"' in (DIST / teacher_kit.TEACHING).read_text()
    report = (DIST / teacher_kit.REPORT).read_text(encoding="utf-8")
    assert '<script type="module" src="app/pages/report.js">' in report
    assert 'type="file"' in report and 'role="alert"' in report
    # embedding.html's example of what an LMS's report shows names an item a graded test asks:
    # a test item that needs no demo set first
    guide = (ROOT / "embedding.html").read_text(encoding="utf-8")
    named = re.findall(r'<code class="graded-example">([\w.-]+)</code>', guide)
    graded = {q.interaction_id for q in read_course().questions if q.test and not q.setup}
    assert named and set(named) <= graded, named


def test_the_guide_lists_what_each_package_grades():
    """teaching.html names, for every package tools/scorm.py makes, the items its graded test
    asks (each by its name, the interaction id's item, with its question as the lesson asks it):
    the whole course's and the quiz's, the whole-lesson test's items; each chapter's, its end
    test's, or the whole-lesson test, or none. A question read off a live demo (data-setup) is
    in none: the quiz's package holds no Python."""
    page = (DIST / teacher_kit.TEACHING).read_text(encoding="utf-8")
    model = read_course()
    tests = [q for q in model.questions if q.test]
    assert any(q.setup for q in tests)  # the lesson has some, left out below
    graded = [q for q in tests if not q.setup]
    blocks = dict(
        re.findall(r"<h4\b[^>]*>(.*?)</h4>(.*?)(?=<h4\b|</section>)", page, flags=re.S)
    )
    items = {
        re.sub(r"<[^>]*>", "", heading): re.findall(r'<tr data-item="([\w.-]+)">', body)
        for heading, body in blocks.items()
    }
    lesson = "positional-encoding-lab.zip and positional-encoding-lab-quiz.zip"
    assert items[lesson] == [q.name for q in graded]
    for number_, chapter in enumerate(model.chapters, start=1):
        heading = f"positional-encoding-lab-chapter-{number_}-{chapter.name}.zip"
        own = [q.name for q in graded if q.section in chapter.sections]
        holds_quiz = "quiz" in chapter.sections
        assert items[heading] == ([] if holds_quiz else own), heading
        said = re.sub(r"<[^>]*>", "", blocks[next(h for h in blocks if heading in h)])
        if holds_quiz:
            assert "The whole-lesson test, as above." in said
        elif not own:
            assert "No test" in said
    # each with its question, as the lesson asks it
    first = graded[0]
    row = re.search(rf'<tr data-item="{first.name}">(.*?)</tr>', page).group(1)
    assert plain(first.legend) in plain(row)
    # every package the build makes is named
    zips = {p.name for p in SCORM_PACKAGES.glob("*.zip") if re.fullmatch(r"[\w-]+\.zip", p.name)}
    english = {z for z in zips if not re.match(r"positional-encoding-lab-(zh|es)\b", z)}
    if english:
        assert english == {n for h in items for n in re.findall(r"[\w-]+\.zip", h)}
