"""Tests for pelab.adapter: what each browser entry point hands the worker.

The worker (app/python/worker/results.js) turns a result dict into plain JavaScript: ints, floats, strs
and bools as they are, lists of str or int as arrays, and flat C-contiguous numpy arrays
(uint8 or float64 only) as typed arrays. Anything else would break it or arrive wrong.
"""

import math

import numpy as np
import pytest

import pelab
from pelab import adapter
from pelab.adapter import (
    ENTRY_POINTS,
    MAX_COMPARE_WORK,
    MAX_SAMPLES,
    MAX_WORK,
    SAMPLES_PER_POSITION,
    call,
)
from pelab.attention import MAX_TOKENS
from pelab.positional_encoding import MAX_SEQ_LEN
from pelab.rope import rope_independent_abs_score, rope_mean_score


# Keys that may be None (the worker sends undefined).
NULLABLE = {"learned_error", "new_base", "accuracy", "structured_at", "current"}


def assert_plain(result, arrays):
    """`result` holds only what the worker converts: flat C-contiguous arrays, lists of str or
    int, ints, floats, strs and bools (None only where documented). `arrays` maps each array key
    to its dtype, or to (dtype, length)."""
    assert isinstance(result, dict)
    assert all(isinstance(key, str) for key in result)
    for key, value in result.items():
        if key in arrays:
            dtype, length = arrays[key] if isinstance(arrays[key], tuple) else (arrays[key], None)
            assert isinstance(value, np.ndarray), key
            assert value.dtype == dtype, (key, value.dtype)
            assert value.ndim == 1, (key, value.shape)
            assert value.flags.c_contiguous, key
            assert length is None or value.shape == (length,), (key, value.shape, length)
        elif isinstance(value, list):
            assert all(type(item) in (str, int) for item in value), key
        elif value is None:
            assert key in NULLABLE, key
        else:
            assert type(value) in (int, float, str, bool), (key, type(value))
    assert {key for key, value in result.items() if isinstance(value, np.ndarray)} == set(arrays)


def test_entry_point_table():
    assert set(ENTRY_POINTS) == {
        "heatmap", "attention", "formula", "waves", "added",
        "relative", "similarity", "learned", "terms", "alibi", "extrapolation", "rope", "stretching",
        "training_reset", "training_step", "length_generalisation_reset",
        "length_generalisation_step", "stretch_experiment_reset", "stretch_experiment_step",
    }
    for name, function in ENTRY_POINTS.items():
        assert getattr(adapter, name) is function


@pytest.mark.parametrize("name", ["nope", "", "call", "_flat", "ENTRY_POINTS", "Heatmap"])
def test_unknown_entry_point_is_rejected(name):
    with pytest.raises(ValueError, match=r"^unknown entry point .*; known: added, alibi, attention, extrapolation, formula, heatmap, learned, "
                       r"length_generalisation_reset, length_generalisation_step, relative, rope, similarity, "
                       r"stretch_experiment_reset, stretch_experiment_step, stretching, terms, "
                       r"training_reset, training_step, waves$"):
        call(name, {})


@pytest.mark.parametrize("name", sorted(ENTRY_POINTS))
def test_unexpected_keyword_is_rejected(name):
    with pytest.raises(TypeError):
        call(name, {"no_such_argument": 1})


# --- heatmap and legend -------------------------------------------------------------


def test_heatmap():
    result = call("heatmap", {"seq_len": 5, "d_model": 6, "base": 100.0})
    assert set(result) == {"width", "height", "rgba", "values"}
    assert_plain(result, {"rgba": np.uint8, "values": np.float64})
    assert (result["width"], result["height"]) == (6, 5)
    assert result["rgba"].shape == (5 * 6 * 4,)
    assert result["values"].shape == (5 * 6,)
    np.testing.assert_array_equal(result["values"], pelab.sinusoidal_by_rotation(5, 6, 100.0, clip=False).reshape(-1))
    np.testing.assert_allclose(result["values"], pelab.sinusoidal(5, 6, 100.0).reshape(-1), rtol=0, atol=1e-15)
    np.testing.assert_array_equal(result["rgba"], pelab.to_rgba(pelab.sinusoidal(5, 6, 100.0)).reshape(-1))


@pytest.mark.parametrize("base", [10000.0, 3.16, 251.0, 63100.0, 100000.0])
def test_heatmap_at_512_draws_the_colours_of_sinusoidal(base):
    """The demo's largest table is built by rotation, and draws exactly `sinusoidal`'s colours."""
    result = call("heatmap", {"seq_len": 512, "d_model": 512, "base": base})
    expected = pelab.sinusoidal(512, 512, base)
    assert np.max(np.abs(result["values"] - expected.reshape(-1))) <= 2**-52 * (512 + 4)
    np.testing.assert_array_equal(result["rgba"], pelab.to_rgba(expected).reshape(-1))


def test_heatmap_default_base_and_errors():
    assert call("heatmap", {"seq_len": 2, "d_model": 2})["values"].tolist() == pelab.sinusoidal(2, 2).reshape(-1).tolist()
    with pytest.raises(ValueError, match=r"^seq_len must be an integer"):
        call("heatmap", {"seq_len": 0, "d_model": 4})
    with pytest.raises(ValueError, match=r"^base must be a finite real number"):
        call("heatmap", {"seq_len": 2, "d_model": 4, "base": 1})
    with pytest.raises(TypeError):
        call("heatmap", {"seq_len": 2})


def test_no_keyword_arguments_is_none_or_empty():
    # The page draws the colour map from app/figures/colormap.js, not through the worker.
    for kwargs in (None, {}):
        with pytest.raises(TypeError, match="seq_len"):
            call("heatmap", kwargs)


# --- attention ----------------------------------------------------------------------

ATTENTION_KEYS = {
    "tokens", "shuffled", "order", "d_model", "outputs", "shuffled_outputs",
    "token_match", "pooled_diff", "truncated", "max_tokens", "with_pe", "causal",
}


def test_attention_without_positions():
    result = call("attention", {"sentence": "dog bites man", "order": [2, 1, 0]})
    assert set(result) == ATTENTION_KEYS
    assert_plain(result, {"outputs": np.float64, "shuffled_outputs": np.float64})
    assert result["tokens"] == ["dog", "bites", "man"]
    assert result["shuffled"] == ["man", "bites", "dog"]
    assert result["order"] == [2, 1, 0]
    assert result["d_model"] == 8 and result["max_tokens"] == MAX_TOKENS == 24
    assert result["outputs"].shape == result["shuffled_outputs"].shape == (3 * 8,)
    assert result["token_match"] < 1e-12 and result["pooled_diff"] < 1e-12
    assert result["truncated"] is False
    # Row-major: row k of the outputs is token k's output.
    demo = pelab.order_blindness("dog bites man", [2, 1, 0])
    np.testing.assert_array_equal(result["outputs"].reshape(3, 8), demo.outputs)
    np.testing.assert_array_equal(result["shuffled_outputs"].reshape(3, 8), demo.shuffled_outputs)


def test_attention_with_positions():
    result = call("attention", {"sentence": "dog bites man", "order": [2, 1, 0], "with_pe": True})
    assert_plain(result, {"outputs": np.float64, "shuffled_outputs": np.float64})
    assert result["pooled_diff"] > 1e-3 and result["token_match"] > 1e-3


