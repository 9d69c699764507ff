"""Tests for pelab.experiments.tiny_transformer: the forward pass against a loop-by-loop reference
written from the formulas, and every hand-written gradient against central finite differences."""

import doctest
import math

import numpy as np
import pytest

import pelab.experiments.tiny_transformer as tiny_module
from pelab.experiments.position_tasks import copy_batch
from pelab.experiments.tiny_transformer import (
    SCHEMES,
    cross_entropy,
    forward,
    init_parameters,
    loss_and_gradients,
    tiny_config,
)

# Its code or checks go through BLAS or LAPACK: rerun under every kernel (test_blas_kernels.py).
pytestmark = pytest.mark.blas_numeric

# Every scheme, with and without the causal mask.
CONFIGS = [(scheme, causal) for scheme in SCHEMES for causal in (True, False)]


def test_docstring_examples_hold():
    assert doctest.testmod(tiny_module).failed == 0


def small_model(scheme, causal, layers=2, seed=3):
    config = tiny_config(scheme, causal, vocab_size=5, d_model=4, n_heads=2, n_layers=layers,
                         max_len=7)
    params = init_parameters(config, seed)
    if scheme == "learned":
        # N(0, 0.02^2) rows barely move the loss; larger ones make the table's gradient matter.
        params["position_table"] *= 40
    return config, params


@pytest.mark.parametrize("scheme, causal", CONFIGS)
def test_every_gradient_matches_central_finite_differences(scheme, causal):
    config, params = small_model(scheme, causal)
    batch = copy_batch(np.random.default_rng(7), 3, 6, 5, shift=2)
    args = (batch.tokens, batch.targets, batch.mask)
    _, grads, _ = loss_and_gradients(config, params, *args)
    assert set(grads) == set(params)
    h = 1e-5
    for name, value in params.items():
        numeric = np.zeros_like(value)
        for index in np.ndindex(value.shape):
            old = value[index]
            value[index] = old + h
            up = loss_and_gradients(config, params, *args)[0]
            value[index] = old - h
            down = loss_and_gradients(config, params, *args)[0]
            value[index] = old
            numeric[index] = (up - down) / (2 * h)
        # Central differences in float64 err by O(h^2 |L'''|) ~ 1e-10 (truncation) plus
        # ~ eps |L| / h ~ 1e-11 (rounding); measured: below 2e-9 of the largest entry. A wrong
        # term in a hand-written gradient is wrong by O(1) of it: 1e-6 tells the two apart.
        scale = max(np.abs(numeric).max(), 1e-3)
        assert np.abs(grads[name] - numeric).max() <= 1e-6 * scale, (name, scheme, causal)
        if name == "position_table":
            # Rows past the batch's length (6 of 7) get exactly no gradient.
            assert not grads[name][6:].any() and not numeric[6:].any()


