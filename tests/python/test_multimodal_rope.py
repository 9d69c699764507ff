"""Tests for pelab.multimodal_rope: M-RoPE's position ids and angles against numpy transcriptions
of Hugging Face transformers' Qwen2-VL code, and the 2-D shift-invariance of an image's scores.

The reference code, read in the released wheels of transformers (the Python package index):
- transformers 4.57.6, src/transformers/models/qwen2_vl/modeling_qwen2_vl.py:
  `Qwen2VLModel.get_rope_index`, `Qwen2VLRotaryEmbedding.forward`, `rotate_half`,
  `apply_multimodal_rotary_pos_emb`;
- transformers 5.25.0, the same file: `Qwen2VLModel.get_rope_index` and
  `get_vision_position_ids`, `Qwen2VLRotaryEmbedding.forward` and `recomposition_frequencies`
  (`mrope_section` defaults to [16, 24, 24] there).
The transcriptions below keep the reference's steps and names; torch tensors become numpy
arrays, one sequence without padding (an attention mask of ones), float64 instead of float32.
Token ids are stand-ins: only which ids are equal matters to the code.
"""

import doctest
import importlib
import itertools

import numpy as np
import pytest

from pelab.checks import MAX_DEMO_TOKENS
from pelab.multimodal_rope import QWEN2_VL_MROPE_SECTION, mrope_angles, mrope_position_ids
from pelab.positional_encoding import angular_frequencies

multimodal_rope = importlib.import_module("pelab.multimodal_rope")

TEXT, VISION_START, IMAGE, VIDEO = 1, 2, 3, 4  # stand-ins for Qwen2-VL's token ids
MERGE = 2  # Qwen2-VL's vision_config.spatial_merge_size


def test_docstring_examples_hold():
    assert doctest.testmod(multimodal_rope).failed == 0


# ---------------------------------------------------------------------------
# The reference code, transcribed
# ---------------------------------------------------------------------------


def qwen2_vl_inputs(segments):
    """What Qwen2-VL's model receives for `segments`: input_ids, mm_token_type_ids (text 0,
    image 1, video 2), image_grid_thw and video_grid_thw with h and w before the spatial merge.
    Each block follows a <|vision_start|> token, as the processor lays them out: here the last
    token of the text before it, so each block must follow a text segment."""
    ids, types, grids = [], [], {"image": [], "video": []}
    for index, (kind, size) in enumerate(segments):
        if kind == "text":
            starts_block = index + 1 < len(segments) and segments[index + 1][0] != "text"
            ids += [TEXT] * (size - starts_block) + [VISION_START] * starts_block
            types += [0] * size
        else:
            assert index > 0 and segments[index - 1][0] == "text", "a block needs text before"
            t, h, w = size
            grids[kind].append([t, h * MERGE, w * MERGE])
            ids += [IMAGE if kind == "image" else VIDEO] * (t * h * w)
            types += [1 if kind == "image" else 2] * (t * h * w)
    image_grid_thw = np.array(grids["image"]) if grids["image"] else None
    video_grid_thw = np.array(grids["video"]) if grids["video"] else None
    return np.array(ids), np.array(types), image_grid_thw, video_grid_thw