def test_attention_default_order_reads_the_sentence_backwards():
    for kwargs in ({"sentence": "dog bites man"}, {"sentence": "dog bites man", "order": None}):
        result = call("attention", kwargs)
        assert result["order"] == [2, 1, 0]
        assert result["tokens"] == ["dog", "bites", "man"] and result["shuffled"] == ["man", "bites", "dog"]
        assert result["token_match"] < 1e-12 and result["pooled_diff"] < 1e-12
    assert call("attention", {"sentence": "hello"})["order"] == [0]


def test_attention_keeps_markup_as_text_and_truncates():
    result = call("attention", {"sentence": "<img src=x onerror=alert(1)>"})
    assert result["tokens"] == ["<img", "src=x", "onerror=alert(1)>"]
    result = call("attention", {"sentence": "🐶 " * 5000})
    assert result["truncated"] is True and result["tokens"] == ["🐶"] * 24
    assert result["outputs"].shape == (24 * 8,)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"sentence": ""}, r"^sentence must contain at least one word$"),
        ({"sentence": None}, r"^sentence must be a str"),
        ({"sentence": "dog bites man", "order": [0, 1]}, r"^order must be a permutation of range\(3\)"),
        ({"sentence": "dog bites man", "order": [0, 1, 1.5]}, r"^order must be a permutation of range\(3\)"),
        ({"sentence": "dog bites man", "order": 0}, r"^order must be a permutation of range\(3\)"),
        ({"sentence": "dog", "with_pe": "true"}, r"^with_pe must be True or False"),
    ],
)
def test_attention_bad_arguments_are_rejected(kwargs, message):
    with pytest.raises(ValueError, match=message):
        call("attention", kwargs)


# --- formula ------------------------------------------------------------------------


def test_formula():
    result = call("formula", {"pos": 1, "d_model": 4})
    assert set(result) == {"j", "i", "exponent", "angle", "value", "is_sine"}
    floats = {key: np.float64 for key in ("j", "i", "exponent", "angle", "value")}
    assert_plain(result, {**floats, "is_sine": np.uint8})
    assert all(array.shape == (4,) for array in result.values())
    assert result["is_sine"].tolist() == [1, 0, 1, 0]
    assert result["exponent"].tolist() == [0.0, 0.0, 0.5, 0.5]
    np.testing.assert_allclose(result["value"], [0.8415, 0.5403, 0.0100, 0.9999], rtol=0, atol=1e-4)
    result = call("formula", {"pos": 2, "d_model": 4, "base": 10000.0})
    np.testing.assert_allclose(result["value"], [0.9093, -0.4161, 0.0200, 0.9998], rtol=0, atol=1e-4)


def test_formula_odd_width_and_errors():
    result = call("formula", {"pos": 9, "d_model": 5, "base": 100})
    assert result["is_sine"].tolist() == [1, 0, 1, 0, 1]
    np.testing.assert_allclose(result["value"], pelab.sinusoidal(10, 5, 100)[9], rtol=0, atol=1e-15)
    with pytest.raises(ValueError, match=r"^pos must be an integer from 0 to"):
        call("formula", {"pos": -1, "d_model": 4})
    with pytest.raises(ValueError, match=r"^pos must be an integer from 0 to"):
        call("formula", {"pos": 1.5, "d_model": 4})
    with pytest.raises(ValueError, match=r"^d_model must be an integer"):
        call("formula", {"pos": 1, "d_model": 0})
    with pytest.raises(ValueError, match=r"^base must be a finite real number"):
        call("formula", {"pos": 1, "d_model": 4, "base": "10000"})


# --- waves --------------------------------------------------------------------------

WAVES_KEYS = {"x", "sin", "cos", "pairs", "wavelengths", "angles"}
WAVES_ARRAYS = {key: np.float64 for key in ("x", "sin", "cos", "wavelengths", "angles")}


def test_waves():
    result = call("waves", {"d_model": 8, "base": 10000.0, "pairs": [0, 3], "max_pos": 50, "pos": 2.5})
    assert set(result) == WAVES_KEYS
    assert_plain(result, WAVES_ARRAYS)
    samples = SAMPLES_PER_POSITION * 50 + 1
    assert result["x"].shape == (samples,)
    assert result["x"][0] == 0.0 and result["x"][-1] == 50.0
    np.testing.assert_allclose(np.diff(result["x"]), 1 / SAMPLES_PER_POSITION, rtol=1e-12)
    assert result["sin"].shape == result["cos"].shape == (2 * samples,)
    assert result["pairs"] == [0, 3]
    omega = pelab.angular_frequencies(8)
    sin, cos = result["sin"].reshape(2, samples), result["cos"].reshape(2, samples)
    np.testing.assert_allclose(sin[1], np.sin(result["x"] * omega[3]), rtol=0, atol=1e-15)
    np.testing.assert_allclose(cos[0], np.cos(result["x"]), rtol=0, atol=1e-15)
    np.testing.assert_array_equal(result["wavelengths"], pelab.wavelengths(8))
    assert result["wavelengths"].shape == result["angles"].shape == (4,)
    assert np.all(np.diff(result["wavelengths"]) > 0)
    np.testing.assert_allclose(result["angles"], np.mod(2.5 * omega, 2 * math.pi), rtol=1e-15)


def test_waves_at_most_max_samples():
    result = call("waves", {"d_model": 7, "base": 100, "pairs": [3], "max_pos": 10_000, "pos": 0})
    assert result["x"].shape == (MAX_SAMPLES,) == (4097,)
    assert result["x"][-1] == 10_000.0
    assert result["sin"].shape == (MAX_SAMPLES,)
    assert result["wavelengths"].shape == result["angles"].shape == (4,)  # ceil(7 / 2)
    assert result["angles"].tolist() == [0.0] * 4


def test_waves_no_pairs_or_all_pairs():
    result = call("waves", {"d_model": 6, "base": 10000.0, "pairs": [], "max_pos": 3, "pos": 1})
    assert_plain(result, WAVES_ARRAYS)
    assert result["pairs"] == [] and result["sin"].shape == result["cos"].shape == (0,)
    result = call("waves", {"d_model": 6, "base": 10000.0, "pairs": None, "max_pos": 3, "pos": 1})
    assert result["pairs"] == [0, 1, 2] and result["sin"].shape == (3 * 25,)


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"pairs": [4]}, r"^pairs must be a list of distinct integers from 0 to 3, got "),
        ({"pairs": [-1]}, r"^pairs must be a list of distinct integers from 0 to 3, got "),
        ({"pairs": [1, 1]}, r"^pairs must be a list of distinct integers from 0 to 3, got "),
        ({"pairs": [0.5]}, r"^pairs must be a list of distinct integers from 0 to 3, got "),
        ({"pairs": "0"}, r"^pairs must be a list of distinct integers from 0 to 3, got "),
        ({"max_pos": 0}, r"^max_pos must be an integer from 1 to "),
        ({"max_pos": 2.5}, r"^max_pos must be an integer from 1 to "),
        ({"max_pos": MAX_SEQ_LEN + 1}, r"^max_pos must be an integer from 1 to "),
        ({"pos": -1}, r"^pos must be a real number from 0 to "),
        ({"pos": float("nan")}, r"^pos must be a real number from 0 to "),
        ({"d_model": 0}, r"^d_model must be an integer"),
        ({"base": 0.5}, r"^base must be a finite real number"),
    ],
)
def test_waves_bad_arguments_are_rejected(changes, message):
    kwargs = {"d_model": 8, "base": 10000.0, "pairs": [0], "max_pos": 10, "pos": 1.0, **changes}
    with pytest.raises(ValueError, match=message):
        call("waves", kwargs)


