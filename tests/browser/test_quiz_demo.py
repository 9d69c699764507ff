"""The checks and tests as a learner meets them: a section's check, which gives a first wrong
answer its hint and a second try before the answer, and marks the section in the map checked
(right at the first try) or helped; a test in practice and graded, whose key no reader of the
page's source finds before Submit; numbers typed as people type them; attempts; the maths typeset.
The tests of tests run on a copy of the built site whose inside-attention chapter's questions
are all test items, with one numeric item more (tests/browser/quiz_lesson.py), so that they hold
whatever the lesson's own test items are."""

from __future__ import annotations

import re

import pytest

from pages import PHONE, hold_python, poll
from quiz_lesson import TEST_SECTIONS, question_id, read_keys, right_value
from quiz_sources import questions as source_questions
from site_server import DIST

KEYS = read_keys(DIST / "app" / "quiz-keys.json")



def marked(page, question) -> None:
    """Wait until a question shows its feedback (the keys arrive asynchronously)."""
    question.locator(".quiz-feedback").wait_for(state="visible")


def map_mark(page, section: str) -> dict:
    """The course map's progress marks on a section: visited, checked, helped."""
    return page.evaluate(
        "(name) => { const li = document.querySelector(`.course-map li[data-section=${name}]`);"
        " return {checked: li.hasAttribute('data-checked'), helped: li.hasAttribute('data-helped')}"
        " }",
        section,
    )


def test_a_check_gives_the_hint_then_a_second_try_then_the_answer(page, site_url):
    """Try, then learn: a first wrong answer gets its option's hint and another try, the answer
    hidden; a second wrong one shows the answer, its explanation and the link back. A check
    finished so is marked helped in the map, never checked."""
    hold_python(page)
    page.goto(f"{site_url}why-order.html")
    check = page.locator(".quiz-check[data-section=attention]")
    assert check.locator("h3").inner_text() == "Check: Attention cannot see order"
    questions = check.locator(".quiz-question:not([hidden])")
    first = next(
        questions.nth(i)
        for i in range(questions.count())
        if len(KEYS[question_id(questions.nth(i))]["why"]) >= 2
    )
    name = question_id(first)
    wrong, again = list(KEYS[name]["why"])[:2]
    first.locator(f"input[value='{wrong}']").check()
    marked(page, first)
    assert first.get_attribute("data-result") == "wrong"
    assert first.locator(".quiz-feedback").inner_text() == (
        f"Not quite. {KEYS[name]['why'][wrong]} Try again, or show the answer."
    )
    assert first.locator(".quiz-explain").is_hidden()
    assert first.locator(".quiz-refers").is_hidden()
    assert first.locator(".quiz-option[data-mark=answer]").count() == 0
    assert first.get_by_role("button", name="Show answer").is_visible()
    # the second try, wrong again: now the answer, why, and where to read it again
    first.locator(f"input[value='{again}']").check()
    poll(
        page,
        "(q) => !q.querySelector('.quiz-explain').hidden",
        lambda shown: shown,
        arg=first.element_handle(),
    )
    feedback = first.locator(".quiz-feedback").inner_text()
    assert feedback.startswith(f"Not quite. {KEYS[name]['why'][again]}")
    assert re.search(r"The answer is “.+”\.$", feedback)
    assert first.locator(".quiz-option[data-mark=answer]").count() == 1
    assert first.get_by_role("button", name="Show answer").is_hidden()
    refers = next(q.refers for q in source_questions() if q.name == name) or "attention"
    back = first.locator(".quiz-refers a").first
    assert back.is_visible() and back.get_attribute("href") == f"#{refers}"
    step = page.locator(".course-map li[data-section=attention] .map-step").text_content()
    assert first.locator(".quiz-refers .section-ref").inner_text() == f"section {step}"
    # the others right: the check is finished, after a hint, so the map says helped
    for index in range(questions.count()):
        question = questions.nth(index)
        if question_id(question) == name:
            continue
        question.locator(f"input[value='{right_value(KEYS, question)}']").check()
        poll(page, "(q) => q.dataset.result", lambda r: r == "right", arg=question.element_handle())
    poll(page, "() => localStorage.getItem('pelab:progress')", lambda kept: "helped" in kept)
    assert map_mark(page, "attention") == {"checked": False, "helped": True}
    mark = page.evaluate(
        "() => getComputedStyle(document.querySelector("
        "'.course-map li[data-section=attention] > a'), '::after').content"
    )
    assert "✓↻" in mark and "after a hint or a shown answer" in mark


