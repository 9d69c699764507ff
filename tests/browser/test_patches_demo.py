"""The patches demo: Qwen2-VL's M-RoPE ids for text, an image and text, the pairs each id turns,
and the picked patch's scores over the image, whose 2-D offset check stays a rounding error."""

from __future__ import annotations

import numpy as np

import pelab
from pages import canvas_size, colour_bar, dataset, matrix_axes, poll, wait_rendered
from test_terms_demo import table_of


def cells_of(page, figure: str) -> list[list[str]]:
    """Open the numbers box of `figure` and read its table's body, cell by cell, as text."""
    table_of_texts = """(s) => {
      const box = document.getElementById(document.querySelector(s).getAttribute('aria-details'));
      box.open = true;
      return [...box.querySelectorAll('tbody tr')]
        .map((tr) => [...tr.cells].map((c) => c.textContent));
    }"""
    return poll(page, table_of_texts, lambda rows: len(rows) > 0, arg=figure)


def expected_scores(segments, picked, chosen=slice(0, 64)):
    """The picked token's scores, from the definition: the mean over the chosen pairs of
    cos(angle difference), the angles by pelab.mrope_angles."""
    angles = pelab.mrope_angles(pelab.mrope_position_ids(segments), 128, 10000, (16, 24, 24))
    return np.cos(angles[picked] - angles)[:, chosen].mean(axis=1)


def test_the_ids_the_pairs_and_the_scores_of_the_picked_patch(lesson):
    demo = lesson.locator("#patches")
    wait_rendered(lesson, "#patches", "3/3/4/1/2/all")
    assert demo.locator(".patches-picked").inner_text() == "(3, 4, 5)"
    assert demo.locator(".patches-after").inner_text().startswith("7 ")
    assert float(dataset(lesson, "#patches", "gap")) <= 1e-12
    assert canvas_size(lesson, ".patches-grid") == [4, 3]
    axes = matrix_axes(lesson, ".patches-grid")
    assert (axes["rowTitle"], axes["columnTitle"]) == ("row", "column")
    assert colour_bar(lesson, "#patches .colour-bar")["labels"][-1] == "0"
    # Every token's ids and score, as the numbers table lists them.
    table = table_of(lesson, ".patches-grid")
    assert table["columns"] == ["time id", "row id", "column id", "score"]
    ids = pelab.mrope_position_ids([("text", 3), ("image", (1, 3, 4)), ("text", 2)])
    rows = list(table["rows"].values())
    assert len(rows) == 17
    np.testing.assert_array_equal([row[:3] for row in rows], ids.T)
    segments = [("text", 3), ("image", (1, 3, 4)), ("text", 2)]
    np.testing.assert_allclose(
        [row[3] for row in rows], expected_scores(segments, 9), rtol=0, atol=5e-7
    )
    # The pairs: 16 turned by time, 24 by the row, 24 by the column, each by its id.
    rows = cells_of(lesson, ".patches-angles")
    assert [row[1] for row in rows] == ["time"] * 16 + ["row"] * 24 + ["column"] * 24
    expected = pelab.mrope_angles(ids, 128, 10000, (16, 24, 24))[9]
    shown = [float(row[2].replace("−", "-")) for row in rows]
    np.testing.assert_allclose(shown, expected, rtol=0, atol=5e-7)
    # Pick the last row and column of a 6 x 6 image, from the keyboard.
    for name in ("Rows", "Columns", "Picked row", "Picked column"):
        demo.get_by_role("slider", name=name).press("End")
    wait_rendered(lesson, "#patches", "3/6/6/5/5/all")
    assert demo.locator(".patches-picked").inner_text() == "(3, 8, 8)"
    assert demo.locator(".patches-notice").is_hidden()
    # A smaller image: the picked patch is kept inside it, with a notice.
    demo.get_by_role("slider", name="Rows").press("Home")
    wait_rendered(lesson, "#patches", "3/1/6/0/5/all")
    notice = demo.locator(".patches-notice")
    assert notice.is_visible() and "row 0, column 5" in notice.inner_text()
    assert canvas_size(lesson, ".patches-grid") == [6, 1]
    # Column pairs only: the scores change along a row, never down a column.
    demo.get_by_role("slider", name="Rows").press("End")
    demo.get_by_label("Column pairs only").check()
    wait_rendered(lesson, "#patches", "3/6/6/5/5/columns")
    assert float(dataset(lesson, "#patches", "gap")) <= 1e-12
    table = table_of(lesson, ".patches-grid")
    scores = np.array([row[3] for row in table["rows"].values()])
    segments = [("text", 3), ("image", (1, 6, 6)), ("text", 2)]
    np.testing.assert_allclose(
        scores, expected_scores(segments, 3 + 35, slice(40, 64)), rtol=0, atol=5e-7
    )