# --- added ----------------------------------------------------------------------------

ADDED_KEYS = {"word", "pos", "d_model", "embedding", "encoding", "sum", "concat_width", "truncated"}
ADDED_ARRAYS = {"embedding": np.float64, "encoding": np.float64, "sum": np.float64}


def test_added():
    result = call("added", {"word": "Dog!", "pos": 3, "d_model": 4})
    assert set(result) == ADDED_KEYS
    assert_plain(result, ADDED_ARRAYS)
    assert result["word"] == "Dog" and result["pos"] == 3 and result["d_model"] == 4
    assert result["concat_width"] == 8 and result["truncated"] is False
    assert result["embedding"].shape == result["encoding"].shape == result["sum"].shape == (4,)
    np.testing.assert_array_equal(result["embedding"], pelab.embed(["dog"], 4)[0])
    np.testing.assert_array_equal(result["encoding"], pelab.sinusoidal(4, 4)[3])
    np.testing.assert_array_equal(result["sum"], result["embedding"] + result["encoding"])


def test_added_agrees_with_add_positions_and_the_attention_demo():
    result = call("added", {"word": "man", "pos": 2, "d_model": 8, "base": 10000.0})
    row = pelab.add_positions(pelab.embed(["dog", "bites", "man"]))[2]
    np.testing.assert_allclose(result["sum"], row, rtol=0, atol=1e-15)


def test_added_takes_the_first_word():
    result = call("added", {"word": "  <b>hi</b> there", "pos": 0, "d_model": 2, "base": 10})
    assert result["word"] == "<b>hi</b>" and result["truncated"] is True
    assert result["encoding"].tolist() == [0.0, 1.0]


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"word": ""}, r"^word must contain at least one word$"),
        ({"word": "?!"}, r"^word must contain at least one word$"),
        ({"word": 7}, r"^word must be a str"),
        ({"pos": -1}, r"^pos must be an integer from 0 to"),
        ({"pos": 0.5}, r"^pos must be an integer from 0 to"),
        ({"d_model": 0}, r"^d_model must be an integer"),
        ({"d_model": True}, r"^d_model must be an integer"),
        ({"base": float("inf")}, r"^base must be a finite real number"),
    ],
)
def test_added_bad_arguments_are_rejected(changes, message):
    kwargs = {"word": "dog", "pos": 1, "d_model": 4, **changes}
    with pytest.raises(ValueError, match=message):
        call("added", kwargs)


# --- relative ---------------------------------------------------------------------------------

RELATIVE_KEYS = {
    "rotation", "rotation_rgba", "residual", "independence", "sine_only_residual",
    "full_fit_residual", "positions", "shifted", "mapped", "d_model",
}
RELATIVE_ARRAYS = {"rotation": np.float64, "rotation_rgba": np.uint8, "shifted": np.float64, "mapped": np.float64}


def test_relative():
    result = call("relative", {"k": 5, "d_model": 8, "base": 10000.0, "seq_len": 64})
    assert set(result) == RELATIVE_KEYS
    assert_plain(result, RELATIVE_ARRAYS)
    assert result["d_model"] == 8
    assert result["rotation"].shape == (8 * 8,) and result["rotation_rgba"].shape == (8 * 8 * 4,)
    np.testing.assert_array_equal(result["rotation"].reshape(8, 8), pelab.rotation(5, 8))
    np.testing.assert_array_equal(result["rotation_rgba"], pelab.to_rgba(pelab.rotation(5, 8)).reshape(-1))
    assert result["positions"] == [0, 13, 25, 38, 50, 63]
    table = pelab.sinusoidal(69, 8)
    shifted = result["shifted"].reshape(6, 8)
    mapped = result["mapped"].reshape(6, 8)
    np.testing.assert_array_equal(shifted, table[[pos + 5 for pos in result["positions"]]])
    # The adapter multiplies all 64 rows, this 6: BLAS may take another kernel path for another
    # shape. Each entry is two products of numbers in [-1, 1] (M_5 is block-diagonal), so any
    # order agrees within 1e-15.
    np.testing.assert_allclose(mapped, table[result["positions"]] @ pelab.rotation(5, 8).T, rtol=0, atol=1e-15)
    np.testing.assert_allclose(mapped, shifted, rtol=0, atol=1e-12)
    assert result["residual"] <= 1e-12 and result["full_fit_residual"] <= 1e-12
    assert result["independence"] <= 1e-8
    assert result["sine_only_residual"] > 0.1


def test_relative_defaults_negative_offsets_and_odd_widths():
    result = call("relative", {"k": -20, "d_model": 32})
    assert result["positions"][0] == 20 and result["positions"][-1] == 20 + 63  # seq_len 64
    assert len(result["positions"]) == 6 and result["residual"] <= 1e-12
    result = call("relative", {"k": 3, "d_model": 5, "base": 100.0, "seq_len": 4})
    assert_plain(result, RELATIVE_ARRAYS)
    assert result["positions"] == [0, 1, 2, 3]
    assert result["shifted"].shape == result["mapped"].shape == (4 * 5,)
    assert result["residual"] > 1e-6  # the lone sine cannot be shifted exactly


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"k": 100_001}, r"^k must be an integer from -100000 to 100000"),
        ({"k": 1.5}, r"^k must be an integer"),
        ({"d_model": 0}, r"^d_model must be an integer from 1 to 128, got 0$"),
        ({"d_model": 129}, r"^d_model must be an integer from 1 to 128"),
        ({"seq_len": 3}, r"^seq_len must be an integer from 4 to 512, got 3$"),
        ({"seq_len": 513}, r"^seq_len must be an integer from 4 to 512"),
        ({"base": 1}, r"^base must be a finite real number"),
    ],
)
def test_relative_bad_arguments(changes, message):
    kwargs = {"k": 5, "d_model": 8, "base": 10000.0, "seq_len": 64, **changes}
    with pytest.raises(ValueError, match=message):
        call("relative", kwargs)


# --- similarity ---------------------------------------------------------------------------------

SIMILARITY_KEYS = {"n", "dot", "cosine", "dot_rgba", "cosine_rgba", "row", "toeplitz", "dot_scale"}
SIMILARITY_ARRAYS = {
    "dot": np.float64, "cosine": np.float64, "dot_rgba": np.uint8, "cosine_rgba": np.uint8, "row": np.float64,
}


