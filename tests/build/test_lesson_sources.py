"""The course is assembled from index.html (the entrance, with its chapters and their sections),
lesson/pages/chapter.html (a chapter page's frame) and lesson/NAME.html (one section each, with
its quiz questions): tools/lesson.py writes a page per chapter, numbers the steps, the quiz and
the cross-references from the order, writes the map, the minutes and the sliders, and refuses a
source that breaks the rules."""

from __future__ import annotations

import math
import re
import subprocess

import pytest

import tools.course as course
import tools.lesson as lesson
import tools.minutes as minutes
from site_server import DIST
from tools.languages import with_languages
from tools.lesson import SKELETON, SOURCES, assemble, section_titles, shown_value
from tools.project import ROOT, BuildError

PAGES = assemble()
PAGE = "".join(text for name, text in PAGES.items() if name != "index.html")  # the chapters
ENTRANCE = PAGES["index.html"]


def test_the_build_serves_the_assembled_pages():
    assert list(PAGES) == ["index.html", *dict.fromkeys(lesson.page_of_sections().values())]
    for name, text in PAGES.items():
        # as assembled, with the languages' links and menu added (tools/languages.py)
        assert (DIST / name).read_text(encoding="utf-8") == with_languages(name, text), name


def test_every_source_is_in_the_skeleton_once_and_the_skeleton_stays_small():
    names = re.findall(r"<!-- lesson: ([\w-]+) -->", SKELETON.read_text(encoding="utf-8"))
    assert sorted(names) == sorted(p.stem for p in SOURCES.glob("*.html"))
    assert len(set(names)) == len(names)
    assert SKELETON.stat().st_size < 40_000
    assert list(section_titles()) == names


def test_steps_contents_and_cross_references_follow_the_order():
    names = list(section_titles())
    steps = re.findall(r'<h2 id="([\w-]+)-title"><span class="step">(\d+)</span>', PAGE)
    assert steps == [(name, str(number)) for number, name in enumerate(names, start=1)]
    listed = re.findall(r'<li data-section="([\w-]+)"><a href="([\w-]+\.html)#\1">', ENTRANCE)
    assert listed == [(name, lesson.page_of_sections()[name]) for name in names]
    step_of = dict(steps)
    references = 0
    for page, text in PAGES.items():
        for target_page, target, number in re.findall(
            r'<a href="([\w-]+\.html)?#([\w-]+)" class="section-ref">[Ss]ections? '
            r'<span class="number">(\d+)</span></a>',
            text,
        ):
            assert step_of[target] == number
            # a section of another chapter is linked at its page
            here = lesson.page_of_sections()[target] == page
            assert target_page == ("" if here else lesson.page_of_sections()[target])
            references += 1
    assert references >= 10


def test_each_sections_check_follows_it_and_its_test_items_end_its_chapter():
    """A source's questions without data-test are its check, right after the section on its
    chapter's page, numbered from 1; those with it are in its chapter's end test and the
    whole-lesson test (tests/build/test_quiz_markup.py tests both on a small lesson). A test
    item's parallel versions (data-version-of) are neither, and a prediction check
    (data-placement) stands before the section's try line
    (test_a_prediction_is_asked_before_the_try_line_that_states_its_result)."""
    pages = assemble()
    for name in section_titles():
        source = (SOURCES / f"{name}.html").read_text(encoding="utf-8").split("</section>", 1)[1]
        fieldsets = re.findall(r'<fieldset class="quiz-question"[^>]*>', source)
        checks = [
            f for f in fieldsets if not re.search(r"\bdata-(test|version-of|placement)\b", f)
        ]
        page = pages[lesson.page_of_sections()[name]]
        after = page.split(f'<section id="{name}"', 1)[1].split("</section>", 1)[1]
        if not checks:
            assert not after.lstrip().startswith('<aside class="quiz-check"'), name
            continue
        block = after.split("</aside>", 1)[0]
        assert block.lstrip().startswith(f'<aside class="quiz-check" data-section="{name}"')
        numbers = re.findall(
            rf'data-section="{name}">\s*<legend><span class="quiz-number">(\d+)\.</span>', block
        )
        assert [int(n) for n in numbers] == list(range(1, len(checks) + 1)), name


