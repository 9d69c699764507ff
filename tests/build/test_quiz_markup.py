"""The questions as tools/lesson.py writes them: a section's check right after it, its chapter's
end test, the whole-lesson test, and their keys out of the HTML into quiz-keys.json; and a
question the build refuses, with the reason."""

from __future__ import annotations

import json
import re

import pytest

from tools import course, quiz_source
from tools.lesson import assemble_with_keys
from tools.quiz_forms import quiz_keys_json
from tools.sealed_keys import unseal

CHOICE = (
    '<fieldset class="quiz-question" data-kind="choice"{extra}>\n'
    "  <legend>Which {name}?</legend>\n"
    '  <label class="quiz-option"><input type="radio" name="quiz-{name}" value="0" '
    'data-why="Not that one, because."> Zero</label>\n'
    '  <label class="quiz-option"><input type="radio" name="quiz-{name}" value="1" '
    "data-correct> One</label>\n"
    '  <p class="quiz-feedback" aria-live="polite" hidden></p>\n'
    '  <p class="quiz-explain" hidden>One, as <a href="#two" class="section-ref">section</a> '
    "shows with <var>x</var>.</p>\n"
    "</fieldset>\n"
)
NUMERIC = (
    '<fieldset class="quiz-question" data-kind="numeric" data-test data-refers="one-figure" '
    'data-setup="one" data-objective="reads-the-figure">\n'
    "  <legend>Set n to 3: what does it show?</legend>\n"
    '  <label class="quiz-answer">Your answer <input type="text" inputmode="decimal" '
    'name="quiz-typed" data-answer="0.54" data-tolerance="0.01" data-why="A slip."></label>\n'
    '  <p class="quiz-feedback" aria-live="polite" hidden></p>\n'
    '  <p class="quiz-explain" hidden>It shows 0.54.</p>\n'
    "</fieldset>\n"
)
SKELETON = (
    "<head><!-- course: old-links --></head><p><!-- course: start --></p>\n"
    '<ol>\n<li class="chapter" data-chapter="first">\n<h3>First</h3>\n<p>The start.</p>\n'
    "<!-- lesson: one -->\n</li>\n"
    '<li class="chapter" data-chapter="second">\n<h3>Second</h3>\n<p>The rest.</p>\n'
    "<!-- lesson: two -->\n</li>\n</ol>\n"
)


@pytest.fixture
def sources(tmp_path, monkeypatch):
    """Two sections: one with a check question and two test items, one holding the quiz slot."""
    (tmp_path / "one.html").write_text(
        '<section id="one"><h2 id="one-title">One</h2>\n'
        '<figure id="one-figure"><figcaption>A figure</figcaption></figure>\n'
        "</section>\n"
        + CHOICE.format(name="check", extra="")
        + CHOICE.format(name="test", extra=' data-test data-refers="one-figure"')
        + NUMERIC
    )
    (tmp_path / "two.html").write_text(
        '<section id="two"><h2 id="two-title">Two</h2>\n'
        "<!-- lesson-quiz-questions -->\n</section>\n"
    )
    monkeypatch.setattr(course, "SOURCES", tmp_path)
    return tmp_path


def test_a_check_follows_its_section_and_the_tests_end_the_chapter_and_the_lesson(sources):
    pages, _ = assemble_with_keys(SKELETON)
    first, second = pages["first.html"], pages["second.html"]
    section = first.split('<section id="one"')[1]
    check = section.split("</section>", 1)[1].split('<section id="test-first"')[0]
    assert check.startswith(
        '\n<aside class="quiz-check" data-section="one" aria-labelledby="one-check-title">\n'
        '<h3 id="one-check-title">Check: One</h3>\n'
        '<form class="quiz" data-quiz="check" novalidate>\n'
    )
    assert check.count('class="quiz-question"') == 1 and 'name="quiz-check"' in check
    assert '<span class="quiz-number">1.</span> Which check?' in check
    # the link back: to the section when the question names nothing, else to what it names
    assert (
        '<p class="quiz-refers" hidden><a href="#one">Back to what this question tests</a>, in '
        '<a href="#one" class="section-ref">section <span class="number">1</span></a>.</p>'
    ) in check
    end = first.split('<section id="test-first" class="chapter-test"')[1]
    assert '<h2 id="test-first-title">End of chapter test</h2>' in end
    assert '<form class="quiz" data-quiz="test" data-test="first" novalidate>' in end
    assert re.findall(r'quiz-number">(\d+)\.</span> (\w+)', end) == [("1", "Which"), ("2", "Set")]
    assert '<a href="#one-figure">Back to what this question tests</a>' in end
    assert '<button type="submit" class="quiz-submit" hidden>Submit</button>' in end
    assert '<button type="reset" class="quiz-reset">Start again</button>' in end
    # the whole-lesson test, on the other page: links back go to the question's page
    whole = second.split('<section id="two"')[1]
    assert '<form class="quiz" data-quiz="test" data-test="lesson" novalidate>' in whole
    assert whole.count('class="quiz-question"') == 2
    assert '<a href="first.html#one-figure">Back to what this question tests</a>, in ' in whole
    assert (
        '<a href="first.html#one" class="section-ref">section <span class="number">1</span></a>'
    ) in whole
    assert "test-second" not in second  # a chapter without test items has no test block
    assert 'data-setup="one"' in whole and 'data-objective="reads-the-figure"' in whole
    assert (
        '<p class="quiz-setup">Set the figure of '
        '<a href="first.html#one" class="section-ref">section <span class="number">1</span></a> '
        "as the question says.</p>"
    ) in whole


