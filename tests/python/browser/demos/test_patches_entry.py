"""Tests for pelab.browser.demos.patches: what the patches demo's entry point hands the worker
(app/demos/patches.js), under CPython."""

import math

import numpy as np
import pytest
from hypothesis import strategies as st

import pelab
from fuzzing import JUNK, Spec, as_int, entry_point_fuzz_tests, size_junk, sizes
from pelab.browser.demos import patches as demo
from pelab.browser.entry_points import call
from plain_results import assert_plain

# Its scores go through BLAS (`@`): rerun under every kernel.
pytestmark = pytest.mark.blas_numeric


PATCHES_KEYS = {
    "ids", "n", "text_before", "text_after", "rows", "columns", "row", "column", "picked",
    "sections", "base", "angles", "pairs", "scores", "drop_scale", "grid_rgba", "shift_gap",
    "offset_pairs",
}


def patches_arrays(n, rows, columns):
    """The patches entry point's arrays: the picked patch's angles, the scores, the grid."""
    return {
        "angles": (np.float64, 64),
        "scores": (np.float64, n),
        "grid_rgba": (np.uint8, rows * columns * 4),
    }


def expected_scores(ids, picked, pairs):
    """The score the demo means, from its definition: the mean over the chosen pairs of
    cos(angle of the picked patch - angle of the token), angles by pelab.mrope_angles."""
    angles = pelab.mrope_angles(ids, 128, 10000, (16, 24, 24))
    chosen = {"all": slice(0, 64), "time": slice(0, 16), "rows": slice(16, 40),
              "columns": slice(40, 64)}[pairs]
    return np.cos(angles[picked] - angles)[:, chosen].mean(axis=1)


def test_the_first_settings():
    result = call("patches", {"text_before": 3, "rows": 3, "columns": 4, "row": 1, "column": 2})
    assert set(result) == PATCHES_KEYS
    assert_plain(result, patches_arrays(17, 3, 4))
    ids = np.array(result["ids"]).reshape(3, 17)
    # Text 0, 1, 2; the image from 3 (rows 3-5, columns 3-6); the text after from 3 + 4 = 7.
    np.testing.assert_array_equal(ids[:, :3], [[0, 1, 2]] * 3)
    np.testing.assert_array_equal(ids[:, 15:], [[7, 8]] * 3)
    assert result["picked"] == 3 + 1 * 4 + 2
    assert ids[:, result["picked"]].tolist() == [3, 4, 5]
    assert result["sections"] == [16, 24, 24] and result["base"] == 10000.0
    np.testing.assert_array_equal(
        result["angles"], pelab.mrope_angles(ids, 128, 10000, (16, 24, 24))[9]
    )
    np.testing.assert_allclose(
        result["scores"], expected_scores(ids, 9, "all"), rtol=0, atol=1e-12
    )
    assert abs(result["scores"][9] - 1) <= 1e-12
    assert result["shift_gap"] <= 1e-12 and result["offset_pairs"] == 144


@pytest.mark.parametrize("pairs", ["all", "time", "rows", "columns"])
def test_every_choice_of_pairs(pairs):
    kwargs = {"text_before": 2, "rows": 4, "columns": 5, "row": 3, "column": 0, "pairs": pairs}
    result = call("patches", kwargs)
    ids = pelab.mrope_position_ids([("text", 2), ("image", (1, 4, 5)), ("text", 2)])
    assert result["ids"] == ids.reshape(-1).tolist() and result["pairs"] == pairs
    picked = 2 + 3 * 5
    scores = expected_scores(ids, picked, pairs)
    np.testing.assert_allclose(result["scores"], scores, rtol=0, atol=1e-12)
    grid = scores[2:22].reshape(4, 5)
    if pairs == "time":
        # One frame: every patch has the picked patch's time id, so every patch scores 1.
        np.testing.assert_allclose(grid, 1, rtol=0, atol=1e-12)
        assert result["drop_scale"] == 1.0
    else:
        assert math.isclose(result["drop_scale"], (1 - grid).max(), rel_tol=1e-9)
    if pairs == "rows":  # the row pairs do not see the column
        np.testing.assert_allclose(grid, np.repeat(grid[:, :1], 5, axis=1), rtol=0, atol=1e-12)
    if pairs == "columns":  # the column pairs do not see the row
        np.testing.assert_allclose(grid, np.repeat(grid[:1, :], 4, axis=0), rtol=0, atol=1e-12)
    np.testing.assert_array_equal(
        result["grid_rgba"],
        pelab.to_rgba(-(1 - result["scores"][2:22]), -result["drop_scale"],
                      result["drop_scale"]).reshape(-1),
    )


