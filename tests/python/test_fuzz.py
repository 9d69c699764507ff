"""Property-based fuzzing of pelab's argument checking (hypothesis).

Every public function of pelab (``SPECS``) and ``Notebook.run`` get arguments drawn from a broad
mix: integers (huge and negative too), floats (nan, inf, -0.0, subnormal, huge), bools, strings
(emoji, markup), None, lists, ragged lists, dicts, numpy scalars and numpy arrays of odd shapes
and dtypes. The machinery is in fuzzing.py beside this file, with the property every call must
have: a result of the documented shape and dtype, or a ValueError naming the offending parameter
(or IndexError/TypeError), never anything else and no warning. Valid sizes are kept small so
that nothing allocates much, while invalid huge sizes (10**9, 2**64, 10**400, max + 1) are drawn
too, and must be refused before anything is allocated.

The entry points of pelab.browser are fuzzed the same way, each demo's in its own entry test,
tests/python/browser/demos/test_NAME_entry.py: its ``FUZZ_SPECS``, made into tests by
``fuzzing.entry_point_fuzz_tests``; tests/python/browser/test_entry_points.py checks that every
entry point has its spec there. Here, only ``entry_points.call`` given a name that is no entry
point.

The bugs the fuzzing found (ints beyond the float range, words, ragged lists and complex
numbers leaking numpy's errors and warnings, array-valued colour limits, infinite wavelengths,
ranges listed before their length was checked, an unbounded rope_relative_residual, numpy
integers sent to JavaScript, show refusing huge values, a one-shot iterator read twice) are
fixed; each has a regression test at the end of this file, and the strategies draw those
inputs again. The one thing left out (fuzzing's ``_junk(huge_floats=False)``) is array entries
so large that products overflow as IEEE arithmetic says they must; test_extreme_finite_entries
covers them.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import fractions
import io
import json
import math
import os
import re
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import pelab
from fuzzing import (
    ARRAY_JUNK,
    BASE_JUNK,
    EVEN_JUNK,
    FUZZ,
    FUZZ_LIGHT,
    JUNK,
    MARKUP,
    SCALE_JUNK,
    SPECIAL_FLOATS,
    Spec,
    any_floats,
    any_ints,
    as_int,
    bases,
    draw_case,
    even_sizes,
    finite,
    four_terms_args,
    half_up,
    in_unit,
    is_f64,
    is_real_float,
    items_of,
    judge,
    kwargs_of,
    matrices,
    names_any,
    optional,
    permutations_of,
    scales,
    sentences,
    size_junk,
    sizes,
    tame_floats,
    widths,
)
from pelab.alibi import MAX_HEADS
from pelab.alibi import MAX_SEQ_LEN as MAX_ALIBI_LEN
from pelab.attention import MAX_WIDTH
from pelab.browser import display, entry_points
from pelab.checks import (
    MAX_D_MODEL,
    MAX_ELEMENTS,
    MAX_SEQ_LEN,
    check_base,
    check_matrix,
    check_size,
    check_table,
)
from pelab.colormap import legend_stops
from pelab.diagnoses import DIAGNOSES, Said
from pelab.exercises import EXERCISES
from pelab.extrapolation import MAX_NEAREST_LEN, MAX_NEAREST_WIDTH
from pelab.learned import MAX_LEN
from pelab.relative import MAX_OFFSET, MAX_ROTATION_WIDTH, MIN_HALVES_LEN
from pelab.rope import LOOSENESS_DRAWS
from pelab.score_terms import MAX_TERMS_WIDTH, TERM_NAMES
from pelab.tokens import MAX_TOKENS

ROOT = Path(__file__).resolve().parents[2]

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
TWO_PI = 2.0 * math.pi


def check_frequencies(kw, omega):
    d = as_int(kw["d_model"])
    is_f64(omega, (half_up(d),))
    finite(omega)
    assert omega[0] == 1.0
    assert (omega > 0).all()
    assert (np.diff(omega) <= 0).all()


def check_wavelengths(kw, lam):
    is_f64(lam, (half_up(kw["d_model"]),))
    finite(lam)
    assert (lam >= TWO_PI * (1 - 1e-15)).all()


def check_table_of(kw, pe):
    is_f64(pe, (as_int(kw["seq_len"]), as_int(kw["d_model"])))
    in_unit(pe)


def check_table_by_rotation(kw, pe):
    check_table_of(kw, pe)
    seq_len = as_int(kw["seq_len"])
    expected = pelab.sinusoidal(seq_len, as_int(kw["d_model"]), kw.get("base", 10000.0))
    assert np.max(np.abs(pe - expected)) <= 2**-52 * (seq_len + 4)


def check_formula_terms(kw, terms):
    d = as_int(kw["d_model"])
    assert set(terms) == {"j", "i", "exponent", "angle", "value", "is_sine"}
    for key in ("j", "i", "exponent", "angle", "value"):
        is_f64(terms[key], (d,))
        finite(terms[key])
    assert terms["is_sine"].dtype == np.bool_ and terms["is_sine"].shape == (d,)
    assert (np.abs(terms["value"]) <= 1).all()


def check_add_positions(kw, out):
    x = np.asarray(kw["x"], dtype=np.float64)
    is_f64(out, x.shape)
    if np.isfinite(x).all():
        finite(out)


def check_pair_waves(kw, waves):
    sin, cos = waves
    n = np.asarray(kw["positions"], dtype=np.float64).shape[0]
    pairs = kw.get("pairs")
    rows = half_up(kw["d_model"]) if pairs is None else len(items_of(pairs))
    is_f64(sin, (rows, n))
    is_f64(cos, (rows, n))
    in_unit(sin)
    in_unit(cos)


def check_clock_angles(kw, angles):
    is_f64(angles, (half_up(kw["d_model"]),))
    finite(angles)
    assert ((angles >= 0) & (angles < TWO_PI)).all(), angles


def check_tokenize(kw, result):
    tokens, truncated = result
    assert type(truncated) is bool
    assert isinstance(tokens, list) and 1 <= len(tokens) <= as_int(kw.get("max_tokens", MAX_TOKENS))
    assert all(isinstance(t, str) and t for t in tokens)


def check_embed(kw, x):
    is_f64(x, (len(kw["tokens"]), as_int(kw.get("d_model", 8))))
    finite(x)


def check_projections(kw, result):
    d = as_int(kw.get("d_model", 8))
    d_k = d if kw.get("d_k") is None else as_int(kw["d_k"])
    w_q, w_k, w_v = result
    is_f64(w_q, (d, d_k))
    is_f64(w_k, (d, d_k))
    is_f64(w_v, (d, d))
    for w in result:
        finite(w)


def check_self_attention(kw, result):
    outputs, weights = result
    x = np.asarray(kw["x"], dtype=np.float64)
    w_v = np.asarray(kw["w_v"], dtype=np.float64)
    n = x.shape[0]
    is_f64(outputs, (n, w_v.shape[1]))
    is_f64(weights, (n, n))
    finite(outputs)
    finite(weights)
    assert (weights >= 0).all()
    assert np.allclose(weights.sum(axis=1), 1.0)
    if kw.get("causal"):
        assert (np.triu(weights, 1) == 0).all()  # nothing from later tokens


def check_permutation_matrix(kw, p):
    n = len(items_of(kw["order"]))
    is_f64(p, (n, n))
    assert set(np.unique(p).tolist()) <= {0.0, 1.0}
    assert (p.sum(axis=0) == 1).all() and (p.sum(axis=1) == 1).all()


def check_order_blindness(kw, result):
    assert isinstance(result, pelab.OrderBlindness)
    n = len(result.tokens)
    d = as_int(kw.get("d_model", 8))
    assert 1 <= n <= MAX_TOKENS
    assert sorted(result.order) == list(range(n))
    assert all(type(m) is int for m in result.order)
    assert result.shuffled == [result.tokens[m] for m in result.order]
    assert type(result.with_pe) is bool and type(result.truncated) is bool
    for array in (result.outputs, result.shuffled_outputs):
        is_f64(array, (n, d))
        finite(array)
    for array in (result.weights, result.shuffled_weights):
        is_f64(array, (n, n))
        finite(array)
    is_real_float(result.token_match)
    is_real_float(result.pooled_diff)


def check_to_rgba(kw, rgba):
    values = np.asarray(kw["values"], dtype=np.float64)
    assert isinstance(rgba, np.ndarray) and rgba.dtype == np.uint8
    assert rgba.shape == values.shape + (4,)
    assert (rgba[..., 3] == 255).all()


def check_concatenated(kw, pe):
    check_table_of(kw, pe)


def check_layout_permutation(kw, perm):
    d = as_int(kw["d_model"])
    assert perm.dtype == np.int64 and perm.shape == (d,)
    assert sorted(perm.tolist()) == list(range(d))


def check_nearest(kw, nearest):
    n = as_int(kw["seq_len"])
    is_f64(nearest, (n,))
    assert nearest[0] == math.inf
    rest = nearest[1:]
    finite(rest)
    assert (rest >= 0).all() and (np.diff(rest) <= 0).all()


def check_learned(kw, table):
    assert isinstance(table, pelab.LearnedTable)
    max_len, d = as_int(kw["max_len"]), as_int(kw["d_model"])
    is_f64(table.table, (max_len, d))
    finite(table.table)
    assert not table.table.flags.writeable
    assert (type(table.max_len), type(table.d_model), type(table.seed)) == (int, int, int)


def check_band_contrast(kw, value):
    assert type(value) is float and -2 <= value <= 2


def check_tiny_config(kw, config):
    assert isinstance(config, pelab.experiments.tiny_transformer.TinyConfig)
    assert config.d_model % config.n_heads == 0 and (config.d_model // config.n_heads) % 2 == 0


@st.composite
def principal_components_args(draw):
    n, d = draw(st.integers(1, 8)), draw(st.integers(1, 6))
    return {"table": draw(matrices(st.just(n), st.just(d))),
            "count": draw(st.integers(1, min(n, d)))}


def check_principal_components(kw, result):
    components, shares = result
    n = np.asarray(kw["table"]).shape[0]
    is_f64(components, (as_int(kw["count"]), n))
    is_f64(shares, (as_int(kw["count"]),))
    finite(components)
    assert ((shares >= 0) & (shares <= 1 + 1e-12)).all()


def check_closest_sinusoid(kw, result):
    n = np.asarray(kw["values"]).shape[0]
    assert set(result) == {"period", "r_squared", "fit", "at_longest"}
    assert type(result["at_longest"]) is bool
    assert result["at_longest"] == (result["period"] == pytest.approx(4 * (n - 1), rel=1e-12))
    is_f64(result["fit"], (n,))
    finite(result["fit"])
    assert 2 <= result["period"] <= 4 * (n - 1) + 1e-9
    assert -1e-9 <= result["r_squared"] <= 1 + 1e-9


LOOKUP_TABLE = pelab.learned(16, 3, seed=7)


def lookup(positions):
    return LOOKUP_TABLE.lookup(positions)


def check_lookup(kw, rows):
    n = len(items_of(kw["positions"]))
    is_f64(rows, (n, 3))
    finite(rows)


def check_png(kw, data):
    image = np.asarray(kw["rgba"])
    assert isinstance(data, bytes) and data.startswith(PNG_SIGNATURE)
    assert int.from_bytes(data[16:20], "big") == image.shape[1]
    assert int.from_bytes(data[20:24], "big") == image.shape[0]


def check_rotation(kw, m):
    d = as_int(kw["d_model"])
    is_f64(m, (d, d))
    finite(m)
    assert np.allclose(m @ m.T, np.eye(d), atol=1e-9)


def check_float(kw, value):
    is_real_float(value)


def check_relative_shift(kw, shift):
    assert isinstance(shift, pelab.RelativeShift)
    n, d = as_int(kw.get("seq_len", 64)), as_int(kw.get("d_model", 16))
    assert type(shift.k) is int
    is_f64(shift.rotation, (d, d))
    assert shift.positions.dtype == np.int64 and shift.positions.shape == (n,)
    for array in (shift.now, shift.later, shift.mapped):
        is_f64(array, (n, d))
        finite(array)
    for value in (shift.residual, shift.full_fit_residual, shift.sine_only_residual,
                  shift.independence):
        is_real_float(value)


def check_fit_shift(kw, result):
    m, residual = result
    x = np.asarray(kw["features_now"], dtype=np.float64)
    y = np.asarray(kw["features_later"], dtype=np.float64)
    is_f64(m, (y.shape[1], x.shape[1]))
    magnitudes = np.abs(np.concatenate([x.ravel(), y.ravel()]))
    if ((magnitudes == 0) | ((magnitudes > 1e-100) & (magnitudes < 1e6))).all():
        # well scaled: a map that fits exists within the float range
        finite(m)
        is_real_float(residual)
    else:
        assert type(residual) is float


def check_rope(kw, out):
    x = np.asarray(kw["x"], dtype=np.float64)
    is_f64(out, x.shape)
    finite(out)
    assert np.allclose(np.linalg.norm(out, axis=1), np.linalg.norm(x, axis=1), rtol=1e-9, atol=1e-9)


def check_rope_rotate(kw, out):
    x = np.asarray(kw["x"], dtype=np.float64)
    is_f64(out, x.shape)
    finite(out)
    assert np.allclose(
        np.linalg.norm(out, axis=-1), np.linalg.norm(x, axis=-1), rtol=1e-9, atol=1e-9
    )


def segment_tokens(segment):
    kind, size = segment
    return int(size) if kind == "text" else math.prod(int(side) for side in size)


def check_mrope_position_ids(kw, ids):
    n = sum(segment_tokens(segment) for segment in kw["segments"])
    assert ids.dtype == np.int64 and ids.shape == (3, n)
    assert ids.min() >= 0 and ids.max() < n  # a block uses up at most as many ids as tokens


def check_mrope_angles(kw, angles):
    n = np.asarray(kw["position_ids"]).shape[1]
    is_f64(angles, (n, as_int(kw["head_dim"]) // 2))
    finite(angles)


def check_apply_partial_rotary(kw, out):
    x = np.asarray(kw["x"], dtype=np.float64)
    is_f64(out, x.shape)
    finite(out)
    rotated = int(x.shape[-1] * float(kw["fraction"]))
    assert np.array_equal(out[..., rotated:], x[..., rotated:])  # passed through
    assert np.allclose(
        np.linalg.norm(out, axis=-1), np.linalg.norm(x, axis=-1), rtol=1e-9, atol=1e-9
    )


def check_pairing_permutation(kw, perm):
    d = as_int(kw["d"])
    assert perm.dtype == np.int64 and perm.shape == (d,)
    assert sorted(perm.tolist()) == list(range(d))
    assert perm[0::2].tolist() == list(range(d // 2))


def check_interpolated_positions(kw, out):
    positions = np.asarray(kw["positions"], dtype=np.float64)
    is_f64(out, positions.shape)
    finite(out)
    assert (out >= 0).all() and (out <= positions).all()


def check_ntk_scaled_base(kw, new_base):
    assert type(new_base) is float and math.isfinite(new_base)
    assert new_base >= float(kw["base"]) * (1 - 1e-15)


def check_yarn_frequencies(kw, omega):
    d = as_int(kw["d"])
    is_f64(omega, (d // 2,))
    finite(omega)
    before = pelab.angular_frequencies(d, kw["base"])
    scale = float(kw["scale"])
    assert (omega <= before * (1 + 1e-15)).all()
    assert (omega >= before / scale * (1 - 1e-15)).all()


def check_yarn_attention_scale(kw, factor):
    assert type(factor) is float and math.isfinite(factor) and factor >= 1.0


def check_llama3_frequencies(kw, omega):
    d = as_int(kw["d"])
    is_f64(omega, (d // 2,))
    finite(omega)
    before = pelab.angular_frequencies(d, kw["base"])
    factor = float(kw.get("factor", 8.0))
    assert (omega <= before * (1 + 1e-15)).all()
    assert (omega >= before / factor * (1 - 1e-15)).all()


def check_stretched_frequencies(kw, omega):
    d = as_int(kw["d"])
    is_f64(omega, (d // 2,))
    finite(omega)
    assert (omega >= 0).all()


def check_angle_coverage(kw, coverage):
    d = as_int(kw["d"])
    assert set(coverage) == {"trained", "reached", "state", "last"}
    is_f64(coverage["trained"], (d // 2,))
    is_f64(coverage["reached"], (d // 2,))
    finite(coverage["reached"])
    assert coverage["state"].dtype == np.int8 and set(coverage["state"].tolist()) <= {0, 1, 2}
    assert type(coverage["last"]) is int and coverage["last"] >= 0


def check_stretched_scores(kw, result):
    offsets, before, after = result
    is_f64(offsets, offsets.shape)
    assert offsets.ndim == 1 and 1 <= offsets.size <= as_int(kw.get("samples", 512))
    assert before.shape == after.shape == offsets.shape
    finite(before)
    finite(after)


def check_rope_decay_bound(kw, bound):
    offsets = np.asarray(kw["offsets"], dtype=np.float64)
    is_f64(bound, offsets.shape)
    finite(bound)
    half = as_int(kw["d"]) // 2
    assert (bound >= 0).all() and (bound <= (half + 1) / 2 * (1 + 1e-12)).all()


def check_rope_bound_looseness(kw, ratios):
    is_f64(ratios, (as_int(kw.get("draws", LOOSENESS_DRAWS)),))
    finite(ratios)
    assert (ratios >= 1 - 1e-9).all()  # the bound holds: it is never below the score


def check_rope_scores(kw, scores):
    n_q = np.asarray(kw["q"], dtype=np.float64).shape[0]
    n_k = np.asarray(kw["k"], dtype=np.float64).shape[0]
    is_f64(scores, (n_q, n_k))
    finite(scores)


def check_similarity(kw, result):
    dot, cosine = result
    n = np.asarray(kw["pe"], dtype=np.float64).shape[0]
    is_f64(dot, (n, n))
    is_f64(cosine, (n, n))
    finite(dot)
    in_unit(cosine)


# pelab.show draws any floats, up to the largest
# (test_show_default_limits_work_for_any_finite_values).
SHOWABLE_FLOATS = st.one_of(st.floats(), st.sampled_from(SPECIAL_FLOATS),
                            st.sampled_from([-1.7976931348623157e308, -1e308]))


def show_quietly(**kwargs):
    """pelab.show outside a notebook prints one summary line: capture it."""
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        returned = pelab.show(**kwargs)
    return returned, buffer.getvalue()


def check_show(kw, result):
    returned, printed = result
    assert returned is None
    assert printed.startswith("<heatmap ") and printed.endswith(">\n")
    array = np.asarray(kw["matrix"], dtype=np.float64)
    rows, cols = (1, array.shape[0]) if array.ndim == 1 else array.shape
    assert printed.rstrip("\n").endswith(f" {rows}x{cols}>")


def check_legend_stops(kw, stops):
    assert isinstance(stops, list) and len(stops) == as_int(kw["n"])
    assert all(re.fullmatch(r"#[0-9a-f]{6}", s) for s in stops)


def check_check_size(kw, value):
    assert type(value) is int and kw.get("minimum", 1) <= value <= kw["maximum"]


def check_check_base(kw, value):
    assert type(value) is float and math.isfinite(value) and value > 1


def check_check_table(kw, result):
    seq_len, d_model, base = result
    assert (type(seq_len), type(d_model), type(base)) == (int, int, float)
    assert seq_len * d_model <= MAX_ELEMENTS


def check_check_matrix(kw, array):
    assert isinstance(array, np.ndarray) and array.dtype == np.float64 and array.ndim == 2
    assert array.size > 0
    finite(array)


# ---------------------------------------------------------------------------
# The functions, their valid arguments and their junk
# ---------------------------------------------------------------------------


@st.composite
def self_attention_args(draw):
    n, d, d_k, d_v = (draw(st.integers(1, 6)) for _ in range(4))
    size = st.just
    return {
        "x": draw(matrices(size(n), size(d))),
        "w_q": draw(matrices(size(d), size(d_k))),
        "w_k": draw(matrices(size(d), size(d_k))),
        "w_v": draw(matrices(size(d), size(d_v))),
        **(
            {"causal": draw(st.sampled_from([True, False, np.bool_(True)]))}
            if draw(st.booleans())
            else {}
        ),
    }


@st.composite
def order_blindness_args(draw):
    sentence = draw(sentences())
    n = len(pelab.tokenize(sentence)[0])
    args = {"sentence": sentence}
    if draw(st.booleans()):
        args["order"] = draw(st.one_of(permutations_of(n), permutations_of(n).map(tuple),
                                       permutations_of(n).map(np.array), st.none()))
    if draw(st.booleans()):
        args["with_pe"] = draw(st.sampled_from([True, False, np.bool_(True), np.bool_(False)]))
    if draw(st.booleans()):
        args["causal"] = draw(st.sampled_from([True, False, np.bool_(True), np.bool_(False)]))
    if draw(st.booleans()):
        args["d_model"] = draw(sizes(1, 16))
    if draw(st.booleans()):
        args["base"] = draw(bases())
    return args


@st.composite
def pair_waves_args(draw):
    d = draw(sizes(1, 40))
    args = {
        "positions": draw(st.one_of(
            hnp.arrays(np.float64, st.integers(1, 20), elements=st.floats(0, MAX_SEQ_LEN)),
            st.lists(st.one_of(st.integers(0, MAX_SEQ_LEN), st.floats(0, MAX_SEQ_LEN)),
                     min_size=1, max_size=20),
        )),
        "d_model": d,
    }
    if draw(st.booleans()):
        args["base"] = draw(bases())
    if draw(st.booleans()):
        pairs = draw(st.lists(st.integers(0, half_up(d) - 1), unique=True, max_size=8))
        args["pairs"] = draw(st.sampled_from([pairs, tuple(pairs),
                                              np.array(pairs, dtype=np.int64)]))
    return args


@st.composite
def rope_args(draw):
    n, half = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    return {
        "x": draw(matrices(st.just(n), st.just(2 * half))),
        "positions": draw(st.one_of(
            st.lists(st.integers(-MAX_SEQ_LEN, MAX_SEQ_LEN), min_size=n, max_size=n),
            hnp.arrays(np.float64, n, elements=st.floats(-MAX_SEQ_LEN, MAX_SEQ_LEN)),
        )),
        **({"base": draw(bases())} if draw(st.booleans()) else {}),
    }


PAIRINGS = st.sampled_from(["adjacent", "half", np.str_("half")])
PAIRING_JUNK = st.one_of(JUNK, st.sampled_from(["", "Half", "rotate_half", "adjacent ", "neox",
                                                ["half"], np.array(["half"])]))


SEGMENTS = st.lists(
    st.one_of(
        st.tuples(st.just("text"), sizes(1, 6)),
        st.tuples(
            st.sampled_from(["image", "video"]),
            st.one_of(st.tuples(sizes(1, 3), sizes(1, 4), sizes(1, 4)),
                      st.lists(st.integers(1, 3), min_size=3, max_size=3)),
        ),
    ),
    min_size=1,
    max_size=5,
)
SEGMENTS_JUNK = st.one_of(
    JUNK,
    st.sampled_from([
        [("image", (1, 0, 2))], [("video", (0, 2, 2))], [("text", 0)], [("text", 4097)],
        [("text", 2.0)], [("text", True)], [("audio", 3)], [("image", (1, 2))], [("image", 4)],
        [("image", (2**64, 2**64, 1))], [("text", 10**400)], [("text", 1, 2)], ["text"],
        [("text", 1)] * 5000, [("text", 2), ("image", (1, 64, 65))], [None], [[]], [{}],
        [("image", "122")], [("text", np.int64(-1))], [(np.str_("text"), 2), ("image", None)],
    ]),
)


@st.composite
def mrope_angles_args(draw):
    pairs = draw(st.integers(1, 32))
    first = draw(st.integers(0, pairs))
    second = draw(st.integers(0, pairs - first))
    sections = [first, second, pairs - first - second]
    n = draw(st.integers(1, 8))
    ids = draw(st.one_of(
        hnp.arrays(np.int64, (3, n), elements=st.integers(0, MAX_SEQ_LEN)),
        hnp.arrays(np.float64, (3, n), elements=st.floats(-MAX_SEQ_LEN, MAX_SEQ_LEN)),
    ))
    return {
        "position_ids": ids if draw(st.booleans()) else ids.tolist(),
        "head_dim": 2 * pairs,
        "sections": sections if draw(st.booleans()) else tuple(np.int64(v) for v in sections),
        **({"base": draw(bases())} if draw(st.booleans()) else {}),
    }


@st.composite
def partial_rotary_args(draw):
    n, eighths = draw(st.integers(1, 6)), draw(st.integers(1, 4))
    heads = draw(st.sampled_from([(), (1,), (3,)]))
    x = draw(hnp.arrays(np.float64, heads + (n, 8 * eighths), elements=tame_floats()))
    return {
        "x": x if draw(st.booleans()) else x.tolist(),
        "positions": draw(st.one_of(
            st.lists(st.integers(-MAX_SEQ_LEN, MAX_SEQ_LEN), min_size=n, max_size=n),
            hnp.arrays(np.float64, n, elements=st.floats(-MAX_SEQ_LEN, MAX_SEQ_LEN)),
        )),
        # int(d * fraction) is even and at least 2 for d a multiple of 8
        "fraction": draw(st.sampled_from([0.25, 0.5, 0.75, 1.0, 1, fractions.Fraction(1, 2),
                                          np.float32(0.25), np.float64(0.5)])),
        **({"base": draw(bases())} if draw(st.booleans()) else {}),
    }


@st.composite
def rope_rotate_args(draw):
    n, half = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    heads = draw(st.sampled_from([(), (1,), (3,)]))
    x = draw(hnp.arrays(np.float64, heads + (n, 2 * half), elements=tame_floats()))
    return {
        "x": x if draw(st.booleans()) else x.tolist(),
        "positions": draw(st.one_of(
            st.lists(st.integers(-MAX_SEQ_LEN, MAX_SEQ_LEN), min_size=n, max_size=n),
            hnp.arrays(np.float64, n, elements=st.floats(-MAX_SEQ_LEN, MAX_SEQ_LEN)),
        )),
        **({"base": draw(bases())} if draw(st.booleans()) else {}),
        **({"pairing": draw(PAIRINGS)} if draw(st.booleans()) else {}),
    }


@st.composite
def interpolated_positions_args(draw):
    train_len = draw(sizes(1, 4096))
    return {
        "positions": draw(st.one_of(
            st.lists(st.one_of(st.integers(0, MAX_SEQ_LEN), st.floats(0, MAX_SEQ_LEN)),
                     min_size=1, max_size=20),
            hnp.arrays(np.float64, st.integers(1, 20), elements=st.floats(0, MAX_SEQ_LEN)),
        )),
        "train_len": train_len,
        "target_len": draw(st.integers(int(train_len), MAX_SEQ_LEN)),
    }


@st.composite
def ntk_args(draw):
    # base * scale ** (d / (d - 2)) must stay finite: bases and scales a lesson would use.
    return {
        "base": draw(st.one_of(st.floats(1.0, 1e12, exclude_min=True), st.integers(2, 10**9),
                               st.sampled_from([10000, 500000.0, np.float64(1e6)]))),
        "scale": draw(scales(cap=1e6)),
        "d": draw(even_sizes(4, 256)),
    }


@st.composite
def yarn_args(draw):
    args = {"d": draw(even_sizes(2, 128)), "base": draw(bases()), "scale": draw(scales()),
            "train_len": draw(sizes(1, MAX_SEQ_LEN))}
    # beta must exceed alpha, and the defaults are alpha = 1, beta = 32.
    if draw(st.booleans()):
        alpha = draw(st.one_of(st.floats(0, 100), st.just(0), st.just(1.0)))
        args["alpha"] = alpha
        args["beta"] = draw(st.floats(float(alpha), 1e6, exclude_min=True))
    elif draw(st.booleans()):
        args["alpha"] = draw(st.floats(0, 32.0, exclude_max=True))
    elif draw(st.booleans()):
        args["beta"] = draw(st.floats(1.0, 1e6, exclude_min=True))
    return args


@st.composite
def stretch_args(draw):
    method = draw(st.sampled_from(pelab.context_scaling.METHODS))
    # The NTK-aware base must stay finite (see ntk_args), and needs two pairs or more.
    base = draw(st.floats(1.0, 1e12, exclude_min=True) if method == "ntk" else bases())
    return {"method": method, "d": draw(even_sizes(4 if method == "ntk" else 2, 128)), "base": base,
            "train_len": draw(sizes(1, MAX_SEQ_LEN)), "scale": draw(scales(cap=1024.0))}


@st.composite
def stretched_scores_args(draw):
    args = draw(stretch_args())
    d = as_int(args.pop("d"))
    vector = hnp.arrays(np.float64, d, elements=tame_floats())
    args |= {"q": draw(vector), "k": draw(vector)}
    if draw(st.booleans()):
        args["samples"] = draw(sizes(2, 64))
    return args


@st.composite
def llama3_args(draw):
    args = {"d": draw(even_sizes(2, 128)), "base": draw(bases())}
    if draw(st.booleans()):
        low = draw(st.floats(1e-3, 100))
        args |= {
            "low_freq_factor": low,
            "high_freq_factor": draw(st.floats(low, 1e6, exclude_min=True)),
            "factor": draw(scales(cap=1024.0)),
            "original_max_len": draw(sizes(1, MAX_SEQ_LEN)),
        }
    return args


@st.composite
def rope_scores_args(draw):
    n_q, n_k, half = draw(st.integers(1, 5)), draw(st.integers(1, 5)), draw(st.integers(1, 5))
    positions = st.integers(-MAX_SEQ_LEN, MAX_SEQ_LEN)
    return {
        "q": draw(matrices(st.just(n_q), st.just(2 * half))),
        "k": draw(matrices(st.just(n_k), st.just(2 * half))),
        "positions_q": draw(st.lists(positions, min_size=n_q, max_size=n_q)),
        "positions_k": draw(st.lists(positions, min_size=n_k, max_size=n_k)),
        **({"base": draw(bases())} if draw(st.booleans()) else {}),
    }


@st.composite
def rope_residual_args(draw):
    d = 2 * draw(st.integers(1, 8))
    vector = hnp.arrays(np.float64, d, elements=st.floats(-30, 30))
    return {
        "q": draw(vector),
        "k": draw(vector),
        "seq_len": draw(sizes(1, 40)),
        **({"base": draw(bases())} if draw(st.booleans()) else {}),
    }


# fit_shift solves X M^T ~ Y: a nearly-zero X (5e-324) needs a map beyond the float range,
# and the result is inf (see the report); keep the entries away from the subnormals.
WELL_SCALED = st.one_of(
    st.floats(-1e3, 1e3).filter(lambda v: abs(v) > 1e-100), st.sampled_from([0.0, -0.0]))


@st.composite
def fit_shift_args(draw):
    n, p, q = draw(st.integers(1, 8)), draw(st.integers(1, 5)), draw(st.integers(1, 5))
    return {
        "features_now": draw(matrices(st.just(n), st.just(p), WELL_SCALED)),
        "features_later": draw(matrices(st.just(n), st.just(q), WELL_SCALED)),
    }


@st.composite
def png_args(draw):
    shape = (draw(st.integers(1, 8)), draw(st.integers(1, 8)), 4)
    return {"rgba": draw(hnp.arrays(np.uint8, shape))}


def lookup_positions():
    inside = st.integers(0, 15)
    return st.one_of(
        st.lists(inside, max_size=8),
        st.lists(inside, max_size=8).map(tuple),
        hnp.arrays(st.sampled_from([np.int64, np.uint8, np.int32]), st.integers(0, 8),
                   elements=inside),
        st.integers(0, 16).map(range),
        st.lists(inside.map(np.int16), max_size=4),
    )


@st.composite
def check_size_args(draw):
    minimum = draw(st.integers(-5, 5))
    maximum = draw(st.integers(minimum, 10**6))
    value = draw(st.integers(minimum, maximum))
    return {"name": "width", "value": value, "maximum": maximum, "minimum": minimum}


# The arguments of a sinusoidal table, the same for both ways of building it.
TABLE_ARGS = optional({"seq_len": sizes(1, 48), "d_model": sizes(1, 48)}, base=bases())
TABLE_JUNK = {
    "seq_len": size_junk(1, MAX_SEQ_LEN),
    "d_model": size_junk(1, MAX_D_MODEL),
    "base": BASE_JUNK,
}


def check_alibi_slopes(kw, slopes):
    n = as_int(kw["n_heads"])
    is_f64(slopes, (n,))
    assert np.all((slopes > 0) & (slopes < 1)) and len(set(slopes.tolist())) == n


def check_alibi_bias(kw, bias):
    n, h = as_int(kw["seq_len"]), as_int(kw["n_heads"])
    is_f64(bias, (h, n, n))
    assert np.all(np.tril(bias) <= 0) and not np.isnan(bias).any()


def check_alibi_weights(kw, weights):
    n, h = len(kw["scores"]), as_int(kw["n_heads"])
    is_f64(weights, (h, n, n))
    finite(weights)
    assert np.all(weights >= 0) and np.all(np.triu(weights, 1) == 0)
    np.testing.assert_allclose(weights.sum(axis=2), 1.0, rtol=0, atol=1e-12)


def check_attention_scores(kw, scores):
    n = len(kw["x"])
    is_f64(scores, (n, n))


def check_score_terms(kw, terms):
    assert isinstance(terms, pelab.ScoreTerms)
    n = len(kw["x"])
    for name in (*TERM_NAMES, "total"):
        is_f64(getattr(terms, name), (n, n))


def check_four_terms(kw, result):
    assert isinstance(result, pelab.FourTerms)
    n = len(result.tokens)
    assert 1 <= n <= MAX_TOKENS and type(result.identity) is bool
    for name, matrix in result.scores.terms():
        is_f64(matrix, (n, n))
        finite(matrix)
        assert math.isfinite(result.toeplitz[name]) and result.toeplitz[name] >= 0
    assert math.isfinite(result.sum_gap) and result.sum_gap >= 0


@st.composite
def alibi_weights_args(draw):
    n = draw(st.integers(1, 8))
    return {"scores": draw(matrices(st.just(n), st.just(n))), "n_heads": draw(sizes(1, 16))}


@st.composite
def attention_scores_args(draw):
    n, d, d_k = (draw(st.integers(1, 6)) for _ in range(3))
    return {
        "x": draw(matrices(st.just(n), st.just(d))),
        "w_q": draw(matrices(st.just(d), st.just(d_k))),
        "w_k": draw(matrices(st.just(d), st.just(d_k))),
    }


@st.composite
def score_terms_args(draw):
    n, d = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    return {
        "x": draw(matrices(st.just(n), st.just(d))),
        "p": draw(matrices(st.just(n), st.just(d))),
        "a": draw(matrices(st.just(d), st.just(d))),
    }


def check_exercise_report(kwargs, report):
    """Whatever the cell defined: a line for each of the exercise's checks, each passed or saying
    why not (a sentence), and only named diagnoses."""
    results = report.results
    assert [what for what, _ in results] == [what for what, _ in EXERCISES[kwargs["name"]]]
    assert all(why is None or (isinstance(why, Said) and str(why)) for _, why in results), results
    assert report.passed == all(why is None for _, why in results)
    assert set(report.diagnoses) <= set(DIAGNOSES)
    assert json.loads(repr(report.for_page()))["passed"] == report.passed


SPECS = {
    "alibi_slopes": Spec(
        pelab.alibi_slopes,
        kwargs_of(n_heads=sizes(1, MAX_HEADS)),
        {"n_heads": size_junk(1, MAX_HEADS)},
        check_alibi_slopes,
    ),
    "alibi_bias": Spec(
        pelab.alibi_bias,
        optional(
            {"seq_len": sizes(1, 24), "n_heads": sizes(1, 16)},
            causal=st.sampled_from([True, False, np.bool_(True)]),
        ),
        {
            "seq_len": size_junk(1, MAX_ALIBI_LEN),
            "n_heads": size_junk(1, MAX_HEADS),
            "causal": JUNK,
        },
        check_alibi_bias,
        # too many entries is reported as "n_heads * seq_len * seq_len ..."
        related={"seq_len": {"n_heads"}, "n_heads": {"seq_len"}},
    ),
    "alibi_weights": Spec(
        pelab.alibi_weights,
        alibi_weights_args(),
        {"scores": ARRAY_JUNK, "n_heads": size_junk(1, MAX_HEADS)},
        check_alibi_weights,
        related={"scores": {"n_heads"}, "n_heads": {"scores"}},
    ),
    "attention_distance": Spec(
        pelab.attention_distance,
        st.integers(1, 8).flatmap(
            lambda n: st.builds(lambda w: {"weights": w}, matrices(st.just(n), st.just(n)))
        ),
        # any finite weights are accepted; only non-negative ones give a distance >= 0
        {"weights": ARRAY_JUNK},
        lambda kw, value: is_real_float(value, nonnegative=False),
    ),
    "attention_scores": Spec(
        pelab.attention_scores,
        attention_scores_args(),
        {"x": ARRAY_JUNK, "w_q": ARRAY_JUNK, "w_k": ARRAY_JUNK},
        check_attention_scores,
        related={name: {"x", "w_q", "w_k"} for name in ("x", "w_q", "w_k")},
    ),
    "score_terms": Spec(
        pelab.score_terms,
        score_terms_args(),
        {"x": ARRAY_JUNK, "p": ARRAY_JUNK, "a": ARRAY_JUNK},
        check_score_terms,
        related={name: {"x", "p", "a"} for name in ("x", "p", "a")},
    ),
    "four_terms": Spec(
        pelab.four_terms,
        four_terms_args(),
        {
            "sentence": JUNK,
            "identity": JUNK,
            "d_model": size_junk(1, MAX_TERMS_WIDTH),
            "base": BASE_JUNK,
        },
        check_four_terms,
    ),
    "angular_frequencies": Spec(
        pelab.angular_frequencies,
        optional({"d_model": widths()}, base=bases()),
        {"d_model": size_junk(1, MAX_D_MODEL), "base": BASE_JUNK},
        check_frequencies,
    ),
    "wavelengths": Spec(
        pelab.wavelengths,
        optional({"d_model": widths()}, base=bases()),
        {"d_model": size_junk(1, MAX_D_MODEL), "base": BASE_JUNK},
        check_wavelengths,
    ),
    "sinusoidal": Spec(pelab.sinusoidal, TABLE_ARGS, TABLE_JUNK, check_table_of),
    "sinusoidal_by_rotation": Spec(
        pelab.sinusoidal_by_rotation, TABLE_ARGS, TABLE_JUNK, check_table_by_rotation
    ),
    "formula_terms": Spec(
        pelab.formula_terms,
        optional({"pos": sizes(0, MAX_SEQ_LEN), "d_model": sizes(1, 64)}, base=bases()),
        {"pos": size_junk(0, MAX_SEQ_LEN), "d_model": size_junk(1, MAX_D_MODEL), "base": BASE_JUNK},
        check_formula_terms,
    ),
    "add_positions": Spec(
        pelab.add_positions,
        optional({"x": matrices(st.integers(1, 12), st.integers(1, 12))}, base=bases()),
        {"x": ARRAY_JUNK, "base": BASE_JUNK},
        check_add_positions,
        # x's shape gives the table's sizes
        related={"x": {"seq_len", "d_model"}},
    ),
    "pair_waves": Spec(
        pelab.pair_waves,
        pair_waves_args(),
        {
            "positions": ARRAY_JUNK,
            "d_model": size_junk(1, MAX_D_MODEL),
            "base": BASE_JUNK,
            "pairs": JUNK,
        },
        check_pair_waves,
        related={"d_model": {"pairs"}},
    ),
    "clock_angles": Spec(
        pelab.clock_angles,
        optional(
            {
                "pos": st.one_of(
                    sizes(0, MAX_SEQ_LEN),
                    st.floats(0, MAX_SEQ_LEN),
                    st.sampled_from(
                        [-0.0, 5e-324, 0.5, fractions.Fraction(1, 3), np.float32(2.5), MAX_SEQ_LEN]
                    ),
                ),
                "d_model": widths(),
            },
            base=bases(),
        ),
        {"pos": JUNK, "d_model": size_junk(1, MAX_D_MODEL), "base": BASE_JUNK},
        check_clock_angles,
    ),
    "tokenize": Spec(
        pelab.tokenize,
        optional({"sentence": sentences()}, max_tokens=sizes(1, 40)),
        {
            "sentence": st.one_of(JUNK, st.sampled_from(["", "  ", "...", "-- !", "\u200b"])),
            "max_tokens": size_junk(1, MAX_SEQ_LEN),
        },
        check_tokenize,
    ),
    "embed": Spec(
        pelab.embed,
        optional(
            {"tokens": st.lists(st.text(max_size=8), min_size=1, max_size=6)}, d_model=sizes(1, 32)
        ),
        {"tokens": JUNK, "d_model": size_junk(1, MAX_D_MODEL)},
        check_embed,
    ),
    "projections": Spec(
        pelab.projections,
        optional(
            {},
            d_model=sizes(1, 24),
            d_k=st.one_of(st.none(), sizes(1, 24)),
            seed=st.one_of(st.integers(0, 2**64 - 1), st.just(np.uint64(2**64 - 1))),
        ),
        {
            "d_model": size_junk(1, MAX_WIDTH),
            "d_k": size_junk(1, MAX_WIDTH),
            "seed": st.one_of(size_junk(0, 2**64 - 1), st.just(-1)),
        },
        check_projections,
    ),
    "self_attention": Spec(
        pelab.self_attention,
        self_attention_args(),
        {"x": ARRAY_JUNK, "w_q": ARRAY_JUNK, "w_k": ARRAY_JUNK, "w_v": ARRAY_JUNK, "causal": JUNK},
        check_self_attention,
        # a wrong shape is reported as "shapes do not fit: ... x ..., w_q ..., w_k ..., w_v ..."
        related={name: {"x", "w_q", "w_k", "w_v"} for name in ("x", "w_q", "w_k", "w_v")},
    ),
    "permutation_matrix": Spec(
        pelab.permutation_matrix,
        st.integers(1, 12)
        .flatmap(
            lambda n: st.one_of(
                permutations_of(n),
                permutations_of(n).map(tuple),
                permutations_of(n).map(np.array),
                st.just(range(n)),
            )
        )
        .map(lambda order: {"order": order}),
        {"order": JUNK},
        check_permutation_matrix,
    ),
    "order_blindness": Spec(
        pelab.order_blindness,
        order_blindness_args(),
        {
            "sentence": JUNK,
            "order": JUNK,
            "with_pe": JUNK,
            "d_model": size_junk(1, MAX_WIDTH),
            "base": BASE_JUNK,
            "causal": JUNK,
        },
        check_order_blindness,
        related={"sentence": {"order"}},
    ),
    "to_rgba": Spec(
        pelab.to_rgba,
        optional(
            {
                "values": st.one_of(
                    hnp.arrays(
                        st.sampled_from([np.float64, np.float32, np.int64, np.bool_, np.uint8]),
                        hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=5),
                    ),
                    any_floats(),
                    st.lists(any_floats(), max_size=5),
                )
            },
            vmin=st.floats(-1e6, -1e-3),
            vmax=st.floats(1e-3, 1e6),
        ),
        {"values": ARRAY_JUNK, "vmin": JUNK, "vmax": JUNK},
        check_to_rgba,
    ),
    "concatenated": Spec(
        pelab.concatenated,
        optional({"seq_len": sizes(1, 48), "d_model": sizes(1, 48)}, base=bases()),
        {
            "seq_len": size_junk(1, MAX_SEQ_LEN),
            "d_model": size_junk(1, MAX_D_MODEL),
            "base": BASE_JUNK,
        },
        check_concatenated,
    ),
    "layout_permutation": Spec(
        pelab.layout_permutation,
        kwargs_of(d_model=sizes(1, 200)),
        {"d_model": size_junk(1, MAX_D_MODEL)},
        check_layout_permutation,
    ),
    "nearest_distances": Spec(
        pelab.nearest_distances,
        optional({"seq_len": sizes(1, 64), "d_model": sizes(1, 32)}, base=bases()),
        {
            "seq_len": size_junk(1, MAX_NEAREST_LEN),
            "d_model": size_junk(1, MAX_NEAREST_WIDTH),
            "base": BASE_JUNK,
        },
        check_nearest,
    ),
    "learned": Spec(
        pelab.learned,
        optional(
            {"max_len": sizes(1, 64), "d_model": sizes(1, 32)}, seed=st.integers(0, 2**64 - 1)
        ),
        {
            "max_len": size_junk(1, MAX_LEN),
            "d_model": size_junk(1, MAX_D_MODEL),
            "seed": size_junk(0, 2**64 - 1),
        },
        check_learned,
    ),
    "LearnedTable.lookup": Spec(
        lookup,
        kwargs_of(positions=lookup_positions()),
        {
            "positions": st.one_of(
                JUNK,
                st.lists(st.integers(-40, 40), min_size=1, max_size=4),
                st.sampled_from([[16], [-1], [10**400], [2**64], range(17)]),
            )
        },
        check_lookup,
        index_error=True,
    ),
    "png_bytes": Spec(
        pelab.png_bytes,
        png_args(),
        {"rgba": JUNK},
        check_png,
    ),
    "rotation": Spec(
        pelab.rotation,
        optional(
            {"k": sizes(0, MAX_OFFSET) | st.integers(-MAX_OFFSET, 0), "d_model": sizes(1, 16)},
            base=bases(),
        ),
        {
            "k": size_junk(-MAX_OFFSET, MAX_OFFSET),
            "d_model": size_junk(1, MAX_ROTATION_WIDTH),
            "base": BASE_JUNK,
        },
        check_rotation,
    ),
    "relative_residual": Spec(
        pelab.relative_residual,
        optional(
            {
                "k": st.integers(-MAX_OFFSET, MAX_OFFSET),
                "seq_len": sizes(1, 48),
                "d_model": sizes(1, 16),
            },
            base=bases(),
        ),
        {
            "k": size_junk(-MAX_OFFSET, MAX_OFFSET),
            "seq_len": size_junk(1, MAX_SEQ_LEN),
            "d_model": size_junk(1, MAX_ROTATION_WIDTH),
            "base": BASE_JUNK,
        },
        check_float,
    ),
    "map_independence": Spec(
        pelab.map_independence,
        optional(
            {
                "k": st.integers(-MAX_OFFSET, MAX_OFFSET),
                "seq_len": sizes(MIN_HALVES_LEN, 48),
                "d_model": sizes(1, 12),
            },
            base=bases(),
        ),
        {
            "k": size_junk(-MAX_OFFSET, MAX_OFFSET),
            "seq_len": size_junk(MIN_HALVES_LEN, MAX_SEQ_LEN),
            "d_model": size_junk(1, MAX_ROTATION_WIDTH),
            "base": BASE_JUNK,
        },
        check_float,
    ),
    "relative_shift": Spec(
        pelab.relative_shift,
        optional(
            {"k": st.integers(-MAX_OFFSET, MAX_OFFSET)},
            seq_len=sizes(MIN_HALVES_LEN, 40),
            d_model=sizes(1, 12),
            base=bases(),
        ),
        {
            "k": size_junk(-MAX_OFFSET, MAX_OFFSET),
            "seq_len": size_junk(MIN_HALVES_LEN, MAX_SEQ_LEN),
            "d_model": size_junk(1, MAX_ROTATION_WIDTH),
            "base": BASE_JUNK,
        },
        check_relative_shift,
    ),
    "fit_shift": Spec(
        pelab.fit_shift,
        fit_shift_args(),
        {"features_now": ARRAY_JUNK, "features_later": ARRAY_JUNK},
        check_fit_shift,
        related={"features_now": {"features_later"}, "features_later": {"features_now"}},
    ),
    "rope": Spec(
        pelab.rope,
        rope_args(),
        {"x": ARRAY_JUNK, "positions": ARRAY_JUNK, "base": BASE_JUNK},
        check_rope,
        related={"x": {"positions"}},
    ),
    "rope_rotate": Spec(
        pelab.rope_rotate,
        rope_rotate_args(),
        {"x": ARRAY_JUNK, "positions": ARRAY_JUNK, "base": BASE_JUNK, "pairing": PAIRING_JUNK},
        check_rope_rotate,
        related={"x": {"positions"}},  # x's shape says how many positions there must be
    ),
    "mrope_position_ids": Spec(
        pelab.mrope_position_ids,
        kwargs_of(segments=SEGMENTS),
        {"segments": SEGMENTS_JUNK},
        check_mrope_position_ids,
    ),
    "mrope_angles": Spec(
        pelab.mrope_angles,
        mrope_angles_args(),
        {
            "position_ids": ARRAY_JUNK,
            "head_dim": st.one_of(size_junk(2, MAX_D_MODEL), st.sampled_from(EVEN_JUNK)),
            "base": BASE_JUNK,
            "sections": st.one_of(JUNK, st.sampled_from([(16, 24, 20), (-1, 2, 3), (1.0, 2, 3),
                                                         [1] * 20, (0, 0, 0, 0)])),
        },
        check_mrope_angles,
        # sections must add up to head_dim / 2, and give position_ids its number of rows
        related={"head_dim": {"sections"}, "sections": {"head_dim", "position_ids"}},
    ),
    "apply_partial_rotary": Spec(
        pelab.apply_partial_rotary,
        partial_rotary_args(),
        {
            "x": ARRAY_JUNK,
            "positions": ARRAY_JUNK,
            "fraction": st.one_of(JUNK, st.sampled_from([0, 0.0, -0.5, 1.0000000000000002, 1.5,
                                                         math.nan, 0.1, 0.3, "0.5"])),
            "base": BASE_JUNK,
        },
        check_apply_partial_rotary,
        # x's shape says how many positions there must be, and how many dims a fraction rotates
        related={"x": {"positions", "fraction"}, "fraction": {"x"}},
    ),
    "pairing_permutation": Spec(
        pelab.pairing_permutation,
        kwargs_of(d=even_sizes(2, 400)),
        {"d": st.one_of(size_junk(2, MAX_D_MODEL), st.sampled_from(EVEN_JUNK))},
        check_pairing_permutation,
    ),
    "interpolated_positions": Spec(
        pelab.interpolated_positions,
        interpolated_positions_args(),
        {
            "positions": ARRAY_JUNK,
            "train_len": size_junk(1, MAX_SEQ_LEN),
            "target_len": size_junk(1, MAX_SEQ_LEN),
        },
        check_interpolated_positions,
        related={"train_len": {"target_len"}},  # target_len must be at least train_len
    ),
    "ntk_scaled_base": Spec(
        pelab.ntk_scaled_base,
        ntk_args(),
        {
            "base": BASE_JUNK,
            "scale": SCALE_JUNK,
            "d": st.one_of(size_junk(4, MAX_D_MODEL), st.sampled_from(EVEN_JUNK + [2])),
        },
        check_ntk_scaled_base,
    ),
    "yarn_frequencies": Spec(
        pelab.yarn_frequencies,
        yarn_args(),
        {
            "d": st.one_of(size_junk(2, MAX_D_MODEL), st.sampled_from(EVEN_JUNK)),
            "base": BASE_JUNK,
            "scale": SCALE_JUNK,
            "train_len": size_junk(1, MAX_SEQ_LEN),
            "alpha": SCALE_JUNK,
            "beta": SCALE_JUNK,
        },
        check_yarn_frequencies,
        related={"alpha": {"beta"}},  # beta must exceed alpha
    ),
    "yarn_attention_scale": Spec(
        pelab.yarn_attention_scale,
        kwargs_of(scale=scales()),
        {"scale": SCALE_JUNK},
        check_yarn_attention_scale,
    ),
    "llama3_frequencies": Spec(
        pelab.llama3_frequencies,
        llama3_args(),
        {
            "d": st.one_of(size_junk(2, MAX_D_MODEL), st.sampled_from(EVEN_JUNK)),
            "base": BASE_JUNK,
            "factor": SCALE_JUNK,
            "low_freq_factor": SCALE_JUNK,
            "high_freq_factor": SCALE_JUNK,
            "original_max_len": size_junk(1, MAX_SEQ_LEN),
        },
        check_llama3_frequencies,
        related={"low_freq_factor": {"high_freq_factor"}},  # high must exceed low
    ),
    "stretched_frequencies": Spec(
        pelab.stretched_frequencies,
        stretch_args(),
        {
            "method": JUNK,
            "d": st.one_of(size_junk(2, MAX_D_MODEL), st.sampled_from(EVEN_JUNK)),
            "base": BASE_JUNK,
            "train_len": size_junk(1, MAX_SEQ_LEN),
            "scale": SCALE_JUNK,
        },
        check_stretched_frequencies,
    ),
    "angle_coverage": Spec(
        pelab.angle_coverage,
        stretch_args(),
        {
            "method": JUNK,
            "d": st.one_of(size_junk(2, MAX_D_MODEL), st.sampled_from(EVEN_JUNK)),
            "base": BASE_JUNK,
            "train_len": size_junk(1, MAX_SEQ_LEN),
            "scale": SCALE_JUNK,
        },
        check_angle_coverage,
    ),
    "stretched_scores": Spec(
        pelab.stretched_scores,
        stretched_scores_args(),
        {
            "q": ARRAY_JUNK,
            "k": ARRAY_JUNK,
            "method": JUNK,
            "base": BASE_JUNK,
            "train_len": size_junk(1, MAX_SEQ_LEN),
            "scale": SCALE_JUNK,
            "samples": size_junk(2, 4096),
        },
        check_stretched_scores,
        # q and k must match, and their length is the d that "ntk" needs to be 4 or more
        related={"q": {"k", "d"}, "k": {"q", "d"}},
    ),
    "rope_decay_bound": Spec(
        pelab.rope_decay_bound,
        optional(
            {
                "offsets": st.lists(st.floats(0, MAX_SEQ_LEN), min_size=1, max_size=20),
                "d": even_sizes(2, 256),
            },
            base=bases(),
        ),
        {
            "offsets": ARRAY_JUNK,
            "d": st.one_of(size_junk(2, MAX_D_MODEL), st.sampled_from(EVEN_JUNK)),
            "base": BASE_JUNK,
        },
        check_rope_decay_bound,
    ),
    "rope_bound_looseness": Spec(
        pelab.rope_bound_looseness,
        optional({"d": even_sizes(2, 64)}, draws=st.integers(1, 20), base=bases()),
        {
            "d": st.one_of(size_junk(2, MAX_D_MODEL), st.sampled_from(EVEN_JUNK)),
            "draws": size_junk(1, 100000),
            "base": BASE_JUNK,
        },
        check_rope_bound_looseness,
    ),
    "rope_scores": Spec(
        pelab.rope_scores,
        rope_scores_args(),
        {
            "q": ARRAY_JUNK,
            "k": ARRAY_JUNK,
            "positions_q": ARRAY_JUNK,
            "positions_k": ARRAY_JUNK,
            "base": BASE_JUNK,
        },
        check_rope_scores,
        related={"q": {"k", "positions_q"}, "k": {"q", "positions_k"}},
    ),
    "rope_relative_residual": Spec(
        pelab.rope_relative_residual,
        rope_residual_args(),
        {
            "q": ARRAY_JUNK,
            "k": ARRAY_JUNK,
            "seq_len": size_junk(1, math.isqrt(MAX_ELEMENTS)),
            "base": BASE_JUNK,
        },
        check_float,
        related={"q": {"k"}, "k": {"q"}},
    ),
    "similarity": Spec(
        pelab.similarity,
        st.builds(lambda pe: {"pe": pe}, matrices(st.integers(1, 10), st.integers(1, 10))),
        {"pe": ARRAY_JUNK},
        check_similarity,
    ),
    "toeplitz_residual": Spec(
        pelab.toeplitz_residual,
        st.builds(lambda m: {"matrix": m}, matrices(st.integers(1, 10), st.integers(1, 10))),
        {"matrix": ARRAY_JUNK},
        check_float,
    ),
    "check_exercise": Spec(
        pelab.check_exercise,
        kwargs_of(
            name=st.sampled_from(list(EXERCISES)),
            namespace=st.dictionaries(
                st.sampled_from(["pe_table", "shift_matrix", "rotate", "rotate_ntk", "prediction",
                                 "outside_ntk", "outside_interpolation", "w", "np"]),
                st.one_of(JUNK, st.just(lambda *args, **kwargs: None),
                          st.just(lambda *args, **kwargs: 1 / 0)),
            ),
        ),
        {"name": JUNK, "namespace": JUNK.filter(lambda v: not isinstance(v, dict))},
        check_exercise_report,
    ),
    "show": Spec(
        show_quietly,
        optional(
            {
                "matrix": st.one_of(
                    hnp.arrays(
                        st.sampled_from([np.int64, np.bool_, np.float32, np.uint8]),
                        hnp.array_shapes(min_dims=1, max_dims=2, min_side=1, max_side=6),
                    ),
                    hnp.arrays(
                        np.float64,
                        hnp.array_shapes(min_dims=1, max_dims=2, min_side=1, max_side=6),
                        elements=SHOWABLE_FLOATS,
                    ),
                    st.lists(SHOWABLE_FLOATS, min_size=1, max_size=5),
                )
            },
            title=st.one_of(st.none(), st.text(max_size=20), st.sampled_from(MARKUP), any_ints()),
            vmin=st.floats(-1e6, -1e-3),
            vmax=st.floats(1e-3, 1e6),
        ),
        {"matrix": ARRAY_JUNK, "title": JUNK, "vmin": JUNK, "vmax": JUNK},
        check_show,
    ),
    "legend_stops": Spec(
        legend_stops,
        kwargs_of(n=sizes(2, 256)),
        {"n": size_junk(2, 256)},
        check_legend_stops,
    ),
    "check_size": Spec(
        check_size,
        check_size_args(),
        {"value": size_junk(-5, 10**6)},
        check_check_size,
        related={"value": {"width"}},  # the message uses the given name
    ),
    "check_base": Spec(
        check_base,
        kwargs_of(value=bases()),
        {"value": BASE_JUNK},
        check_check_base,
        related={"value": {"base"}},
    ),
    "check_table": Spec(
        check_table,
        kwargs_of(seq_len=sizes(1, MAX_SEQ_LEN), d_model=sizes(1, 400), base=bases()),
        {
            "seq_len": size_junk(1, MAX_SEQ_LEN),
            "d_model": size_junk(1, MAX_D_MODEL),
            "base": BASE_JUNK,
        },
        check_check_table,
    ),
    "check_matrix": Spec(
        check_matrix,
        st.builds(
            lambda v: {"name": "grid", "value": v}, matrices(st.integers(1, 6), st.integers(1, 6))
        ),
        {"value": ARRAY_JUNK},
        check_check_matrix,
        related={"value": {"grid"}},
    ),
    "tiny_config": Spec(
        pelab.tiny_config,
        optional(
            {},
            scheme=st.sampled_from(["none", "learned", "sinusoidal", "rope", "alibi"]),
            causal=st.booleans(),
            vocab_size=sizes(2, 64),
            n_layers=sizes(1, 2),
            max_len=sizes(1, MAX_LEN),
        ),
        {
            "scheme": JUNK,
            "causal": JUNK,
            "vocab_size": size_junk(2, 64),
            "d_model": size_junk(2, 128),
            "n_heads": size_junk(1, 8),
            "n_layers": size_junk(1, 2),
            "max_len": size_junk(1, MAX_LEN),
        },
        check_tiny_config,
        related={"d_model": {"n_heads"}, "n_heads": {"d_model"}},
    ),
    "band_contrast": Spec(
        pelab.band_contrast,
        st.builds(lambda m: {"table": m}, matrices(st.integers(3, 10), st.integers(1, 6))),
        {"table": ARRAY_JUNK},
        check_band_contrast,
    ),
    "principal_components": Spec(
        pelab.principal_components,
        principal_components_args(),
        {"table": ARRAY_JUNK, "count": size_junk(1, 6)},
        check_principal_components,
        related={"table": {"count"}},
    ),
    "closest_sinusoid": Spec(
        pelab.closest_sinusoid,
        st.builds(
            lambda v: {"values": v},
            hnp.arrays(np.float64, st.integers(4, 24), elements=tame_floats()),
        ),
        {"values": ARRAY_JUNK},
        check_closest_sinusoid,
    ),
}


def test_every_public_function_is_fuzzed():
    public = {name for name in pelab.__all__ if callable(getattr(pelab, name))}
    classes = {"FourTerms", "LearnedTable", "LengthExperiment", "Notebook", "OrderBlindness",
               "RelativeShift", "ScoreTerms", "Trainer"}
    assert public - classes <= set(SPECS), sorted(public - classes - set(SPECS))


@pytest.mark.parametrize("name", sorted(SPECS))
@FUZZ
@given(data=st.data())
def test_public_function_checks_its_arguments(name, data):
    spec = SPECS[name]
    kwargs, bad = draw_case(data, spec)
    judge(spec, kwargs, bad)


EXTREME_FLOATS = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([1.7976931348623157e308, -1.7976931348623157e308, 1e300, 1e200, 1.3e154,
                     5e-324, -5e-324, 1e-300, 0.0, -0.0, 1.0]),
)

# Every function taking a matrix, called on a k x k matrix (k even, for RoPE's pairs).
EXTREME_CALLS = {
    "similarity": lambda a: pelab.similarity(a),
    "toeplitz_residual": lambda a: pelab.toeplitz_residual(a),
    "fit_shift": lambda a: pelab.fit_shift(a, a[::-1]),
    "self_attention": lambda a: pelab.self_attention(a, a, a.T, a),
    "rope": lambda a: pelab.rope(a, np.arange(len(a)) * 7.0),
    "rope_rotate": lambda a: pelab.rope_rotate(
        a[np.newaxis], np.arange(len(a)) * 7.0, pairing="half"
    ),
    "rope_scores": lambda a: pelab.rope_scores(a, a, [0] * len(a), range(len(a))),
    "apply_partial_rotary": lambda a: pelab.apply_partial_rotary(
        a, np.arange(len(a)) * 7.0, 0.5 if len(a) == 4 else 1.0
    ),
    # rope_relative_residual left out: scores beyond the float range are refused, naming q and
    # k (test_rope_relative_residual_overflow_names_q_and_k)
    "add_positions": lambda a: pelab.add_positions(a),
    "to_rgba": lambda a: pelab.to_rgba(a, -1e307, 1e307),
    "show": lambda a: show_quietly(matrix=a, vmin=-1.0, vmax=1.0),
    "check_matrix": lambda a: check_matrix("grid", a),
}


@pytest.mark.parametrize("name", sorted(EXTREME_CALLS))
@FUZZ
@given(matrix=st.sampled_from([2, 4]).flatmap(
    lambda k: hnp.arrays(np.float64, (k, k), elements=EXTREME_FLOATS)))
def test_extreme_finite_entries(name, matrix):
    """Finite entries up to the largest double are valid: products may overflow to inf (IEEE
    arithmetic, so overflow and invalid-value RuntimeWarnings are allowed here), but the call
    must not raise at all: no ValueError, LinAlgError, OverflowError, nor any other warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for kind in ("overflow", "invalid value"):
            warnings.filterwarnings("ignore", f"{kind} encountered", RuntimeWarning)
        try:
            EXTREME_CALLS[name](matrix)
        except ValueError as error:
            pytest.fail(f"finite entries refused: {error}")


