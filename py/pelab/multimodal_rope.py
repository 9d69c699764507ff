r"""
# Multimodal RoPE (M-RoPE): positions for text, images and video

A vision-language model reads text and image patches in one sequence.  Qwen2-VL (Wang et al.
2024, arXiv:2409.12191) gives every token three position ids, (time, row, column), and turns
each frequency pair of a head by one of them.

**Position ids** (`mrope_position_ids`), as Hugging Face transformers' Qwen2-VL
`get_rope_index` computes them for text, images and plain video:

* a text token carries $(p, p, p)$, $p$ running on by one per token: for text alone M-RoPE is
  ordinary RoPE;
* a block of merged patches, a grid of $t \times h \times w$ (frames, rows, columns after the
  spatial merge), starts at $s$, the id after the text before it, and its patch at frame $f$,
  row $r$, column $c$ carries $(s + f,\; s + r,\; s + c)$;
* the text after the block resumes at the block's largest id + 1,
  $s + \max(t, h, w)$: an image of $h \times w$ patches uses up $\max(h, w)$ ids, not
  $h \cdot w$.

**Frequency split** (`mrope_angles`): pair $i$ of a head of dimension $d$ has the frequency
$\omega_i = base^{-2i/d}$ of ordinary RoPE; `sections` $= (n_t, n_h, n_w)$ gives the first
$n_t$ pairs to time, the next $n_h$ to rows and the last $n_w$ to columns
($n_t + n_h + n_w = d/2$; Qwen2-VL's `mrope_section` is (16, 24, 24) for $d = 128$).  Token
$n$ turns pair $i$ by

$$
\theta_{n,i} = P_{a(i),\, n} \; \omega_i ,
$$

where $a(i)$ is the axis of pair $i$'s section and $P$ the `(3, N)` position ids.

Between two patches of one image the time ids agree, so the score of a query patch and a key
patch depends on their row offset through the row pairs and on their column offset through the
column pairs, and on nothing else: it is shift-invariant along both axes (2-D RoPE), as
tests/python/test_multimodal_rope.py checks.
"""

import reprlib

import numpy as np

from .checks import (
    MAX_D_MODEL,
    MAX_DEMO_TOKENS,
    MAX_ELEMENTS,
    MAX_SEQ_LEN,
    NOT_A_LIST,
    as_real_array,
    check_base,
    check_even_size,
    check_product,
    describe,
    is_integer,
    read_items,
)
from .positional_encoding import DEFAULT_BASE, angular_frequencies

# What a segment may hold: text tokens, or a grid of merged patches (a still image or a video).
SEGMENT_KINDS = ("text", "image", "video")

# Qwen2-VL's `mrope_section` for a head of 128: pairs to time, rows, columns.
QWEN2_VL_MROPE_SECTION = (16, 24, 24)