def test_a_check_right_at_the_first_try_earns_the_double_check(page, site_url):
    """Every first answer right, from the keyboard (focus an option, press Space): each says
    Right at once, with its explanation, and the map marks the section checked (✓✓)."""
    hold_python(page)
    page.goto(f"{site_url}why-order.html")
    questions = page.locator(".quiz-check[data-section=attention] .quiz-question:not([hidden])")
    assert questions.count() >= 1
    for index in range(questions.count()):
        question = questions.nth(index)
        question.locator(f"input[value='{right_value(KEYS, question)}']").focus()
        page.keyboard.press("Space")
        poll(page, "(q) => q.dataset.result", lambda r: r == "right", arg=question.element_handle())
        assert question.locator(".quiz-feedback").inner_text() == "Right."
        assert question.locator(".quiz-explain").is_visible()
        assert question.get_by_role("button", name="Show answer").is_hidden()
    poll(
        page,
        "() => document.querySelector('.course-map li[data-section=attention]').dataset.checked",
        lambda value: value == "",
    )
    assert map_mark(page, "attention") == {"checked": True, "helped": False}


def test_show_answer_from_the_keyboard_shows_it_and_marks_the_section_helped(page, site_url):
    hold_python(page)
    page.goto(f"{site_url}why-order.html")
    questions = page.locator(".quiz-check[data-section=attention] .quiz-question:not([hidden])")
    for index in range(questions.count()):
        question = questions.nth(index)
        button = question.get_by_role("button", name="Show answer")
        question.locator("input").last.focus()
        while not page.evaluate("(b) => document.activeElement === b", button.element_handle()):
            page.keyboard.press("Tab")  # the button is in the tab order, after the options
        page.keyboard.press("Enter")
        poll(page, "(q) => q.dataset.result", lambda r: r == "shown", arg=question.element_handle())
        feedback = question.locator(".quiz-feedback").inner_text()
        assert re.fullmatch(r"The answer is “.+”\.", feedback)
        assert question.locator(".quiz-explain").is_visible()
        assert question.locator(".quiz-option[data-mark=answer]").count() == 1
        assert button.is_hidden()
        # the keyboard goes on from what the button showed
        assert page.evaluate("() => document.activeElement.className") == "quiz-feedback"
    poll(page, "() => localStorage.getItem('pelab:progress')", lambda kept: "helped" in kept)
    assert map_mark(page, "attention") == {"checked": False, "helped": True}


def test_a_numeric_check_gives_its_hint_and_a_second_try(page, site_url):
    """The RoPE prediction, a number: a first wrong value gets the hint and another try, with
    nothing of the answer; a value the page cannot read is no try at all."""
    hold_python(page)
    page.goto(f"{site_url}inside-attention.html")
    question = page.locator(".quiz-predict .quiz-question:has(input[name=quiz-rope-predict])")
    key = KEYS["quiz-rope-predict"]
    box = question.get_by_role("textbox")
    box.fill("about minus one")
    box.press("Enter")
    marked(page, question)
    assert question.locator(".quiz-feedback").inner_text().startswith("“about minus one” is not")
    box.fill("0")
    box.press("Enter")
    poll(page, "(q) => q.dataset.result", lambda r: r == "wrong", arg=question.element_handle())
    assert question.locator(".quiz-feedback").inner_text() == (
        f"Not quite: you gave 0. {key['why']['*']} Try again, or show the answer."
    )
    assert question.locator(".quiz-explain").is_hidden()
    box.fill(f"{key['answer']:.3f}")
    box.press("Enter")
    poll(page, "(q) => q.dataset.result", lambda r: r == "right", arg=question.element_handle())
    assert question.locator(".quiz-feedback").inner_text().startswith("Right: the answer is")
    assert question.locator(".quiz-explain").is_visible()


