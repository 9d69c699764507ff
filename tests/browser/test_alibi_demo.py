"""The ALiBi demo: each head's bias −m·(i − j), and what it does to a sentence's causal
attention weights."""

from __future__ import annotations

import numpy as np
import pytest

import pelab
from pages import canvas_size, dataset, wait_for_state, wait_rendered
from test_terms_demo import table_of

SENTENCE = "the cat sat on the mat because the mat was warm"


def expected_weights(sentence: str, n_heads: int):
    """The causal ALiBi weights of every head, computed here under CPython."""
    x = pelab.embed(pelab.tokenize(sentence)[0], 8)
    w_q, w_k, _ = pelab.projections(8)
    return pelab.alibi_weights(pelab.attention_scores(x, w_q, w_k), n_heads)


def test_every_head_gets_its_own_slope_and_looks_less_far_back(lesson):
    demo = lesson.locator("#alibi")
    wait_rendered(lesson, "#alibi", "8/1/11")
    labels = demo.locator(".alibi-head-label").all_inner_texts()
    assert labels == [f"head {h}: m = {2.0 ** -h:g}" for h in range(1, 9)]
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