# ---------------------------------------------------------------------------
# entry_points.call: a name that is no entry point
# ---------------------------------------------------------------------------


@FUZZ_LIGHT
@given(name=st.one_of(JUNK, st.sampled_from(["Heatmap", "call", "_flat", "ENTRY_POINTS",
                                              "__class__", "legend "])),
       kwargs=st.one_of(st.none(), st.just({})))
def test_call_refuses_unknown_entry_points(name, kwargs):
    try:
        hashable = name in entry_points.ENTRY_POINTS
    except TypeError:
        hashable = None
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        if hashable is None:  # a list, dict, ndarray...: not a name at all
            with pytest.raises(TypeError):
                entry_points.call(name, kwargs)
        elif hashable:
            try:
                entry_points.call(name, kwargs)
            except TypeError:
                pass  # an entry point with required arguments, called without them
        else:
            with pytest.raises(ValueError, match="unknown entry point"):
                entry_points.call(name, kwargs)


# ---------------------------------------------------------------------------
# Notebook.run: arbitrary text never raises
# ---------------------------------------------------------------------------

# Text that could loop, sleep, wait for input, allocate without bound or leave the notebook.
UNSAFE = ("while", "import", "**", "<<", "sleep", "input", "breakpoint", "range", "exit",
          "quit", "*", "os.", "sys.", "__", "exec", "eval", "open", "for", "lambda")

