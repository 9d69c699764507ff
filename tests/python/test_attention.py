"""Tests for pelab.attention: tokens, embeddings, self-attention's order-blindness, and the demo."""

import doctest
import math

import numpy as np
import pytest

import pelab.attention as attention_module
from pelab.attention import (
    MAX_ORDER,
    MAX_WIDTH,
    OrderBlindness,
    attention_scores,
    order_blindness,
    permutation_matrix,
    projections,
    self_attention,
)
from pelab.positional_encoding import sinusoidal
from pelab.tokens import MAX_TOKENS, embed, tokenize

# Its code or checks go through BLAS or LAPACK: rerun under every kernel (test_blas_kernels.py).
pytestmark = pytest.mark.blas_numeric


def test_docstring_examples_hold():
    assert doctest.testmod(attention_module).failed == 0


# --- projections ----------------------------------------------------------------------


def test_projection_shapes_and_determinism():
    w_q, w_k, w_v = projections(8)
    assert (w_q.shape, w_k.shape, w_v.shape) == ((8, 8), (8, 8), (8, 8))
    assert all(w.dtype == np.float64 for w in (w_q, w_k, w_v))
    again = projections(8, seed=0)
    assert all(np.array_equal(a, b) for a, b in zip((w_q, w_k, w_v), again))
    other = projections(8, seed=1)
    assert not np.array_equal(w_q, other[0])
    assert not np.array_equal(w_q, w_k)


def test_projection_d_k():
    w_q, w_k, w_v = projections(6, d_k=3, seed=5)
    assert (w_q.shape, w_k.shape, w_v.shape) == ((6, 3), (6, 3), (6, 6))


def test_projection_scale_is_one_over_sqrt_d_model():
    w_q, w_k, w_v = projections(256)
    assert np.std(np.concatenate([w_q, w_k, w_v])) == pytest.approx(1 / math.sqrt(256), rel=0.02)


@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({"d_model": 0}, "d_model"),
        ({"d_model": MAX_WIDTH + 1}, "d_model"),
        ({"d_model": 4, "d_k": 0}, "d_k"),
        ({"d_model": 4, "d_k": 2.0}, "d_k"),
        ({"seed": -1}, "seed"),
        ({"seed": 1.5}, "seed"),
    ],
)
def test_projection_bad_arguments_are_rejected(kwargs, name):
    with pytest.raises(ValueError, match=rf"^{name} must be an integer"):
        projections(**kwargs)


# --- self_attention --------------------------------------------------------------------


def reference_attention(x, w_q, w_k, w_v):
    """softmax(Q K^T / sqrt(d_k)) V one query at a time, with the math module."""
    q, k, v = x @ w_q, x @ w_k, x @ w_v
    outputs, weights = [], []
    for a in range(len(x)):
        scores = [float(q[a] @ k[b]) / math.sqrt(w_q.shape[1]) for b in range(len(x))]
        top = max(scores)
        exps = [math.exp(s - top) for s in scores]
        row = [e / sum(exps) for e in exps]
        weights.append(row)
        outputs.append(np.array(row) @ v)
    return np.array(outputs), np.array(weights)


def test_self_attention_matches_the_formula():
    x = embed(["the", "cat", "saw", "the", "dog"], 6)
    w = projections(6, d_k=4, seed=3)
    outputs, weights = self_attention(x, *w)
    expected_outputs, expected_weights = reference_attention(x, *w)
    np.testing.assert_allclose(outputs, expected_outputs, rtol=0, atol=1e-12)
    np.testing.assert_allclose(weights, expected_weights, rtol=0, atol=1e-12)
    assert outputs.shape == (5, 6) and weights.shape == (5, 5)


def test_attention_weights_are_a_distribution_per_row():
    x = embed(["dog", "bites", "man", "dog"])
    _, weights = self_attention(x, *projections(8))
    assert np.all(weights > 0)
    np.testing.assert_allclose(weights.sum(axis=1), 1.0, rtol=0, atol=1e-15)


