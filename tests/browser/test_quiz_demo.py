"""The quiz: explained feedback, from the keyboard."""

from __future__ import annotations

from pages import poll


def test_the_quiz_gives_explained_feedback_from_the_keyboard(lesson):
    quiz = lesson.locator("#quiz")
    first = quiz.locator(".quiz-question").first
    first.get_by_role("radio").first.focus()
    lesson.keyboard.press("ArrowDown")  # arrow keys move between the options and choose: the second is right
    assert first.get_attribute("data-result") == "right"
    assert first.locator(".quiz-feedback").inner_text() == "Right."
    assert first.locator(".quiz-explain").is_visible()
    second = quiz.locator(".quiz-question").nth(1)  # true or false: concatenated? (false)
    second.get_by_role("radio", name="True").check()
    assert second.get_attribute("data-result") == "wrong"
    assert "Not quite" in second.locator(".quiz-feedback").inner_text() and "False" in second.locator(".quiz-feedback").inner_text()
    assert "1 right" in quiz.locator(".quiz-score").inner_text() and "2 of 8 answered" in quiz.locator(".quiz-score").inner_text()
    quiz.get_by_role("button", name="Start again").click()
    poll(lesson, "() => document.querySelector('.quiz-score').textContent", lambda t: t.startswith("0 of 8"))
    assert not first.locator(".quiz-explain").is_visible()