def test_a_slider_is_one_line_in_the_source_and_three_elements_on_the_page():
    sources = "".join(p.read_text(encoding="utf-8") for p in SOURCES.glob("*.html"))
    assert sources.count("<lesson-slider ") == PAGE.count('type="range"') >= 30
    assert 'type="range"' not in sources  # no slider written out by hand
    assert lesson.expand_sliders(
        '    <lesson-slider id="x-base" name="base" data-scale="log10" min="1" max="6" step="0.05" '
        'value="4.05">'
        "Base <var>b</var></lesson-slider>\n",
        "t",
    ) == (
        '    <div class="control">\n'
        '      <label for="x-base">Base <var>b</var></label>\n'
        '      <input id="x-base" name="base" type="range" data-scale="log10" min="1" max="6" '
        'step="0.05" value="4.05">\n'
        '      <output for="x-base">11200</output>\n'
        "    </div>\n"
    )
    # As app/controls/slider.js shows a value: 3 significant figures on a log scale, then 6.
    assert [shown_value({"value": v}) for v in ("64", "0.5", "1.23456789")] == [
        "64",
        "0.5",
        "1.23457",
    ]
    assert shown_value({"value": "0.2", "data-scale": "log10"}) == "1.58"


QUESTION = (
    '<fieldset class="quiz-question" data-kind="truefalse"><legend>Q?</legend>'
    '<label class="quiz-option"><input type="radio" name="{name}" value="0" data-correct> True'
    '</label><label class="quiz-option"><input type="radio" name="{name}" value="1" '
    'data-why="It is true."> False</label><p class="quiz-explain" hidden>So it is.</p>'
    "</fieldset>\n"
)


@pytest.fixture
def sources(tmp_path, monkeypatch):
    """A lesson of two sections in tmp_path, with tools.lesson reading it."""
    (tmp_path / "one.html").write_text(
        '<section id="one"><h2 id="one-title">One</h2>'
        '<p>See <a href="#two" class="section-ref">section</a>.</p>\n'
        '<lesson-slider id="one-n" name="n" min="1" max="9" step="1" value="3">n</lesson-slider>\n'
        "</section>\n"
        + QUESTION.format(name="quiz-one")
    )
    (tmp_path / "two.html").write_text(
        '<section id="two"><h2 id="two-title">Two</h2>\n'
        "<!-- lesson-quiz-questions -->\n</section>\n"
    )
    monkeypatch.setattr(course, "SOURCES", tmp_path)
    return tmp_path


SMALL = (
    "<head><!-- course: old-links --></head><p><!-- course: start --></p>\n"
    '<ol>\n<li class="chapter" data-chapter="first">\n<h3>First</h3>\n<p>The start.</p>\n'
    "<!-- lesson: one -->\n</li>\n"
    '<li class="chapter" data-chapter="second">\n<h3>Second</h3>\n<p>The rest.</p>\n'
    "<!-- lesson: two -->\n</li>\n</ol>\n"
)


def test_a_small_lesson_assembles(sources):
    pages = assemble(SMALL)
    assert list(pages) == ["index.html", "first.html", "second.html"]
    first, second = pages["first.html"], pages["second.html"]
    assert '<h2 id="one-title"><span class="step">1</span> One</h2>' in first
    assert (
        '<a href="second.html#two" class="section-ref">section <span class="number">2</span></a>'
    ) in first
    listed = '<li data-section="one"><a href="first.html#one"><span class="step">1</span> One</a>'
    assert listed in pages["index.html"]
    assert (
        '<fieldset class="quiz-question" data-kind="truefalse" data-section="one">'
        '<legend><span class="quiz-number">1.</span> Q?</legend>'
    ) in first  # the section's check, on its page
    assert '<p class="quiz-empty note">' in second  # the whole-lesson test has no items
    assert '<output for="one-n">3</output>' in first
    assert '<a href="second.html">Next: chapter <span class="number">2</span>, Second</a>' in first
    assert '<a href="index.html">Back to the course overview</a>' in second
    assert '<title>Second · Positional Encoding Lab</title>' in second
    # the map: every section, this chapter's linked in the page, the others at theirs
    assert '<li data-section="two" data-minutes="' in first and 'href="second.html#two"' in first
    assert 'data-pages=\'{"first.html":["one"],"second.html":["two"]}\'' in pages["index.html"]


def minutes_of(body: str, name: str = "s", bench: dict | None = None, questions: int = 0):
    section = lesson.Section(name, 1, "S", "", [], f"<section>{body}</section>", questions)
    return minutes.section_minutes(section, bench)