def test_softmax_is_stable_for_huge_scores():
    x = 1e3 * embed(["dog", "bites", "man"])
    outputs, weights = self_attention(x, *projections(8))
    assert np.isfinite(outputs).all() and np.isfinite(weights).all()
    np.testing.assert_allclose(weights.sum(axis=1), 1.0, rtol=0, atol=1e-15)


def test_single_token_attends_only_to_itself():
    x = embed(["hello"])
    w_q, w_k, w_v = projections(8)
    outputs, weights = self_attention(x, w_q, w_k, w_v)
    assert weights.tolist() == [[1.0]]  # exact: exp(0) / exp(0)
    np.testing.assert_allclose(
        outputs, x @ w_v, rtol=0, atol=1e-15
    )  # 1 * v, with v = x @ w_v (recomputed: within an ulp)


EQUIVARIANCE_SENTENCES = [
    "the cat saw the dog",
    "dog bites man",
    "hello",
    "a b c d e f g h i j k l m n o p q r s t u v w x",
]


@pytest.mark.parametrize("sentence", EQUIVARIANCE_SENTENCES)
@pytest.mark.parametrize("seed", range(5))
def test_self_attention_is_permutation_equivariant(sentence, seed):
    # self_attention(P x) = P self_attention(x): shuffling inputs only shuffles outputs.
    tokens, _ = tokenize(sentence)
    x = embed(tokens)
    w = projections(8)
    order = np.random.default_rng(seed).permutation(len(tokens)).tolist()
    p = permutation_matrix(order)
    outputs, weights = self_attention(x, *w)
    shuffled_outputs, shuffled_weights = self_attention(p @ x, *w)
    np.testing.assert_allclose(shuffled_outputs, p @ outputs, rtol=0, atol=1e-12)
    # And the weights: A(P x) = P A(x) P^T.
    np.testing.assert_allclose(shuffled_weights, p @ weights @ p.T, rtol=0, atol=1e-12)


def test_equivariance_holds_for_arbitrary_inputs_and_head_sizes():
    rng = np.random.default_rng(42)
    for trial in range(10):
        n, d_model, d_k = rng.integers(1, 12), rng.integers(1, 10), rng.integers(1, 10)
        x = rng.standard_normal((n, d_model))
        w = projections(int(d_model), d_k=int(d_k), seed=trial)
        p = permutation_matrix(rng.permutation(n))
        np.testing.assert_allclose(
            self_attention(p @ x, *w)[0], p @ self_attention(x, *w)[0], rtol=0, atol=1e-12
        )


def test_positional_encoding_breaks_equivariance():
    tokens, _ = tokenize("the cat saw the dog")
    x = embed(tokens)
    pe = sinusoidal(len(tokens), 8)
    w = projections(8)
    p = permutation_matrix([4, 3, 2, 1, 0])
    shuffled_outputs, _ = self_attention(p @ x + pe, *w)
    outputs, _ = self_attention(x + pe, *w)
    assert np.abs(shuffled_outputs - p @ outputs).max() > 1e-3


@pytest.mark.parametrize(
    "args, name",
    [
        ((np.ones(8),), "x"),
        ((np.ones((0, 8)),), "x"),
        ((np.full((2, 8), np.nan),), "x"),
        ((np.ones((2, 8)), np.ones(8)), "w_q"),
        ((np.ones((2, 8)), np.ones((8, 4)), np.ones((8, 4)), [[np.inf] * 8] * 8), "w_v"),
    ],
)
def test_self_attention_bad_arrays_are_rejected(args, name):
    w = list(projections(8))
    full = list(args) + w[len(args) - 1 :]
    with pytest.raises(
        ValueError, match=rf"^{name} must be a non-empty 2-D array of finite numbers"
    ):
        self_attention(*full)