def mrope_position_ids(segments):
    r"""
    Qwen2-VL's three position ids (time, row, column) for every token of a sequence of text
    and image or video blocks.

    Text tokens get $(p, p, p)$, $p = s, s + 1, \dots$; a block of $t \times h \times w$
    merged patches starting at $s$ gives the patch at frame $f$, row $r$, column $c$ the ids
    $(s + f, s + r, s + c)$, patches in row-major order within each frame; the next segment
    starts at the block's largest id + 1, $s + \max(t, h, w)$.

    This is `get_rope_index` as transformers 4.x writes it (read in 4.57.6).  transformers 5.x
    (read in 5.25.0) moves on after a block by $\max(h, w)$ instead: the same ids for images
    and for videos with $t \le \max(h, w)$, but for a video with more frames than rows and
    columns its text after the video starts earlier and reuses time ids (docs/teaching-notes.md).

    Args:
        segments: a non-empty list of pairs, in order: `("text", n)` for `n` text tokens
            (an integer of at least 1), `("image", (t, h, w))` or `("video", (t, h, w))` for
            a grid of `t` frames (1 for a still image) of `h` rows and `w` columns of merged
            patches (counted after the spatial merge: Qwen2-VL's `grid_thw` divided by its
            `spatial_merge_size` 2), each an integer of at least 1.  At most
            `MAX_DEMO_TOKENS` (4096) tokens in all.

    Returns:
        int64 array of shape `(3, N)`, N the number of tokens: row 0 the time ids, row 1 the
        row ids, row 2 the column ids.

    Raises:
        ValueError: naming `segments` (and the segment at fault, as `segments[i]`).

    Example:
        >>> mrope_position_ids([("text", 2), ("image", (1, 2, 3)), ("text", 1)]).tolist()
        [[0, 1, 2, 2, 2, 2, 2, 2, 5], [0, 1, 2, 2, 2, 3, 3, 3, 5], [0, 1, 2, 3, 4, 2, 3, 4, 5]]
    """
    blocks = []
    start = 0  # the id the next segment starts at
    for kind, size in _check_segments(segments):
        if kind == "text":
            # (p, p, p) for p = start, start + 1, ...: the same id on all three axes.
            ids = np.broadcast_to(start + np.arange(size, dtype=np.int64), (3, size))
            start += size
        else:
            t, h, w = size
            # Frame, row and column of each patch, frames outermost, then rows, then columns.
            frame, row, column = np.meshgrid(
                np.arange(t, dtype=np.int64),
                np.arange(h, dtype=np.int64),
                np.arange(w, dtype=np.int64),
                indexing="ij",
            )
            # (s + f, s + r, s + c) for every patch.
            ids = start + np.stack([frame.ravel(), row.ravel(), column.ravel()])
            # The block's largest id is s + max(t, h, w) - 1: the next segment starts after it.
            start += max(t, h, w)
        blocks.append(ids)
    return np.concatenate(blocks, axis=1)