def test_a_sections_minutes_count_its_words_each_control_its_runs_exercises_and_questions():
    """The method of docs/course.md, from tools/lesson.py's own constants: no number here is the
    method's."""
    wpm, control = minutes.READING_WPM, minutes.CONTROL_MINUTES
    words = " ".join(["word"] * (wpm * 2 - 10))  # just under two minutes of reading
    prose = f"<p>{words}</p>"
    assert minutes_of(prose) == 2
    slider = '<lesson-slider id="a" name="a" min="1" max="2" step="1" value="1">a</lesson-slider>'
    # each control by its kind, not a flat time: two sliders, a checkbox, a radio group (one
    # choice, however many buttons), a button, a text box and a code cell
    radios = "".join(f'<input type="radio" name="m" value="{v}">' for v in "abc")
    controls = (
        slider + slider.replace('"a"', '"b"') + '<input type="checkbox" name="c">' + radios
        + '<button type="button">Shuffle</button><input type="text" name="t">'
        + '<div class="cell" data-cell="x"></div>'
    )
    assert minutes.section_controls(controls) == {"slider": 2, "toggle": 3, "text": 1, "cell": 1}
    tried = 2 * control["slider"] + 3 * control["toggle"] + control["text"] + control["cell"]
    assert minutes_of(prose + controls) == math.ceil(words.count("word") / wpm + tried)
    # a fold ("Going deeper", "Show the Python") is off the core path: its words and controls
    fold = f'<details class="deeper"><summary>More</summary><p>{words}</p>{slider}</details>'
    shown = '<details class="show-python"><summary>Show</summary><div class="cell"></div></details>'
    assert minutes_of(prose + fold + shown) == 2
    # an experiment: its run time as the bench measured it, and its result to read; its buttons
    # are not controls to try
    run = '<div class="training-buttons"><button>Run</button><button>Stop</button></div>'
    figure = minutes.EXPERIMENT_BENCH["extrapolation"]
    bench = {figure: 90_000}  # a run of a minute and a half
    expected = math.ceil(words.count("word") / wpm + 1.5 + minutes.RESULT_MINUTES)
    assert minutes_of(prose + run, "extrapolation", bench) == expected
    # ... read from the bench's committed figures by default
    measured = minutes.bench_figures()[figure] / 60000
    assert minutes_of(prose + run, "extrapolation") == math.ceil(
        words.count("word") / wpm + measured + minutes.RESULT_MINUTES
    )
    with pytest.raises(BuildError, match="EXPERIMENT_BENCH does not time"):
        minutes_of(prose + run, "unbenched")
    # a prediction is a question, not a control
    predict = '<input type="radio" name="s-prediction" value="a"><input type="radio" ' \
        'name="s-prediction" value="b">'
    assert minutes_of(prose + predict) == 2 + minutes.QUESTION_MINUTES
    # an exercise is counted apart: its time covers its task, its cell, its hints and its
    # solution, none of which is the section's core path
    code = "<pre><code>" + " ".join(["x"] * 900) + "</code></pre>"
    exercise = (
        f'<div class="exercise"><p>{words}</p><div class="cell" data-exercise="e">{code}</div>'
        f'<details class="exercise-hint"><p>{words}</p></details></div>'
    )
    assert minutes_of(prose + exercise) == 2
    assert minutes.exercise_minutes(prose + exercise + exercise) == 2 * minutes.EXERCISE_MINUTES
    assert minutes_of("<p>word</p>", questions=22) == 1 + 22 * minutes.QUESTION_MINUTES


def chapter_minutes() -> dict[str, int]:
    minutes = lesson.course_minutes(course.read_course())
    chapters = course.read_course().chapters
    return {chapter.name: sum(minutes[name] for name in chapter.sections) for chapter in chapters}