def test_no_page_holds_a_key_and_the_keys_file_holds_them_all(sources):
    pages, keys = assemble_with_keys(SKELETON)
    for text in pages.values():
        leaks = ("data-correct", "data-why", "data-answer", "data-tolerance", "One, as", "0.54")
        for leak in leaks:
            assert leak not in text, leak
        assert re.search(r'<p class="quiz-explain" hidden>[^<]', text) is None
    assert keys["quiz-check"] == {
        "kind": "choice",
        "correct": "1",
        "why": {"0": "Not that one, because."},
        # the cross-reference numbered and sent to its page, the markup kept
        "explain": 'One, as <a href="second.html#two" class="section-ref">section '
        '<span class="number">2</span></a> '
        "shows with <var>x</var>.",
    }
    assert keys["quiz-typed"] == {
        "kind": "numeric",
        "answer": 0.54,
        "tolerance": 0.01,
        "why": {"*": "A slip."},
        "explain": "It shows 0.54.",
    }  # its objective stays on the fieldset (data-objective): it gives nothing away
    assert unseal(json.loads(quiz_keys_json(keys))) == keys


def test_without_test_items_there_is_no_empty_test(sources):
    (sources / "one.html").write_text(
        '<section id="one"><h2 id="one-title">One</h2></section>\n'
        + CHOICE.format(name="check", extra="")
    )
    pages, keys = assemble_with_keys(SKELETON)
    assert "quiz-check" in pages["first.html"] and "chapter-test" not in pages["first.html"]
    assert 'data-quiz="test"' not in pages["second.html"]
    assert '<p class="quiz-empty note">' in pages["second.html"]
    assert list(keys) == ["quiz-check"]


@pytest.mark.parametrize(
    ("before", "after", "message"),
    [
        ('value="1" data-correct>', 'value="1">', r"one option with data-correct; it has 0"),
        ('value="0" data-why="Not that one, because.">', 'value="0" data-correct>', r"it has 2"),
        ('data-answer="0.54" ', "", r"is numeric: its input needs data-answer"),
        ('data-answer="0.54"', 'data-answer="half"', r"is numeric: its input needs data-answer"),
        ('data-refers="one-figure" data-setup', 'data-refers="nowhere" data-setup', r"#nowhere"),
        ('data-setup="one"', 'data-setup="six"', r'"six", which is no section: one of one, two'),
        ('data-kind="numeric"', 'data-kind="essay"', r"needs data-kind, one of choice"),
        (' data-why="Not that one, because."', "", r"its wrong option 0 needs a data-why"),
        ("<p class=\"quiz-explain\" hidden>It shows 0.54.</p>", "", r"needs its explanation"),
    ],
)
def test_a_question_without_its_key_stops_the_build(sources, before, after, message):
    source = sources / "one.html"
    text = source.read_text()
    assert before in text
    source.write_text(text.replace(before, after, 1))
    with pytest.raises(SystemExit, match=message):
        assemble_with_keys(SKELETON)


