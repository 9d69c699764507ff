"""Tests for pelab.score_terms: the four terms of an attention score with additive positions,
and which of them depend on the positions only through i - j."""

import doctest
import importlib

import numpy as np
import pytest

from pelab import embed, projections, rotation, sinusoidal, toeplitz_residual
from pelab.score_terms import MAX_TERMS_WIDTH, TERM_NAMES, four_terms, score_terms

# Its code or checks go through BLAS or LAPACK: rerun under every kernel (test_blas_kernels.py).
pytestmark = pytest.mark.blas_numeric

# pelab.score_terms is also the name of the function, which the package exports.
score_terms_module = importlib.import_module("pelab.score_terms")

SENTENCE = "the cat sat on the mat because the mat was warm"
# Rounding only: entries are sums of d <= 64 products of numbers below about 10, and BLAS may
# add them in any order (the last bits differ between kernels), so 1e-12 is far above it.
ROUNDING = 1e-12


def test_docstring_examples_hold():
    assert doctest.testmod(score_terms_module).failed == 0


def loop_terms(x, p, a):
    """Each term entry by entry, as the sum over k, l of u_ik a_kl v_jl: no matrix products."""
    n, d = x.shape
    out = {name: np.zeros((n, n)) for name in (*TERM_NAMES, "total")}
    pairs = {
        "content_content": (x, x),
        "content_position": (x, p),
        "position_content": (p, x),
        "position_position": (p, p),
        "total": (x + p, x + p),
    }
    for name, (u, v) in pairs.items():
        for i in range(n):
            for j in range(n):
                out[name][i, j] = sum(
                    u[i, k] * a[k, m] * v[j, m] for k in range(d) for m in range(d)
                )
    return out


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_terms_match_an_entry_by_entry_computation(seed):
    rng = np.random.default_rng(seed)
    x, p, a = rng.standard_normal((5, 4)), rng.standard_normal((5, 4)), rng.standard_normal((4, 4))
    got = score_terms(x, p, a)
    expected = loop_terms(x, p, a)
    for name in (*TERM_NAMES, "total"):
        # Standard normal entries, sums of 16 products: ROUNDING bounds any order of adding.
        np.testing.assert_allclose(getattr(got, name), expected[name], rtol=0, atol=ROUNDING)


def test_the_four_terms_add_up_to_the_score_of_the_attention_head():
    # The score q_i . k_j of the toy head, computed the way attention does, from the sums.
    tokens = SENTENCE.split()
    x, p = embed(tokens, 8), sinusoidal(len(tokens), 8)
    w_q, w_k, _ = projections(8)
    q, k = (x + p) @ w_q, (x + p) @ w_k
    terms = score_terms(x, p, w_q @ w_k.T)
    summed = sum(matrix for _, matrix in terms.terms())
    # Entries of size about 10; different association orders differ by rounding only.
    np.testing.assert_allclose(summed, q @ k.T, rtol=0, atol=ROUNDING)
    np.testing.assert_allclose(terms.total, q @ k.T, rtol=0, atol=ROUNDING)


def test_with_the_identity_position_position_is_the_dot_product_of_positions():
    p = sinusoidal(12, 8)
    terms = score_terms(np.zeros_like(p), p, np.eye(8))
    # p I is exact, but BLAS may add (p I) p^T in another order than p p^T: rounding only.
    np.testing.assert_allclose(terms.position_position, p @ p.T, rtol=0, atol=ROUNDING)
    assert not terms.content_content.any() and not terms.content_position.any()


def test_position_position_depends_on_the_offset_only_when_a_commutes_with_the_rotations():
    p = sinusoidal(20, 8)
    # A scaled rotation of every pair, c M_3: commutes with every M_t (rotations of the same
    # planes commute), so p_i A p_j depends on i - j only.
    commuting = 2.5 * rotation(3, 8)
    w_q, w_k, _ = projections(8)
    for a in (np.eye(8), commuting):
        # Entries below 10 in size; the residual is rounding error, far below 1e-12.
        assert toeplitz_residual(score_terms(p, p, a).position_position) < ROUNDING
    general = score_terms(p, p, w_q @ w_k.T).position_position
    assert toeplitz_residual(general) > 0.1  # a general A: clearly not a function of i - j


def test_cross_terms_hold_one_absolute_position():
    # One word repeated: x_i is the same vector e for every i, so x_i A p_j = e A p_j depends on
    # j alone (every row is equal) and is not a function of i - j.
    tokens = ["dog"] * 10
    x, p = embed(tokens, 8), sinusoidal(10, 8)
    terms = score_terms(x, p, np.eye(8))
    cp, pc = terms.content_position, terms.position_content
    # Each row is the same vector times the same matrix; a BLAS kernel may still treat the
    # rows of a block differently, so rounding is allowed (entries below 10).
    np.testing.assert_allclose(cp, np.tile(cp[0], (10, 1)), rtol=0, atol=ROUNDING)
    np.testing.assert_allclose(pc, cp.T, rtol=0, atol=ROUNDING)  # A = I: p_i . x_j = x_j . p_i
    assert toeplitz_residual(cp) > 0.1


def test_four_terms_for_a_sentence():
    head = four_terms(SENTENCE)
    n = len(SENTENCE.split())
    assert head.tokens == SENTENCE.split() and not head.truncated and not head.identity
    w_q, w_k, _ = projections(8)
    # The same product of the same arrays: BLAS gives the same bits for the same call.
    np.testing.assert_array_equal(head.a, w_q @ w_k.T)
    for name, matrix in head.scores.terms():
        assert matrix.shape == (n, n)
        assert head.toeplitz[name] == toeplitz_residual(matrix)
        assert head.toeplitz[name] > 0.1, name  # none is relative with the toy head
    assert head.sum_gap < ROUNDING
    plain = four_terms(SENTENCE, identity=True)
    np.testing.assert_array_equal(plain.a, np.eye(8))
    assert plain.toeplitz["position_position"] < ROUNDING
    for name in ("content_content", "content_position", "position_content", "total"):
        assert plain.toeplitz[name] > 0.1, name


def test_an_odd_width_breaks_even_the_identity():
    # d_model 1 is a lone sine column, w = 1: sin(i) sin(j) is not a function of i - j.
    assert four_terms(SENTENCE, identity=True, d_model=1).toeplitz["position_position"] > 1e-3


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"sentence": 5}, "sentence"),
        ({"sentence": " ... "}, "sentence"),
        ({"identity": "yes"}, "identity"),
        ({"d_model": 0}, "d_model"),
        ({"d_model": MAX_TERMS_WIDTH + 1}, "d_model"),
        ({"d_model": 2.5}, "d_model"),
        ({"base": 1.0}, "base"),
    ],
)
def test_four_terms_names_a_bad_argument(kwargs, name):
    with pytest.raises(ValueError, match=name):
        four_terms(**{"sentence": "dog bites man", **kwargs})


@pytest.mark.parametrize(
    ("x", "p", "a", "name"),
    [
        ([[np.nan]], [[1.0]], [[1.0]], "x"),
        ([[1.0]], [1.0], [[1.0]], "p"),
        ([[1.0]], [[1.0]], [[np.inf]], "a"),
        (np.ones((2, 3)), np.ones((2, 2)), np.eye(3), "shapes do not fit"),
        (np.ones((2, 3)), np.ones((2, 3)), np.eye(2), "shapes do not fit"),
    ],
)
def test_score_terms_names_a_bad_argument(x, p, a, name):
    with pytest.raises(ValueError, match=name):
        score_terms(x, p, a)