CELL_TOKENS = [
    "x", "y", " = ", "1", "0", "2.5", "-", "+", "/", "%", " ", "\n", "\t", ";", ",", ":", "(",
    ")", "[", "]", "{", "}", "'", '"', "\\", "#", "@", ".", "np", "pelab", "print", "await ",
    "async ", "def f():\n    ", "return ", "yield ", "if ", "else", "raise ", "SystemExit",
    "KeyboardInterrupt", "StopIteration", "GeneratorExit", "ValueError", "None", "True", "del ",
    "global ", "nonlocal ", "pass", "assert ", "pelab.show(", "pelab.sinusoidal(", "np.ones(",
    "😀", "'<img src=x onerror=alert(1)>'", "\"<script>alert(1)</script>\"", "é", "\u200b",
    "\r", "\r\n", "\x00", "\x0c", "f'{", "}'", "b'\\xff'", "...", "not ", "is ", "and ",
]


def safe_cell(text):
    return not any(word in text for word in UNSAFE)


cell_texts = st.one_of(
    st.text(max_size=200),
    st.lists(st.sampled_from(CELL_TOKENS), max_size=40).map("".join),
).filter(lambda text: len(text) <= 200 and safe_cell(text))


@contextlib.contextmanager
def restored_mplbackend():
    """Notebook() sets MPLBACKEND; put the environment back afterwards."""
    saved = os.environ.get("MPLBACKEND")
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop("MPLBACKEND", None)
        else:
            os.environ["MPLBACKEND"] = saved