@pytest.mark.parametrize(
    "shapes",
    [
        ((3, 8), (4, 4), (4, 4), (4, 4)),  # w_q rows != d_model
        ((3, 8), (8, 4), (8, 5), (8, 8)),  # w_k shape != w_q shape
        ((3, 8), (8, 4), (8, 4), (7, 8)),  # w_v rows != d_model
    ],
)
def test_self_attention_mismatched_shapes_are_rejected(shapes):
    arrays = [np.ones(shape) for shape in shapes]
    with pytest.raises(ValueError, match=r"^shapes do not fit"):
        self_attention(*arrays)


# --- permutation_matrix ----------------------------------------------------------------


@pytest.mark.parametrize("order", [[0], [1, 0], [2, 0, 1], [3, 1, 0, 2], list(range(24))[::-1]])
def test_permutation_matrix_reorders_rows(order):
    n = len(order)
    x = np.arange(n * 3, dtype=float).reshape(n, 3)
    p = permutation_matrix(order)
    assert p.shape == (n, n) and p.dtype == np.float64
    # (P x)[k] = x[order[k]]. Exact under any BLAS: one entry times 1 plus entries times 0.
    assert np.array_equal(p @ x, x[order])
    assert np.array_equal(p.T @ p, np.eye(n))
    assert np.array_equal(p.sum(axis=0), np.ones(n)) and np.array_equal(p.sum(axis=1), np.ones(n))


def test_permutation_matrix_accepts_tuples_ranges_and_numpy_integers():
    expected = permutation_matrix([2, 0, 1])
    assert np.array_equal(permutation_matrix((2, 0, 1)), expected)
    assert np.array_equal(permutation_matrix(np.array([2, 0, 1], dtype=np.int32)), expected)
    assert np.array_equal(permutation_matrix(range(3)), np.eye(3))


@pytest.mark.parametrize(
    "bad",
    [[], [1], [0, 0], [0, 2], [1, 2, 3], [-1, 0], [0, 1.0], [True, False], [0.0], "01",
     None, 3, {0, 1}, {0: 0}, np.array([0.0, 1.0]), list(range(MAX_ORDER + 1))],
    ids=lambda value: repr(value)[:30],
)
def test_permutation_matrix_rejects_non_permutations(bad):
    with pytest.raises(ValueError, match=r"^order must be a permutation of range\(n\)"):
        permutation_matrix(bad)


# --- order_blindness ---------------------------------------------------------------------


def test_order_blindness_without_positions():
    demo = order_blindness("dog bites man", [2, 1, 0])
    assert isinstance(demo, OrderBlindness)
    assert demo.tokens == ["dog", "bites", "man"]
    assert demo.shuffled == ["man", "bites", "dog"]
    assert demo.order == [2, 1, 0] and demo.with_pe is False and demo.truncated is False
    assert demo.outputs.shape == demo.shuffled_outputs.shape == (3, 8)
    assert demo.weights.shape == demo.shuffled_weights.shape == (3, 3)
    assert demo.token_match < 1e-12
    assert demo.pooled_diff < 1e-12
    assert isinstance(demo.token_match, float) and isinstance(demo.pooled_diff, float)


def test_pooled_vectors_dog_bites_man_versus_man_bites_dog():
    # Same bag of words, opposite meanings: attention alone pools them identically.
    w = projections(8)
    pooled = {}
    for sentence in ("dog bites man", "man bites dog"):
        tokens, _ = tokenize(sentence)
        for with_pe in (False, True):
            x = embed(tokens)
            if with_pe:
                x = x + sinusoidal(len(tokens), 8)
            pooled[sentence, with_pe] = self_attention(x, *w)[0].mean(axis=0)
    without = np.abs(pooled["dog bites man", False] - pooled["man bites dog", False]).max()
    with_positions = np.abs(pooled["dog bites man", True] - pooled["man bites dog", True]).max()
    assert without < 1e-12
    assert with_positions > 1e-3


