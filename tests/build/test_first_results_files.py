"""Each live demo's first result, computed at build time (tools/first_results.py): read from the
section's own controls and first-call script, served one file per demo, preloaded by its
chapter page, and small. (tests/browser/test_first_results.py checks the page uses them, and
that each equals the entry point's own result, number for number.)"""

from __future__ import annotations

import json
import re

import pytest

import tools.course as course
import tools.demo_lists as demo_lists
import tools.first_results as first_results
import tools.lesson as lesson
from site_server import DIST
from tools.demo_lists import not_live, pictured
from tools.first_results import controls, first_call, first_calls
from tools.lesson import FIRST_RESULT, demo_sections, page_of_sections
from tools.project import BuildError

# The budget: all the first results a page preloads, brotli-compressed, at most this.
PAGE_BUDGET = 150_000


def test_a_sections_controls_are_read_at_their_first_values():
    source = (
        '<lesson-slider id="a" name="base" data-scale="log10" min="1" max="6" step="0.05" '
        'value="4">Base</lesson-slider>\n'
        '<lesson-slider id="b" name="d_model" min="2" max="8" step="2" value="4">d'
        "</lesson-slider>\n"
        '<lesson-slider id="c" name="scale" min="0" max="1" step="0.1" value="0.5">s'
        "</lesson-slider>\n"
        '<input id="d" name="sentence" type="text" value="dog bites man">\n'
        '<input type="checkbox" name="with_pe"><input type="checkbox" name="causal" checked>\n'
        '<input type="radio" name="model" value="a"><input type="radio" name="model" value="b" '
        "checked>\n"
        '<input type="text" name="quiz-answer" data-answer="1">\n'
    )
    assert controls(source) == {
        "base": 10000,
        "d_model": 4,
        "scale": 0.5,
        "sentence": "dog bites man",
        "with_pe": False,
        "causal": True,
        "model": "b",
    }
    assert type(controls(source)["base"]) is int  # as Pyodide hands Python a whole JS number


def test_every_live_demo_but_the_pictured_one_states_its_first_request():
    calls = first_calls()
    assert list(calls) == [
        name for name in demo_sections() if name not in (*not_live(), *pictured())
    ]
    for name, call in calls.items():
        assert set(call) == {"entry", "kwargs"}, name


def test_the_demo_lists_are_the_pages_own():
    """Which demos are pictured or not live is said once, in app/demos/ (tools/demo_lists.py):
    the build's first results skip those lists, not copies of them."""
    for name in (*pictured(), *not_live()):
        assert first_results.first_call(name) is None, name


def test_a_demo_list_the_reader_cannot_follow_stops_the_build_naming_the_module(tmp_path):
    module = tmp_path / "registry.js"
    module.write_text(
        'export const A = Object.freeze(["quiz"]);\n'
        'export const B = Object.freeze([...A, "cell"]);\n'
    )
    assert demo_lists.frozen_lists(module) == {"A": ["quiz"], "B": ["quiz", "cell"]}
    module.write_text('export const B = Object.freeze([...A, "cell"]);\n')
    with pytest.raises(BuildError, match=r"registry\.js: B must list demo names .*'\.\.\.A'"):
        demo_lists.frozen_lists(module)


@pytest.mark.parametrize(
    ("script", "message"),
    [
        (None, "is a live demo without a <script"),
        ("{not json", "is not JSON"),
        ('{"controls": ["n"]}', 'names "entry"'),
        ('{"entry": "one", "control": ["n"]}', "not ['control']"),
        ('{"entry": "one", "controls": ["m"]}', "names the controls ['m'], which the section"),
        ('{"entry": "one", "controls": ["n"], "also": {"n": 2}}', "sets ['n'] twice"),
    ],
)
def test_a_broken_first_call_stops_the_build_naming_the_file(
    tmp_path, monkeypatch, script, message
):
    first = f'<script type="application/json" class="first-call">{script}</script>\n'
    (tmp_path / "one.html").write_text(
        '<section id="one" class="demo"><h2 id="one-title">One</h2>\n'
        '<lesson-slider id="one-n" name="n" min="1" max="9" step="1" value="3">n</lesson-slider>\n'
        f"{first if script else ''}</section>\n"
    )
    monkeypatch.setattr(course, "SOURCES", tmp_path)
    with pytest.raises(BuildError, match=re.escape(message)) as error:
        first_call("one")
    assert "lesson/one.html" in str(error.value)


def test_a_first_call_is_read_and_taken_out_of_the_page(tmp_path, monkeypatch):
    (tmp_path / "one.html").write_text(
        '<section id="one" class="demo"><h2 id="one-title">One</h2>\n'
        '<lesson-slider id="one-n" name="n" min="1" max="9" step="1" value="3">n</lesson-slider>\n'
        '      <script type="application/json" class="first-call">'
        '{"entry": "relative", "controls": ["n"], "also": {"d_model": 8}}</script>\n'
        "</section>\n"
    )
    monkeypatch.setattr(course, "SOURCES", tmp_path)
    assert first_results.first_call("one") == {
        "entry": "relative",
        "kwargs": {"n": 3, "d_model": 8},
    }
    assert "first-call" not in lesson.read_section("one", 1).html


def test_each_first_result_is_served_and_preloaded_by_its_chapter_and_stays_small():
    calls = first_calls()
    page_of = page_of_sections()
    per_page: dict[str, int] = {}
    for name, call in calls.items():
        path = DIST / FIRST_RESULT.format(name=name)
        shipped = json.loads(path.read_text(encoding="utf-8"))
        assert {"entry": shipped["entry"], "kwargs": shipped["kwargs"]} == call, name
        assert shipped["result"], name
        brotli = path.with_name(path.name + ".br")  # the build's copy, if it is smaller
        brotli = brotli if brotli.exists() else path
        per_page[page_of[name]] = per_page.get(page_of[name], 0) + brotli.stat().st_size
    for page in dict.fromkeys(page_of.values()):
        html = (DIST / page).read_text(encoding="utf-8")
        assert "first-call" not in html, page
        preloaded = re.findall(r'<link rel="preload" href="([^"]+)" as="fetch" crossorigin>', html)
        assert preloaded == [
            FIRST_RESULT.format(name=name) for name in calls if page_of[name] == page
        ], page
    assert max(per_page.values()) <= PAGE_BUDGET, per_page