def test_similarity():
    result = call("similarity", {"seq_len": 100, "d_model": 64, "base": 10000.0, "pos": 50})
    assert set(result) == SIMILARITY_KEYS
    assert_plain(result, SIMILARITY_ARRAYS)
    assert result["n"] == 100
    assert result["dot"].shape == result["cosine"].shape == (100 * 100,)
    assert result["dot_rgba"].shape == result["cosine_rgba"].shape == (100 * 100 * 4,)
    assert result["row"].shape == (100,)
    dot, cosine = pelab.similarity(pelab.sinusoidal(100, 64))
    np.testing.assert_array_equal(result["dot"], dot.reshape(-1))
    np.testing.assert_array_equal(result["cosine"], cosine.reshape(-1))
    np.testing.assert_array_equal(result["row"], dot[50])
    assert result["dot_scale"] == pytest.approx(32.0, abs=1e-12)  # d_model / 2
    np.testing.assert_array_equal(result["dot_rgba"], pelab.to_rgba(dot, -result["dot_scale"], result["dot_scale"]).reshape(-1))
    np.testing.assert_array_equal(result["cosine_rgba"], pelab.to_rgba(cosine).reshape(-1))
    assert result["toeplitz"] <= 1e-9


def test_similarity_small_and_degenerate():
    result = call("similarity", {"seq_len": 1, "d_model": 1, "base": 10.0, "pos": 0})
    assert_plain(result, SIMILARITY_ARRAYS)
    assert result["dot"].tolist() == [0.0] and result["dot_scale"] == 1.0  # PE(0) = (sin 0) = 0
    assert result["toeplitz"] == 0.0
    result = call("similarity", {"seq_len": 512, "d_model": 256})
    assert result["n"] == 512 and result["row"].shape == (512,)


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"seq_len": 0}, r"^seq_len must be an integer from 1 to 512, got 0$"),
        ({"seq_len": 513}, r"^seq_len must be an integer from 1 to 512"),
        ({"pos": 100}, r"^pos must be an integer from 0 to 99, got 100$"),
        ({"pos": -1}, r"^pos must be an integer from 0 to 99"),
        ({"d_model": 0}, r"^d_model must be an integer from 1 to 1024"),
        ({"seq_len": 512, "d_model": 512}, r"^seq_len \* seq_len \* d_model must be at most 67108864 to keep the page responsive, got 512 \* 512 \* 512 = 134217728$"),
        ({"base": "10000"}, r"^base must be a finite real number"),
    ],
)
def test_similarity_bad_arguments(changes, message):
    kwargs = {"seq_len": 100, "d_model": 64, "base": 10000.0, "pos": 0, **changes}
    with pytest.raises(ValueError, match=message):
        call("similarity", kwargs)


# --- learned ------------------------------------------------------------------------------------

COMPARE_KEYS = {
    "n", "sinusoidal", "rope", "learned", "sinusoidal_rgba", "rope_rgba", "learned_rgba",
    "learned_error", "rope_relative_residual",
}
COMPARE_ARRAYS = {
    "sinusoidal": np.float64, "rope": np.float64, "learned": np.float64,
    "sinusoidal_rgba": np.uint8, "rope_rgba": np.uint8, "learned_rgba": np.uint8,
}


def test_learned_beyond_max_len():
    result = call("learned", {"seq_len": 64, "d_model": 64, "max_len": 48, "base": 10000.0})
    assert set(result) == COMPARE_KEYS
    assert_plain(result, COMPARE_ARRAYS)
    n = result["n"]
    assert n == 64
    for key in ("sinusoidal", "rope", "learned"):
        assert result[key].shape == (n * n,)
        assert result[f"{key}_rgba"].shape == (n * n * 4,)
    sinusoidal = result["sinusoidal"].reshape(n, n)
    np.testing.assert_array_equal(sinusoidal, pelab.similarity(pelab.sinusoidal(n, 64))[1])
    # RoPE: a seeded query q and a different key k. Computed here independently, with complex
    # numbers: pair i of a vector is z_i = x_2i + i x_2i+1, and rotating it to position m
    # multiplies it by e^(i m w_i), so R_m q . R_n k = Re sum_i zq_i conj(zk_i) e^(i (m - n) w_i).
    rope = result["rope"].reshape(n, n)
    q, k = np.random.default_rng(0).standard_normal((2, 64))
    zq, zk = q[0::2] + 1j * q[1::2], k[0::2] + 1j * k[1::2]
    offsets = np.arange(n)[:, None] - np.arange(n)[None, :]
    turns = np.exp(1j * offsets[:, :, None] * pelab.angular_frequencies(64))
    expected = (zq * np.conj(zk) * turns).sum(axis=2).real / (np.linalg.norm(q) * np.linalg.norm(k))
    np.testing.assert_allclose(rope, expected, rtol=0, atol=1e-12)
    # Toeplitz (a function of m - n), but neither symmetric nor largest at m = n: q and k differ.
    assert pelab.toeplitz_residual(rope) < 1e-12
    assert np.max(np.abs(rope - rope.T)) > 0.1
    assert np.argmax(rope[n // 2]) != n // 2 and np.max(np.abs(np.diag(rope))) < 0.5
    assert np.max(np.abs(rope)) <= 1.0
    assert result["rope_relative_residual"] <= 1e-10
    # Learned: rows 0..47 only; the rest is NaN, drawn in the NaN grey.
    learned = result["learned"].reshape(n, n)
    rows = pelab.learned(48, 64, 0).table
    np.testing.assert_array_equal(learned[:48, :48], pelab.similarity(rows)[1])
    assert np.isnan(learned[48:]).all() and np.isnan(learned[:, 48:]).all()
    rgba = result["learned_rgba"].reshape(n, n, 4)
    assert (rgba[48:] == (128, 128, 128, 255)).all() and (rgba[:, 48:] == (128, 128, 128, 255)).all()
    assert result["learned_error"] == (
        "position 63 is past max_len 48: a learned table has no row for it (it was never trained)"
    )
    np.testing.assert_array_equal(result["sinusoidal_rgba"], pelab.to_rgba(sinusoidal).reshape(-1))


def test_learned_within_max_len_and_seed():
    result = call("learned", {"seq_len": 16, "d_model": 8, "max_len": 16, "base": 100.0, "seed": 3})
    assert_plain(result, COMPARE_ARRAYS)
    assert result["learned_error"] is None
    assert not np.isnan(result["learned"]).any()
    np.testing.assert_array_equal(result["learned"].reshape(16, 16), pelab.similarity(pelab.learned(16, 8, 3).table)[1])
    other = call("learned", {"seq_len": 16, "d_model": 8, "max_len": 16, "base": 100.0, "seed": 4})
    assert not np.array_equal(result["rope"], other["rope"])
    assert call("learned", {"seq_len": 16, "d_model": 8, "max_len": 16})["learned_error"] is None


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"d_model": 7}, r"^d_model must be an even integer from 2 to 1024 \(RoPE rotates pairs\), got 7$"),
        ({"d_model": 0}, r"^d_model must be an integer from 2 to 1024"),
        ({"seq_len": 513}, r"^seq_len must be an integer from 1 to 512"),
        ({"max_len": 0}, r"^max_len must be an integer from 1 to 4096, got 0$"),
        ({"max_len": 4097}, r"^max_len must be an integer from 1 to 4096"),
        ({"seed": -1}, r"^seed must be an integer from 0 to"),
        ({"seq_len": 512, "d_model": 128}, r"^seq_len \* seq_len \* d_model must be at most 16777216"),
        ({"base": 1.0}, r"^base must be a finite real number"),
    ],
)
def test_learned_bad_arguments(changes, message):
    kwargs = {"seq_len": 64, "d_model": 64, "max_len": 48, "base": 10000.0, **changes}
    with pytest.raises(ValueError, match=message):
        call("learned", kwargs)