def test_no_chapters_core_path_passes_the_limit_and_the_entrance_shows_the_estimate():
    """Each chapter's core path (its folds and its exercises left out) within
    CHAPTER_LIMIT_MINUTES (45), the course about three hours with the checks and tests
    (docs/course.md); the entrance shows each chapter's estimate, and its exercises' minutes
    beside it, as its page does."""
    estimated = chapter_minutes()
    over = {name: m for name, m in estimated.items() if m > minutes.CHAPTER_LIMIT_MINUTES}
    assert not over, f"over {minutes.CHAPTER_LIMIT_MINUTES} minutes: fold some caveats: {over}"
    assert 150 <= sum(estimated.values()) <= len(estimated) * minutes.CHAPTER_LIMIT_MINUTES
    shown = [
        int(m)
        for m in re.findall(
            r'<span class="minutes"><span class="number">(\d+)</span> min</span></h3>', ENTRANCE
        )
    ]
    assert shown == list(estimated.values())
    model = course.read_course()
    extra = {
        c.name: sum(minutes.exercise_minutes(model.sections[s].source) for s in c.sections)
        for c in model.chapters
    }
    assert sum(bool(m) for m in extra.values()) >= 4  # chapters 1 to 4 hold exercises
    said = [int(m) for m in re.findall(
        r'<p class="exercise-minutes">Its exercises take about <span class="number">(\d+)</span>',
        ENTRANCE)]
    assert said == [m for m in extra.values() if m]
    for chapter in model.chapters:
        page = (DIST / chapter.page).read_text(encoding="utf-8")
        lede = re.search(r'<span class="chapter-minutes">(.*?)</span></p>', page).group(1)
        plus = f', plus <span class="number">{extra[chapter.name]}</span> for its exercises'
        assert (plus in lede) == bool(extra[chapter.name]), lede


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda d: (d / "three.html").write_text('<section id="three"></section>'),
            r"lesson/three\.html is not in index\.html",
        ),
        (
            lambda d: (d / "two.html").unlink(),
            r"names the section two, but lesson/two\.html does not exist",
        ),
        (
            lambda d: (d / "two.html").write_text(
                '<section id="two"><h2 id="two-title">Two</h2> as section 1 shows</section>\n'
            ),
            r"lesson/two\.html types a section number \('section 1'\): link it instead",
        ),
        (
            lambda d: (d / "two.html").write_text(
                '<section id="two"><h2 id="two-title">Two</h2>'
                '<a href="#six" class="section-ref">section</a></section>\n'
            ),
            r"#six, which is no lesson section",
        ),
        (
            lambda d: (d / "two.html").write_text(
                '<section id="2"><h2 id="two-title">Two</h2></section>\n'
            ),
            r'lesson/two\.html must hold one <section id="two">',
        ),
        (
            lambda d: (d / "two.html").write_text(
                '<section id="two"><h2 id="two-title">Two</h2></section>\n<p>stray</p>\n'
            ),
            r"after </section> only its quiz questions may follow",
        ),
        (
            lambda d: (d / "two.html").write_text(
                '<section id="two"><h2 id="two-title">Two</h2>\n'
                '<lesson-slider id="a" name="a" min="1" max="2" value="1">a</lesson-slider>\n'
                "</section>\n"
            ),
            r"lesson/two\.html: a <lesson-slider> lacks step",
        ),
    ],
)
def test_a_broken_source_stops_the_build_naming_the_file_and_the_fix(sources, change, message):
    """SMALL's sections in tmp_path, one of them broken by `change`."""
    change(sources)
    with pytest.raises(SystemExit, match=message):
        assemble(SMALL)


# The tests of the numbering itself, which must write the numbers they expect.
NUMBERING_TESTS = ("tests/build/test_lesson_sources.py", "tests/build/test_quiz_markup.py")