def get_rope_index_4_57_6(input_ids, image_grid_thw, video_grid_thw, spatial_merge_size=MERGE):
    """transformers 4.57.6, Qwen2VLModel.get_rope_index, for one sequence without padding."""
    if image_grid_thw is None and video_grid_thw is None:  # the text-only branch
        return np.broadcast_to(np.arange(input_ids.shape[0]).reshape(1, -1), (3, len(input_ids)))
    image_index, video_index = 0, 0
    vision_start_indices = np.argwhere(input_ids == VISION_START)[:, 0]
    vision_tokens = input_ids[vision_start_indices + 1]
    image_nums = int((vision_tokens == IMAGE).sum())
    video_nums = int((vision_tokens == VIDEO).sum())
    input_tokens = input_ids.tolist()
    llm_pos_ids_list = []
    st = 0
    remain_images, remain_videos = image_nums, video_nums
    for _ in range(image_nums + video_nums):
        if IMAGE in input_tokens and remain_images > 0:
            ed_image = input_tokens.index(IMAGE, st)
        else:
            ed_image = len(input_tokens) + 1
        if VIDEO in input_tokens and remain_videos > 0:
            ed_video = input_tokens.index(VIDEO, st)
        else:
            ed_video = len(input_tokens) + 1
        if ed_image < ed_video:
            t, h, w = image_grid_thw[image_index]
            image_index += 1
            remain_images -= 1
            ed = ed_image
        else:
            t, h, w = video_grid_thw[video_index]
            video_index += 1
            remain_videos -= 1
            ed = ed_video
        llm_grid_t, llm_grid_h, llm_grid_w = t, h // spatial_merge_size, w // spatial_merge_size
        text_len = ed - st

        st_idx = llm_pos_ids_list[-1].max() + 1 if len(llm_pos_ids_list) > 0 else 0
        llm_pos_ids_list.append(
            np.broadcast_to(np.arange(text_len).reshape(1, -1), (3, text_len)) + st_idx
        )

        t_index = np.broadcast_to(
            np.arange(llm_grid_t).reshape(-1, 1), (llm_grid_t, llm_grid_h * llm_grid_w)
        ).flatten()
        h_index = np.broadcast_to(
            np.arange(llm_grid_h).reshape(1, -1, 1), (llm_grid_t, llm_grid_h, llm_grid_w)
        ).flatten()
        w_index = np.broadcast_to(
            np.arange(llm_grid_w).reshape(1, 1, -1), (llm_grid_t, llm_grid_h, llm_grid_w)
        ).flatten()
        llm_pos_ids_list.append(np.stack([t_index, h_index, w_index]) + text_len + st_idx)
        st = ed + llm_grid_t * llm_grid_h * llm_grid_w

    if st < len(input_tokens):
        st_idx = llm_pos_ids_list[-1].max() + 1 if len(llm_pos_ids_list) > 0 else 0
        text_len = len(input_tokens) - st
        llm_pos_ids_list.append(
            np.broadcast_to(np.arange(text_len).reshape(1, -1), (3, text_len)) + st_idx
        )
    return np.concatenate(llm_pos_ids_list, axis=1).reshape(3, -1)


def get_vision_position_ids_5_25_0(
    start_position, grid_thw, temp_merge_size=1, spatial_merge_size=1, time_interval=1.0
):
    """transformers 5.25.0, Qwen2VLModel.get_vision_position_ids."""
    llm_grid_t, llm_grid_h, llm_grid_w = (
        grid_thw[0] // temp_merge_size,
        grid_thw[1] // spatial_merge_size,
        grid_thw[2] // spatial_merge_size,
    )
    position_temporal = (np.arange(llm_grid_t) * time_interval).astype(np.int64)
    position_height = np.arange(llm_grid_h) + start_position
    position_width = np.arange(llm_grid_w) + start_position
    t_grid, h_grid, w_grid = np.meshgrid(
        position_temporal, position_height, position_width, indexing="ij"
    )
    vision_position_ids = np.stack([t_grid, h_grid, w_grid], axis=0).reshape(3, -1)
    vision_position_ids[0] += start_position  # must be after time_interval multiply
    return vision_position_ids


def get_rope_index_5_25_0(mm_token_type_ids, image_grid_thw, video_grid_thw, merge=MERGE):
    """transformers 5.25.0, Qwen2VLModel.get_rope_index, for one sequence without padding."""
    grid_iters = {
        1: iter(image_grid_thw) if image_grid_thw is not None else None,
        2: iter(video_grid_thw) if video_grid_thw is not None else None,
    }
    input_type_group = []
    for key, group in itertools.groupby(enumerate(mm_token_type_ids.tolist()), lambda x: x[1]):
        group = list(group)
        input_type_group.append((key, group[0][0], group[-1][0] + 1))
    current_pos = 0
    llm_pos_ids_list = []
    for modality_type, start_idx, end_idx in input_type_group:
        if modality_type == 0:  # text
            text_len = end_idx - start_idx
            llm_pos_ids_list.append(
                np.broadcast_to(np.arange(text_len).reshape(1, -1), (3, text_len)) + current_pos
            )
            current_pos += text_len
        else:  # image == 1, video == 2
            grid_thw = next(grid_iters[modality_type])
            llm_pos_ids_list.append(get_vision_position_ids_5_25_0(current_pos, grid_thw, 1, merge))
            current_pos += max(grid_thw[1], grid_thw[2]) // merge
    return np.concatenate(llm_pos_ids_list, axis=1).reshape(3, -1)


def rotate_half(x):
    """transformers' rotate_half (the same in 4.57.6 and 5.25.0)."""
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2 :]
    return np.concatenate((-x2, x1), axis=-1)