def mrope_angles(position_ids, head_dim, base=DEFAULT_BASE, sections=QWEN2_VL_MROPE_SECTION):
    r"""
    The angle by which M-RoPE turns each frequency pair of each token:

    $$
    \theta_{n,i} = P_{a(i),\, n} \; base^{-2i/d}, \qquad i = 0, \dots, d/2 - 1,
    $$

    where `sections` $= (n_0, n_1, \dots)$ gives pairs $0 \dots n_0 - 1$ to axis 0 (time),
    the next $n_1$ pairs to axis 1 (rows), and so on, and $P$ = `position_ids`.  A model
    rotates pair $i$ of token $n$'s query and key by $\theta_{n,i}$ (in Qwen2-VL with
    `rotate_half`'s layout: pair $i$ is coordinates $i$ and $i + d/2$).

    Args:
        position_ids: array-like of shape `(axes, N)` of real numbers (integers in practice,
            as `mrope_position_ids` gives them), each from -`MAX_SEQ_LEN` to `MAX_SEQ_LEN`;
            one row per section, N from 1 to `MAX_DEMO_TOKENS` (4096).
        head_dim: the head dimension $d$, an even integer from 2 to `MAX_D_MODEL`.
        base: a finite real number > 1.
        sections: integers of at least 0, one per row of `position_ids`, adding up to
            `head_dim / 2`; Qwen2-VL's (16, 24, 24) for a head of 128 by default.
        `N * head_dim / 2` may not exceed `MAX_ELEMENTS`.

    Returns:
        float64 array of shape `(N, head_dim / 2)`.

    Raises:
        ValueError: naming the argument that is out of range.

    Example:
        >>> ids = mrope_position_ids([("image", (1, 2, 2))])   # patch (1, 1): ids (0, 1, 1)
        >>> mrope_angles(ids, 8, 10000, (2, 1, 1))[3].round(4).tolist()   # pairs: t, t, h, w
        [0.0, 0.0, 0.01, 0.001]
    """
    head_dim = check_even_size("head_dim", head_dim, MAX_D_MODEL)
    base = check_base(base)
    sections = _check_sections(sections, head_dim)
    position_ids = _check_position_ids(position_ids, len(sections))
    n = position_ids.shape[1]
    check_product("N * head_dim / 2", (n, head_dim // 2), MAX_ELEMENTS)
    # w_i = base^(-2i/d), one per pair: shape (d / 2,).
    omega = angular_frequencies(head_dim, base)
    # a(i), the axis of each pair: sections[0] zeros, then sections[1] ones, ...
    axis = np.repeat(np.arange(len(sections)), sections)
    # P[a(i), n] w_i: each pair's position on its own axis, times its frequency.
    return position_ids[axis, :].T * omega[np.newaxis, :]


# ---------------------------------------------------------------------------
# Argument checks used only here
# ---------------------------------------------------------------------------


def _check_segments(segments):
    """
    The segments as a list of `(kind, size)`: `("text", n)` with `n` an int, or
    `(kind, (t, h, w))` with ints, at most `MAX_DEMO_TOKENS` tokens in all.

    Raises:
        ValueError: "segments must ...", or "segments[i] must ..." for one segment.
    """
    items = None if isinstance(segments, NOT_A_LIST) else read_items(segments, MAX_DEMO_TOKENS)
    if not items:
        raise ValueError(
            "segments must be a non-empty list of ('text', n), ('image', (t, h, w)) or "
            f"('video', (t, h, w)), at most {MAX_DEMO_TOKENS} tokens in all, "
            f"got {_brief(segments)}"
        )
    checked, total = [], 0
    for index, item in enumerate(items):
        kind, size = _check_segment(index, item)
        checked.append((kind, size))
        total += size if kind == "text" else size[0] * size[1] * size[2]
    if total > MAX_DEMO_TOKENS:
        raise ValueError(
            f"segments must hold at most {MAX_DEMO_TOKENS} tokens in all, got {total}"
        )
    return checked


def _check_segment(index, item):
    """One segment, `("text", n)` or `(kind, (t, h, w))`, as plain ints; else a ValueError."""
    pair = None if isinstance(item, NOT_A_LIST) else read_items(item, 2)
    kind = pair[0] if pair is not None and len(pair) == 2 else None
    if kind == "text":
        size = pair[1]
        if is_integer(size) and 1 <= size:
            return "text", int(size)
        raise ValueError(
            f"segments[{index}] must be ('text', n) with n an integer of at least 1, "
            f"got {_brief(item)}"
        )
    if isinstance(kind, str) and kind in SEGMENT_KINDS:
        sides = None if isinstance(pair[1], NOT_A_LIST) else read_items(pair[1], 3)
        if (
            sides is not None
            and len(sides) == 3
            and all(is_integer(side) and side >= 1 for side in sides)
        ):
            return kind, tuple(int(side) for side in sides)
        raise ValueError(
            f"segments[{index}] must be ('{kind}', (t, h, w)) with t, h and w integers of at "
            f"least 1 (frames, rows and columns of merged patches; no side may be 0), "
            f"got {_brief(item)}"
        )
    kinds = ", ".join(repr(k) for k in SEGMENT_KINDS)
    raise ValueError(
        f"segments[{index}] must be a pair (kind, size) with kind one of {kinds}, "
        f"got {_brief(item)}"
    )


def _check_sections(sections, head_dim):
    """`sections` as a tuple of ints of at least 0 adding up to `head_dim / 2`."""
    items = None if isinstance(sections, NOT_A_LIST) else read_items(sections, 16)
    if (
        items
        and all(is_integer(n) and n >= 0 for n in items)
        and sum(int(n) for n in items) == head_dim // 2
    ):
        return tuple(int(n) for n in items)
    raise ValueError(
        f"sections must be integers of at least 0 (pairs per axis: time, rows, columns) "
        f"adding up to head_dim / 2 = {head_dim // 2}, got {_brief(sections)}"
    )


def _check_position_ids(values, axes):
    """`(axes, N)` real numbers within `MAX_SEQ_LEN`, 1 <= N <= `MAX_DEMO_TOKENS`, as float64."""
    array = None if isinstance(values, (str, bytes)) else as_real_array(values)
    if (
        array is not None
        and array.ndim == 2
        and array.shape[0] == axes
        and 1 <= array.shape[1] <= MAX_DEMO_TOKENS
        and np.all(np.abs(array) <= MAX_SEQ_LEN)  # False for NaN
    ):
        return array
    got = "not real numbers" if array is None else f"shape {array.shape}"
    raise ValueError(
        f"position_ids must be an array ({axes}, N) of real numbers, one row per section, "
        f"N from 1 to {MAX_DEMO_TOKENS} tokens, each from -{MAX_SEQ_LEN} to {MAX_SEQ_LEN}, "
        f"got {got}"
    )


def _brief(value):
    """A refused value, shown briefly (numbers as `describe` shows them)."""
    return describe(value) if is_integer(value) else reprlib.repr(value)