def reference_logits(config, params, tokens):
    """The model written again from the formulas, one sequence, head, query and key at a time,
    with its own sinusoids, rotations and ALiBi slopes (not pelab's)."""
    d, heads = config.d_model, config.n_heads
    dh = d // heads
    batch, n = tokens.shape
    out = np.zeros((batch, n, config.vocab_size))
    slopes = [2 ** (-8 * (h + 1) / heads) for h in range(heads)]  # heads a power of two
    for b in range(batch):
        x = np.array([params["embedding"][t] for t in tokens[b]])
        for i in range(n):
            if config.scheme == "learned":
                x[i] = x[i] + params["position_table"][i]
            elif config.scheme == "sinusoidal":
                for j in range(0, d, 2):
                    angle = i / 10000 ** (j / d)
                    x[i, j] += math.sin(angle)
                    x[i, j + 1] += math.cos(angle)
        for layer in range(config.n_layers):
            w = {k: params[f"layer{layer}.{k}"] for k in ("query", "key", "value", "output")}
            mixed = np.zeros((n, d))
            for h in range(heads):
                cols = slice(h * dh, (h + 1) * dh)
                q = x @ w["query"][:, cols]
                k = x @ w["key"][:, cols]
                v = x @ w["value"][:, cols]
                if config.scheme == "rope":
                    for m in range(n):
                        for p in range(dh // 2):
                            t = m * 10000 ** (-2 * p / dh)
                            c, s = math.cos(t), math.sin(t)
                            rot = np.array([[c, -s], [s, c]])
                            q[m, 2 * p:2 * p + 2] = rot @ q[m, 2 * p:2 * p + 2]
                            k[m, 2 * p:2 * p + 2] = rot @ k[m, 2 * p:2 * p + 2]
                for i in range(n):
                    keys = range(i + 1) if config.causal else range(n)
                    scores = []
                    for j in keys:
                        s = float(q[i] @ k[j]) / math.sqrt(dh)
                        if config.scheme == "alibi":
                            s -= slopes[h] * abs(i - j)
                        scores.append(s)
                    top = max(scores)
                    e = [math.exp(s - top) for s in scores]
                    for weight, j in zip(e, keys):
                        mixed[i, cols] += weight / sum(e) * v[j]
            x = x + mixed @ w["output"]
        out[b] = x @ params["readout"] + params["readout_bias"]
    return out


@pytest.mark.parametrize("scheme, causal", CONFIGS)
def test_forward_matches_a_loop_by_loop_reference(scheme, causal):
    config = tiny_config(scheme, causal, vocab_size=6, d_model=8, n_heads=2, n_layers=2, max_len=9)
    params = init_parameters(config, 11)
    tokens = np.random.default_rng(2).integers(0, 6, size=(2, 9))
    logits, _ = forward(config, params, tokens)
    # The same sums in other orders (BLAS against Python loops): a few ulps of numbers of
    # size ~10 after two layers; 1e-10 leaves room for that and nothing else.
    np.testing.assert_allclose(logits, reference_logits(config, params, tokens), rtol=0, atol=1e-10)


def test_without_position_or_mask_the_model_cannot_see_order():
    config = tiny_config("none", causal=False, vocab_size=6, d_model=8, n_layers=2)
    params = init_parameters(config, 0)
    tokens = np.array([[1, 2, 3, 4, 5]])
    order = [4, 2, 0, 1, 3]
    logits, _ = forward(config, params, tokens)
    shuffled, _ = forward(config, params, tokens[:, order])
    # Each position's output is the same function of the same multiset: permuted exactly up to
    # the order of a softmax's sums (1e-12).
    np.testing.assert_allclose(shuffled, logits[:, order], atol=1e-12, rtol=0)
    causal = tiny_config("none", causal=True, vocab_size=6, d_model=8, n_layers=2)
    logits, _ = forward(causal, params, tokens)
    shuffled, _ = forward(causal, params, tokens[:, order])
    assert np.abs(shuffled - logits[:, order]).max() > 1e-3


def test_cross_entropy_matches_its_definition():
    logits = np.random.default_rng(0).standard_normal((2, 3, 4))
    targets = np.array([[0, 1, 2], [3, 3, 0]])
    mask = np.array([[True, False, True], [True, True, False]])
    loss, gradient, correct = cross_entropy(logits, targets, mask)
    expected = []
    for b, i in zip(*np.nonzero(mask)):
        row = logits[b, i]
        expected.append(math.log(sum(math.exp(v) for v in row)) - row[targets[b, i]])
    assert loss == pytest.approx(sum(expected) / 4, rel=1e-12)
    assert not gradient[0, 1].any() and not gradient[1, 2].any()
    # Each counted row of the gradient sums to 0: softmax minus a one-hot, over |M|.
    np.testing.assert_allclose(gradient.sum(axis=-1), 0, atol=1e-15)
    assert correct.tolist() == ((logits.argmax(-1) == targets) & mask).tolist()


def test_parameters_follow_the_seed_and_the_table_is_pelab_learned():
    from pelab.learned import learned

    config = tiny_config("learned", max_len=12, d_model=8)
    a, b, c = init_parameters(config, 5), init_parameters(config, 5), init_parameters(config, 6)
    assert all(np.array_equal(a[k], b[k]) for k in a)
    assert not np.array_equal(a["embedding"], c["embedding"])
    assert np.array_equal(a["position_table"], learned(12, 8, 5).table)
    assert "position_table" not in init_parameters(tiny_config("rope", d_model=8), 5)


@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({"scheme": "absolute"}, "scheme"),
        ({"causal": 1}, "causal"),
        ({"vocab_size": 1}, "vocab_size"),
        ({"d_model": 6, "n_heads": 4}, "n_heads"),
        ({"d_model": 6, "n_heads": 2}, "n_heads"),  # heads of width 3: RoPE needs pairs
        ({"n_layers": 3}, "n_layers"),
        ({"max_len": 0}, "max_len"),
    ],
)
def test_bad_configurations_name_the_argument(kwargs, name):
    with pytest.raises(ValueError, match=f"^{name} "):
        tiny_config(**kwargs)


def test_bad_tokens_are_refused():
    config = tiny_config("learned", vocab_size=4, d_model=4, max_len=5)
    params = init_parameters(config)
    for tokens in ([[0, 4]], [[-1, 0]], [0, 1], [[0.5, 1.0]], np.zeros((1, 6), dtype=int)):
        with pytest.raises(ValueError, match="^tokens "):
            forward(config, params, np.array(tokens))