def inverse_frequencies(base, dim):
    """inv_freq of Qwen2-VL's default RoPE parameters: 1 / base^(arange(0, dim, 2) / dim)."""
    return 1.0 / (base ** (np.arange(0, dim, 2, dtype=np.float64) / dim))


def split_sizes(x, sizes):
    """torch's x.split(sizes, dim=-1)."""
    return np.split(x, np.cumsum(sizes)[:-1], axis=-1)


def mrope_cos_sin_4_57_6(position_ids, dim, base, mrope_section):
    """Qwen2VLRotaryEmbedding.forward, then apply_multimodal_rotary_pos_emb's recombination
    (transformers 4.57.6): cos and sin of shape (N, dim)."""
    inv_freq = inverse_frequencies(base, dim)
    # (inv_freq_expanded @ position_ids_expanded).transpose(2, 3): a product over an inner
    # dimension of 1, written as the product it is, shape (3, N, dim / 2).
    freqs = position_ids[:, :, np.newaxis] * inv_freq
    emb = np.concatenate((freqs, freqs), axis=-1)
    cos, sin = np.cos(emb), np.sin(emb)
    mrope_section = list(mrope_section) * 2
    cos = np.concatenate([m[i % 3] for i, m in enumerate(split_sizes(cos, mrope_section))], -1)
    sin = np.concatenate([m[i % 3] for i, m in enumerate(split_sizes(sin, mrope_section))], -1)
    return cos, sin


def mrope_cos_sin_5_25_0(position_ids, dim, base, mrope_section):
    """Qwen2VLRotaryEmbedding.forward with recomposition_frequencies (transformers 5.25.0)."""

    def recomposition_frequencies(freq):
        freq = np.concatenate(
            [m[i % 3] for i, m in enumerate(split_sizes(freq, mrope_section))], axis=-1
        )
        return np.concatenate((freq, freq), axis=-1)

    freqs = position_ids[..., np.newaxis] * inverse_frequencies(base, dim)
    return recomposition_frequencies(np.cos(freqs)), recomposition_frequencies(np.sin(freqs))


def rotate_by(x, angles):
    """q * cos + rotate_half(q) * sin with cos and sin of the pairs' angles, as the reference
    applies them (the half layout: pair i is coordinates i and i + d/2)."""
    emb = np.concatenate((angles, angles), axis=-1)
    return x * np.cos(emb) + rotate_half(x) * np.sin(emb)


# ---------------------------------------------------------------------------
# Position ids
# ---------------------------------------------------------------------------

# Each block follows text, as in the model's input (its <|vision_start|> token).
SEGMENT_LISTS = {
    "text only": [("text", 7)],
    "image only (after its vision-start token)": [("text", 1), ("image", (1, 3, 4))],
    "text, image, text": [("text", 3), ("image", (1, 2, 3)), ("text", 2)],
    "a tall image": [("text", 2), ("image", (1, 5, 2)), ("text", 4)],
    "several images": [
        ("text", 4), ("image", (1, 2, 2)), ("text", 3), ("image", (1, 4, 3)), ("text", 1),
        ("image", (1, 1, 1)), ("text", 2),
    ],
    "video, t < h": [("text", 2), ("video", (2, 3, 3)), ("text", 3)],
    "video, t = max(h, w)": [("text", 2), ("video", (3, 3, 2)), ("text", 3)],
    "video, t > max(h, w)": [("text", 2), ("video", (4, 2, 3)), ("text", 3)],
    "image and video": [
        ("text", 3), ("video", (5, 2, 2)), ("text", 2), ("image", (1, 3, 2)), ("text", 2),
    ],
}


@pytest.mark.parametrize("name", SEGMENT_LISTS)
def test_position_ids_are_get_rope_index_4_57_6s(name):
    segments = SEGMENT_LISTS[name]
    input_ids, _, image_grid_thw, video_grid_thw = qwen2_vl_inputs(segments)
    ids = mrope_position_ids(segments)
    assert ids.dtype == np.int64 and ids.shape == (3, len(input_ids))
    reference = get_rope_index_4_57_6(input_ids, image_grid_thw, video_grid_thw)
    np.testing.assert_array_equal(ids, reference)


def short_videos_only(segments):
    """No video in the list is longer (t) than it is tall or wide."""
    return all(kind == "text" or size[0] <= max(size[1:]) for kind, size in segments)


