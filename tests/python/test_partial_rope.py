"""Tests for pelab.partial_rope: partial rotary embedding against numpy transcriptions of Hugging
Face transformers' GPT-NeoX and Phi code, and its properties: fraction 1 is full RoPE in the half
layout, the pass-through part ignores position, the rotated part sees only the offset.

The reference code, read in the released wheel of transformers 5.25.0 (the Python package index):
- src/transformers/models/gpt_neox/modeling_gpt_neox.py: `GPTNeoXRotaryEmbedding`
  (`compute_default_rope_parameters`, `forward`), `rotate_half`, `apply_rotary_pos_emb` (which
  rotates the first `cos.shape[-1]` dims and concatenates the rest back);
- src/transformers/models/gpt_neox/configuration_gpt_neox.py: `partial_rotary_factor` taken from
  `rotary_pct`, 0.25 by default;
- src/transformers/models/phi/modeling_phi.py: `PhiAttention.forward` (splits at `rotary_ndims
  = int(head_dim * partial_rotary_factor)`, rotates, concatenates); `PhiRotaryEmbedding`;
- src/transformers/models/phi/configuration_phi.py: `partial_rotary_factor` 0.5 by default.
Torch tensors become numpy arrays, float64 instead of float32.
"""

import doctest
import importlib
import math

import numpy as np
import pytest

from pelab.partial_rope import apply_partial_rotary
from pelab.rope import rope_rotate
from pelab.similarity import toeplitz_residual

partial_rope = importlib.import_module("pelab.partial_rope")


def test_docstring_examples_hold():
    assert doctest.testmod(partial_rope).failed == 0


# ---------------------------------------------------------------------------
# The reference code, transcribed (transformers 5.25.0)
# ---------------------------------------------------------------------------


def rope_cos_sin(position_ids, head_dim, base, partial_rotary_factor):
    """GPTNeoXRotaryEmbedding (PhiRotaryEmbedding is the same): compute_default_rope_parameters,
    then forward. cos and sin of shape (seq_len, int(head_dim * factor))."""
    dim = int(head_dim * partial_rotary_factor)
    inv_freq = 1.0 / (base ** (np.arange(0, dim, 2, dtype=np.float64) / dim))
    freqs = np.asarray(position_ids, dtype=np.float64)[..., np.newaxis] * inv_freq
    emb = np.concatenate((freqs, freqs), axis=-1)
    return np.cos(emb), np.sin(emb)


def rotate_half(x):
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2 :]
    return np.concatenate((-x2, x1), axis=-1)


def gpt_neox_apply_rotary_pos_emb(q, cos, sin):
    """modeling_gpt_neox.apply_rotary_pos_emb, for the query (the key goes the same way)."""
    rotary_dim = cos.shape[-1]
    q_rot, q_pass = q[..., :rotary_dim], q[..., rotary_dim:]
    q_embed = (q_rot * cos) + (rotate_half(q_rot) * sin)
    return np.concatenate([q_embed, q_pass], axis=-1)


def phi_partial_rotary(query_states, cos, sin, rotary_ndims):
    """PhiAttention.forward's partial rotary embedding, for the query."""
    query_rot, query_pass = query_states[..., :rotary_ndims], query_states[..., rotary_ndims:]
    query_rot = (query_rot * cos) + (rotate_half(query_rot) * sin)  # apply_rotary_pos_emb
    return np.concatenate((query_rot, query_pass), axis=-1)


CASES = [  # head_dim, fraction, base
    (64, 0.25, 10000.0),  # GPT-NeoX's default rotary_pct
    (128, 0.25, 10000.0),
    (80, 0.4, 10000.0),
    (64, 0.5, 10000.0),  # Phi's default partial_rotary_factor
    (32, 0.75, 500.0),
    (16, 1.0, 10000.0),
    (100, 0.29, 10000.0),  # 100 * 0.29 = 28.999...: int() rounds down to 28, as the code does
]


@pytest.mark.parametrize("head_dim, fraction, base", CASES)
def test_matches_gpt_neox_and_phi(head_dim, fraction, base):
    rng = np.random.default_rng(head_dim)
    x = rng.standard_normal((3, 40, head_dim))  # (heads, seq_len, d)
    positions = np.arange(40) * 7 + 3
    y = apply_partial_rotary(x, positions, fraction, base)
    assert y.shape == x.shape and y.dtype == np.float64
    cos, sin = rope_cos_sin(positions, head_dim, base, fraction)
    # 1 / base^(2i/r) against base^(-2i/r) may differ in their last bit; at angles up to 276 rad
    # that moves cos and sin by about 1e-13, times entries of size up to 5.
    np.testing.assert_allclose(y, gpt_neox_apply_rotary_pos_emb(x, cos, sin), rtol=0, atol=1e-11)
    rotary_ndims = int(head_dim * fraction)
    np.testing.assert_allclose(
        y, phi_partial_rotary(x, cos, sin, rotary_ndims), rtol=0, atol=1e-11
    )


