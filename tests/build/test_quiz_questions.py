"""The quiz questions in the lesson's sources keep to their markup (tests/quiz_sources.py says
what it is): every check points at the paragraph it tests, every wrong answer says what is wrong
with it, and the answers are not given away by their pattern (true and false about as often,
the right option not always in one place, not the one hedged or longest option). Their keys are
recomputed with pelab in tests/python/test_quiz_answers.py."""

from __future__ import annotations

import math
import re
from collections import Counter

import pytest

from quiz_sources import questions, section_source, versions
from tools.lesson import demo_sections, page_of_sections, section_titles

QUESTIONS = questions()
VERSIONS = versions()
IDS = re.compile(r'\bid="([\w-]+)"')


def test_every_question_has_a_kind_a_name_of_its_own_and_an_explanation():
    names = [q.name for q in QUESTIONS]
    assert len(names) == len(set(names)), Counter(names).most_common(3)
    for q in QUESTIONS:
        assert q.kind in ("choice", "truefalse", "numeric"), q.name
        assert re.fullmatch(r"quiz-[\w-]+(\.[b-v])?", q.name), q.name
        assert len(q.legend) > 20 and len(q.explain) > 40, q.name
        assert '<p class="quiz-feedback" aria-live="polite" hidden></p>' in q.source, q.name


def test_each_check_and_test_item_refers_to_an_element_of_its_own_section():
    """data-refers names an id in the question's section (the feedback links back to it), and
    ids are unique in the whole lesson, so that #ID finds it on any page."""
    ids = Counter(i for name in section_titles() for i in IDS.findall(section_source(name)))
    assert [i for i, n in ids.items() if n > 1] == []
    for q in QUESTIONS:
        assert q.refers, f"{q.name} has no data-refers"
        assert q.refers in IDS.findall(section_source(q.section)), (q.name, q.refers)
        assert q.refers.startswith(f"{q.section}-"), q.refers  # prefixed with its section


def test_every_section_before_the_review_has_a_check_right_after_it():
    chapter = page_of_sections()
    review = list(dict.fromkeys(chapter.values()))[-1]
    checked = {q.section for q in QUESTIONS if not q.test}
    assert {name for name, page in chapter.items() if page != review} <= checked


def test_choices_have_one_right_option_and_a_reason_for_every_wrong_one():
    for q in QUESTIONS:
        if q.kind == "numeric":
            continue
        assert [o.value for o in q.options] == [str(n) for n in range(len(q.options))], q.name
        assert sum(o.correct for o in q.options) == 1, q.name
        for option in q.options:
            assert option.correct == (option.why is None), (q.name, option.text)
            assert option.correct or len(option.why) > 40, (q.name, option.text)
        if q.kind == "truefalse":
            assert [o.text for o in q.options] == ["True", "False"], q.name
            assert q.legend.startswith("True or false:"), q.name
        else:
            assert len(q.options) >= 3, q.name


def test_numeric_items_state_a_key_a_tolerance_and_what_a_wrong_value_means():
    numeric = [q for q in QUESTIONS if q.kind == "numeric" and not q.template]
    assert len(numeric) >= 6
    for q in numeric:
        # a number to type belongs to an end test, or asks for a prediction before a demo
        assert q.test or q.placement == "before-try", f"{q.name}: a numeric item is a test's"
        assert math.isfinite(float(q.answer)) and float(q.tolerance) >= 0, q.name
        assert len(q.why or "") > 40, q.name
        assert 'inputmode="decimal"' in q.source and 'class="quiz-answer"' in q.source, q.name


def test_set_up_items_name_a_demo_of_their_own_chapter():
    """data-setup: the section whose demo the learner sets as the legend says."""
    chapter = page_of_sections()
    for q in QUESTIONS:
        if q.setup:
            assert q.test and q.setup in demo_sections(), q.name
            assert chapter[q.setup] == chapter[q.section], q.name


def test_feedback_texts_are_plain_text_with_no_maths_typed_raw():
    """The page sets a why as text, never as HTML: markup in it would show as tags, so its maths
    is in words; and nowhere does a question type w_i, 10^x or q^T where the page can set them
    (tests/browser/test_quiz_demo.py looks at the page for the same)."""
    raw = re.compile(r"\b(?!d_model\b)\w+_[\w(]+|\w+\^|\wᵀ")
    for q in QUESTIONS:
        whys = [w for w in [q.why] + [o.why for o in q.options] if w is not None]
        for why in whys:
            assert not re.search(r"<\w|&\w+;", why), (q.name, why)
        for text in [q.legend, q.explain, *whys, *(o.text for o in q.options)]:
            assert raw.findall(text) == [], (q.name, text)