# --- extrapolation ------------------------------------------------------------------------------

EXTRAPOLATION_KEYS = {"nearest", "train_len", "at_train", "beyond"}


def test_extrapolation():
    result = call("extrapolation", {"d_model": 16, "base": 10000.0, "train_len": 64, "seq_len": 512})
    assert set(result) == EXTRAPOLATION_KEYS
    assert_plain(result, {"nearest": np.float64})
    assert result["nearest"].shape == (512,)
    assert math.isnan(result["nearest"][0])
    np.testing.assert_array_equal(result["nearest"][1:], pelab.nearest_distances(512, 16)[1:])
    assert result["train_len"] == 64
    assert result["at_train"] == result["nearest"][63] and result["beyond"] == result["nearest"][511]
    assert result["at_train"] > 1.0 and result["beyond"] > 1.0


def test_extrapolation_few_pairs_alias():
    result = call("extrapolation", {"d_model": 4, "base": 1.5, "train_len": 64, "seq_len": 512})
    assert result["at_train"] > 0.4 and result["beyond"] < 0.06
    result = call("extrapolation", {"d_model": 64, "base": 10000.0, "train_len": 1024, "seq_len": 1024})
    assert result["at_train"] == result["beyond"]
    result = call("extrapolation", {"d_model": 5, "base": 100.0, "train_len": 2, "seq_len": 2})
    assert result["at_train"] == result["beyond"]


@pytest.mark.parametrize("d_model", [1, 2, 7, 64])
def test_heatmap_in_the_concatenated_layout_is_the_same_numbers_reordered(d_model):
    plain = call("heatmap", {"seq_len": 33, "d_model": d_model, "base": 500.0})
    cat = call("heatmap", {"seq_len": 33, "d_model": d_model, "base": 500.0, "concatenated": True})
    table = plain["values"].reshape(33, d_model)
    perm = pelab.layout_permutation(d_model)
    np.testing.assert_array_equal(cat["values"].reshape(33, d_model), table[:, perm])
    np.testing.assert_array_equal(
        cat["rgba"].reshape(33, d_model, 4), plain["rgba"].reshape(33, d_model, 4)[:, perm]
    )
    # and it is TensorFlow's layout: sines of pairs 0, 1, ... then their cosines
    # (sinusoidal_by_rotation's table against sin and cos computed directly: rounding only)
    np.testing.assert_allclose(
        cat["values"].reshape(33, d_model), pelab.concatenated(33, d_model, 500.0), rtol=0, atol=1e-13
    )


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"seq_len": 1}, r"^seq_len must be an integer from 2 to 2048, got 1$"),
        ({"seq_len": 2049}, r"^seq_len must be an integer from 2 to 2048"),
        ({"train_len": 600}, r"^train_len must be an integer from 2 to 512, got 600$"),
        ({"train_len": 1}, r"^train_len must be an integer from 2 to 512"),
        ({"d_model": 0}, r"^d_model must be an integer from 1 to 1024"),
        ({"seq_len": 2048, "d_model": 64}, r"^seq_len \* seq_len \* d_model must be at most 67108864"),
        ({"base": -2}, r"^base must be a finite real number"),
    ],
)
def test_extrapolation_bad_arguments(changes, message):
    kwargs = {"d_model": 16, "base": 10000.0, "train_len": 64, "seq_len": 512, **changes}
    with pytest.raises(ValueError, match=message):
        call("extrapolation", kwargs)


def test_work_limits():
    assert MAX_WORK == 2**26 and MAX_COMPARE_WORK == 2**24
    # The page's largest requests fit.
    call("extrapolation", {"d_model": 64, "base": 10000.0, "train_len": 512, "seq_len": 1024})
    call("similarity", {"seq_len": 256, "d_model": 256, "base": 10000.0, "pos": 255})
    call("learned", {"seq_len": 128, "d_model": 64, "max_len": 128, "base": 10000.0})


# --- the package's public names --------------------------------------------------------------


def test_public_names():
    assert pelab.__version__ == "0.1.0"
    assert set(pelab.__all__) == {
        "COOL_WARM", "MAX_TOKENS", "Notebook", "OrderBlindness", "add_positions", "angular_frequencies",
        "clock_angles", "embed", "formula_terms", "order_blindness", "pair_waves",
        "permutation_matrix", "png_bytes", "projections", "self_attention", "sinusoidal", "to_rgba",
        "show", "tokenize", "wavelengths",
        # relative, similarity, learned, rope, alibi, context_scaling, extrapolation
        "RelativeShift", "fit_shift", "map_independence", "relative_residual", "relative_shift", "rotation",
        "sinusoidal_by_rotation",
        "similarity", "toeplitz_residual",
        "LearnedTable", "learned",
        "rope", "rope_relative_residual", "rope_scores", "rope_rotate", "pairing_permutation",
        "alibi_slopes", "alibi_bias", "alibi_weights", "attention_distance", "attention_scores",
        "ScoreTerms", "FourTerms", "score_terms", "four_terms",
        "rope_decay_bound",
        "interpolated_positions", "ntk_scaled_base", "yarn_frequencies", "yarn_attention_scale",
        "LLAMA31_ROPE_SCALING", "llama3_frequencies", "stretched_frequencies", "angle_coverage",
        "stretched_scores",
        "concatenated", "layout_permutation", "nearest_distances",
        # tiny_transformer, training, table_structure, length_generalisation
        "tiny_config", "Trainer", "band_contrast", "principal_components", "closest_sinusoid",
        "LengthExperiment",
    }
    assert all(hasattr(pelab, name) for name in pelab.__all__)


def test_package_docstring_example_holds():
    import doctest

    assert doctest.testmod(pelab).failed == 0


# --- terms --------------------------------------------------------------------------------------

TERMS = ("content_content", "content_position", "position_content", "position_position", "total")


def test_terms():
    sentence = "the cat sat on the mat because the mat was warm"
    result = call("terms", {"sentence": sentence})
    n = 11
    arrays = {name: (np.float64, n * n) for name in TERMS}
    arrays |= {f"{name}_rgba": (np.uint8, n * n * 4) for name in TERMS}
    assert_plain(result, arrays)
    assert result["tokens"] == sentence.split() and result["n"] == n and result["d_model"] == 8
    assert result["identity"] is False and result["truncated"] is False
    expected = pelab.four_terms(sentence)
    matrices = dict(expected.scores.terms(), total=expected.scores.total)
    scale = max(np.abs(m).max() for m in matrices.values())
    assert result["scale"] == scale
    for name in TERMS:
        # The same function on the same input: the same bits.
        np.testing.assert_array_equal(result[name].reshape(n, n), matrices[name])
        np.testing.assert_array_equal(result[f"{name}_rgba"].reshape(n, n, 4), pelab.to_rgba(matrices[name], -scale, scale))
        assert result[f"{name}_toeplitz"] == pelab.toeplitz_residual(matrices[name]) > 0.1
    # The four terms add up to the score; the total is computed from the sums, not from them.
    summed = sum(result[name] for name in TERMS[:4])
    assert np.abs(summed - result["total"]).max() == result["sum_gap"] < 1e-12  # rounding only


