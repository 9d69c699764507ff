"""Tests for pelab.adapter: what each browser entry point hands the worker.

The worker (app/python-worker.js) turns a result dict into plain JavaScript: ints, floats, strs
and bools as they are, lists of str or int as arrays, and flat C-contiguous numpy arrays
(uint8 or float64 only) as typed arrays. Anything else would break it or arrive wrong.
"""

import math

import numpy as np
import pytest

import pelab
from pelab import adapter
from pelab.adapter import ENTRY_POINTS, MAX_SAMPLES, SAMPLES_PER_POSITION, call
from pelab.attention import MAX_TOKENS
from pelab.colormap import COOL_WARM
from pelab.positional_encoding import MAX_SEQ_LEN


def assert_plain(result, arrays):
    """`result` holds only what the worker converts; `arrays` maps each array key to its dtype."""
    assert isinstance(result, dict)
    assert all(isinstance(key, str) for key in result)
    for key, value in result.items():
        if key in arrays:
            assert isinstance(value, np.ndarray), key
            assert value.dtype == arrays[key], (key, value.dtype)
            assert value.ndim == 1, (key, value.shape)
            assert value.flags.c_contiguous, key
        elif isinstance(value, list):
            assert all(type(item) in (str, int) for item in value), key
        else:
            assert type(value) in (int, float, str, bool), (key, type(value))
    assert {key for key, value in result.items() if isinstance(value, np.ndarray)} == set(arrays)


def test_entry_point_table():
    assert set(ENTRY_POINTS) == {"heatmap", "legend", "attention", "formula", "waves", "added"}
    for name, function in ENTRY_POINTS.items():
        assert getattr(adapter, name) is function


@pytest.mark.parametrize("name", ["nope", "", "call", "_flat", "ENTRY_POINTS", "Heatmap"])
def test_unknown_entry_point_is_rejected(name):
    with pytest.raises(ValueError, match=r"^unknown entry point .*; known: added, attention, formula, heatmap, legend, waves$"):
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
    np.testing.assert_array_equal(result["values"], pelab.sinusoidal(5, 6, 100.0).reshape(-1))
    np.testing.assert_array_equal(result["rgba"], pelab.to_rgba(pelab.sinusoidal(5, 6, 100.0)).reshape(-1))


def test_heatmap_default_base_and_errors():
    assert call("heatmap", {"seq_len": 2, "d_model": 2})["values"].tolist() == pelab.sinusoidal(2, 2).reshape(-1).tolist()
    with pytest.raises(ValueError, match=r"^seq_len must be an integer"):
        call("heatmap", {"seq_len": 0, "d_model": 4})
    with pytest.raises(ValueError, match=r"^base must be a finite real number"):
        call("heatmap", {"seq_len": 2, "d_model": 4, "base": 1})
    with pytest.raises(TypeError):
        call("heatmap", {"seq_len": 2})


def test_legend():
    result = call("legend")
    assert set(result) == {"width", "height", "rgba"}
    assert_plain(result, {"rgba": np.uint8})
    assert (result["width"], result["height"]) == (256, 1)
    assert result["rgba"].shape == (256 * 4,)
    np.testing.assert_array_equal(result["rgba"], COOL_WARM.reshape(-1))
    assert call("legend", None)["width"] == 256


# --- attention ----------------------------------------------------------------------

ATTENTION_KEYS = {
    "tokens", "shuffled", "order", "d_model", "outputs", "shuffled_outputs",
    "token_match", "pooled_diff", "truncated", "max_tokens",
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


# --- the package's public names --------------------------------------------------------------


def test_public_names():
    assert pelab.__version__ == "0.1.0"
    assert set(pelab.__all__) == {
        "COOL_WARM", "MAX_TOKENS", "Notebook", "OrderBlindness", "add_positions", "angular_frequencies",
        "clock_angles", "embed", "formula_terms", "order_blindness", "pair_waves",
        "permutation_matrix", "projections", "self_attention", "sinusoidal", "to_rgba",
        "show", "tokenize", "wavelengths",
    }
    assert all(hasattr(pelab, name) for name in pelab.__all__)


def test_package_docstring_example_holds():
    import doctest

    assert doctest.testmod(pelab).failed == 0
