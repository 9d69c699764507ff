"""Part 2 of the lesson in headless Chromium: relative position as a matrix, similarity,
learned vs sinusoidal vs RoPE, extrapolation, and the quiz, checked against pelab."""

from __future__ import annotations

import numpy as np
import pytest

import pelab
from conftest import poll

pytestmark = pytest.mark.browser


def data(page, section: str, key: str):
    return page.evaluate("([s, k]) => document.querySelector(s).dataset[k] ?? null", [section, key])


def rendered(page, section: str, expected: str):
    poll(page, "(s) => document.querySelector(s).dataset.rendered", lambda v: v == expected, arg=section)


def canvas_size(page, selector: str) -> list[int]:
    return page.evaluate("(s) => [document.querySelector(s).width, document.querySelector(s).height]", selector)


def test_moving_k_positions_is_one_rotation_matrix(lesson):
    demo = lesson.locator("#relative")
    rendered(lesson, "#relative", "5/8")
    assert float(data(lesson, "#relative", "residual")) <= 1e-12
    assert float(data(lesson, "#relative", "sineOnly")) > 0.1
    assert canvas_size(lesson, ".relative-matrix") == [8, 8]
    assert demo.locator(".relative-residual").inner_text().endswith(("(exactly)", "e−13", "e−14", "e−15", "e−16", "e−17"))
    labels = demo.locator(".relative-table tbody th").all_inner_texts()
    assert labels[:2] == ["PE(0 + 5)", "M · PE(0)"] or labels[0].startswith("PE(")
    values = lesson.evaluate(
        """() => [...document.querySelectorAll('.relative-table tbody tr')].map(tr =>
             [...tr.querySelectorAll('td[title]')].map(td => Number(td.title.split(': ')[1])))"""
    )
    for shifted, mapped in zip(values[::2], values[1::2]):
        np.testing.assert_allclose(shifted, mapped, atol=1e-12)
    slider = demo.get_by_role("slider", name="Offset")
    slider.focus()
    slider.press("Home")
    rendered(lesson, "#relative", "-20/8")
    demo.get_by_role("slider", name="d_model").press("End")
    rendered(lesson, "#relative", "-20/32")
    assert canvas_size(lesson, ".relative-matrix") == [32, 32]
    assert float(data(lesson, "#relative", "residual")) <= 1e-12


def test_the_dot_product_depends_only_on_the_offset(lesson):
    demo = lesson.locator("#similarity")
    rendered(lesson, "#similarity", "100x64@10000:50")
    assert float(data(lesson, "#similarity", "toeplitz")) <= 1e-9
    assert canvas_size(lesson, ".similarity-dot") == [100, 100]
    assert canvas_size(lesson, ".similarity-cosine") == [100, 100]
    assert "depends only on the offset" in demo.locator(".similarity-toeplitz").inner_text()
    assert lesson.locator("#similarity .similarity-chart path.series").count() == 1
    lesson.locator("#similarity-pos").press("Home")
    rendered(lesson, "#similarity", "100x64@10000:0")
    assert "PE(0) · PE(q)" in lesson.locator("#similarity .similarity-chart").inner_html()


def test_a_learned_table_has_no_row_past_its_length_but_the_formula_does(lesson):
    demo = lesson.locator("#learned")
    rendered(lesson, "#learned", "64/48")
    error = demo.locator(".compare-learned-error")
    assert error.is_visible()
    assert "63" in error.inner_text() and "48" in error.inner_text()
    with pytest.raises(IndexError) as raised:
        pelab.learned(max_len=48, d_model=64).lookup([63])
    assert str(raised.value) in error.inner_text()
    for kind in ["learned", "sinusoidal", "rope"]:
        assert canvas_size(lesson, f".compare-{kind}") == [64, 64]
    assert "depends only on m − n" in demo.locator(".compare-rope-check").inner_text()
    demo.get_by_role("slider", name="Learned table length").press("End")
    rendered(lesson, "#learned", "64/128")
    assert not error.is_visible()


def test_nearest_positions_and_the_two_layouts(lesson):
    demo = lesson.locator("#extrapolation")
    rendered(lesson, "#extrapolation", "64/512/16@10000")
    at_train = float(data(lesson, "#extrapolation", "atTrain"))
    expected = pelab.nearest_distances(seq_len=512, d_model=16)
    assert at_train == pytest.approx(expected[63], abs=1e-9)
    assert float(data(lesson, "#extrapolation", "beyond")) == pytest.approx(expected[-1], abs=1e-9)
    assert demo.locator(".extrapolation-layout").inner_text() == "0 (exactly)"
    demo.get_by_role("slider", name="d_model").press("Home")  # one pair: a single clock hand
    rendered(lesson, "#extrapolation", "64/512/2@10000")
    beyond = float(data(lesson, "#extrapolation", "beyond"))
    assert beyond == pytest.approx(pelab.nearest_distances(seq_len=512, d_model=2)[-1], abs=1e-12)
    assert beyond < 0.01 and beyond < at_train  # a single clock hand comes back round: near-collisions
    demo.get_by_role("slider", name="Training length").press("End")
    demo.get_by_role("slider", name="Sequence length").press("Home")  # 16 < training length: clamped
    assert "is longer than the sequence" in demo.locator(".extrapolation-notice").inner_text()
    rendered(lesson, "#extrapolation", "16/16/2@10000")


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
