"""The graded test as a teacher would check it before grading with it: it shows none of the
versions practice mode reveals, only items answerable without Python, another version of every
item on the next attempt, a template's numbers written in from its variant, and a keys file that
shows no answer to a glance. Run on the built site's whole-lesson test (review.html)."""

from __future__ import annotations

import json
import re

from pages import hold_python, poll
from quiz_lesson import question_id, read_keys
from quiz_sources import questions, templates, versions
from site_server import DIST

KEYS = read_keys(DIST / "app" / "quiz-keys.json")
VARIANTS = json.loads((DIST.parent / "lesson" / "quiz-variants.json").read_text("utf-8"))
FORM = "form.quiz[data-test='lesson']"
SHOWN = f"{FORM} .quiz-question:not([hidden])"
# the items a graded test asks: those with graded versions
GRADED = {q.version_of for q in (*versions(), *templates())}


def shown(page) -> list[dict]:
    """The questions the test shows: id, item, version, legend."""
    return page.locator(SHOWN).evaluate_all(
        """(qs) => qs.map((q) => ({id: q.dataset.id || q.querySelector('input').name,
            item: q.dataset.item, version: q.dataset.version, disabled: q.disabled,
            legend: q.querySelector('legend').textContent.replace(/^\\s*\\d+\\.\\s*/, '').trim(),
            setup: !!q.querySelector('.quiz-setup')}))"""
    )


def answer_right(page) -> None:
    """Every shown question answered right, from the keys."""
    questions = page.locator(SHOWN)
    for index in range(questions.count()):
        question = questions.nth(index)
        key = KEYS[question_id(question)]
        if key["kind"] == "numeric":
            question.get_by_role("textbox").fill(str(key["answer"]))
            question.get_by_role("textbox").dispatch_event("change")
        else:
            question.locator(f"input[value='{key['correct']}']").check()


def test_practice_shows_the_practice_versions_and_a_graded_test_only_graded_ones(page, site_url):
    hold_python(page)
    page.goto(f"{site_url}review.html")
    practice = shown(page)
    assert [q["id"] for q in practice] == [q.name for q in questions() if q.test]
    assert all(q["version"] == "a" for q in practice)
    page.goto(f"{site_url}review.html?graded")
    page.locator(f"{FORM}[data-mode=graded]").wait_for()
    graded = shown(page)
    assert {q["item"] for q in graded} == GRADED and len(graded) == len(GRADED)
    assert all(q["version"] != "a" and not q["disabled"] and not q["setup"] for q in graded)
    # none of practice mode's questions, in words or numbers
    assert not {q["legend"] for q in graded} & {q["legend"] for q in practice}
    numbers = [int(re.match(r"\d+", n).group()) for n in page.locator(
        f"{SHOWN} .quiz-number").all_inner_texts()]
    assert numbers == list(range(1, len(graded) + 1))


def test_a_templates_numbers_are_its_variants(page, site_url):
    hold_python(page)
    page.goto(f"{site_url}review.html?graded")
    page.locator(f"{FORM}[data-mode=graded]").wait_for()
    drawn = [q for q in shown(page) if q["version"] == "v"]
    assert len(drawn) == len(templates())
    for question in drawn:
        item, number = re.fullmatch(r"(.+)\.v(\d+)", question["id"]).groups()
        variant = VARIANTS[item]["variants"][int(number) - 1]["shown"]
        params = page.locator(f"{SHOWN}[data-item='{item}'] legend [data-param]").evaluate_all(
            "(spans) => spans.map((s) => [s.dataset.param, s.textContent])"
        )
        assert params and all(variant[key] == text for key, text in params), (item, params)


def test_start_again_shows_another_version_of_every_item(page, site_url):
    hold_python(page)
    page.goto(f"{site_url}review.html?graded")
    page.locator(f"{FORM}[data-mode=graded]").wait_for()
    first = {q["item"]: q["id"] for q in shown(page)}
    answer_right(page)
    page.locator(f"{FORM} button.quiz-submit").click()
    poll(page, f"() => document.querySelector(\"{FORM} .quiz-score\").textContent",
         lambda text: "Submitted" in (text or ""))
    score = page.locator(f"{FORM} .quiz-score").inner_text()
    assert f"{len(GRADED)} of {len(GRADED)} right (100%)" in score, score
    page.locator(f"{FORM} button.quiz-reset").click()
    second = {q["item"]: q["id"] for q in shown(page)}
    assert second.keys() == first.keys()
    assert all(second[item] != first[item] for item in first), (first, second)
    assert page.locator(f"{SHOWN} input:checked").count() == 0


def test_the_keys_file_shows_no_answer_at_a_glance(page, site_url):
    for name in ("quiz-keys.json", "quiz-keys.zh.json", "quiz-keys.es.json"):
        text = (DIST / "app" / name).read_text(encoding="utf-8")
        assert json.loads(text)["format"] == "pelab-sealed-1"
        for word in ("correct", "explain", "tolerance", "answer", "why"):
            assert f'"{word}"' not in text, (name, word)
    # and yet the page reads it: a check is marked from it
    hold_python(page)
    page.goto(f"{site_url}why-order.html")
    check = page.locator(".quiz-check[data-section=attention] .quiz-question").first
    key = KEYS[question_id(check)]
    check.locator(f"input[value='{key['correct']}']").check()
    poll(page, "(q) => q.dataset.result", lambda r: r == "right", arg=check.element_handle())