def test_order_blindness_with_positions_sees_the_order():
    demo = order_blindness("dog bites man", [2, 1, 0], with_pe=True)
    assert demo.with_pe is True
    assert demo.pooled_diff > 1e-3
    assert demo.token_match > 1e-3


def test_order_blindness_adds_positions_at_the_new_places():
    demo = order_blindness("dog bites man", [2, 1, 0], with_pe=True)
    w = projections(8)
    expected, _ = self_attention(embed(["man", "bites", "dog"]) + sinusoidal(3, 8), *w)
    np.testing.assert_allclose(demo.shuffled_outputs, expected, rtol=0, atol=1e-15)


@pytest.mark.parametrize("sentence", ["the cat saw the dog", "The cat saw THE dog!", "hello"])
def test_order_blindness_every_order_of_repeated_words(sentence):
    tokens, _ = tokenize(sentence)
    rng = np.random.default_rng(7)
    for _ in range(5):
        order = rng.permutation(len(tokens)).tolist()
        demo = order_blindness(sentence, order)
        assert demo.shuffled == [tokens[m] for m in order]
        assert demo.token_match < 1e-12 and demo.pooled_diff < 1e-12


def test_order_blindness_identity_order_changes_nothing():
    for with_pe in (False, True):
        demo = order_blindness("the cat saw the dog", None, with_pe=with_pe)
        assert demo.order == [0, 1, 2, 3, 4] and demo.shuffled == demo.tokens
        assert demo.token_match == 0.0 and demo.pooled_diff < 1e-15


def test_swapping_identical_words_gives_the_same_sentence():
    # Tokens 0 and 3 are both "the": the shuffled sentence is the sentence itself.
    demo = order_blindness("the cat saw the dog", [3, 1, 2, 0, 4], with_pe=True)
    assert demo.shuffled == demo.tokens
    assert np.array_equal(demo.shuffled_outputs, demo.outputs) and demo.pooled_diff == 0.0
    # But with positions the two "the"s have different outputs, so Y' != P Y.
    assert demo.token_match > 1e-3
    assert order_blindness("the cat saw the dog", [3, 1, 2, 0, 4]).token_match < 1e-12


def test_order_blindness_truncates_long_sentences():
    sentence = " ".join(f"w{k}" for k in range(100))
    demo = order_blindness(sentence, list(range(MAX_TOKENS))[::-1])
    assert demo.truncated is True and len(demo.tokens) == MAX_TOKENS
    assert demo.token_match < 1e-12


def test_order_blindness_d_model_and_base():
    demo = order_blindness("dog bites man", [1, 2, 0], with_pe=True, d_model=5, base=100.0)
    assert demo.outputs.shape == (3, 5)
    expected, _ = self_attention(
        embed(["dog", "bites", "man"], 5) + sinusoidal(3, 5, 100.0), *projections(5)
    )
    np.testing.assert_allclose(demo.outputs, expected, rtol=0, atol=1e-15)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"sentence": "", "order": None}, r"^sentence must contain at least one word$"),
        ({"sentence": 5, "order": None}, r"^sentence must be a str"),
        (
            {"sentence": "dog bites man", "order": [0, 1]},
            r"^order must be a permutation of range\(3\)",
        ),
        (
            {"sentence": "dog bites man", "order": [0, 1, 1]},
            r"^order must be a permutation of range\(3\)",
        ),
        (
            {"sentence": "dog bites man", "order": [0, 1, 2, 3]},
            r"^order must be a permutation of range\(3\)",
        ),
        (
            {"sentence": "dog bites man", "order": "210"},
            r"^order must be a permutation of range\(3\)",
        ),
        ({"sentence": "dog", "order": None, "with_pe": 1}, r"^with_pe must be True or False"),
        ({"sentence": "dog", "order": None, "with_pe": "yes"}, r"^with_pe must be True or False"),
        ({"sentence": "dog", "order": None, "d_model": 0}, r"^d_model must be an integer"),
        ({"sentence": "dog", "order": None, "base": 1.0}, r"^base must be a finite real number"),
    ],
)
def test_order_blindness_bad_arguments_are_rejected(kwargs, message):
    with pytest.raises(ValueError, match=message):
        order_blindness(**kwargs)