def test_without_end_test_items_a_chapter_has_no_test_and_the_quiz_says_so(page, site_url):
    """The lesson as it is built: wherever no question is an end-test item, no test block."""
    page.goto(f"{site_url}embed.html?demo=quiz")
    page.locator("#quiz").wait_for()
    forms = page.locator("#quiz form.quiz").count()
    assert forms == 0 or page.locator("#quiz .quiz-question:not([hidden])").count() > 0
    if not forms:
        assert "no test questions" in page.locator(".quiz-empty").inner_text()


def test_a_practice_test_marks_each_answer_at_once(page, quiz_site):
    url, keys = quiz_site
    page.goto(f"{url}embed.html?demo=quiz")
    form = page.locator("#quiz form.quiz[data-test=lesson]")
    # the quiz's module marks the mode once it runs, which may be after the form is in the page
    page.locator("#quiz form.quiz[data-test=lesson][data-mode=practice]").wait_for()
    assert not form.locator(".quiz-submit").is_visible()
    total = form.locator(".quiz-question:not([hidden])").count()
    assert form.locator(".quiz-score").inner_text() == f"0 of {total} answered, 0 right."
    sections = form.locator(".quiz-question:not([hidden])").evaluate_all(
        "(qs) => qs.map((q) => q.dataset.section)"
    )
    assert set(TEST_SECTIONS) <= set(sections)  # the lesson's own test items, and those
    first = form.locator(f".quiz-question:not([hidden])[data-section={TEST_SECTIONS[0]}]").first
    first.locator(f"input[value='{right_value(keys, first)}']").check()
    marked(page, first)
    assert first.locator(".quiz-feedback").inner_text() == "Right."
    # the link back goes to the question's chapter, at what it tests, in a new tab: the embed's
    # frame (a course page's) stays where it is (app/controls/outside-links.js)
    back = first.locator(".quiz-refers a").first
    assert back.get_attribute("href").startswith(f"{url}inside-attention.html#")
    assert back.get_attribute("target") == "_blank"
    assert back.inner_text().endswith("(opens in a new tab)")
    poll(
        page,
        "() => document.querySelector('.quiz-score').textContent",
        lambda t: t == f"1 of {total} answered, 1 right.",
    )


def test_a_number_is_read_as_typed_and_text_that_is_none_is_said(page, quiz_site):
    url, _ = quiz_site
    page.goto(f"{url}embed.html?demo=quiz")
    question = page.locator(".quiz-question:not([hidden]):has(input[name=quiz-rope-offset])")
    box = question.get_by_role("textbox")
    box.fill("about four")
    box.press("Enter")
    marked(page, question)
    assert (
        question.locator(".quiz-feedback")
        .inner_text()
        .startswith("“about four” is not a number: type digits")
    )
    assert question.get_attribute("data-result") is None
    box.fill("4")
    box.press("Enter")
    poll(
        page,
        "() => document.querySelector('[name=quiz-rope-offset]').closest('fieldset')"
        ".dataset.result",
        lambda r: r == "wrong",
    )
    assert question.locator(".quiz-feedback").inner_text() == (
        "Not quite: you gave 4. The answer is -4, give or take 0.5. The offset is n − m, not m − n."
    )
    box.fill("−4,2")  # a minus sign and a decimal comma, within the tolerance
    box.press("Enter")
    poll(
        page,
        "() => document.querySelector('[name=quiz-rope-offset]').closest('fieldset')"
        ".dataset.result",
        lambda r: r == "right",
    )
    assert question.locator(".quiz-explain var").all_inner_texts() == ["n", "m"]


