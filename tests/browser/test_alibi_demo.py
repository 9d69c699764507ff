"""The ALiBi demo: each head's bias −m·(i − j), and what it does to a sentence's causal
attention weights."""

from __future__ import annotations

import numpy as np
import pytest

import pelab
from pages import (
    PHONE,
    canvas_size,
    chart_geometry,
    colour_bar,
    dataset,
    matrix_axes,
    put_back,
    wait_for_state,
    wait_rendered,
)
from test_terms_demo import table_of

SENTENCE = "the cat sat on the mat because the mat was warm"


def show_as_served(page) -> None:
    """Put the demo's sentence and sliders back as served and wait until it shows them."""
    put_back(page, "#alibi")
    wait_rendered(page, "#alibi", "8/1/11")


def expected_weights(sentence: str, n_heads: int):
    """The causal ALiBi weights of every head, computed here under CPython."""
    x = pelab.embed(pelab.tokenize(sentence)[0], 8)
    w_q, w_k, _ = pelab.projections(8)
    return pelab.alibi_weights(pelab.attention_scores(x, w_q, w_k), n_heads)


def test_every_head_gets_its_own_slope_and_looks_less_far_back(as_served):
    lesson = as_served
    demo = lesson.locator("#alibi")
    wait_rendered(lesson, "#alibi", "8/1/11")
    labels = demo.locator(".alibi-head-label").all_inner_texts()
    assert labels == [f"head {h}: m = {2.0**-h:g}" for h in range(1, 9)]
    assert all(
        canvas_size(lesson, f"#alibi .alibi-head:nth-child({h}) canvas") == [11, 11]
        for h in range(1, 9)
    )
    # The small multiples are one image (a <div role=img>, which the accessibility test's canvas
    # and svg search does not see): a name, and a numbers table through aria-details.
    heads = lesson.locator("#alibi .alibi-heads")
    assert heads.get_attribute("role") == "img" and "8 heads" in heads.get_attribute("aria-label")
    # The numbers: every head's slope, and the last query's bias -m (i - j) on the keys.
    table = table_of(lesson, ".alibi-heads")
    assert table["columns"][:3] == ["slope m", "j = 10", "j = 9"]
    slopes = pelab.alibi_slopes(8)
    bias = pelab.alibi_bias(11, 8)
    for h in range(8):
        # 6 decimals shown: within 5e-7, and an exact half such as 0.0078125 may round either way.
        np.testing.assert_allclose(
            table["rows"][str(h + 1)],
            [slopes[h], *bias[h, 10, [10, 9, 8, 7, 6, 5, 4, 3]]],
            rtol=0,
            atol=5e-7 * (1 + 1e-9),
        )
    weights = expected_weights(SENTENCE, 8)
    distances = [pelab.attention_distance(w) for w in weights]
    # Scores through Pyodide's numpy (no BLAS) and this machine's: rounding only, far below 1e-9.
    assert float(dataset(lesson, "#alibi", "distance")) == pytest.approx(distances[0], abs=1e-9)
    plain = float(dataset(lesson, "#alibi", "plainDistance"))
    assert distances[0] < distances[-1] < plain
    shown = table_of(lesson, ".alibi-weights")
    got = np.array([shown["rows"][f"{i}: {w}"] for i, w in enumerate(SENTENCE.split()[:8])])
    np.testing.assert_allclose(got, weights[0][:8, :8], rtol=0, atol=5e-7)

    # From the keyboard: the head shown, then the number of heads.
    head = demo.get_by_role("slider", name="Head shown")
    head.focus()
    head.press("End")  # head 16 of 8: clamped, with a notice
    wait_rendered(lesson, "#alibi", "8/8/11")
    assert demo.locator(".alibi-notice").inner_text() == "There are only 8 heads: showing head 8."
    assert float(dataset(lesson, "#alibi", "distance")) == pytest.approx(distances[7], abs=1e-9)
    count = demo.get_by_role("slider", name="Heads")
    count.focus()
    count.press("End")
    wait_rendered(lesson, "#alibi", "16/16/11")
    assert demo.locator(".alibi-head").count() == 16 and demo.locator(".alibi-notice").is_hidden()
    assert 16 % head_columns(lesson) == 0  # every row of heads full, at this width too
    count.press("Home")
    wait_rendered(lesson, "#alibi", "1/1/11")
    assert demo.locator(".alibi-head").count() == 1
    # 2^-8 for one head
    assert demo.locator(".alibi-head-label").inner_text() == "head 1: m = 0.00390625"


def test_an_embedded_alibi_demo_clamps_its_link_with_a_notice(page, site_url):
    page.goto(f"{site_url}embed.html?demo=alibi#n_heads=40&head=3&sentence=dog+bites+man")
    assert wait_for_state(page) == "ready"
    assert (
        "Heads: 40 is outside 1 to 16; using 16."
        in page.locator(".share-notices li").all_inner_texts()
    )
    wait_rendered(page, "#alibi", "16/3/3")
    weights = expected_weights("dog bites man", 16)
    assert float(dataset(page, "#alibi", "distance")) == pytest.approx(
        pelab.attention_distance(weights[2]), abs=1e-9
    )


def head_columns(page) -> int:
    """How many heads the grid puts in a row, as laid out (distinct left edges)."""
    return page.evaluate(
        "() => new Set([...document.querySelectorAll('#alibi .alibi-head')]"
        ".map((h) => h.getBoundingClientRect().left)).size"
    )


@pytest.mark.parametrize("context_options", [{}, PHONE], ids=["wide", "phone"])
def test_the_figures_read_on_their_own(as_served_or_own):
    """Rows of heads that end evenly (8 was 7 + 1), one bar for their bias, tokens on the axes of
    the weights, and a chart with a key, titles on both axes and its lines clear of its edge."""
    lesson = as_served_or_own
    wait_rendered(lesson, "#alibi", "8/1/11")
    columns = head_columns(lesson)
    assert 8 % columns == 0 and columns > 1
    bar = colour_bar(lesson, "#alibi .alibi-heads-bar")
    # The steepest head's bias for the last query and the first key: −0.5 · 10. Biases are ≤ 0,
    # so the bar is the map's blue half, −5 to 0, and names the grey of the masked keys.
    assert (bar["labels"], bar["low"], bar["high"], bar["missing"]) == (
        ["−5", "0"],
        -5,
        0,
        "masked (j > i)",
    )
    for canvas in (".alibi-plain", ".alibi-weights"):
        axes = matrix_axes(lesson, canvas)
        assert (axes["rowTitle"], axes["columnTitle"]) == ("query i", "key j")
        assert (
            axes["rows"] == axes["columns"] == SENTENCE.split()
        )  # room for every token, a phone's too
    weights = colour_bar(lesson, "#alibi .matrix-figure:nth-child(2) .colour-bar")
    assert (weights["labels"], weights["low"], weights["high"]) == (["0", "+1"], 0, 1)
    chart = chart_geometry(lesson, ".alibi-chart")
    assert chart["key"] == ["each head, with its bias", "the same head, no bias"]
    assert chart["xTitle"] == ["head", "tokens back, on average"]
    # The line with no bias (2.81 tokens) sat on the top edge; the axis now rises to 3.
    assert min(line["top"] for line in chart["series"]) > chart["gridTop"] + 5
    assert chart["markerLabels"][0]["bottom"] <= chart["gridTop"]
