"""The quiz: every section asked about, explained feedback for right and wrong answers, from the
keyboard."""

from __future__ import annotations

import re

import pytest

from pages import PHONE, live_demos, poll


def test_the_quiz_gives_explained_feedback_from_the_keyboard(lesson):
    quiz = lesson.locator("#quiz")
    total = quiz.locator(".quiz-question").count()
    assert quiz.locator(".quiz-score").inner_text() == f"0 of {total} answered, 0 right."
    first = quiz.locator(".quiz-question").first
    first.get_by_role("radio").first.focus()
    # arrow keys move between the options and choose: the second is right
    lesson.keyboard.press("ArrowDown")
    assert first.get_attribute("data-result") == "right"
    assert first.locator(".quiz-feedback").inner_text() == "Right."
    assert first.locator(".quiz-explain").is_visible()
    # true or false: a causal decoder is order-blind? (false)
    second = quiz.locator(".quiz-question").nth(1)
    second.get_by_role("radio", name="True").check()
    assert second.get_attribute("data-result") == "wrong"
    feedback = second.locator(".quiz-feedback").inner_text()
    # Why the chosen answer is wrong, then the right one; the explanation says why that is right.
    assert feedback.startswith("Not quite. The causal mask") and feedback.endswith(
        "The answer is “False”."
    )
    assert second.locator(".quiz-explain").is_visible()
    assert f"2 of {total} answered, 1 right." == quiz.locator(".quiz-score").inner_text()
    quiz.get_by_role("button", name="Start again").click()
    poll(
        lesson,
        "() => document.querySelector('.quiz-score').textContent",
        lambda t: t.startswith(f"0 of {total}"),
    )
    assert not first.locator(".quiz-explain").is_visible()


def test_every_section_is_asked_about_and_every_wrong_answer_says_why(lesson):
    live = live_demos(lesson)
    questions = lesson.evaluate(
        """() => [...document.querySelectorAll("#quiz .quiz-question")].map((q) => ({
             section: q.dataset.section,
             right: q.querySelectorAll("input[data-correct]").length,
             options: [...q.querySelectorAll("input")].map((i) => ({
               correct: i.hasAttribute("data-correct"), why: i.dataset.why ?? null,
               length: i.closest("label").textContent.trim().length,
             })),
             explain: q.querySelector(".quiz-explain").textContent.trim(),
           }))"""
    )
    assert {q["section"] for q in questions} == set(live)
    longest_is_right = 0
    for q in questions:
        assert q["right"] == 1 and len(q["explain"]) > 40
        for option in q["options"]:
            assert option["correct"] or len(option["why"] or "") > 20, (q["section"], option)
        choices = q["options"]
        if len(choices) > 2 and max(choices, key=lambda o: o["length"])["correct"]:
            longest_is_right += 1
    assert (
        longest_is_right <= len(questions) // 4
    )  # the right answer is not given away by its length


@pytest.mark.parametrize("context_options", [{}, PHONE], ids=["wide", "phone"])
def test_questions_sit_inside_their_boxes_and_their_maths_is_typeset(lesson):
    """A question of two lines straddled its box's top border; q_mᵀk_n, M_k and W_Q were raw
    text. Now each question is inside its box, its variables italic and its indices set low."""
    boxes = lesson.evaluate(
        """() => [...document.querySelectorAll('#quiz .quiz-question')].map((q) => {
             const box = q.getBoundingClientRect();
             const legend = q.querySelector('legend').getBoundingClientRect();
             return [legend.top - box.top, box.right - legend.right, legend.left - box.left];
           })"""
    )
    assert len(boxes) > 20
    for top, right, left in boxes:
        assert top > 1 and right >= 0 and left > 1, (top, right, left)
    text = lesson.evaluate(
        """() => [...document.querySelectorAll('#quiz .quiz-question')].map((q) =>
             [q.textContent, ...[...q.querySelectorAll('[data-why]')].map((i) => i.dataset.why)]
               .join(' ')).join(' ')"""
    )
    raw = re.findall(r"\b(?!d_model\b)\w+_[\w(]+|\w+\^|\wᵀ", text)
    assert raw == [], raw
    subscripts = lesson.evaluate(
        "() => [...document.querySelectorAll('#quiz var sub, #quiz var + sub')].map((s) =>"
        " s.closest('var')?.textContent ?? s.previousSibling.textContent + s.textContent)"
    )
    assert {"qm", "kn", "Mk", "WQ", "WK"} <= set(subscripts), subscripts


def test_a_wrong_answer_shows_the_right_one_with_its_maths(lesson):
    question = lesson.locator("#quiz .quiz-question[data-section='terms']").first
    question.get_by_role("radio").first.check()  # "All three, once training…": wrong
    feedback = question.locator(".quiz-feedback")
    assert feedback.inner_text().startswith("Not quite. Content·content holds no position")
    assert feedback.inner_text().endswith(
        "The answer is “Position·position alone, when A commutes with the rotations.”."
    )
    assert feedback.locator("var").all_inner_texts() == ["A"]  # the answer's own markup