def run_cell(notebook, code, cell="1"):
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, notebook.run(code, cell)).result(timeout=60)


@FUZZ
@given(code=cell_texts, cell=st.one_of(st.just("1"), st.text(max_size=8)))
def test_notebook_run_never_raises(code, cell):
    shown = []
    printed = io.StringIO()
    with restored_mplbackend(), contextlib.redirect_stdout(printed), \
            contextlib.redirect_stderr(printed), warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)  # compiling the learner's odd text
        notebook = pelab.Notebook(display=lambda kind, payload: shown.append(kind))
        result = run_cell(notebook, code, cell)
        after = run_cell(notebook, "1 + 1")
    assert isinstance(result, dict) and type(result["ok"]) is bool
    if result["ok"]:
        assert set(result) == {"ok", "repr"}
        assert result["repr"] is None or isinstance(result["repr"], str)
    else:
        assert set(result) == {"ok", "error"}
        assert set(result["error"]) == {"type", "message", "traceback"}
        assert all(isinstance(v, str) for v in result["error"].values())
    assert set(shown) <= {"heatmap", "figure"}
    # The notebook stays usable after whatever the cell did.
    assert after == {"ok": True, "repr": "2"}


# ---------------------------------------------------------------------------
# Regression tests for the bugs the fuzzing found: each case is what the contract asks.
# ---------------------------------------------------------------------------