def test_the_real_lesson_builds_and_its_keys_leave_the_pages():
    pages, keys = assemble_with_keys()
    names = set()
    for text in pages.values():
        assert "data-correct" not in text and "data-why" not in text
        names |= set(re.findall(r'<input type="(?:radio|text)"[^>]* name="(quiz-[^"]+)"', text))
    # a template's keys are its variants' (NAME.v1, NAME.v2, …): one input, drawn numbers
    assert names == {re.sub(r"\.v\d+$", ".v", name) for name in keys}


VERSION = CHOICE.replace(
    '"choice"{extra}>',
    '"choice" data-version-of="quiz-test" data-version="b" data-refers="one-figure">',
).replace('name="quiz-{name}"', 'name="quiz-test.b"')


def test_a_parallel_version_follows_its_item_in_the_tests_hidden_until_drawn(sources):
    """A test item's version (data-version-of) is no check: it follows its item in the
    chapter's end test and the whole-lesson test, numbered like it, hidden and disabled until a
    graded attempt draws it (app/quiz/versions.js); its key is in quiz-keys.json by its name."""
    source = sources / "one.html"
    source.write_text(source.read_text() + VERSION.format(name="test b"))
    pages, keys = assemble_with_keys(SKELETON)
    version = course.read_course(SKELETON).sections["one"].questions[-1]
    assert (version.name, version.version_of, version.version) == ("quiz-test.b", "quiz-test", "b")
    assert keys["quiz-test.b"]["correct"] == "1"
    for text in pages.values():
        checks = "".join(re.findall(r'<aside class="quiz-check".*?</aside>', text, flags=re.S))
        assert "quiz-test.b" not in checks
    every = "".join(pages.values())
    tests = re.findall(r'<form class="quiz" data-quiz="test".*?</form>', every, flags=re.S)
    assert len(tests) == 2  # the chapter's end test and the whole-lesson test
    for form in tests:
        item = re.search(
            r'<fieldset class="quiz-question" data-item="quiz-test" data-version="a"[^>]*>'
            r'\s*<legend><span class="quiz-number">(\d+)\.',
            form,
        )
        drawn = re.search(
            r'<fieldset class="quiz-question" data-item="quiz-test" data-version="b" hidden '
            r'disabled[^>]*>\s*<legend><span class="quiz-number">(\d+)\.',
            form,
        )
        assert item and drawn and item.group(1) == drawn.group(1)
        assert item.start() < drawn.start()


@pytest.mark.parametrize(
    ("before", "after", "message"),
    [
        ('data-version-of="quiz-test"', 'data-version-of="quiz-check"', r"names no test item"),
        ('data-version="b"', 'data-version="2"', r'needs data-version: "v" for a numeric item'),
        ('name="quiz-test.b"', 'name="quiz-test-b"', r'inputs must be named "quiz-test.b"'),
        ('data-refers="one-figure">', 'data-refers="one-figure" data-setup="one">', r"neither"),
        ('data-refers="one-figure">', 'data-refers="one">', r"must have its item's kind"),
    ],
)
def test_a_version_that_is_not_its_items_stops_the_build(sources, before, after, message):
    source = sources / "one.html"
    version = VERSION.format(name="test b")
    assert before in version
    source.write_text(source.read_text() + version.replace(before, after))
    with pytest.raises(SystemExit, match=message):
        assemble_with_keys(SKELETON)


SUM = (
    '<fieldset class="quiz-question" data-kind="numeric" data-test data-refers="one-figure">\n'
    "  <legend>What is 2 + 3?</legend>\n"
    '  <label class="quiz-answer">Your answer <input type="text" inputmode="decimal" '
    'name="quiz-sum" data-answer="5" data-tolerance="0.1" data-why="Count again."></label>\n'
    '  <p class="quiz-feedback" aria-live="polite" hidden></p>\n'
    '  <p class="quiz-explain" hidden>2 + 3 = 5.</p>\n'
    "</fieldset>\n"
)
TEMPLATE = (
    '<fieldset class="quiz-question" data-kind="numeric" data-version-of="quiz-sum" '
    'data-version="v" data-refers="one-figure">\n'
    '  <legend>What is <span data-param="a">2</span> + 3?</legend>\n'
    '  <label class="quiz-answer">Your answer <input type="text" inputmode="decimal" '
    'name="quiz-sum.v" data-why="Add the two numbers."></label>\n'
    '  <p class="quiz-feedback" aria-live="polite" hidden></p>\n'
    '  <p class="quiz-explain" hidden><span data-param="a">2</span> + 3 = '
    '<span data-param="answer">5</span>.</p>\n'
    "</fieldset>\n"
)
TABLE = {
    "quiz-sum": {
        "legend": ["a"],
        "practice": {"shown": {"a": "2", "answer": "5"}, "answer": 5, "tolerance": 0.1},
        "variants": [
            {"shown": {"a": "3", "answer": "6"}, "answer": 6, "tolerance": 0.1},
            {"shown": {"a": "4", "answer": "7"}, "answer": 7, "tolerance": 0.1},
        ],
    }
}