def test_the_2d_offset_check_holds_at_every_setting_of_the_sliders():
    """The takeaway: the gap stays a rounding error at every setting (the picked patch and the
    text before do not change the patches' scores with one another)."""
    for rows in range(1, 7):
        for columns in range(1, 7):
            for pairs in demo.PATCHES_PAIRS:
                result = call("patches", {"text_before": 6, "rows": rows, "columns": columns,
                                          "row": 0, "column": 0, "pairs": pairs})
                assert result["shift_gap"] <= 1e-12
                assert result["offset_pairs"] == (rows * columns) ** 2


def test_the_text_after_resumes_at_the_start_plus_the_longer_side():
    for text_before, rows, columns in [(1, 6, 2), (6, 1, 6), (4, 5, 5)]:
        result = call("patches", {"text_before": text_before, "rows": rows, "columns": columns,
                                  "row": 0, "column": 0})
        after = np.array(result["ids"]).reshape(3, -1)[:, text_before + rows * columns]
        assert after.tolist() == [text_before + max(rows, columns)] * 3


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"text_before": 0}, r"^text_before must be an integer from 1 to 6, got 0$"),
        ({"rows": 7}, r"^rows must be an integer from 1 to 6, got 7$"),
        ({"columns": 0}, r"^columns must be an integer from 1 to 6, got 0$"),
        ({"row": 3}, r"^row must be an integer from 0 to 2, got 3$"),
        ({"column": -1}, r"^column must be an integer from 0 to 3, got -1$"),
        ({"pairs": "diagonal"}, r"^pairs must be one of 'all', 'time', 'rows', 'columns'"),
    ],
)
def test_bad_arguments(changes, message):
    kwargs = {"text_before": 3, "rows": 3, "columns": 4, "row": 1, "column": 2, **changes}
    with pytest.raises(ValueError, match=message):
        call("patches", kwargs)


# ---------------------------------------------------------------------------
# Fuzzing (tests/python/fuzzing.py): junk of every kind for the entry point of this demo
# ---------------------------------------------------------------------------


@st.composite
def valid_patches(draw):
    rows = draw(sizes(1, demo.MAX_PATCHES_SIDE))
    columns = draw(sizes(1, demo.MAX_PATCHES_SIDE))
    kwargs = {
        "text_before": draw(sizes(1, demo.MAX_PATCHES_TEXT)),
        "rows": rows,
        "columns": columns,
        "row": draw(st.integers(0, as_int(rows) - 1)),
        "column": draw(st.integers(0, as_int(columns) - 1)),
    }
    if draw(st.booleans()):
        kwargs["pairs"] = draw(st.sampled_from(demo.PATCHES_PAIRS))
    return kwargs


def check_patches(kw, r):
    rows, columns = as_int(kw["rows"]), as_int(kw["columns"])
    n = as_int(kw["text_before"]) + rows * columns + demo.PATCHES_TEXT_AFTER
    assert_plain(r, patches_arrays(n, rows, columns))
    assert np.all(np.abs(r["scores"]) <= 1 + 1e-12)
    assert 0 <= r["shift_gap"] <= 1e-12


FUZZ_SPECS = {
    "patches": Spec(
        None,
        valid_patches(),
        {
            "text_before": size_junk(1, demo.MAX_PATCHES_TEXT),
            "rows": size_junk(1, demo.MAX_PATCHES_SIDE),
            "columns": size_junk(1, demo.MAX_PATCHES_SIDE),
            "row": size_junk(0, demo.MAX_PATCHES_SIDE - 1),
            "column": size_junk(0, demo.MAX_PATCHES_SIDE - 1),
            "pairs": JUNK,
        },
        check_patches,
        related={"rows": {"row"}, "columns": {"column"}},
    ),
}
test_fuzzed_arguments, test_fuzzed_keywords = entry_point_fuzz_tests(FUZZ_SPECS)