@pytest.mark.parametrize("name", [n for n, s in SEGMENT_LISTS.items() if short_videos_only(s)])
def test_position_ids_are_get_rope_index_5_25_0s_without_long_videos(name):
    segments = SEGMENT_LISTS[name]
    _, types, image_grid_thw, video_grid_thw = qwen2_vl_inputs(segments)
    reference = get_rope_index_5_25_0(types, image_grid_thw, video_grid_thw)
    np.testing.assert_array_equal(mrope_position_ids(segments), reference)


def test_5_25_0_resumes_text_after_a_long_video_at_start_plus_max_h_w():
    """Where the two versions differ: transformers 5.x moves on by max(h, w) after a block, 4.x
    (and this module, as the issue specifies) by max(t, h, w), the block's largest id + 1. For
    a video with more frames than rows and columns, 5.25.0's text after it reuses time ids."""
    segments = [("text", 2), ("video", (4, 2, 3)), ("text", 3)]
    _, types, image_grid_thw, video_grid_thw = qwen2_vl_inputs(segments)
    newer = get_rope_index_5_25_0(types, image_grid_thw, video_grid_thw)
    ours = mrope_position_ids(segments)
    np.testing.assert_array_equal(ours[:, :26], newer[:, :26])  # text and video agree
    assert ours[:, 26:].tolist() == [[6, 7, 8]] * 3  # start 2 + max(4, 2, 3)
    assert newer[:, 26:].tolist() == [[5, 6, 7]] * 3  # start 2 + max(2, 3)
    assert ours[0, 2:26].max() == 5 == newer[0, 2:26].max()  # the video's last frame


def test_image_only_starts_at_zero_and_5_25_0_agrees():
    """With no text before it (5.25.0 finds blocks by token type, so it can say), an image's
    ids start at 0; a vision-start token in front shifts every id by one."""
    image = [("image", (1, 3, 4))]
    _, types, image_grid_thw, _ = qwen2_vl_inputs([("text", 1)] + image)
    alone = get_rope_index_5_25_0(types[1:], image_grid_thw, None)
    np.testing.assert_array_equal(mrope_position_ids(image), alone)
    np.testing.assert_array_equal(
        mrope_position_ids([("text", 1)] + image)[:, 1:], mrope_position_ids(image) + 1
    )


def test_the_rule_in_words():
    ids = mrope_position_ids([("text", 3), ("image", (1, 2, 3)), ("text", 2)])
    assert ids[:, :3].tolist() == [[0, 1, 2]] * 3  # text (t, t, t)
    # the patch at row r, column c: (3 + 0, 3 + r, 3 + c), row-major
    assert [tuple(p) for p in ids[:, 3:9].T.tolist()] == [
        (3, 3 + r, 3 + c) for r in range(2) for c in range(3)
    ]
    assert ids[:, 9:].tolist() == [[6, 7]] * 3  # the largest id is 5: text resumes at 6
    video = mrope_position_ids([("video", (3, 1, 2))])
    assert video.tolist() == [[0, 0, 1, 1, 2, 2], [0, 0, 0, 0, 0, 0], [0, 1, 0, 1, 0, 1]]


def test_consecutive_blocks_follow_each_other():
    ids = mrope_position_ids([("image", (1, 2, 2)), ("image", (1, 1, 3))])
    assert ids.tolist() == [[0, 0, 0, 0, 2, 2, 2], [0, 0, 1, 1, 2, 2, 2], [0, 1, 0, 1, 2, 3, 4]]


def test_segments_may_be_any_list_like_of_pairs():
    expected = mrope_position_ids([("text", 2), ("image", (1, 2, 2))])
    as_lists = mrope_position_ids([["text", np.int64(2)], ["image", np.array([1, 2, 2])]])
    from_a_generator = mrope_position_ids(s for s in [("text", 2), ("image", (1, 2, 2))])
    np.testing.assert_array_equal(as_lists, expected)
    np.testing.assert_array_equal(from_a_generator, expected)


def test_up_to_4096_tokens():
    assert mrope_position_ids([("text", 96), ("image", (1, 50, 80))]).shape == (3, 4096)
    assert mrope_position_ids([("text", MAX_DEMO_TOKENS)])[0, -1] == 4095