def test_terms_with_the_identity_leaves_position_position_relative():
    result = call("terms", {"sentence": "the cat sat on the mat", "identity": True, "d_model": 16, "base": 100.0})
    # Sum of 8 cosines, each rounded: far below 1e-12 whatever the BLAS kernel.
    assert result["position_position_toeplitz"] < 1e-12
    assert result["content_position_toeplitz"] > 0.1 and result["position_content_toeplitz"] > 0.1
    assert result["identity"] is True and result["d_model"] == 16


@pytest.mark.parametrize(
    ("changes", "message"),
    [({"d_model": 65}, "d_model"), ({"identity": "no"}, "identity"), ({"sentence": ""}, "sentence")],
)
def test_terms_bad_arguments(changes, message):
    with pytest.raises(ValueError, match=message):
        call("terms", {"sentence": "dog bites man", **changes})


# --- alibi --------------------------------------------------------------------------------------


def test_alibi():
    sentence = "the cat sat on the mat because the mat was warm"
    result = call("alibi", {"sentence": sentence, "n_heads": 6, "head": 2})
    n, h = 11, 6
    assert_plain(result, {
        "slopes": (np.float64, h), "bias": (np.float64, h * n * n), "bias_rgba": (np.uint8, h * n * n * 4),
        "weights": (np.float64, n * n), "weights_rgba": (np.uint8, n * n * 4),
        "plain": (np.float64, n * n), "plain_rgba": (np.uint8, n * n * 4), "distances": (np.float64, h),
    })
    assert (result["n"], result["n_heads"], result["head"]) == (n, h, 2)
    np.testing.assert_array_equal(result["slopes"], pelab.alibi_slopes(6))
    bias = pelab.alibi_bias(n, 6)
    np.testing.assert_array_equal(result["bias"].reshape(h, n, n), bias)
    assert result["bias_scale"] == pelab.alibi_slopes(6).max() * (n - 1)
    # Independently: the toy head's scores, plus head 2's bias, through a softmax written out.
    x = pelab.embed(sentence.split(), 8)
    w_q, w_k, _ = pelab.projections(8)
    q, k = x @ w_q, x @ w_k
    slope = pelab.alibi_slopes(6)[1]
    expected = np.zeros((n, n))
    for i in range(n):
        row = np.array([q[i] @ k[j] / math.sqrt(8) - slope * (i - j) for j in range(i + 1)])
        row = np.exp(row - row.max())
        expected[i, : i + 1] = row / row.sum()
    # Scores through BLAS in another order, then exp: rounding only.
    np.testing.assert_allclose(result["weights"].reshape(n, n), expected, rtol=0, atol=1e-12)
    weights = result["weights"].reshape(n, n)
    masked = np.triu(np.ones((n, n), dtype=bool), 1)
    np.testing.assert_array_equal(
        result["weights_rgba"].reshape(n, n, 4), pelab.to_rgba(np.where(masked, np.nan, weights))
    )
    # Masked keys are drawn in the NaN grey.
    assert result["bias_rgba"].reshape(h, n, n, 4)[0, 0, 1].tolist() == pelab.to_rgba(np.array([np.nan]))[0].tolist()
    distances = result["distances"]
    assert distances[1] == pelab.attention_distance(weights)
    assert result["plain_distance"] == pelab.attention_distance(result["plain"].reshape(n, n))
    # The steeper the slope, the less far back a head looks (6 heads: the steepest is fifth),
    # and every head looks less far back than with no bias.
    assert np.argsort(distances).tolist() == np.argsort(-result["slopes"]).tolist()
    assert distances.max() < result["plain_distance"]


def test_alibi_for_one_word():
    result = call("alibi", {"sentence": "hello", "n_heads": 1, "head": 1})
    assert result["weights"].tolist() == [1.0] and result["bias"].tolist() == [0.0]
    assert result["bias_scale"] == 1.0 and result["distances"].tolist() == [0.0]


@pytest.mark.parametrize(
    ("changes", "message"),
    [({"n_heads": 17}, "n_heads"), ({"n_heads": 0}, "n_heads"), ({"head": 9}, "head"),
     ({"head": 0}, "head"), ({"sentence": None}, "sentence")],
)
def test_alibi_bad_arguments(changes, message):
    with pytest.raises(ValueError, match=message):
        call("alibi", {"sentence": "dog bites man", "n_heads": 8, "head": 1, **changes})

# --- rope and stretching ---------------------------------------------------------------------


def rotate_pairs(vector, position, frequencies):
    """Pair i of `vector` (adjacent layout) turned by position * frequencies[i], as complex
    numbers: (a + ib) e^{i theta}."""
    z = (vector[0::2] + 1j * vector[1::2]) * np.exp(1j * position * frequencies)
    out = np.empty_like(vector)
    out[0::2], out[1::2] = z.real, z.imag
    return out


@pytest.mark.parametrize("m, n, shift, d, base", [(5, 2, 7, 8, 10000.0), (0, 40, 300, 64, 500.0),
                                                  (4096, 0, 4096, 128, 1e6), (3, 3, 0, 2, 10.0)])
def test_rope_entry_point_scores_three_ways(m, n, shift, d, base):
    r = call("rope", {"m": m, "n": n, "shift": shift, "d": d, "base": base})
    assert_plain(r, {"q": (np.float64, d), "k": (np.float64, d), "q_rotated": (np.float64, d),
                     "k_rotated": (np.float64, d), "scores": (np.float64, 32 * 32),
                     "scores_rgba": (np.uint8, 32 * 32 * 4), "decay_bases": np.float64,
                     "decay_offsets": (np.float64, adapter.DECAY_LEN), "decay": np.float64,
                     "alike_mean": (np.float64, adapter.DECAY_LEN)})
    q, k = np.random.default_rng(0).standard_normal((2, d))
    np.testing.assert_array_equal(r["q"], q)
    omega = pelab.angular_frequencies(d, base)
    # RoPE as complex multiplication, independent of rope_rotate's cos/sin arithmetic.
    np.testing.assert_allclose(r["q_rotated"], rotate_pairs(q, m, omega), atol=1e-12)
    np.testing.assert_allclose(r["k_rotated"], rotate_pairs(k, n, omega), atol=1e-12)
    expected = float(rotate_pairs(q, m, omega) @ rotate_pairs(k, n, omega))
    # the same score by three routes (rotated vectors, M_{m-n}, shifted): rounding apart, and
    # angles up to 8192 rad lose about 8192 * 1e-16 each
    for key in ("score", "via_matrix", "shifted_score"):
        assert r[key] == pytest.approx(expected, abs=1e-10), key
    # #relative's M_{m-n} is R_{n-m}: it turns each pair by -(m - n) w_i
    np.testing.assert_allclose(pelab.rotation(m - n, d, base) @ k, rotate_pairs(k, n - m, omega), atol=1e-12)
    assert r["pairing_gap"] == 0.0  # only coordinates move: exact by construction
    scores = r["scores"].reshape(32, 32)
    norms = np.linalg.norm(q) * np.linalg.norm(k)
    for a, b in [(0, 0), (3, 17), (31, 2)]:
        assert scores[a, b] == pytest.approx(rotate_pairs(q, a, omega) @ rotate_pairs(k, b, omega) / norms, abs=1e-12)
    assert r["toeplitz"] < 1e-12
    assert r["asymmetry"] == pytest.approx(np.max(np.abs(scores - scores.T)), abs=0)
    assert r["decay_bases"][0] == base and len(r["decay"]) == len(r["decay_bases"]) * adapter.DECAY_LEN
    decay = r["decay"].reshape(len(r["decay_bases"]), -1)
    for row, b in zip(decay, r["decay_bases"]):
        np.testing.assert_array_equal(row, pelab.rope_decay_bound(r["decay_offsets"], 128, b))
    assert r["decay_d"] == adapter.DECAY_HEAD_DIM == 128
    # The mean scores beside it: k = q, for the chosen base and the same head of 128; and
    # independent q and k, whose mean |score| is one number for every offset.
    np.testing.assert_array_equal(r["alike_mean"], rope_mean_score(r["decay_offsets"], 128, base))
    assert r["independent_abs"] == rope_independent_abs_score(128)


