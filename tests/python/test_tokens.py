"""Tests for pelab.tokens: words to vectors, the toy tokens and their fixed embeddings."""

import doctest
import hashlib

import numpy as np
import pytest

import pelab.tokens as tokens_module
from pelab.positional_encoding import sinusoidal
from pelab.tokens import EMBEDDING_STD, MAX_TOKENS, embed, tokenize


def test_docstring_examples_hold():
    assert doctest.testmod(tokens_module).failed == 0


# --- tokenize ------------------------------------------------------------------


@pytest.mark.parametrize(
    "sentence, tokens",
    [
        ("dog bites man", ["dog", "bites", "man"]),
        ("  Dog   bites\tman\n", ["Dog", "bites", "man"]),
        ("Hello, world!", ["Hello", "world"]),
        ('"Quoted," she said...', ["Quoted", "she", "said"]),
        ("(dog) [bites] {man}", ["dog", "bites", "man"]),
        ("don't stop", ["don't", "stop"]),
        ("a well-known fact", ["a", "well-known", "fact"]),
        ("rock-'n'-roll!", ["rock-'n'-roll"]),
        ("«guillemets» and “curly” don’t", ["guillemets", "and", "curly", "don’t"]),
        ("wait -- what ... ?!", ["wait", "what"]),
        ("¿Qué? ¡Sí!", ["Qué", "Sí"]),
        ("a+b = c", ["a+b", "=", "c"]),
        ("The THE the", ["The", "THE", "the"]),
    ],
)
def test_tokenize_splits_and_strips_punctuation(sentence, tokens):
    assert tokenize(sentence) == (tokens, False)


def test_tokenize_keeps_emoji_and_any_script():
    sentence = "🐶 bites 👨‍👩‍👧 ❤️ 개가 Straße naïve"
    tokens, truncated = tokenize(sentence)
    assert tokens == ["🐶", "bites", "👨‍👩‍👧", "❤️", "개가", "Straße", "naïve"]
    assert truncated is False


@pytest.mark.parametrize(
    "sentence, tokens",
    [
        ("狗咬人", ["狗", "咬", "人"]),  # no spaces between Chinese words: one token per character
        ("狗咬人。人咬狗！", ["狗", "咬", "人", "人", "咬", "狗"]),  # CJK punctuation dropped
        ("「狗」咬 人", ["狗", "咬", "人"]),
        ("我爱RoPE和ALiBi", ["我", "爱", "RoPE", "和", "ALiBi"]),  # other scripts stay whole
        ("犬が噛む", ["犬", "が", "噛", "む"]),  # Japanese kana too
        ("カタカナ・テスト", ["カ", "タ", "カ", "ナ", "テ", "ス", "ト"]),  # ・ is punctuation
        ("𠀀𪚥 dog", ["𠀀", "𪚥", "dog"]),  # ideographs beyond the Basic Multilingual Plane
    ],
)
def test_tokenize_splits_chinese_and_japanese_per_character(sentence, tokens):
    assert tokenize(sentence) == (tokens, False)


def test_tokenize_counts_each_cjk_character_towards_max_tokens():
    assert tokenize("一二三四五", max_tokens=3) == (["一", "二", "三"], True)
    assert tokenize("我" * MAX_TOKENS) == (["我"] * MAX_TOKENS, False)


def test_tokenize_keeps_markup_as_literal_text():
    tokens, truncated = tokenize("<img src=x onerror=alert(1)>")
    # Nothing is interpreted or escaped: the page must show these as text.
    assert tokens == ["<img", "src=x", "onerror=alert(1)>"]
    assert truncated is False
    tokens, _ = tokenize("<script>alert('x')</script> &amp; <b>")
    # "&" and ";" are punctuation (category Po) at the ends; "<" and ">" are symbols (Sm).
    assert tokens == ["<script>alert('x')</script>", "amp", "<b>"]


def test_tokenize_truncates_long_input():
    sentence = ("lorem ipsum, " * 1000)[:10_000]
    assert len(sentence) == 10_000
    tokens, truncated = tokenize(sentence)
    assert truncated is True
    assert len(tokens) == MAX_TOKENS == 24
    assert tokens[:4] == ["lorem", "ipsum", "lorem", "ipsum"]


def test_tokenize_exactly_max_tokens_is_not_truncated():
    words = [f"w{k}" for k in range(MAX_TOKENS)]
    assert tokenize(" ".join(words)) == (words, False)
    # Trailing punctuation-only "words" are not words: still not truncated.
    assert tokenize(" ".join(words) + " -- !!") == (words, False)
    assert tokenize(" ".join(words) + " extra") == (words, True)


