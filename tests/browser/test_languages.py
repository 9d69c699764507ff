"""The lesson in Chinese and Spanish, as a learner meets it: each language's chapter pages boot
and their demos go live with the same numbers as the English page at the same settings; the
whole-lesson test marks and scores the same answers the same; the language menu keeps the
reader's place; an embed takes `lang=`; axe-core finds nothing serious; nothing leaves the
origin. (The catalogs themselves are checked in tests/build/test_translations.py.)"""

from __future__ import annotations

import re

import pytest

from pages import (
    CHAPTER_PAGES,
    PAGE_OF,
    PageLog,
    all_figures_shown,
    boot,
    hold_python,
    open_context,
    poll,
    wait_for_state,
)
from quiz_lesson import question_id
from test_accessibility import axe
from tools.i18n import TRANSLATED, language_tag
from tools.sealed_keys import unseal

LANGUAGES = ("en", *TRANSLATED)
# The chapters whose demos compute what they show (the review chapter's cells and quiz show no
# computed readout until the learner runs something).
COMPUTED = [chapter for chapter in CHAPTER_PAGES if chapter != "review.html"]
# Booted in every language, their demos live (a boot costs seconds): the chapters with the most
# live demos. The others are compared as they first paint, from the shipped first results,
# drawn by the same code; tests/browser/test_lesson.py boots every English chapter.
BOOTED = [PAGE_OF["formula"], PAGE_OF["rope"]]

# What a demo computes, as it shows it: its readouts, tables and live notes, each figure's name
# (it carries the figure's numbers: app/figures/) and each colour bar's range. Prose and labels
# are left out: they are words, which the languages do not share.
READOUTS = r"""() => {
  const number = /[−-]?\d+(?:\.\d+)?(?:e[−-]?\d+)?/g;
  const shown = {};
  for (const section of document.querySelectorAll("main section.demo[id]")) {
    const parts = [];
    for (const element of section.querySelectorAll(
      "output, table tbody, [aria-live]:not(.quiz-feedback):not(.boot-message)")) {
      if (element.closest(".quiz-question, .cell")) continue;
      parts.push(element.textContent);
    }
    for (const element of section.querySelectorAll("canvas[aria-label], svg[aria-label]")) {
      parts.push(element.getAttribute("aria-label"));
    }
    for (const bar of section.querySelectorAll("[data-low], [data-high]")) {
      parts.push(`${bar.dataset.low} ${bar.dataset.high}`);
    }
    shown[section.id] = parts.join(" ").match(number) ?? [];
  }
  return shown;
}"""
LIVE = """() => [...document.querySelectorAll("main section[data-live]")]
  .every((section) => section.dataset.live === "shown")"""


def url_of(site_url: str, language: str, page: str) -> str:
    return site_url + ("" if language == "en" else f"{language}/") + page


@pytest.fixture(scope="module")
def language_log():
    return PageLog()


@pytest.fixture(scope="module")
def readouts(browser, site_url, language_log):
    """{(language, chapter): each demo section's numbers}: the BOOTED chapters booted once per
    language, their demos live; the others as they first paint."""
    context = open_context(browser, language_log)
    found = {}
    for language in LANGUAGES:
        for chapter in COMPUTED:
            page = context.new_page()
            if chapter in BOOTED:
                boot(page, "", url_of(site_url, language, chapter))
                poll(page, LIVE, bool, timeout=60)
            else:
                hold_python(page)
                page.goto(url_of(site_url, language, chapter))
                all_figures_shown(page)
            assert page.evaluate("document.documentElement.lang") == language_tag(language)
            found[language, chapter] = page.evaluate(READOUTS)
            page.close()
    context.close()
    assert language_log.blocked == [], "the lesson tried to leave the machine"
    return found


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("chapter", COMPUTED)
def test_each_languages_demos_go_live_with_the_english_numbers(readouts, language, chapter):
    english = readouts["en", chapter]
    translated = readouts[language, chapter]
    assert translated.keys() == english.keys()
    for section, numbers in english.items():
        # the same numbers, each as often; a sentence may order them differently in another
        # language (a figure's name says "4 heads at position 7" its own way)
        assert sorted(translated[section]) == sorted(numbers), (language, section)
    assert any(english.values())