@pytest.mark.parametrize("base", [10000.0, 100.0, 1e6, 10.0])
def test_rope_entry_point_gives_the_mean_scores_of_alike_and_independent_q_and_k(base):
    r = call("rope", {"m": 7, "n": 3, "shift": 2, "d": 8, "base": base})
    alike, offsets = r["alike_mean"], r["decay_offsets"]
    assert alike[0] == 128.0  # d at offset 0: the mean of |q|^2, a sum of ones, exact
    assert np.all(np.abs(alike) <= 128.0)
    # sum_i 2 cos(t w_i) by hand, pair by pair with math (w_i = base^(-2i/128)): the
    # frequencies' last bits and the order of the sum apart, at angles up to 511 rad
    for t in (1, 10, 100, 500, 511):
        by_hand = sum(2 * math.cos(t * base ** (-2 * i / 128)) for i in range(64))
        assert alike[t] == pytest.approx(by_hand, rel=0, abs=1e-10), t
    assert offsets[0] == 0 and offsets[-1] == adapter.DECAY_LEN - 1
    independent = r["independent_abs"]
    assert type(independent) is float
    assert independent == 128 * math.comb(128, 64) / 2**128  # d C(d, d/2) / 2^d, rounded once
    assert round(independent, 4) == 9.0094
    # Only the base changes them: not the positions, the shift, d or the draw.
    other = call("rope", {"m": 0, "n": 400, "shift": 0, "d": 128, "base": base, "seed": 5})
    np.testing.assert_array_equal(other["alike_mean"], alike)
    assert other["independent_abs"] == independent


def test_rope_entry_point_mean_scores_with_the_issues_settings():
    r = call("rope", {"m": 5, "n": 2, "shift": 100, "d": 8, "base": 10000.0})
    assert [round(float(r["alike_mean"][t]), 2) for t in (0, 10, 100, 500)] == [128.0, 85.64, 61.09, 38.21]
    assert r["alike_mean"][:10].mean() > 2 * r["alike_mean"][400:].mean()  # it falls


def test_rope_scores_are_toeplitz_but_not_symmetric_for_distinct_q_and_k():
    r = call("rope", {"m": 1, "n": 2, "shift": 0, "d": 16})
    assert r["toeplitz"] < 1e-12 and r["asymmetry"] > 0.05


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"m": -1}, r"^m must be an integer from 0 to 4096, got -1$"),
        ({"n": 4097}, r"^n must be an integer from 0 to 4096"),
        ({"shift": 1.5}, r"^shift must be an integer"),
        ({"d": 7}, r"^d must be an even integer from 2 to 128, got 7$"),
        ({"seed": -1}, r"^seed must be an integer from 0 to 4294967295"),
        ({"base": 1.0}, r"^base must be"),
    ],
)
def test_rope_entry_point_bad_arguments(changes, message):
    with pytest.raises(ValueError, match=message):
        call("rope", {"m": 1, "n": 2, "shift": 3, "d": 8, **changes})


@pytest.mark.parametrize("model", sorted(pelab.context_scaling.MODEL_SETTINGS))
@pytest.mark.parametrize("method", pelab.context_scaling.METHODS)
def test_stretching_entry_point(model, method):
    settings = pelab.context_scaling.MODEL_SETTINGS[model]
    r = call("stretching", {"model": model, "scale": 4, "method": method})
    half = 64
    assert_plain(r, {key: (np.float64, half) for key in ("omega", "frequencies", "trained", "reached",
                                                          "trained_arc", "hand", "hand_before")}
                 | {"state": (np.uint8, half), "state_before": (np.uint8, half), "offsets": np.float64,
                    "scores_before": np.float64, "scores_after": np.float64})
    L, base = settings["train_len"], settings["base"]
    assert (r["name"], r["base"], r["train_len"], r["d"], r["last"]) == (settings["name"], base, L, 128, 4 * L - 1)
    # Angles recomputed here, pair by pair with math: w_i = base^(-2i/128).
    for i in (0, 20, 40, 63):
        w = base ** (-2 * i / 128)
        assert r["trained"][i] == pytest.approx((L - 1) * w, rel=1e-13)
        assert r["trained_arc"][i] == pytest.approx(min((L - 1) * w, 2 * math.pi), rel=1e-13)
        assert r["hand_before"][i] == pytest.approx(math.fmod((4 * L - 1) * w, 2 * math.pi), abs=1e-9)
        assert r["reached"][i] == pytest.approx((4 * L - 1) * r["frequencies"][i], rel=1e-15)
    states = pelab.angle_coverage(method, 128, base, L, 4)["state"]
    np.testing.assert_array_equal(r["state"], states)
    assert r["outside"] == int((states == 2).sum()) and r["just_past"] == int((states == 1).sum())
    assert r["outside_before"] > 0  # without scaling, a 4-fold stretch takes slow pairs out
    assert r["attention_factor"] == (pytest.approx(0.1 * math.log(4) + 1) if method == "yarn" else 1.0)
    assert (r["new_base"] is None) == (method != "ntk")
    assert r["fastest_step"] == pytest.approx(0.25 if method == "interpolation" else 1.0, rel=1e-15)
    assert r["offsets"][0] == 0 and r["offsets"][-1] == 4 * L - 1
    assert abs(r["scores_before"][0] - r["scores_after"][0]) < 1e-12  # offset 0: no rotation at all
    assert np.all(np.abs(r["scores_before"]) <= 1 + 1e-12) and np.all(np.abs(r["scores_after"]) <= 1 + 1e-12)


def test_stretching_counts_changed_pairs():
    counts = {m: call("stretching", {"model": "llama2", "scale": 4, "method": m})["changed_pairs"]
              for m in pelab.context_scaling.METHODS}
    # none changes nothing; interpolation every pair; NTK all but the fastest; YaRN and
    # Llama 3.1 only the pairs slower than their ramps' upper bounds.
    assert counts["none"] == 0 and counts["interpolation"] == 64 and counts["ntk"] == 63
    assert 0 < counts["llama3"] < counts["yarn"] < 63


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"model": "gpt2"}, r"^model must be one of 'llama2', 'codellama', 'llama3', got 'gpt2'$"),
        ({"scale": 0}, r"^scale must be a finite real number at least 1 and at most 1024.0, got 0$"),
        ({"method": "linear"}, r"^method must be one of"),
        ({"seed": 2**40}, r"^seed must be an integer from 0 to 4294967295"),
    ],
)
def test_stretching_entry_point_bad_arguments(changes, message):
    with pytest.raises(ValueError, match=message):
        call("stretching", {"model": "llama2", "scale": 2, "method": "yarn", **changes})


