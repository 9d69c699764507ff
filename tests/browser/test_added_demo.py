"""The added demo: adding keeps the width, and the encoding ignores the word."""

from __future__ import annotations

import numpy as np

import pelab
from pages import cell_values, poll


def test_adding_keeps_the_width_and_the_encoding_ignores_the_word(lesson):
    demo = lesson.locator("#added")
    poll(
        lesson,
        "() => document.querySelector('.added-table').dataset.rendered",
        lambda v: v == "dog@1",
    )
    embedding, encoding, total = cell_values(lesson, ".added-table")
    assert len(embedding) == len(encoding) == len(total) == 8
    np.testing.assert_allclose(encoding, pelab.sinusoidal(2, 8)[1], atol=1e-12)
    np.testing.assert_allclose(total, np.add(embedding, encoding), atol=1e-12)
    assert demo.locator(".added-table .vector-note").all_inner_texts() == ["(8,)"] * 3
    assert len(cell_values(lesson, ".added-concat")[0]) == 16
    assert demo.locator(".added-concat .vector-note").inner_text() == "(16,)"
    demo.get_by_label("Word").fill("cat")
    poll(
        lesson,
        "() => document.querySelector('.added-table').dataset.rendered",
        lambda v: v == "cat@1",
    )
    cat_embedding, cat_encoding, _ = cell_values(lesson, ".added-table")
    assert cat_encoding == encoding and cat_embedding != embedding