# --- the causal mask -----------------------------------------------------------------


def test_causal_weights_see_only_earlier_tokens():
    x = embed(["the", "cat", "saw", "the", "dog"])
    _, weights = self_attention(x, *projections(8), causal=True)
    assert (np.triu(weights, 1) == 0.0).all()  # exact: exp(-inf) is 0
    assert weights[0].tolist() == [1.0, 0.0, 0.0, 0.0, 0.0]  # the first token sees only itself
    np.testing.assert_allclose(weights.sum(axis=1), 1.0, rtol=0, atol=1e-15)


def test_causal_output_is_full_attention_over_the_prefix():
    """Token a under the mask is what unmasked attention gives token a of the first a + 1 tokens."""
    rng = np.random.default_rng(7)
    x = rng.standard_normal((6, 5))
    w = projections(5, d_k=3, seed=2)
    outputs, _ = self_attention(x, *w, causal=True)
    for a in range(6):
        prefix_outputs, _ = self_attention(x[: a + 1], *w)
        np.testing.assert_allclose(outputs[a], prefix_outputs[a], rtol=0, atol=1e-12)


@pytest.mark.parametrize("sentence", ["dog bites man", "the cat saw the dog", "a b c d e f"])
def test_the_causal_mask_breaks_equivariance(sentence):
    """The lesson's caveat: order-blindness needs attention without a mask."""
    tokens, _ = tokenize(sentence)
    order = list(range(len(tokens)))[::-1]
    plain = order_blindness(sentence, order)
    masked = order_blindness(sentence, order, causal=True)
    assert plain.token_match < 1e-12
    assert masked.token_match > 0.1 and masked.causal is True
    # The break is the mask's alone: no positional encoding was added.
    assert masked.with_pe is False


def test_attention_scores_are_the_scores_self_attention_turns_into_weights():
    x = embed("the cat sat on the mat".split(), 8)
    w_q, w_k, w_v = projections(8)
    scores = attention_scores(x, w_q, w_k)
    # Entry by entry: q_a . k_b / sqrt(d_k) with q and k from loops, no matrix product.
    q = [[sum(x[a, m] * w_q[m, c] for m in range(8)) for c in range(8)] for a in range(6)]
    k = [[sum(x[b, m] * w_k[m, c] for m in range(8)) for c in range(8)] for b in range(6)]
    expected = np.array(
        [[sum(q[a][c] * k[b][c] for c in range(8)) for b in range(6)] for a in range(6)]
    )
    # Entries of order 1, sums of 8 products: BLAS's order of adding changes rounding only.
    np.testing.assert_allclose(scores, expected / math.sqrt(8), rtol=0, atol=1e-12)
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))
    weights /= weights.sum(axis=1, keepdims=True)
    # The same numbers through the same softmax as self_attention's (up to rounding).
    np.testing.assert_allclose(self_attention(x, w_q, w_k, w_v)[1], weights, rtol=0, atol=1e-12)


@pytest.mark.parametrize(
    "args, name",
    [
        ((np.ones((2, 3)), np.ones((2, 3)), np.ones((2, 3))), "shapes do not fit"),
        ((np.ones((2, 3)), np.ones((3, 2)), np.ones((3, 4))), "shapes do not fit"),
        (([[np.inf]], [[1.0]], [[1.0]]), "x"),
        (([[1.0]], [1.0], [[1.0]]), "w_q"),
        (([[1.0]], [[1.0]], None), "w_k"),
    ],
)
def test_attention_scores_names_a_bad_argument(args, name):
    with pytest.raises(ValueError, match=name):
        attention_scores(*args)