def with_template(sources, monkeypatch, template: str = TEMPLATE, table: dict = TABLE) -> None:
    source = sources / "one.html"
    source.write_text(source.read_text() + SUM + template)
    monkeypatch.setattr(quiz_source, "quiz_variants", lambda: table)


def test_a_template_gives_each_variant_its_key_and_the_page_only_its_numbers(sources, monkeypatch):
    with_template(sources, monkeypatch)
    pages, keys = assemble_with_keys(SKELETON)
    assert [keys[f"quiz-sum.v{k}"]["answer"] for k in (1, 2)] == [6, 7]
    assert keys["quiz-sum.v2"]["explain"] == (
        '<span data-param="a">4</span> + 3 = <span data-param="answer">7</span>.'
    )
    assert keys["quiz-sum.v1"]["why"] == {"*": "Add the two numbers."}
    assert "quiz-sum.v" not in keys  # the template itself has no key: its variants do
    page = pages["first.html"]
    assert """data-variants='[{"a": "3"}, {"a": "4"}]'""" in page  # the legend's, no answer
    assert '"answer"' not in page.split("data-variants=", 1)[1].split("'", 2)[1]


@pytest.mark.parametrize(
    ("template", "table", "message"),
    [
        (TEMPLATE, {}, r"has no table for quiz-sum"),
        (TEMPLATE.replace('data-param="a">2', 'data-param="b">2', 1), TABLE, r"shows b, not in"),
        (TEMPLATE.replace('<span data-param="a">2</span> + 3?', "5?"), TABLE, r"show exactly a"),
        (TEMPLATE.replace('name="quiz-sum.v"', 'name="quiz-sum.v" data-answer="5"'), TABLE,
         r"its answers come from its table"),
    ],
)
def test_a_template_that_its_table_does_not_fit_stops_the_build(
    sources, monkeypatch, template, table, message
):
    with_template(sources, monkeypatch, template, table)


def test_a_prediction_check_stands_before_its_sections_try_line(sources):
    """data-placement="before-try": the check is asked inside its section, right before its
    "Try this" line, in a block of its own; the section's other checks still follow it."""
    source = sources / "one.html"
    text = source.read_text().replace(
        "<figure", '<p class="try"><strong>Try this:</strong> move it.</p>\n<figure', 1
    )
    source.write_text(text + CHOICE.format(name="guess", extra=' data-placement="before-try"'))
    pages, keys = assemble_with_keys(SKELETON)
    page = next(text for text in pages.values() if '<section id="one"' in text)
    section = page.split('<section id="one"', 1)[1].split("</section>", 1)[0]
    block = re.search(r'<aside class="quiz-check quiz-predict".*?</aside>', section, flags=re.S)
    assert block and 'name="quiz-guess"' in block.group(0) and "data-placement" not in page
    assert block.end() <= section.index('<p class="try">')
    after = page.split('<section id="one"', 1)[1].split("</section>", 1)[1]
    assert 'name="quiz-check"' in after and 'name="quiz-guess"' not in after
    assert keys["quiz-guess"]["correct"] == "1"


@pytest.mark.parametrize(
    ("extra", "try_line", "message"),
    [
        (' data-placement="before-try"', False, r"needs exactly one <p class=\"try\">"),
        (' data-placement="before-try" data-test', True, r"only a section's check takes"),
        (' data-placement="after-try"', True, r"data-placement can only be before-try"),
    ],
)
def test_a_prediction_that_cannot_stand_before_a_try_line_stops_the_build(
    sources, extra, try_line, message
):
    source = sources / "one.html"
    text = source.read_text()
    if try_line:
        text = text.replace("<figure", '<p class="try"><strong>Try this:</strong> go.</p>\n<figure')
    source.write_text(text + CHOICE.format(name="guess", extra=extra))
    with pytest.raises(SystemExit, match=message):
        assemble_with_keys(SKELETON)