def expect_named_value_error(function, parameter, *args, **kwargs):
    """The contract: a ValueError naming ``parameter``, and no warning on the way."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError) as caught:
            function(*args, **kwargs)
    assert names_any(str(caught.value), {parameter}), str(caught.value)


HUGE = 10**400  # an int beyond the float range

OVERFLOW_CASES = {
    "similarity": (pelab.similarity, "pe", ([[HUGE]],), {}),
    "toeplitz_residual": (pelab.toeplitz_residual, "matrix", ([[HUGE]],), {}),
    "fit_shift": (pelab.fit_shift, "features_now", ([[HUGE]], [[1.0]]), {}),
    "self_attention": (pelab.self_attention, "x", ([[HUGE]], [[1.0]], [[1.0]], [[1.0]]), {}),
    "rope x": (pelab.rope, "x", ([[HUGE, 0]], [0]), {}),
    "rope positions": (pelab.rope, "positions", ([[1.0, 0.0]], [HUGE]), {}),
    "rope_relative_residual": (pelab.rope_relative_residual, "q", ([HUGE, 0], [1.0, 0.0], 4), {}),
    "pair_waves": (pelab.pair_waves, "positions", ([HUGE], 4), {}),
    "add_positions": (pelab.add_positions, "x", ([[HUGE]],), {}),
    "to_rgba values": (pelab.to_rgba, "values", (HUGE,), {}),
    "to_rgba vmin": (pelab.to_rgba, "vmin", (0.0,), {"vmin": -HUGE}),
    "show matrix": (show_quietly, "matrix", (), {"matrix": [[HUGE]]}),
    "show vmax": (show_quietly, "vmax", (), {"matrix": [[0.0]], "vmax": HUGE}),
}


@pytest.mark.parametrize("case", sorted(OVERFLOW_CASES))
def test_int_beyond_float_range_is_a_named_value_error(case):
    """np.asarray(..., float64) and float() raise OverflowError for such an int: pelab's
    conversions (as_real_array, real_number) turn it into a refusal by name."""
    function, parameter, args, kwargs = OVERFLOW_CASES[case]
    expect_named_value_error(function, parameter, *args, **kwargs)


UNNAMED_CASES = {
    "to_rgba str": (pelab.to_rgba, "values", ("abc",)),
    "to_rgba ragged": (pelab.to_rgba, "values", ([[1.0], [1.0, 2.0]],)),
    "to_rgba str array": (pelab.to_rgba, "values", (np.array(["a"]),)),
    "add_positions str": (pelab.add_positions, "x", ("abc",)),
    "add_positions ragged": (pelab.add_positions, "x", ([[1.0], [1.0, 2.0]],)),
    "png_bytes ragged": (pelab.png_bytes, "rgba", ([[1], [1, 2]],)),
}


@pytest.mark.parametrize("case", sorted(UNNAMED_CASES))
def test_words_and_ragged_lists_are_refused_by_name(case):
    """Not numpy's own ValueError ('could not convert string to float', 'inhomogeneous
    shape'), which does not say which argument it is about."""
    function, parameter, args = UNNAMED_CASES[case]
    expect_named_value_error(function, parameter, *args)