def test_a_graded_test_keeps_its_key_out_of_the_page_until_submit(page, quiz_site, page_log):
    url, keys = quiz_site
    hold_python(page)
    page.goto(f"{url}inside-attention.html?graded")
    form = page.locator("form.quiz[data-test=inside-attention]")
    # the form is in the page's markup; the quiz's module marks its mode once it runs
    page.locator("form.quiz[data-test=inside-attention][data-mode=graded]").wait_for()
    questions = form.locator(".quiz-question:not([hidden])")
    total = questions.count()
    for index in range(total):  # the first wrong, the others right
        question = questions.nth(index)
        if question.get_attribute("data-kind") == "numeric":
            key = keys[question_id(question)]
            given = key["answer"] + (0 if index else 10 * key["tolerance"] + 1)
            question.get_by_role("textbox").fill(str(given))
            question.get_by_role("textbox").dispatch_event("change")
        elif index == 0:
            question.locator(f"input:not([value='{right_value(keys, question)}'])").first.check()
        else:
            question.locator(f"input[value='{right_value(keys, question)}']").check()
    # answered, but nothing marked, and nothing in the page or its requests gives the key
    assert form.locator(".quiz-feedback:visible, .quiz-explain:visible").count() == 0
    assert form.locator(".quiz-score").inner_text().startswith(f"{total} of {total} answered.")
    html = page.content()
    for leak in ("data-correct", "data-why", "data-answer", "data-tolerance"):
        assert leak not in html
    for key in keys.values():
        words = re.sub(r"<[^>]*>", "", key["explain"])[:40]
        assert words not in html
    assert not any("quiz-keys.json" in request for request in page_log.requests)
    form.get_by_role("button", name="Submit").click()
    poll(
        page,
        "() => document.querySelector('form[data-test=inside-attention] .quiz-score').textContent",
        lambda t: t.startswith("Submitted"),
    )
    score = form.locator(".quiz-score").inner_text()
    right = total - 1
    assert score.startswith(f"Submitted: {right} of {total} right ({round(100 * right / total)}%).")
    assert "“Start again” begins a new attempt." in score
    assert questions.first.get_attribute("data-result") == "wrong"
    assert questions.first.locator(".quiz-explain").is_visible()
    assert questions.nth(1).get_attribute("data-result") == "right"
    assert form.locator("input:enabled").count() == 0  # a submitted attempt is closed
    # a new attempt: open again, unmarked
    form.get_by_role("button", name="Start again").click()
    poll(
        page,
        "() => document.querySelector('form[data-test=inside-attention] .quiz-score').textContent",
        lambda t: t.startswith(f"0 of {total} answered."),
    )
    assert form.locator(".quiz-question:not([hidden]) input:disabled").count() == 0
    assert form.locator(".quiz-feedback:visible").count() == 0
    # Submit with questions unanswered asks first: they would count as wrong
    form.get_by_role("button", name="Submit").click()
    assert form.locator(".quiz-score").inner_text() == (
        f"{total} of {total} questions are not answered and would count as wrong. "
        "Answer them, or press Submit again to hand in as it is."
    )
    form.get_by_role("button", name="Submit").click()
    poll(
        page,
        "() => document.querySelector('form[data-test=inside-attention] .quiz-score').textContent",
        lambda t: t.startswith(f"Submitted: 0 of {total} right (0%)."),
    )


def test_options_are_shuffled_per_attempt_and_true_or_false_keeps_its_order(page, quiz_site):
    url, _ = quiz_site
    orders = set()
    read = """() => [...document.querySelectorAll('#quiz .quiz-question:not([hidden])')].map((q) =>
                [...q.querySelectorAll('input')].map((i) => i.value).join('')).join(' ')"""
    for _ in range(6):
        page.goto(f"{url}embed.html?demo=quiz")
        page.locator("#quiz form.quiz").wait_for()
        orders.add(page.evaluate(read))
    assert len(orders) > 1  # six loads of several questions in one order: about 1 in 10^9
    kinds = page.locator("#quiz .quiz-question:not([hidden])").evaluate_all(
        "(qs) => qs.map((q) => q.dataset.kind)"
    )
    for order in orders:
        for kind, values in zip(kinds, order.split(" ")):
            if kind == "truefalse":
                assert values == "01"
            if kind == "choice":
                assert sorted(values) == [str(i) for i in range(len(values))]


