"""The terms demo: a score with added positions is four terms, and only position·position can
depend on i − j alone, when A commutes with the rotations."""

from __future__ import annotations

import numpy as np
import pytest

import pelab
from pages import canvas_size, colour_bar, dataset, matrix_axes, poll, wait_for_state, wait_rendered

SENTENCE = "the cat sat on the mat because the mat was warm"
TERMS = ("content-content", "content-position", "position-content", "position-position", "total")


def table_of(page, figure: str) -> dict:
    """Open the numbers box of `figure` and read its table: {row label: [numbers]}, columns."""
    page.evaluate(
        "(s) => (document.getElementById(document.querySelector(s).getAttribute('aria-details'))"
        ".open = true)",
        figure,
    )
    table = poll(
        page,
        """(s) => [...document
                   .getElementById(document.querySelector(s).getAttribute('aria-details'))
                   .querySelectorAll('tr')].map((tr) => [...tr.cells].map((c) => c.textContent))""",
        lambda rows: len(rows) > 1,
        arg=figure,
    )
    return {
        "columns": table[0][1:],
        "rows": {row[0]: [float(text.replace("−", "-")) for text in row[1:]] for row in table[1:]},
    }


def test_four_terms_and_which_depend_on_the_offset_only(lesson):
    demo = lesson.locator("#terms")
    wait_rendered(lesson, "#terms", "8/WQWK/11")
    expected = pelab.four_terms(SENTENCE)
    for name in TERMS:
        assert canvas_size(lesson, f".terms-{name}") == [11, 11]
    # Pyodide's numpy has no BLAS and adds in another order than this machine's: entries of
    # size about 10 agree to far better than 1e-9.
    assert float(dataset(lesson, "#terms", "positionPosition")) == pytest.approx(
        expected.toeplitz["position_position"], abs=1e-9)
    assert float(dataset(lesson, "#terms", "contentPosition")) > 0.1
    assert float(dataset(lesson, "#terms", "sumGap")) < 1e-12
    # The numbers table of position·position: 6 decimals shown, so within 5e-7 of pelab's.
    table = table_of(lesson, ".terms-position-position")
    assert table["columns"][:3] == ["0: the", "1: cat", "2: sat"]
    got = np.array([table["rows"][f"{i}: {w}"] for i, w in enumerate(SENTENCE.split()[:8])])
    np.testing.assert_allclose(got, expected.scores.position_position[:8, :8], rtol=0, atol=5e-7)
    verdict = demo.locator(".terms-verdict[data-term='position_position']")
    assert verdict.inner_text().startswith("not a function of i − j")
    # Each square is labelled with the tokens, queries down the side and keys along the bottom,
    # every one of them where there is room (here), and has a colour bar of its own, its range
    # its own largest |entry|: one range for all five faded position·position to white.
    matrices = dict(expected.scores.terms(), total=expected.scores.total)
    for name in TERMS:
        axes = matrix_axes(lesson, f".terms-{name}")
        assert axes["rows"] == axes["columns"] == SENTENCE.split(), name
        assert (axes["rowTitle"], axes["columnTitle"]) == ("query i", "key j")
        scale = np.abs(matrices[name.replace("-", "_")]).max()
        bar = colour_bar(lesson, f"#terms .matrix-figure:has(.terms-{name}) .colour-bar")
        assert bar["high"] == pytest.approx(scale, abs=1e-9) and bar["low"] == -bar["high"]
        assert bar["labels"] == [f"−{scale:.4g}", "0", f"+{scale:.4g}"], name
    assert lesson.locator("#terms .colour-bar").count() == len(TERMS)
    # The switch's words are one paragraph beside its box (they were three columns on a phone).
    toggle = lesson.evaluate(
        """() => { const label = document.querySelector('#terms .toggle');
                   const words = label.querySelector('span').getClientRects().length;
                   return [label.children.length, words]; }"""
    )
    assert toggle == [2, 1]

    # A = I: position·position becomes a function of i − j; the cross terms still are not.
    demo.get_by_label("plain dot products").check()
    wait_rendered(lesson, "#terms", "8/I/11")
    assert float(dataset(lesson, "#terms", "positionPosition")) < 1e-12
    assert float(dataset(lesson, "#terms", "contentPosition")) > 0.1
    assert float(dataset(lesson, "#terms", "positionContent")) > 0.1
    assert verdict.inner_text().startswith("depends on i − j only")
    assert "A = I" in lesson.locator(".terms-position-position").get_attribute("aria-label")
    # Its diagonal, 4 = d_model / 2 everywhere, stands out from the offset-1 diagonal beside it
    # (3.54): on the old range shared with the whole score (±19.0) the two were one pale red.
    pixels = lesson.evaluate(
        """() => { const c = document.querySelector('#terms .terms-position-position');
                   const data = c.getContext('2d').getImageData(0, 0, 3, 3).data;
                   const at = (x, y) => [...data.slice((y * 3 + x) * 4, (y * 3 + x) * 4 + 3)];
                   return [at(0, 0), at(1, 1), at(1, 0), at(2, 1)]; }"""
    )
    diagonal, off_diagonal = pixels[:2], pixels[2:]
    assert diagonal[0] == diagonal[1] and off_diagonal[0] == off_diagonal[1]
    assert max(abs(a - b) for a, b in zip(diagonal[0], off_diagonal[0])) >= 40

    # From the keyboard: the widest d_model, then a shorter sentence.
    slider = demo.get_by_role("slider", name="d_model")
    slider.focus()
    slider.press("End")
    wait_rendered(lesson, "#terms", "32/I/11")
    assert float(dataset(lesson, "#terms", "positionPosition")) < 1e-12
    demo.get_by_label("Sentence").fill("<b>dog</b> bites man")
    wait_rendered(lesson, "#terms", "32/I/3")
    assert canvas_size(lesson, ".terms-total") == [3, 3]
    assert table_of(lesson, ".terms-total")["columns"][0] == "0: <b>dog</b>"  # text, never markup


def test_an_embedded_terms_demo_clamps_its_link_with_a_notice(page, site_url):
    page.goto(f"{site_url}embed.html?demo=terms#d_model=7&identity=1&sentence=dog+bites+man")
    assert wait_for_state(page) == "ready"
    assert (
        "d_model: 7 is not one of its steps; using 8."
        in page.locator(".share-notices li").all_inner_texts()
    )
    wait_rendered(page, "#terms", "8/I/3")
    assert float(dataset(page, "#terms", "positionPosition")) < 1e-12


def test_a_malformed_toggle_in_a_link_is_named_in_its_notice(page, site_url):
    """A checkbox's label wraps it: the notice names the setting by the label's words."""
    page.goto(f"{site_url}embed.html?demo=terms#identity=maybe")
    assert wait_for_state(page) == "ready"
    assert page.locator(".share-notices li").all_inner_texts() == [
        "Use A = I (plain dot products) instead of the toy head’s WQ WKᵀ: "
        "“maybe” is not on or off; it stays off."
    ]
    wait_rendered(page, "#terms", "8/WQWK/11")