def test_every_chapter_before_the_review_has_an_end_test_of_at_least_two_items():
    chapter = page_of_sections()
    tests = Counter(chapter[q.section] for q in QUESTIONS if q.test)
    pages = list(dict.fromkeys(chapter.values()))[:-1]  # the review chapter gathers them all
    assert all(tests[page] >= 2 for page in pages), tests
    assert sum(tests.values()) >= 10


def test_true_and_false_are_right_about_as_often():
    keys = Counter(
        next(o.text for o in q.options if o.correct) for q in QUESTIONS if q.kind == "truefalse"
    )
    assert abs(keys["True"] - keys["False"]) <= 1, keys


def test_the_right_option_is_not_given_away_by_its_place_its_length_or_its_hedge():
    choices = [q for q in QUESTIONS if q.kind == "choice"]
    places = Counter(next(n for n, o in enumerate(q.options) if o.correct) for q in choices)
    # in the source (the page shuffles them too): no place holds more than twice another's share
    assert max(places.values()) <= 2 * min(places[n] for n in range(3)), places
    longest = sum(max(q.options, key=lambda o: len(o.text)).correct for q in choices)
    assert longest <= len(choices) // 4, longest
    # a qualification that makes an option safe to pick: "only if", "provided", "unless"
    hedge = re.compile(
        r"\b(only that|but only|only (if|when)|provided|unless|as long as|may)\b", re.I
    )
    hedged_right = sum(
        bool(hedge.search(o.text)) and not any(hedge.search(w.text) for w in q.options if w != o)
        for q in choices
        for o in q.options
        if o.correct
    )
    assert hedged_right == 0, "a right option hedged among plain wrong ones"


@pytest.mark.parametrize(
    "q", [q for q in QUESTIONS if q.kind == "numeric" and not q.template], ids=lambda q: q.name
)
def test_a_numeric_legend_says_how_to_round(q):
    """A reader needs to know how precise to be: the legend says it, or the answer is whole."""
    whole = float(q.answer).is_integer() and float(q.tolerance) >= 0
    said = re.search(r"decimals?|nearest|as a decimal", q.legend)
    assert said or whole, q.name


def test_each_choice_and_true_false_test_item_has_two_parallel_versions_of_its_own_form():
    """Issue 49: a graded attempt draws versions, so each choice or true/false test item has at
    least two, each as strict as the questions above (a reason for every wrong option, no maths
    typed raw, nothing to read off a demo, since the graded test runs no Python), and a true or
    false item's versions do not all share its answer."""
    items = {q.name: q for q in QUESTIONS if q.test and q.kind != "numeric"}
    of = Counter(v.version_of for v in VERSIONS)
    assert {name: of[name] >= 2 for name in items} == {name: True for name in items}
    raw = re.compile(r"\b(?!d_model\b)\w+_[\w(]+|\w+\^|\wᵀ")
    for v in VERSIONS:
        item = items[v.version_of]
        assert (v.kind, len(v.options), v.refers) == (item.kind, len(item.options), item.refers)
        assert not v.test and not v.setup and "demo" not in v.legend.lower(), v.name
        assert len(v.legend) > 20 and len(v.explain) > 40, v.name
        assert [o.value for o in v.options] == [str(n) for n in range(len(v.options))], v.name
        assert sum(o.correct for o in v.options) == 1, v.name
        for option in v.options:
            assert option.correct or len(option.why) > 40, (v.name, option.text)
            assert option.correct or not re.search(r"<\w|&\w+;", option.why), v.name
        whys = [o.why for o in v.options if o.why]
        for text in [v.legend, v.explain, *whys, *(o.text for o in v.options)]:
            assert raw.findall(text) == [], (v.name, text)
        if v.kind == "truefalse":
            assert [o.text for o in v.options] == ["True", "False"], v.name
            assert v.legend.startswith("True or false:"), v.name
    for name, item in items.items():
        if item.kind == "truefalse":
            answers = {next(o.text for o in v.options if o.correct)
                       for v in VERSIONS if v.version_of == name}
            assert answers != {next(o.text for o in item.options if o.correct)}, name