COMPLEX_CASES = {
    "to_rgba": (pelab.to_rgba, "values", (np.array([1 + 2j]),)),
    "add_positions": (pelab.add_positions, "x", (np.array([[1 + 2j]]),)),
    "similarity": (pelab.similarity, "pe", (np.array([[1 + 2j]]),)),
    "rope": (pelab.rope, "x", (np.array([[1 + 1j, 0]]), [0])),
    "pair_waves": (pelab.pair_waves, "positions", (np.array([1 + 1j]), 2)),
    "to_rgba vmax": (pelab.to_rgba, "vmax", (0.0, -1.0, np.complex128(1 + 2j))),
}


@pytest.mark.parametrize("parameter", ["vmin", "vmax"])
@pytest.mark.parametrize("shape", [(1, 1), (1,), ()])
def test_to_rgba_limits_must_be_numbers_not_arrays(parameter, shape):
    """float() of a one-element array works, with numpy's DeprecationWarning (an error in a
    future numpy): vmin and vmax are numbers, and an array is refused by name."""
    limit = np.full(shape, -1.0 if parameter == "vmin" else 1.0)
    expect_named_value_error(pelab.to_rgba, parameter, 0.0, **{parameter: limit})


def test_to_rgba_limits_may_be_numpy_scalars():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rgba = pelab.to_rgba([-1.0, 1.0], np.float32(-1.0), np.int64(1))
    assert rgba.tolist() == pelab.to_rgba([-1.0, 1.0]).tolist()