def test_int_rounds_the_rotated_dims_down_as_the_reference_does():
    x = np.ones((1, 100))
    y = apply_partial_rotary(x, [1], 0.29)
    assert int(100 * 0.29) == 28
    assert np.all(y[0, 28:] == 1.0) and np.all(y[0, :28] != 1.0)


# ---------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("shape", [(10, 8), (2, 10, 64)])
def test_fraction_one_is_full_rope_in_the_half_layout(shape):
    x = np.random.default_rng(1).standard_normal(shape)
    positions = np.arange(10) * 3.0
    full = rope_rotate(x, positions, 1234.0, pairing="half")
    # the same function on the same numbers: bit for bit
    np.testing.assert_array_equal(apply_partial_rotary(x, positions, 1.0, 1234.0), full)


@pytest.mark.parametrize("fraction", [0.25, 0.5, 0.75])
def test_the_unrotated_part_ignores_position(fraction):
    d, n = 64, 30
    r = int(d * fraction)
    rng = np.random.default_rng(2)
    q, k = rng.standard_normal((2, d))
    positions = np.arange(n) * 13.0
    queries = apply_partial_rotary(np.tile(q, (n, 1)), positions, fraction)
    keys = apply_partial_rotary(np.tile(k, (n, 1)), positions, fraction)
    # the pass-through dims are x's own, at every position: their dot product cannot move
    assert np.all(queries[:, r:] == q[r:]) and np.all(keys[:, r:] == k[r:])
    passed = np.sum(queries[:, np.newaxis, r:] * keys[np.newaxis, :, r:], axis=-1)
    # the same products at every (m, n); summed by numpy's SIMD loops, allow for the order
    assert np.ptp(passed) <= 1e-12 * np.sum(np.abs(q[r:] * k[r:]))
    # the rotated dims do move with the offset, and only with it
    rotated = np.sum(queries[:, np.newaxis, :r] * keys[np.newaxis, :, :r], axis=-1)
    assert np.ptp(rotated) > 1.0
    # positions 13 apart: a score that depends on the offset only is constant along diagonals
    assert toeplitz_residual(rotated) < 1e-12


def test_the_offset_dependent_share_grows_with_the_fraction():
    """The spread of q . k over offsets comes from the rotated dims only: with a quarter of
    the dims rotated it is smaller than with all of them, for the same q and k."""
    d, n = 64, 200
    q, k = np.random.default_rng(3).standard_normal((2, d))
    spreads = []
    for fraction in (0.25, 0.5, 1.0):
        keys = apply_partial_rotary(np.tile(k, (n, 1)), np.arange(n), fraction)
        query = apply_partial_rotary(q[np.newaxis], [0], fraction)[0]
        spreads.append(np.std(np.sum(keys * query, axis=1)))
    assert spreads[0] < spreads[1] < spreads[2]


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (
            {"fraction": 0.0},
            r"^fraction must be a finite real number greater than 0 and at most 1, got 0.0$",
        ),
        ({"fraction": -0.5}, r"^fraction must be a finite real number greater than 0"),
        ({"fraction": 1.5}, r"^fraction must be a finite real number greater than 0 and at most 1"),
        ({"fraction": math.nan}, r"^fraction must be a finite real number"),
        ({"fraction": "0.5"}, r"^fraction must be a finite real number"),
        ({"fraction": True}, r"^fraction must be a finite real number"),
        (
            {"fraction": 0.1},
            r"^fraction must rotate an even number of at least 2 of x's 8 dims, "
            r"got int\(8 \* 0.1\) = 0$",
        ),
        (
            {"x": np.ones((4, 6)), "fraction": 0.5},
            r"^fraction must rotate an even number of at least 2 of x's 6 dims, "
            r"got int\(6 \* 0.5\) = 3$",
        ),
        ({"x": np.ones((4, 7))}, r"^x must be a non-empty 2-D array \(seq_len, d\) or 3-D"),
        ({"x": np.ones(8)}, r"^x must be a non-empty 2-D array"),
        ({"x": [[1.0, math.inf] * 4] * 4}, r"^x must be a non-empty 2-D array"),
        (
            {"x": np.ones((4097, 8)), "positions": np.arange(4097)},
            r"^x must hold at most 4096 tokens \(seq_len\), got 4097$",
        ),
        ({"positions": [0, 1, 2]}, r"^positions must be 4 real numbers \(one per row\)"),
        ({"base": 1.0}, r"^base must be a finite real number greater than 1, got 1.0$"),
    ],
)
def test_apply_partial_rotary_bad_arguments(kwargs, message):
    arguments = {"x": np.ones((4, 8)), "positions": np.arange(4), "fraction": 0.5} | kwargs
    with pytest.raises(ValueError, match=message):
        apply_partial_rotary(**arguments)
