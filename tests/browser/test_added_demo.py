"""The added demo: adding keeps the width, and the encoding ignores the word."""

from __future__ import annotations

import numpy as np
import pytest

import pelab
from pages import PHONE, cell_values, poll


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
    demo.get_by_label("Word", exact=True).fill("cat")
    poll(
        lesson,
        "() => document.querySelector('.added-table').dataset.rendered",
        lambda v: v == "cat@1",
    )
    cat_embedding, cat_encoding, _ = cell_values(lesson, ".added-table")
    assert cat_encoding == encoding and cat_embedding != embedding


TABLES = """() => [...document.querySelectorAll('#added table')].map((t) => {
  const box = t.closest('.table-scroll');
  return { turned: t.hasAttribute('data-turned'), fits: box.scrollWidth <= box.clientWidth,
           rows: t.tBodies[0].rows.length, columns: t.tHead.rows[0].cells.length,
           cut: [...t.querySelectorAll('th')]
             .filter((th) => getComputedStyle(th).overflowX !== 'visible'
                             && th.scrollWidth > th.clientWidth)
             .map((th) => th.textContent) };
})"""


@pytest.mark.parametrize(
    ("context_options", "turned"), [({}, False), (PHONE, True)], ids=["wide", "phone"]
)
def test_every_dimension_is_in_view_on_a_wide_screen_and_on_a_phone(lesson, turned):
    """On a wide screen the concatenation's 16 dimensions fit (it was cut at 15); on a phone,
    where 2 of 8 showed, both tables turn: one column per vector, one row per dimension."""
    poll(
        lesson,
        "() => document.querySelector('.added-table').dataset.rendered",
        lambda v: v == "dog@1",
    )
    added, concat = poll(lesson, TABLES, lambda tables: all(t["fits"] for t in tables))
    assert added["turned"] == concat["turned"] == turned
    # No name is cut short: "[embedding, PE]" wraps between its words (it showed "[embeddi… PE]").
    assert added["cut"] == concat["cut"] == []
    if turned:
        assert (added["rows"], added["columns"]) == (
            8 + 1,
            1 + 3,
        )  # the dimensions and the shapes; 3 vectors
        assert (concat["rows"], concat["columns"]) == (16 + 1, 1 + 1)
    else:
        assert (concat["rows"], concat["columns"]) == (
            1,
            1 + 16 + 1,
        )  # its name, 16 dimensions, its shape
