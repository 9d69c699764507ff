"""Tests for pelab.browser.demos.attention: what the attention demo's entry points hand the worker
(app/demos/attention.js), under CPython."""


import math

import numpy as np
import pytest
from hypothesis import strategies as st

import pelab
from fuzzing import JUNK, Spec, entry_point_fuzz_tests, finite, permutations_of, sentences
from pelab.browser.entry_points import call
from pelab.tokens import MAX_TOKENS
from plain_results import assert_plain

# Its entry points' results go through BLAS (`@`, lstsq): rerun under every kernel.
pytestmark = pytest.mark.blas_numeric


ATTENTION_KEYS = {
    "tokens", "shuffled", "order", "d_model", "outputs", "shuffled_outputs",
    "token_match", "pooled_diff", "truncated", "max_tokens", "with_pe", "causal",
}


def attention_arrays(n, d_model):
    """The attention entry point's arrays: each of n tokens' output, in order and shuffled."""
    return {"outputs": (np.float64, n * d_model), "shuffled_outputs": (np.float64, n * d_model)}


def test_attention_without_positions():
    result = call("attention", {"sentence": "dog bites man", "order": [2, 1, 0]})
    assert set(result) == ATTENTION_KEYS
    assert_plain(result, attention_arrays(3, 8))
    assert result["tokens"] == ["dog", "bites", "man"]
    assert result["shuffled"] == ["man", "bites", "dog"]
    assert result["order"] == [2, 1, 0]
    assert result["d_model"] == 8 and result["max_tokens"] == MAX_TOKENS == 24
    assert result["token_match"] < 1e-12 and result["pooled_diff"] < 1e-12
    assert result["truncated"] is False
    # Row-major: row k of the outputs is token k's output.
    demo = pelab.order_blindness("dog bites man", [2, 1, 0])
    np.testing.assert_array_equal(result["outputs"].reshape(3, 8), demo.outputs)
    np.testing.assert_array_equal(result["shuffled_outputs"].reshape(3, 8), demo.shuffled_outputs)


def test_attention_with_positions():
    result = call("attention", {"sentence": "dog bites man", "order": [2, 1, 0], "with_pe": True})
    assert_plain(result, attention_arrays(3, 8))
    assert result["pooled_diff"] > 1e-3 and result["token_match"] > 1e-3


def test_attention_default_order_reads_the_sentence_backwards():
    for kwargs in ({"sentence": "dog bites man"}, {"sentence": "dog bites man", "order": None}):
        result = call("attention", kwargs)
        assert result["order"] == [2, 1, 0]
        assert result["tokens"] == ["dog", "bites", "man"] and result["shuffled"] == [
            "man",
            "bites",
            "dog",
        ]
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
        (
            {"sentence": "dog bites man", "order": [0, 1]},
            r"^order must be a permutation of range\(3\)",
        ),
        (
            {"sentence": "dog bites man", "order": [0, 1, 1.5]},
            r"^order must be a permutation of range\(3\)",
        ),
        ({"sentence": "dog bites man", "order": 0}, r"^order must be a permutation of range\(3\)"),
        ({"sentence": "dog", "with_pe": "true"}, r"^with_pe must be True or False"),
    ],
)
def test_attention_bad_arguments_are_rejected(kwargs, message):
    with pytest.raises(ValueError, match=message):
        call("attention", kwargs)


# ---------------------------------------------------------------------------
# Fuzzing (tests/python/fuzzing.py): junk of every kind for each entry point of this demo
# ---------------------------------------------------------------------------


def check_attention(kw, r):
    n, d = len(r["tokens"]), r["d_model"]
    assert_plain(r, attention_arrays(n, d))
    assert 1 <= n <= MAX_TOKENS and sorted(r["order"]) == list(range(n))
    finite(r["outputs"])
    finite(r["shuffled_outputs"])
    assert math.isfinite(r["token_match"]) and math.isfinite(r["pooled_diff"])


@st.composite
def attention_args(draw):
    sentence = draw(sentences())
    n = len(pelab.tokenize(sentence)[0])
    return {"sentence": sentence,
            "order": draw(st.one_of(st.none(), permutations_of(n))),
            "with_pe": draw(st.sampled_from([True, False, np.bool_(True)])),
            "causal": draw(st.sampled_from([True, False, np.bool_(False)]))}


FUZZ_SPECS = {
    "attention": Spec(
        None,
        attention_args(),
        {"sentence": JUNK, "order": JUNK, "with_pe": JUNK, "causal": JUNK},
        check_attention,
        related={"sentence": {"order"}},
    ),
}
test_fuzzed_arguments, test_fuzzed_keywords = entry_point_fuzz_tests(FUZZ_SPECS)