def test_tokenize_max_tokens_argument():
    assert tokenize("a b c d", max_tokens=2) == (["a", "b"], True)
    assert tokenize("a", max_tokens=1) == (["a"], False)
    with pytest.raises(ValueError, match=r"^max_tokens must be an integer from 1 to "):
        tokenize("a", max_tokens=0)


def test_tokenize_one_long_word_is_one_token():
    tokens, truncated = tokenize("x" * 10_000)
    assert tokens == ["x" * 10_000] and truncated is False


@pytest.mark.parametrize("sentence", ["", "   ", "\n\t", "...", "-- !! ?", "“ ”"])
def test_tokenize_without_words_is_rejected(sentence):
    with pytest.raises(ValueError) as error:
        tokenize(sentence)
    assert str(error.value) == "sentence must contain at least one word"


@pytest.mark.parametrize("bad", [None, 3, b"dog bites", ["dog", "bites"]], ids=repr)
def test_tokenize_non_str_is_rejected(bad):
    with pytest.raises(ValueError, match=r"^sentence must be a str, got "):
        tokenize(bad)


def test_tokenize_error_names_the_parameter_given():
    with pytest.raises(ValueError, match=r"^word must contain at least one word$"):
        tokenize("!", name="word")


# --- embed -----------------------------------------------------------------------


def test_same_word_same_embedding_anywhere():
    x = embed(["the", "cat", "saw", "the", "dog"])
    assert x.shape == (5, 8) and x.dtype == np.float64
    assert np.array_equal(x[0], x[3])
    # And in another sentence, at another position.
    assert np.array_equal(embed(["a", "b", "the"])[2], x[0])


def test_embedding_ignores_case():
    x = embed(["The", "the", "THE", "Straße", "STRASSE"])
    assert np.array_equal(x[0], x[1]) and np.array_equal(x[0], x[2])
    # casefold() folds ß to ss.
    assert np.array_equal(x[3], x[4])


def test_different_words_get_different_embeddings():
    words = ["dog", "bites", "man", "cat", "🐶", "dog,", "dogs", "", " "]
    x = embed(words)
    for a in range(len(words)):
        for b in range(a + 1, len(words)):
            assert np.abs(x[a] - x[b]).max() > 1e-3, (words[a], words[b])


def test_embedding_is_seeded_from_sha256_of_the_casefolded_word():
    seed = int.from_bytes(hashlib.sha256("straße".casefold().encode("utf-8")).digest(), "big")
    expected = EMBEDDING_STD * np.random.default_rng(seed).standard_normal(16)
    assert np.array_equal(embed(["Straße"], 16)[0], expected)


def test_embedding_values_are_pinned():
    # The same numbers under CPython and Pyodide: SHA-256 and PCG64 are platform independent.
    np.testing.assert_allclose(
        embed(["dog"])[0],
        [-1.0568090456772294, -0.1984977399229951, 1.2055081931750782, 0.02959710486999582,
         -0.7271022251660743, -0.2619647683508329, 0.5035895289170037, -0.23119595109309035],
        rtol=0, atol=1e-15,
    )


def test_wider_embedding_extends_the_narrower_one():
    assert np.array_equal(embed(["dog"], 16)[0, :8], embed(["dog"], 8)[0])


def test_embedding_scale_matches_the_encoding():
    # Mean square of a coordinate: 1/2 for words (sigma^2) and for PE over positions.
    words = [f"word{k}" for k in range(2000)]
    x = embed(words, 64)
    assert np.mean(x**2) == pytest.approx(0.5, rel=0.03)
    assert np.mean(sinusoidal(2000, 64)[:, :2] ** 2) == pytest.approx(0.5, rel=0.03)


def test_embed_lone_surrogate_does_not_crash():
    assert embed(["\ud800"]).shape == (1, 8)


@pytest.mark.parametrize(
    "bad", ["dog", [], None, ["dog", 3], ("dog", None), np.array(["dog"])], ids=repr
)
def test_embed_bad_tokens_are_rejected(bad):
    with pytest.raises(ValueError, match=r"^tokens must be a non-empty list of str"):
        embed(bad)


@pytest.mark.parametrize("bad", [0, -1, 2.0, True, None])
def test_embed_bad_d_model_is_rejected(bad):
    with pytest.raises(ValueError, match=r"^d_model must be an integer from 1 to "):
        embed(["dog"], bad)