@pytest.mark.parametrize("case", sorted(COMPLEX_CASES))
def test_complex_numbers_are_refused_by_name(case):
    """A cast to float64 would drop the imaginary parts with only a ComplexWarning."""
    function, parameter, args = COMPLEX_CASES[case]
    expect_named_value_error(function, parameter, *args)


@pytest.mark.parametrize("call", ["wavelengths", "waves"])
def test_wavelengths_stay_finite_for_every_valid_base(call):
    """2 pi / omega overflows for a base above MAX_FLOAT / (2 pi) and a wide d_model: such a
    wavelength is given as the largest float, and no RuntimeWarning is raised."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        if call == "wavelengths":
            result = pelab.wavelengths(MAX_D_MODEL, 1e308)
        else:
            result = entry_points.call(
                "waves",
                {"d_model": MAX_D_MODEL, "base": 1e308, "pairs": [0], "max_pos": 1, "pos": 0.0},
            )["wavelengths"]
    assert np.isfinite(result).all()
    assert result[-1] == np.finfo(np.float64).max and (np.diff(result) >= 0).all()


def run_limited(code, memory_bytes=2**29, timeout=120):
    """Run ``code`` (which prints one line) in a fresh Python with its address space capped,
    so that an unbounded allocation fails at once instead of exhausting the machine."""
    script = textwrap.dedent(
        f"""
        import resource
        resource.setrlimit(resource.RLIMIT_AS, ({memory_bytes}, {memory_bytes}))
        import numpy as np, pelab
        try:
            {textwrap.indent(textwrap.dedent(code), '    ').strip()}
        except BaseException as error:
            print(type(error).__name__, str(error)[:200])
        else:
            print("OK")
        """
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT / "py"), OPENBLAS_NUM_THREADS="1",
               OMP_NUM_THREADS="1")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=timeout, env=env, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip()


LAZY_HUGE_CASES = {
    "permutation_matrix": ("pelab.permutation_matrix(range(10**9))", "ValueError order"),
    "order_blindness": ("pelab.order_blindness('dog bites man', range(10**9))", "ValueError order"),
    "LearnedTable.lookup": ("pelab.learned(4, 2).lookup(range(10**9))", "IndexError position 4 "),
    "pair_waves pairs": ("pelab.pair_waves([0.0], 4, pairs=range(10**9))", "ValueError pairs"),
    # len() of these raises OverflowError (beyond sys.maxsize)
    "permutation_matrix 10**20": ("pelab.permutation_matrix(range(10**20))", "ValueError order"),
    "LearnedTable.lookup 10**20": ("pelab.learned(4, 2).lookup(range(10**20))",
                                   "IndexError position 4 "),
    "pair_waves pairs 10**20": ("pelab.pair_waves([0.0], 4, pairs=range(10**20))",
                                "ValueError pairs"),
    # a one-shot iterator, read at most one item past the limit
    "order_blindness iterator": ("pelab.order_blindness('dog bites man', iter(range(10**9)))",
                                 "ValueError order"),
    "pair_waves pairs iterator": ("pelab.pair_waves([0.0], 4, pairs=iter(range(10**9)))",
                                  "ValueError pairs"),
}


@pytest.mark.skipif(sys.platform != "linux", reason="uses RLIMIT_AS")
@pytest.mark.parametrize("case", sorted(LAZY_HUGE_CASES))
def test_huge_range_is_refused_without_being_listed(case):
    """The length of a sized argument is checked before it is read, and at most one item past
    the limit is read from an iterator: no list(range(10**9)), no MemoryError."""
    code, expected = LAZY_HUGE_CASES[case]
    outcome = run_limited(f"pelab_result = {code}")
    assert outcome.startswith(expected), outcome


@pytest.mark.skipif(sys.platform != "linux", reason="uses RLIMIT_AS")
def test_rope_relative_residual_bounds_seq_len_times_d():
    """seq_len (up to 7071) and d (up to 100000) are each bounded, and so is their product:
    the largest of each together would need ~20 GB."""
    outcome = run_limited(
        "pelab_result = pelab.rope_relative_residual(np.ones(100_000), np.ones(100_000), 7071)"
    )
    assert outcome.startswith(f"ValueError seq_len * len(q) must be at most {MAX_ELEMENTS}"), (
        outcome)


def test_heatmap_sizes_are_plain_ints():
    """width and height used to echo d_model and seq_len as given: a numpy integer came back
    as numpy.int64, which is not one of the plain types the worker converts."""
    result = entry_points.call("heatmap", {"seq_len": np.int64(2), "d_model": np.int64(3)})
    assert (type(result["width"]), type(result["height"])) == (int, int)


@pytest.mark.parametrize("matrix", [[[1e308]], [[-1e308, 0.0]], [9e307],
                                    [[-1.7976931348623157e308, 1.7976931348623157e308]]])
def test_show_default_limits_work_for_any_finite_values(matrix, monkeypatch):
    """The default limits were -m and +m for the largest finite |value| m: for m above half the
    largest float, vmax - vmin overflowed and to_rgba refused 'vmin and vmax', which the caller
    never gave. m is now capped there, and the extreme values get the end colours."""
    shown = []
    monkeypatch.setattr(display, "print_summary",
                        lambda kind, payload: shown.append(payload))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert pelab.show(matrix) is None
    (payload,) = shown
    limit = np.finfo(np.float64).max / 2
    assert (payload["vmin"], payload["vmax"]) == (-limit, limit)
    values = payload["values"]
    ends = pelab.to_rgba(np.sign(values)).reshape(-1, 4)
    rgba = payload["rgba"].reshape(-1, 4)
    np.testing.assert_array_equal(rgba[values != 0], ends[values != 0])


@pytest.mark.parametrize("size", [1e154, 1e200, 1.7e308])
def test_rope_relative_residual_overflow_names_q_and_k(size):
    """Finite q and k whose scores overflow used to reach toeplitz_residual's check, whose
    ValueError named its own parameter 'matrix'; now they are refused as q and k, with no
    overflow warning on the way."""
    q = k = np.full(2, size)  # finite, as documented; q . k overflows
    expect_named_value_error(pelab.rope_relative_residual, "q", q, k, 5)
    expect_named_value_error(pelab.rope_relative_residual, "k", q, k, 5)


def test_waves_reads_a_pairs_iterator_once():
    """The waves entry point passed pairs to pair_waves (which read it) and then read it again for
    the 'pairs' list: a one-shot iterator gave pairs=[] beside two rows of sin and cos."""
    result = entry_points.call("waves", {"d_model": 8, "base": 10000.0, "pairs": iter([0, 2]),
                                    "max_pos": 1, "pos": 0.0})
    m = len(result["x"])
    assert len(result["sin"]) == len(result["pairs"]) * m, (result["pairs"], len(result["sin"]))