def test_rope_decay_curves_are_cached_but_never_shared_with_the_caller():
    first = call("rope", {"m": 1, "n": 2, "shift": 3, "d": 8})
    first["decay"][:] = -1.0  # the worker may reuse a result's buffers
    again = call("rope", {"m": 4, "n": 0, "shift": 9, "d": 8})
    np.testing.assert_array_equal(again["decay"][:adapter.DECAY_LEN],
                                  pelab.rope_decay_bound(np.arange(adapter.DECAY_LEN, dtype=float), 128))


def test_rope_takes_a_numpy_float16_base():
    # Found by fuzzing: comparing the fixed bases with a float16 base cast 1e6 to float16.
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = call("rope", {"m": 0, "n": 0, "shift": 0, "d": 2, "base": np.float16(2.0)})
    assert r["decay_bases"].tolist() == [2.0, 100.0, 10000.0, 1000000.0]



# --- training and length_generalisation -------------------------------------------------


TRAINING_ARRAYS = ("losses", "cosine", "cosine_rgba", "components", "component_shares",
                   "sinusoid_fits", "sinusoid_periods", "sinusoid_r_squared")


def test_training_starts_untrained_and_steps_on_from_where_it_was():
    from pelab.training import Trainer

    first = call("training_reset", {"seed": 3, "max_train_len": 8, "shift": 1})
    n = first["n"]
    assert (n, first["steps_done"], first["accuracy"], first["seed"]) == (8, 0, None, 3)
    assert_plain(first, {key: (np.uint8 if key.endswith("rgba") else np.float64)
                         for key in TRAINING_ARRAYS})
    call("training_step", {"steps": 4})
    later = call("training_step", {"steps": 3})
    assert later["steps_done"] == 7 and later["losses"].shape == (7,)
    trainer = Trainer(scheme="learned", max_train_len=8, table_len=8, shift=1,
                      learning_rate=adapter.TRAINING_LEARNING_RATE, seed=3)
    trainer.step(7)
    # The same computation in one process: equal by construction.
    assert later["losses"].tolist() == trainer.losses
    table = trainer.params["position_table"]
    unit = table / np.linalg.norm(table, axis=1, keepdims=True)
    # Gram matrix in another order: ~1e-16.
    np.testing.assert_allclose(later["cosine"], (unit @ unit.T).ravel(), atol=1e-12)
    assert later["band_contrast"] == pelab.band_contrast(table)
    assert later["structured"] == (later["band_contrast"] >= later["threshold"])


def test_training_step_needs_a_model_and_a_step_count():
    adapter._SESSIONS.pop("training", None)
    with pytest.raises(ValueError, match="call training_reset first"):
        call("training_step", {"steps": 1})
    call("training_reset", {"max_train_len": 8})
    with pytest.raises(ValueError, match="^steps "):
        call("training_step", {"steps": adapter.MAX_SLICE_STEPS + 1})
    with pytest.raises(ValueError, match="^max_train_len "):
        call("training_reset", {"max_train_len": 65})


def test_training_reports_when_the_table_became_structured():
    state = call("training_reset", {"seed": 0, "max_train_len": 16, "shift": 1})
    while not state["structured"] and state["steps_done"] < 600:
        state = call("training_step", {"steps": 25})
    # Measured: structured by step 100 (band contrast 0.5 reached); chance tables stay near 0.
    assert state["structured"] and state["structured_at"] == state["steps_done"]
    assert state["sinusoid_periods"].shape == (2,)
    # Each flag is closest_sinusoid's at_longest for its component, as an int: the same functions
    # on the same table in one process, so equal by construction.
    table = adapter._SESSIONS["training"]["trainer"].params["position_table"]
    fits = [pelab.closest_sinusoid(component) for component in pelab.principal_components(table, 2)[0]]
    assert state["sinusoid_at_longest"] == [int(fit["at_longest"]) for fit in fits]
    assert state["sinusoid_periods"].tolist() == [fit["period"] for fit in fits]


def test_length_generalisation_in_slices(monkeypatch):
    from pelab import length_generalisation

    monkeypatch.setitem(length_generalisation.SETTINGS, "quick",
                        {"steps": 2, "seeds": (0, 1), "eval_batches": 1})
    state = call("length_generalisation_reset", {"quick": True})
    runs, lengths = len(state["runs"]), len(state["lengths"])
    assert (state["steps_done"], state["total_steps"], state["done"]) == (0, runs * 4, False)
    assert state["current"] == "none, seed 0" and state["max_train_len"] == 8
    assert np.isnan(state["accuracy"]).all()
    state = call("length_generalisation_step", {"steps": 4})
    rows = state["accuracy"].reshape(runs, lengths)
    assert np.isfinite(rows[0]).all() and np.isnan(rows[1:]).all()
    while not state["done"]:
        state = call("length_generalisation_step", {"steps": 200})
    experiment = adapter._SESSIONS["length_generalisation"]
    # Means and extremes over the seeds, the same numbers.
    np.testing.assert_array_equal(state["accuracy"], experiment.accuracy.mean(axis=1).ravel())
    np.testing.assert_array_equal(state["accuracy_min"], experiment.accuracy.min(axis=1).ravel())
    assert state["current"] is None and state["chance"] == 1 / 8


def test_stretch_experiment_in_slices(monkeypatch):
    from pelab import length_generalisation

    monkeypatch.setitem(length_generalisation.SETTINGS, "quick",
                        {"steps": 3, "seeds": (0, 1), "eval_batches": 1})
    state = call("stretch_experiment_reset", {"quick": True})
    assert (state["steps_done"], state["total_steps"], state["done"]) == (0, 6, False)
    assert state["methods"] == ["none", "interpolation", "ntk", "yarn"]
    assert state["lengths"] == [8, 16, 32] and state["scales"] == [1, 2, 4]
    assert state["current"] == 0 and state["seeds_done"] == 0
    assert np.isnan(state["accuracy"]).all()
    state = call("stretch_experiment_step", {"steps": 4})
    experiment = adapter._SESSIONS["stretch_experiment"]
    # One seed tested: its accuracies are the means, the lowest and the highest alike.
    assert state["seeds_done"] == 1 and state["current"] == 1
    np.testing.assert_array_equal(state["accuracy"], experiment.accuracy[:, 0].ravel())
    np.testing.assert_array_equal(state["accuracy_max"], experiment.accuracy[:, 0].ravel())
    while not state["done"]:
        state = call("stretch_experiment_step", {"steps": 200})
    np.testing.assert_array_equal(state["accuracy"], experiment.accuracy.mean(axis=1).ravel())
    np.testing.assert_array_equal(state["accuracy_min"], experiment.accuracy.min(axis=1).ravel())
    assert state["current"] is None and state["seeds_done"] == 2 and state["chance"] == 1 / 8


def test_stretch_experiment_step_needs_a_reset(monkeypatch):
    monkeypatch.delitem(adapter._SESSIONS, "stretch_experiment", raising=False)
    with pytest.raises(ValueError, match="stretch_experiment_reset first"):
        call("stretch_experiment_step", {"steps": 1})