def test_a_slider_moved_gives_the_same_table_in_every_language(page, site_url):
    tables = {}
    for shown in LANGUAGES:
        page.goto(url_of(site_url, shown, PAGE_OF["formula"]))
        assert wait_for_state(page) == "ready", page.inner_text("#boot")
        page.fill("#formula-pos", "7")
        page.dispatch_event("#formula-pos", "change")
        poll(page, "() => document.querySelector('#formula tbody').textContent", lambda t: "7" in t)
        poll(page, "() => document.querySelector('#formula').dataset.live", lambda s: s == "shown")
        tables[shown] = re.findall(r"[−-]?\d+(?:\.\d+)?", page.inner_text("#formula tbody"))
    assert len(tables["en"]) > 10
    for language in TRANSLATED:
        assert tables[language] == tables["en"], language


def answer_the_test(page, keys_url: str) -> str:
    """Answer the whole-lesson test, every question right but the first, and submit it: the
    score as the page says it."""
    keys = unseal(page.evaluate("async (url) => (await fetch(url)).json()", keys_url))
    form = page.locator("form.quiz[data-test]").first
    questions = form.locator(".quiz-question:not([hidden])")
    for index in range(questions.count()):
        question = questions.nth(index)
        name = question_id(question)
        if question.get_attribute("data-kind") == "numeric":
            answer = keys[name]["answer"] if index else keys[name]["answer"] + 1000
            question.get_by_role("textbox").fill(str(answer))
            question.get_by_role("textbox").dispatch_event("change")
        elif index == 0:
            question.locator(f"input:not([value='{keys[name]['correct']}'])").first.check()
        else:
            question.locator(f"input[value='{keys[name]['correct']}']").check()
    form.locator("button[type=submit], button.quiz-submit").first.click()
    poll(page, "() => document.querySelector('form.quiz[data-test]').dataset.submitted ?? "
         "document.querySelector('form.quiz[data-test] .quiz-score').textContent",
         lambda text: bool(re.search(r"\d+\s*%", text or "")))
    return form.locator(".quiz-score").inner_text()


def test_the_end_test_scores_the_same_answers_the_same_in_every_language(page, site_url):
    hold_python(page)  # the test needs no Python
    scores = {}
    for language in LANGUAGES:
        page.goto(url_of(site_url, language, "review.html?graded"))
        suffix = "" if language == "en" else f".{language}"
        scores[language] = answer_the_test(page, f"{site_url}app/quiz-keys{suffix}.json")
        wrong = page.locator(".quiz-question:not([hidden])[data-result=wrong] .quiz-explain")
        assert wrong.first.is_visible()
    # right, total and percent, in whatever order the language says them
    numbers = {language: sorted(re.findall(r"\d+", said)[:3]) for language, said in scores.items()}
    assert len(numbers["en"]) == 3, scores["en"]
    for language in TRANSLATED:
        assert numbers[language] == numbers["en"], scores
        assert scores[language] != scores["en"]  # said in the language


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_language_menu_keeps_the_readers_place(page, site_url, language):
    hold_python(page)
    page.goto(site_url + PAGE_OF["waves"])
    page.evaluate("document.querySelector('#waves').scrollIntoView({block: 'start'})")
    page.locator(f".language-menu a[hreflang='{language_tag(language)}']").click()
    page.wait_for_url(re.compile(rf"/{language}/{PAGE_OF['waves']}#waves$"))
    assert page.evaluate("document.documentElement.lang") == language_tag(language)
    # and back
    page.locator(".language-menu a[hreflang=en]").click()
    page.wait_for_url(re.compile(rf"/{PAGE_OF['waves']}#waves$"))
    assert page.evaluate("document.documentElement.lang") == "en"


@pytest.mark.parametrize("language", TRANSLATED)
def test_an_embed_takes_lang(page, site_url, page_log, language):
    page.goto(f"{site_url}embed.html?demo=formula&lang={language}")
    assert wait_for_state(page) == "ready", page.inner_text("#boot")
    assert page.evaluate("document.documentElement.lang") == language_tag(language)
    page.locator("#formula[data-live=shown]").wait_for()
    heading = page.inner_text("#formula h2")
    assert heading and heading != "The formula, term by term"
    assert page_log.blocked == []


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize(
    "name", ["index.html", "why-order.html", "review.html", "teaching.html", "report.html"]
)
def test_axe_finds_nothing_serious_in_each_language(page, site_url, language, name):
    hold_python(page)
    page.goto(url_of(site_url, language, name))
    page.wait_for_load_state("load")
    serious = [v for v in axe(page) if v["impact"] in ("serious", "critical")]
    assert not serious, serious