def test_no_section_number_is_typed_in_the_code_or_the_docs():
    """Numbers come from the order: a comment or a doc that says "section 6" goes stale when a
    section is inserted. Name a section by its title or its id instead."""
    tracked = subprocess.run(
        [
            "git",
            "ls-files",
            "app",
            "py",
            "docs",
            "tools",
            "tests",
            "bench",
            "static",
            "lesson",
            "README.md",
            "CONTRIBUTING.md",
            "embed.html",
            "embedding.html",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    typed = []
    for name in tracked:
        if name.endswith((".png", ".zip", ".json")) or name in NUMBERING_TESTS:
            continue
        text = (ROOT / name).read_text(encoding="utf-8", errors="replace")
        text = re.sub(r'<a href="#[\w-]+" class="section-ref">[Ss]ections?</a>', "", text)
        for line_number, line in enumerate(text.splitlines(), start=1):
            # A paper's own numbered section ("RoFormer section 3.4.3", "§3") is not the lesson's.
            if re.search(r"\b[Ss]ections? \d+\b(?![.\d])", line) and "tools/lesson.py" not in name:
                typed.append(f"{name}:{line_number}: {line.strip()}")
    assert typed == []


@pytest.mark.parametrize(
    ("skeleton", "message"),
    [
        (
            SMALL.replace('<li class="chapter" data-chapter="second">\n<h3>Second</h3>\n', "")
            .replace("<p>The rest.</p>\n<!-- lesson: two -->\n</li>\n", "<!-- lesson: two -->\n"),
            r"lists the section two outside any chapter",
        ),
        (
            SMALL.replace("<!-- lesson: two -->\n", "").replace("<!-- lesson: one -->\n", "")
            + "<!-- lesson: one -->\n<!-- lesson: two -->\n",
            r'the chapter "first" lists no section',
        ),
        (SMALL.replace("<h3>Second</h3>\n", ""), r'the chapter "second" needs an <h3> title'),
    ],
)
def test_a_broken_chapter_list_stops_the_build(sources, skeleton, message):
    with pytest.raises(SystemExit, match=message):
        assemble(skeleton)


def test_every_demo_source_opens_its_demo_with_one_try_line_before_its_controls():
    """Predict, try, notice: each demo section but the quiz says what to do first, on one line
    just before the controls it is about (tests/browser/test_lesson.py checks it on the page,
    with the takeaways after the figures)."""
    for name in lesson.demo_sections():
        if name == "quiz":
            continue
        section = (SOURCES / f"{name}.html").read_text(encoding="utf-8").split("</section>")[0]
        tries = re.findall(
            r'<p class="try"><strong>Try this:</strong> [^<]*(?:<(?!/p>)[^<]*)*</p>\n'
            r'\s*<div class="([\w-]+)"',
            section,
        )
        assert section.count('class="try"') == 1 and tries in (["controls"], ["cell"]), name


def test_a_prediction_is_asked_before_the_try_line_that_states_its_result():
    """Predict, try, notice: a question that asks for a prediction ("Predict …" in its legend)
    is a check placed before its section's "Try this" line (data-placement="before-try"), and on
    the page it stands inside its section before that line, the figure and the takeaway, which
    state its result. No end-test item asks for a prediction: a test comes after all of them."""
    pages = assemble()
    predictions = [
        q for q in course.read_course().questions if re.search(r"\bpredict\b", q.legend, re.I)
    ]
    assert len(predictions) >= 4  # the heatmap's base, the added word, the RoPE shift, a stretch
    for question in predictions:
        assert not question.test and not question.version_of, question.name
        assert question.placement == "before-try", question.name
    for question in course.read_course().questions:
        if question.placement != "before-try":
            continue
        page = pages[lesson.page_of_sections()[question.section]]
        section = page.split(f'<section id="{question.section}"', 1)[1].split("</section>")[0]
        asked = section.index(f'name="{question.name}"')
        tried = section.index('<p class="try">')
        assert asked < tried, question.name
        for after in ('<p class="takeaway"', '<aside class="trap"'):
            assert after not in section[:asked], (question.name, after)
        block = section[section.rindex('<aside class="quiz-check quiz-predict"', 0, asked) :]
        assert block.index("</aside>") > block.index(f'name="{question.name}"')


def test_folds_are_going_deeper_and_the_experiments_answers_wait_for_a_prediction():
    folds = re.findall(r'<details class="deeper[^"]*">\s*<summary>([^<]*)', PAGE)
    assert len(folds) >= 3 and all(summary.startswith("Going deeper: ") for summary in folds)
    for name in ("extrapolation", "stretching"):
        section = (SOURCES / f"{name}.html").read_text(encoding="utf-8").split("</section>")[0]
        # The question comes before the Run button, the answer ("What it gives") after it, in
        # the HTML for print and no-JS; app/controls/prediction.js hides it until a run is done.
        question = section.index('<fieldset class="prediction">')
        answer = section.index('<div class="prediction-answer">')
        assert question < section.index('class="training-buttons"') < answer
        assert section.index("What it gives", answer) < section.index("</div>", answer)
        assert section.count("What it gives") == 1


def test_two_quiz_questions_may_not_share_their_radios_name(sources):
    question = QUESTION.format(name="quiz-same")
    one = (sources / "one.html").read_text(encoding="utf-8")
    (sources / "one.html").write_text(one + question + question, encoding="utf-8")
    with pytest.raises(SystemExit, match=r'inputs are named "quiz-same", as one of lesson/one'):
        assemble(SMALL)