@pytest.mark.parametrize("context_options", [{}, PHONE], ids=["wide", "phone"])
def test_questions_sit_inside_their_boxes_and_their_maths_is_typeset(page, quiz_site):
    """A question of two lines straddled its box's top border; q_mᵀk_n, M_k and W_Q were raw
    text. Now each question is inside its box, its variables italic and its indices set low."""
    url, keys = quiz_site
    hold_python(page)
    page.goto(f"{url}inside-attention.html")
    page.locator(".quiz-question:not([hidden])").first.wait_for()
    boxes = page.evaluate(
        """() => [...document.querySelectorAll('.quiz-question:not([hidden])')].map((q) => {
             const box = q.getBoundingClientRect();
             const legend = q.querySelector('legend').getBoundingClientRect();
             return [legend.top - box.top, box.right - legend.right, legend.left - box.left];
           })"""
    )
    assert len(boxes) > 5
    for top, right, left in boxes:
        assert top > 1 and right >= 0 and left > 1, (top, right, left)
    text = page.evaluate(
        "() => [...document.querySelectorAll('.quiz-question')].map((q) => q.textContent).join(' ')"
    ) + " ".join(why for key in keys.values() for why in key["why"].values())
    raw = re.findall(r"\b(?!d_model\b)\w+_[\w(]+|\w+\^|\wᵀ", text)
    assert raw == [], raw
    subscripts = page.evaluate(
        "() => [...document.querySelectorAll('.quiz-question var sub, .quiz-question var + sub')]"
        ".map((s) => s.closest('var')?.textContent"
        " ?? s.previousSibling.textContent + s.textContent)"
    )
    assert {"qm", "kn"} <= set(subscripts), subscripts


def test_a_wrong_answer_shows_the_right_one_with_its_maths(page, quiz_site):
    url, keys = quiz_site
    hold_python(page)
    page.goto(f"{url}inside-attention.html")
    question = page.locator(".chapter-test .quiz-question[data-section='terms']").first
    name = question_id(question)
    question.locator("input[value='0']").check()  # "All three, once training…": wrong
    marked(page, question)
    feedback = question.locator(".quiz-feedback")
    assert feedback.inner_text().startswith(f"Not quite. {keys[name]['why']['0']}")
    assert feedback.inner_text().endswith(
        "The answer is “Position·position alone, when A commutes with the rotations.”."
    )
    assert feedback.locator("var").all_inner_texts() == ["A"]  # the answer's own markup
    assert question.locator(".quiz-explain var").count() > 0  # the explanation's, rebuilt


def test_every_wrong_answer_says_why_and_the_right_one_is_not_the_longest(page, site_url):
    """The lesson's own questions: every wrong option explains itself in the keys, and the
    right answer is not given away by its length."""
    questions = []
    hold_python(page)
    for chapter in ("why-order", "geometry", "inside-attention", "longer", "today"):
        page.goto(f"{site_url}{chapter}.html")
        page.locator(".quiz-question:not([hidden])").first.wait_for()
        questions += page.evaluate(
            """() => [...document.querySelectorAll('.quiz-question:not([hidden])')].map((q) => ({
                 name: q.querySelector('input').name,
                 options: [...q.querySelectorAll('input')].map((i) => ({
                   value: i.value, length: i.closest('label').textContent.trim().length })),
               }))"""
        )
    # the questions practice mode shows (a graded version's key is NAME.b, NAME.v3)
    assert {q["name"] for q in questions} == {name for name in KEYS if "." not in name}
    longest_is_right = 0
    for q in questions:
        key = KEYS[q["name"]]
        assert len(re.sub(r"<[^>]*>", "", key["explain"])) > 40, q["name"]
        if key["kind"] == "numeric":  # one box: what a wrong value usually means
            assert len(key["why"].get("*", "")) > 20, q["name"]
            continue
        for option in q["options"]:
            assert (
                option["value"] == key.get("correct")
                or len(key["why"].get(option["value"], "")) > 20
            )
        if len(q["options"]) > 2:
            longest = max(q["options"], key=lambda o: o["length"])
            longest_is_right += longest["value"] == key["correct"]
    assert longest_is_right <= len(questions) // 4
