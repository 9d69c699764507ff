"""
# The patches demo's entry point (app/demos/patches.js)

Qwen2-VL's multimodal RoPE (M-RoPE) on a still image between two pieces of text: every token's
three position ids, which frequency pairs turn with time, rows and columns, and the score of one
picked patch against every token.
"""

from __future__ import annotations

import numpy as np

from ...checks import check_size
from ...colormap import to_rgba
from ...multimodal_rope import QWEN2_VL_MROPE_SECTION, mrope_angles, mrope_position_ids
from ...positional_encoding import DEFAULT_BASE
from ..plain import flat

# Most text tokens before the image, and most rows and columns of merged patches.
MAX_PATCHES_TEXT = 6
MAX_PATCHES_SIDE = 6
# The text after the image: a fixed two tokens.
PATCHES_TEXT_AFTER = 2
# Qwen2-VL's head width: 64 frequency pairs, split 16, 24, 24 by `mrope_section`.
PATCHES_HEAD_DIM = 128
# Which pairs a score sums over: every pair, or the pairs of one axis (its section).
PATCHES_PAIRS = ("all", "time", "rows", "columns")
# A largest drop below this is rounding error, not a score the picked patch loses.
MIN_DROP = 1e-9


def patches(
    text_before: int = 3,
    rows: int = 3,
    columns: int = 4,
    row: int = 1,
    column: int = 2,
    pairs: str = "all",
) -> dict:
    """
    M-RoPE on `text_before` text tokens, an image of `rows` x `columns` merged patches (one
    frame) and `PATCHES_TEXT_AFTER` text tokens, seen from the patch at (`row`, `column`).

    Every token has the same content vector, a unit vector of width `PATCHES_HEAD_DIM` with
    equal parts, so that a score depends on positions alone: the query is that vector turned by
    the picked patch's angles (`pelab.mrope_angles`, base `DEFAULT_BASE`, sections
    `QWEN2_VL_MROPE_SECTION`), each key the same vector turned by its own, pair i being
    coordinates i and i + 64 as in `rotate_half`. The score is their dot product over the
    coordinates of the pairs `pairs` names, divided by the share of the 64 pairs those are: 1
    at the picked patch itself, the mean of cos(angle difference) over those pairs (for "all",
    the plain dot product of the two unit vectors).

    Args:
        text_before: text tokens before the image, an integer from 1 to `MAX_PATCHES_TEXT`.
        rows, columns: the image's merged patches, integers from 1 to `MAX_PATCHES_SIDE`.
        row, column: the picked patch, integers from 0 to rows - 1 and to columns - 1.
        pairs: one of `PATCHES_PAIRS`: every pair, or only the pairs that turn with time,
            with the row or with the column.

    Returns:
        ids: list of 3 * n int, row-major (axis, token): time ids, then row ids, then column
            ids (`pelab.mrope_position_ids`), n = text_before + rows * columns + text_after,
        n: int, text_before: int, text_after: int, rows: int, columns: int, row: int,
        column: int, picked: int, the picked patch's token index,
        sections: list of 3 int, pairs given to time, rows, columns; base: float,
        angles: float64, shape (64,), the picked patch's angle per pair, in radians,
        pairs: str,
        scores: float64, shape (n,), the picked patch's score against every token,
        drop_scale: float, the largest 1 - score over the patches (1.0 if all are 1),
        grid_rgba: uint8, shape (rows * columns * 4,), the patches' score - 1 coloured over
            [-drop_scale, drop_scale] (white at the picked patch, bluer further off),
        shift_gap: float, over every two pairs of patches at the same 2-D offset (row offset,
            column offset), the largest difference of their scores (a rounding error),
        offset_pairs: int, the number of pairs of patches compared that way.
    """
    text_before = check_size("text_before", text_before, MAX_PATCHES_TEXT)
    rows = check_size("rows", rows, MAX_PATCHES_SIDE)
    columns = check_size("columns", columns, MAX_PATCHES_SIDE)
    row = check_size("row", row, rows - 1, minimum=0)
    column = check_size("column", column, columns - 1, minimum=0)
    if not isinstance(pairs, str) or pairs not in PATCHES_PAIRS:
        names = ", ".join(repr(name) for name in PATCHES_PAIRS)
        raise ValueError(f"pairs must be one of {names}, got {pairs!r}")
    ids = mrope_position_ids(
        [("text", text_before), ("image", (1, rows, columns)), ("text", PATCHES_TEXT_AFTER)]
    )
    angles = mrope_angles(ids, PATCHES_HEAD_DIM, DEFAULT_BASE, QWEN2_VL_MROPE_SECTION)
    # (n, 128): the shared content vector turned by each token, on the chosen pairs only.
    turned = _turned(angles, _chosen(pairs))
    picked = text_before + row * columns + column
    scores = turned @ turned[picked]
    # Every patch against every patch: rows of patches in row-major order.
    image = slice(text_before, text_before + rows * columns)
    patch_scores = turned[image] @ turned[image].T
    shift_gap, offset_pairs = _shift_gap(patch_scores, rows, columns)
    drops = 1.0 - scores[image]
    drop_scale = float(np.max(np.abs(drops)))
    if drop_scale < MIN_DROP:  # every patch scores 1, up to rounding: nothing to colour
        drop_scale = 1.0
    return {
        "ids": [int(value) for value in ids.reshape(-1)],
        "n": int(ids.shape[1]),
        "text_before": text_before,
        "text_after": PATCHES_TEXT_AFTER,
        "rows": rows,
        "columns": columns,
        "row": row,
        "column": column,
        "picked": picked,
        "sections": list(QWEN2_VL_MROPE_SECTION),
        "base": float(DEFAULT_BASE),
        "angles": flat(angles[picked]),
        "pairs": str(pairs),
        "scores": flat(scores),
        "drop_scale": drop_scale,
        "grid_rgba": flat(to_rgba(-drops, -drop_scale, drop_scale)),
        "shift_gap": shift_gap,
        "offset_pairs": offset_pairs,
    }


def _chosen(pairs):
    """A mask over the 64 pairs: True for the pairs `pairs` names."""
    axis = np.repeat(np.arange(3), QWEN2_VL_MROPE_SECTION)  # 0 time, 1 rows, 2 columns
    return axis >= 0 if pairs == "all" else axis == PATCHES_PAIRS.index(pairs) - 1


def _turned(angles, chosen):
    """A vector with equal parts on the `chosen` pairs and 0 on the others, of unit length,
    turned pair by pair by each row of `angles` (n, d/2), pair i on coordinates i and i + d/2
    (`rotate_half`'s layout): shape (n, d)."""
    part = np.where(chosen, 1 / np.sqrt(2 * np.count_nonzero(chosen)), 0.0)
    # (x_i, x_{i+d/2}) = (part, part) turned by a: (part (cos a - sin a), part (sin a + cos a)).
    cos, sin = np.cos(angles), np.sin(angles)
    return np.concatenate([part * (cos - sin), part * (sin + cos)], axis=1)


def _shift_gap(patch_scores, rows, columns):
    """The largest spread of `patch_scores` over pairs of patches at one 2-D offset, and the
    number of ordered pairs of patches."""
    r, c = np.divmod(np.arange(rows * columns), columns)
    offsets = (r[np.newaxis, :] - r[:, np.newaxis]) * (2 * columns) + (
        c[np.newaxis, :] - c[:, np.newaxis]
    )
    gap = 0.0
    for offset in np.unique(offsets):
        same = patch_scores[offsets == offset]
        gap = max(gap, float(same.max() - same.min()))
    return gap, int(patch_scores.size)


ENTRY_POINTS = {"patches": patches}