@pytest.mark.parametrize(
    "segments, message",
    [
        ([], r"^segments must be a non-empty list of \('text', n\)"),
        ("text", r"^segments must be a non-empty list"),
        (None, r"^segments must be a non-empty list"),
        ({"text": 3}, r"^segments must be a non-empty list"),
        (
            [("text", 3), ("image", (1, 0, 4))],
            r"^segments\[1\] must be \('image', \(t, h, w\)\) with t, h and w integers of at "
            r"least 1 \(frames, rows and columns of merged patches; no side may be 0\), got ",
        ),
        ([("image", (0, 2, 2))], r"^segments\[0\] must be \('image', \(t, h, w\)\)"),
        ([("video", (2, 2, 0))], r"^segments\[0\] must be \('video', \(t, h, w\)\)"),
        ([("image", (1, 2))], r"^segments\[0\] must be \('image', \(t, h, w\)\)"),
        ([("image", (1, 2.0, 2))], r"^segments\[0\] must be \('image'"),
        ([("image", 4)], r"^segments\[0\] must be \('image'"),
        ([("text", 0)], r"^segments\[0\] must be \('text', n\) with n an integer of at least 1"),
        ([("text", 2.0)], r"^segments\[0\] must be \('text', n\)"),
        ([("text", True)], r"^segments\[0\] must be \('text', n\)"),
        (
            [("text", 1), ("audio", 3)],
            r"^segments\[1\] must be a pair \(kind, size\) with kind one of 'text', 'image', "
            r"'video', got \('audio', 3\)$",
        ),
        ([("text", 1, 2)], r"^segments\[0\] must be a pair"),
        (["text"], r"^segments\[0\] must be a pair"),
        ([("text", 4097)], r"^segments must hold at most 4096 tokens in all, got 4097$"),
        (
            [("text", 100), ("image", (1, 64, 64))],
            r"^segments must hold at most 4096 tokens in all, got 4196$",
        ),
        ([("image", (2**40, 2**40, 2**40))], r"^segments must hold at most 4096 tokens"),
        ([("text", 1)] * 4097, r"^segments must be a non-empty list"),
    ],
)
def test_mrope_position_ids_bad_arguments(segments, message):
    with pytest.raises(ValueError, match=message):
        mrope_position_ids(segments)


# ---------------------------------------------------------------------------
# Angles
# ---------------------------------------------------------------------------

ANGLE_CASES = [
    (SEGMENT_LISTS["several images"], 128, 10000.0, QWEN2_VL_MROPE_SECTION),
    (SEGMENT_LISTS["image and video"], 128, 1_000_000.0, (16, 24, 24)),
    (SEGMENT_LISTS["text, image, text"], 16, 100.0, (2, 3, 3)),
    (SEGMENT_LISTS["video, t > max(h, w)"], 64, 10000.0, (8, 12, 12)),
    (SEGMENT_LISTS["a tall image"], 32, 500.0, (0, 8, 8)),
]


@pytest.mark.parametrize("segments, dim, base, sections", ANGLE_CASES)
def test_angles_give_the_cos_and_sin_of_both_versions(segments, dim, base, sections):
    ids = mrope_position_ids(segments)
    angles = mrope_angles(ids, dim, base, sections)
    assert angles.shape == (ids.shape[1], dim // 2) and angles.dtype == np.float64
    emb = np.concatenate((angles, angles), axis=-1)
    # 1 / base^(2i/d) against base^(-2i/d): the frequencies may differ in their last bit, which
    # turns an angle of a few tens of rad by about 1e-14; cos and sin move by no more.
    for reference in (mrope_cos_sin_4_57_6, mrope_cos_sin_5_25_0):
        cos, sin = reference(ids, dim, base, sections)
        np.testing.assert_allclose(np.cos(emb), cos, rtol=0, atol=1e-12)
        np.testing.assert_allclose(np.sin(emb), sin, rtol=0, atol=1e-12)


def test_angles_are_each_pairs_position_on_its_axis_times_its_frequency():
    ids = mrope_position_ids([("text", 2), ("video", (3, 2, 4)), ("text", 1)])
    dim, sections = 20, (3, 3, 4)
    angles = mrope_angles(ids, dim, 10000, sections)
    omega = angular_frequencies(dim, 10000.0)
    axis = [0] * 3 + [1] * 3 + [2] * 4
    for n in range(ids.shape[1]):
        for i in range(dim // 2):
            assert angles[n, i] == ids[axis[i], n] * omega[i]  # one product: exact


def test_text_alone_is_ordinary_rope():
    ids = mrope_position_ids([("text", 50)])
    angles = mrope_angles(ids, 128, 10000.0)
    expected = np.arange(50.0)[:, np.newaxis] * angular_frequencies(128, 10000.0)
    np.testing.assert_array_equal(angles, expected)


def test_a_patch_pairs_score_depends_only_on_their_2d_offset():
    """2-D RoPE: within an image the time ids agree, so the score of the query patch (r1, c1)
    and the key patch (r2, c2) is a function of (r2 - r1, c2 - c1): shifting both patches
    along the rows, the columns, or both, keeps it. The score still varies with each offset."""
    height, width, dim = 5, 6, 16
    segments = [("text", 3), ("image", (1, height, width)), ("text", 2)]
    angles = mrope_angles(mrope_position_ids(segments), dim, 100.0, (2, 3, 3))
    patches = angles[3 : 3 + height * width]
    q, k = np.random.default_rng(7).standard_normal((2, dim))
    queries = rotate_by(np.tile(q, (height * width, 1)), patches)
    keys = rotate_by(np.tile(k, (height * width, 1)), patches)
    # S[r1, c1, r2, c2]: products summed along each row, no BLAS.
    scores = np.sum(queries[:, np.newaxis, :] * keys[np.newaxis, :, :], axis=-1)
    scores = scores.reshape(height, width, height, width)
    by_offset = {}
    for r1, c1, r2, c2 in itertools.product(range(height), range(width), repeat=2):
        by_offset.setdefault((r2 - r1, c2 - c1), []).append(scores[r1, c1, r2, c2])
    assert len(by_offset) == (2 * height - 1) * (2 * width - 1)
    for offset, values in by_offset.items():
        # angles below 10 rad, |q| |k| about 16: rounding far below 1e-12
        assert np.ptp(values) < 1e-12, offset
    firsts = np.array([values[0] for values in by_offset.values()])
    assert np.ptp(firsts) > 1.0  # and the offset matters
    assert abs(by_offset[(1, 0)][0] - by_offset[(0, 1)][0]) > 1e-3  # rows and columns differ


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"head_dim": 127}, r"^head_dim must be an even integer from 2 to 100000, got 127$"),
        ({"head_dim": 0}, r"^head_dim must be an even integer"),
        ({"head_dim": 128.0}, r"^head_dim must be an even integer"),
        (
            {"sections": (16, 24, 20)},
            r"^sections must be integers of at least 0 \(pairs per axis: time, rows, columns\) "
            r"adding up to head_dim / 2 = 64, got \(16, 24, 20\)$",
        ),
        ({"sections": (16, 24, 24, 0)}, r"^position_ids must be an array \(4, N\)"),
        ({"sections": (-8, 36, 36)}, r"^sections must be integers of at least 0"),
        ({"sections": (16.0, 24, 24)}, r"^sections must be integers"),
        ({"sections": 64}, r"^sections must be integers"),
        ({"sections": "16,24,24"}, r"^sections must be integers"),
        ({"sections": ()}, r"^sections must be integers"),
        ({"base": 1.0}, r"^base must be a finite real number greater than 1, got 1.0$"),
        (
            {"position_ids": np.zeros((3, 4097))},
            r"^position_ids must be an array \(3, N\) of real numbers, one row per section, "
            r"N from 1 to 4096 tokens, each from -100000 to 100000, got shape \(3, 4097\)$",
        ),
        ({"position_ids": np.zeros((3, 0))}, r"^position_ids must be an array \(3, N\)"),
        ({"position_ids": np.zeros(5)}, r"^position_ids must be an array \(3, N\)"),
        ({"position_ids": [[0.0], [np.nan], [0.0]]}, r"^position_ids must be an array"),
        ({"position_ids": [[0], [1], [200_000]]}, r"^position_ids must be an array"),
        ({"position_ids": "abc"}, r"^position_ids must be .* got not real numbers$"),
    ],
)
def test_mrope_angles_bad_arguments(kwargs, message):
    arguments = {"position_ids": np.zeros((3, 4), dtype=np.int64), "head_dim": 128} | kwargs
    with pytest.raises(ValueError, match=message):
        mrope_angles(**arguments)


def test_mrope_angles_element_limit():
    with pytest.raises(ValueError, match=r"^N \* head_dim / 2 must be at most 50000000"):
        mrope_angles(np.zeros((1, 4096)), 100_000, sections=(50_000,))
