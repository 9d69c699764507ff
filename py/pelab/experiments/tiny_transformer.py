r"""
# A tiny Transformer, forward and backward, in numpy

Small enough to train in a browser tab in seconds, and to read in one
sitting.  For a batch of token sequences $t \in \{0, \dots, V - 1\}^{B \times n}$:

$$
x^{(0)}_i = E_{t_i} + p_i, \qquad
x^{(l+1)} = x^{(l)} + \mathrm{Attn}_l(x^{(l)}), \qquad
\text{logits}_i = x^{(L)}_i W_{out} + b_{out},
$$

with $p_i$ the position vector of the scheme (zero for `none`, `rope` and
`alibi`), and multi-head attention

$$
\mathrm{Attn}(x) = \mathrm{concat}_h\big(\mathrm{softmax}(S_h) \, x W_V^h\big) W_O,
\qquad
S_h = \frac{\rho(x W_Q^h) \, \rho(x W_K^h)^\top}{\sqrt{d_h}} + B_h + M,
$$

where $\rho$ is RoPE's rotation of each head's queries and keys (`rope`
only, `pelab.rope_rotate`), $B_h$ is ALiBi's bias (`alibi` only,
`pelab.alibi_bias`) and $M$ the causal mask ($-\infty$ for keys after the
query) when `causal` is set.

What is left out, on purpose: LayerNorm, the feed-forward block, dropout
and the token-embedding tie.  Real Transformers have them; the position
signal goes through the same attention either way, and each of them would
double the code a learner has to read.

The position schemes, `SCHEMES`:

- `none`: no position information at all.  Without a causal mask the model
  cannot tell orders apart; with one, a token sees how many tokens precede
  it, which is a weak position signal (Haviv et al. 2022).
- `learned`: a trained table $P$, initialised like `pelab.learned`
  ($\mathcal{N}(0, 0.02^2)$), row $i$ added to the token at position $i$.
- `sinusoidal`: `pelab.sinusoidal`, added and never trained.
- `rope`: no vector added; queries and keys of every head rotated with
  `pelab.rope_rotate`.
- `alibi`: no vector added; each head's scores get `pelab.alibi_bias`.

The gradients are written out by hand (`loss_and_gradients`), layer by
layer, and tested against central finite differences in float64 for every
parameter and every scheme.
"""

from dataclasses import dataclass

import numpy as np

from ..alibi import alibi_bias
from ..checks import check_bool, check_choice, check_frequencies, check_real, check_size
from ..learned import MAX_LEN
from ..learned import learned as learned_table
from ..positional_encoding import sinusoidal
from ..rope import rope_rotate

# The position schemes a TinyConfig may name.
SCHEMES = ("none", "learned", "sinusoidal", "rope", "alibi")
# Limits that keep one training step small enough for a browser tab.
MAX_VOCAB = 64
MAX_WIDTH = 128
MAX_HEADS = 8
MAX_LAYERS = 2


# The tiny model's shape: `tiny_config`'s and `pelab.experiments.training.Trainer`'s defaults, so
# the training demo's model; the experiments change only its head count
# (`pelab.experiments.sliced.MODEL`).
TINY_MODEL = {"vocab_size": 8, "d_model": 32, "n_heads": 2, "n_layers": 1}

@dataclass(frozen=True)
class TinyConfig:
    """
    The shape of a tiny Transformer.  Make it with `tiny_config`, which
    checks every field.

    Attributes:
        scheme: one of `SCHEMES`.
        causal: whether each position attends only to itself and earlier ones.
        vocab_size: the number of token ids, $V$.
        d_model: the width of every vector.
        n_heads: the number of attention heads; `d_model / n_heads` is even.
        n_layers: 1 or 2 attention layers.
        max_len: rows of the learned table (`learned` only): the longest
            sequence the model can read.
    """

    scheme: str
    causal: bool
    vocab_size: int
    d_model: int
    n_heads: int
    n_layers: int
    max_len: int


def tiny_config(
    scheme="learned",
    causal=True,
    vocab_size=TINY_MODEL["vocab_size"],
    d_model=TINY_MODEL["d_model"],
    n_heads=TINY_MODEL["n_heads"],
    n_layers=TINY_MODEL["n_layers"],
    max_len=64,
):
    """
    A checked `TinyConfig`.

    Args:
        scheme: one of `SCHEMES`.
        causal: a bool.
        vocab_size: an integer from 2 to `MAX_VOCAB`.
        d_model: an integer from 2 to `MAX_WIDTH`.
        n_heads: an integer from 1 to `MAX_HEADS` dividing `d_model` into
            heads of even width (RoPE rotates pairs).
        n_layers: 1 or 2.
        max_len: an integer from 1 to `pelab.learned`'s `MAX_LEN`.

    Returns:
        a `TinyConfig`.

    Raises:
        ValueError: naming the argument that is out of range.

    Example:
        >>> tiny_config("rope", d_model=16, n_heads=2).n_heads
        2
    """
    scheme = check_choice("scheme", scheme, SCHEMES)
    causal = check_bool("causal", causal)
    vocab_size = check_size("vocab_size", vocab_size, MAX_VOCAB, minimum=2)
    d_model = check_size("d_model", d_model, MAX_WIDTH, minimum=2)
    n_heads = check_size("n_heads", n_heads, MAX_HEADS)
    if d_model % n_heads or (d_model // n_heads) % 2:
        raise ValueError(
            f"n_heads must split d_model {d_model} into heads of even width "
            f"(RoPE rotates pairs), got {n_heads}"
        )
    n_layers = check_size("n_layers", n_layers, MAX_LAYERS)
    max_len = check_size("max_len", max_len, MAX_LEN)
    return TinyConfig(scheme, causal, vocab_size, d_model, n_heads, n_layers, max_len)


def init_parameters(config, seed=0):
    r"""
    Fresh parameters for `config`, the same for the same seed.

    Token embeddings $E \sim \mathcal{N}(0, 1)$, so that a token vector is
    about as long as a sinusoidal position vector; projection matrices
    $\mathcal{N}(0, 1/d_{model})$; readout bias 0; the learned table is
    `pelab.learned(max_len, d_model, seed)`.

    Args:
        config: a `TinyConfig`.
        seed: an integer from 0 to 2**64 - 1.

    Returns:
        dict of name -> float64 array: `embedding` (V, d), `position_table`
        (max_len, d; `learned` only), `layer{l}.query`, `.key`, `.value`,
        `.output` (d, d) for each layer $l$, `readout` (d, V),
        `readout_bias` (V,).

    Example:
        >>> sorted(init_parameters(tiny_config("none", n_layers=1)))[:3]
        ['embedding', 'layer0.key', 'layer0.output']
    """
    seed = check_size("seed", seed, 2**64 - 1, minimum=0)
    d, v = config.d_model, config.vocab_size
    rng = np.random.default_rng([seed, 0])
    params = {"embedding": rng.standard_normal((v, d))}
    for layer in range(config.n_layers):
        for name in ("query", "key", "value", "output"):
            # N(0, 1/d): keeps a product x W about as long as x.
            params[f"layer{layer}.{name}"] = rng.standard_normal((d, d)) / np.sqrt(d)
    params["readout"] = rng.standard_normal((d, v)) / np.sqrt(d)
    params["readout_bias"] = np.zeros(v)
    if config.scheme == "learned":
        params["position_table"] = np.array(learned_table(config.max_len, d, seed).table)
    return params


def forward(config, params, tokens, rope_frequencies=None, logit_scale=1.0):
    r"""
    The logits for every position of every sequence.

    The last two arguments are for evaluating a trained `rope` model
    stretched past its training length (`pelab.experiments.stretch_experiment`); training
    never sets them, and with their defaults nothing changes, bit for bit.

    Args:
        config: a `TinyConfig`.
        params: parameters as made by `init_parameters`.
        tokens: integer array (B, n) of token ids, $n \le$ `max_len` for
            `learned`.
        rope_frequencies: None, or the `d_model / n_heads / 2` frequencies
            $\omega'_i$ that every head rotates with instead of
            $10000^{-2i/d_h}$ (`rope` only), e.g. `pelab.stretched_frequencies`.
        logit_scale: a real number > 0 that multiplies every attention score,
            $S_h = c \, \rho(q) \rho(k)^\top / \sqrt{d_h} + \dots$ (`rope`
            only unless 1): YaRN's $1/t$, `pelab.yarn_attention_scale(s)**2`.

    Returns:
        `(logits, cache)`: float64 (B, n, V), and what `backward` needs.

    Raises:
        ValueError: for a token id out of range, a sequence longer than
            the learned table, or a stretch for a scheme other than `rope`.
    """
    max_len = config.max_len if config.scheme == "learned" else None
    tokens = _check_token_ids("tokens", tokens, config.vocab_size, max_len)
    logit_scale = check_real("logit_scale", logit_scale, 0, strict=True)
    if config.scheme != "rope" and (rope_frequencies is not None or logit_scale != 1.0):
        raise ValueError(
            f"rope_frequencies and logit_scale stretch RoPE: the scheme must be rope, "
            f"got {config.scheme}"
        )
    if rope_frequencies is not None:
        pairs = config.d_model // config.n_heads // 2
        rope_frequencies = check_frequencies("rope_frequencies", rope_frequencies, pairs)
    stretch = (rope_frequencies, logit_scale)
    n = tokens.shape[1]
    # x_i = E[t_i] (+ p_i for the additive schemes), shape (B, n, d).
    x = params["embedding"][tokens]
    if config.scheme == "learned":
        x = x + params["position_table"][:n]
    elif config.scheme == "sinusoidal":
        x = x + sinusoidal(n, config.d_model)
    bias = _score_bias(config, n)
    layers = []
    for layer in range(config.n_layers):
        x, cache = _attention_forward(config, params, layer, x, bias, stretch)
        layers.append(cache)
    # logits = x W_out + b, shape (B, n, V).
    logits = x @ params["readout"] + params["readout_bias"]
    return logits, {"tokens": tokens, "layers": layers, "final": x}


def cross_entropy(logits, targets, mask):
    r"""
    The mean cross-entropy over the positions where `mask` is set,

    $$
    \mathcal{L} = -\frac{1}{|M|} \sum_{(b, i) \in M}
        \log \mathrm{softmax}(\text{logits}_{bi})_{y_{bi}},
    $$

    and its gradient with respect to the logits,
    $(\mathrm{softmax} - \mathrm{onehot}(y)) / |M|$ on the masked positions.

    Args:
        logits: float (B, n, V).
        targets: int (B, n), ids below V (ignored where `mask` is False).
        mask: bool (B, n), with at least one True.

    Returns:
        `(loss, gradient, correct)`: float, float64 (B, n, V), and bool (B, n)
        (the largest logit is the target; False off the mask).
    """
    count = int(mask.sum())
    # log softmax, shifted by the row maximum so that exp never overflows.
    shifted = logits - logits.max(axis=-1, keepdims=True)
    log_probs = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    picked = np.take_along_axis(log_probs, targets[..., np.newaxis], axis=-1)[..., 0]
    loss = float(-(picked * mask).sum() / count)
    gradient = np.exp(log_probs)
    # d L / d logits = (softmax - onehot(y)) / |M| on the mask, 0 elsewhere.
    np.put_along_axis(
        gradient, targets[..., np.newaxis],
        np.take_along_axis(gradient, targets[..., np.newaxis], axis=-1) - 1.0, axis=-1,
    )
    gradient *= mask[..., np.newaxis] / count
    correct = (logits.argmax(axis=-1) == targets) & mask
    return loss, gradient, correct


def loss_and_gradients(config, params, tokens, targets, mask):
    """
    The loss on one batch and its gradient for every parameter (backprop).

    Args:
        config: a `TinyConfig`.
        params: parameters as made by `init_parameters`.
        tokens: int (B, n); targets: int (B, n); mask: bool (B, n), where
            the loss counts.

    Returns:
        `(loss, gradients, accuracy)`: float, dict with the keys of
        `params`, and the fraction of masked positions predicted right.
    """
    logits, cache = forward(config, params, tokens)
    loss, g_logits, correct = cross_entropy(logits, np.asarray(targets), np.asarray(mask))
    grads = {}
    x = cache["final"]
    d = config.d_model
    # logits = x W + b:  dW = x^T g,  db = sum g,  dx = g W^T.
    grads["readout"] = x.reshape(-1, d).T @ g_logits.reshape(-1, config.vocab_size)
    grads["readout_bias"] = g_logits.sum(axis=(0, 1))
    g_x = g_logits @ params["readout"].T
    for layer in reversed(range(config.n_layers)):
        g_x = _attention_backward(config, params, layer, cache["layers"][layer], g_x, grads)
    tokens = cache["tokens"]
    # x_i = E[t_i] + ...: each row of E collects the gradients of the places it was used,
    # onehot(t)^T g (a matrix product, not a scatter: V is small).
    onehot = np.eye(config.vocab_size)[tokens.ravel()]
    grads["embedding"] = onehot.T @ g_x.reshape(-1, d)
    if config.scheme == "learned":
        n = tokens.shape[1]
        table = np.zeros_like(params["position_table"])
        # Row i of P is added at position i of every sequence; rows past n get no gradient.
        table[:n] = g_x.sum(axis=0)
        grads["position_table"] = table
    accuracy = float(correct.sum() / mask.sum())
    return loss, grads, accuracy


def _score_bias(config, n):
    """What is added to every head's scores: ALiBi's bias and/or the causal mask, (H|1, n, n)."""
    if config.scheme == "alibi":
        # -m_h (i - j) for j <= i, and -inf after the query when causal.
        return alibi_bias(n, config.n_heads, causal=config.causal)
    bias = np.zeros((1, n, n))
    if config.causal:
        bias[0][np.triu_indices(n, k=1)] = -np.inf  # keys after the query: j > i
    return bias


def _split_heads(x, heads):
    """(B, n, d) -> (B, H, n, d / H)."""
    b, n, d = x.shape
    return x.reshape(b, n, heads, d // heads).transpose(0, 2, 1, 3)


def _merge_heads(x):
    """(B, H, n, d / H) -> (B, n, d)."""
    b, h, n, dh = x.shape
    return x.transpose(0, 2, 1, 3).reshape(b, n, h * dh)


def _rotate(x, positions, frequencies=None):
    """RoPE on every head of every sequence, (B, H, n, dh), via pelab.rope_rotate."""
    b, h, n, dh = x.shape
    rotated = rope_rotate(x.reshape(b * h, n, dh), positions, frequencies=frequencies)
    return rotated.reshape(b, h, n, dh)


def _attention_forward(config, params, layer, x, bias, stretch=(None, 1.0)):
    """One residual attention layer: x + Attn(x), and its cache."""
    w = {name: params[f"layer{layer}.{name}"] for name in ("query", "key", "value", "output")}
    heads = config.n_heads
    n = x.shape[1]
    positions = np.arange(n)
    q = _split_heads(x @ w["query"], heads)  # (B, H, n, dh)
    k = _split_heads(x @ w["key"], heads)
    v = _split_heads(x @ w["value"], heads)
    frequencies, logit_scale = stretch
    if config.scheme == "rope":
        q, k = _rotate(q, positions, frequencies), _rotate(k, positions, frequencies)
    # logit_scale is 1.0 except in a stretched evaluation, and 1.0 * a == a exactly.
    scale = logit_scale / np.sqrt(q.shape[-1])
    # S = q k^T / sqrt(dh) + bias, shape (B, H, n, n).
    scores = (q @ k.transpose(0, 1, 3, 2)) * scale + bias
    # softmax over the keys, shifted by the row maximum (the diagonal is never masked).
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    mixed = _merge_heads(weights @ v)  # (B, n, d)
    out = x + mixed @ w["output"]
    cache = {"x": x, "q": q, "k": k, "v": v, "weights": weights, "mixed": mixed, "scale": scale}
    return out, cache


def _attention_backward(config, params, layer, cache, g_out, grads):
    """Gradients of one residual attention layer: fills grads, returns dL/dx."""
    prefix = f"layer{layer}."
    d = config.d_model
    x, q, k, v = cache["x"], cache["q"], cache["k"], cache["v"]
    weights, mixed, scale = cache["weights"], cache["mixed"], cache["scale"]
    # out = x + mixed W_O:  dW_O = mixed^T g,  d mixed = g W_O^T, and g flows on through x.
    grads[prefix + "output"] = mixed.reshape(-1, d).T @ g_out.reshape(-1, d)
    g_mixed = _split_heads(g_out @ params[prefix + "output"].T, config.n_heads)
    # mixed = A v:  dA = g v^T,  dv = A^T g.
    g_weights = g_mixed @ v.transpose(0, 1, 3, 2)
    g_v = weights.transpose(0, 1, 3, 2) @ g_mixed
    # softmax: dS = A * (dA - sum_j dA_j A_j); masked keys have A = 0, so dS = 0 there.
    g_scores = weights * (g_weights - (g_weights * weights).sum(axis=-1, keepdims=True))
    # S = q k^T scale:  dq = dS k scale,  dk = dS^T q scale.
    g_q = (g_scores @ k) * scale
    g_k = (g_scores.transpose(0, 1, 3, 2) @ q) * scale
    if config.scheme == "rope":
        # A rotation's transpose is the rotation by the opposite angle: R_m^T = R_{-m}.
        positions = -np.arange(x.shape[1])
        g_q, g_k = _rotate(g_q, positions), _rotate(g_k, positions)
    g_x = g_out.copy()
    flat_x = x.reshape(-1, d).T
    for name, g in (("query", g_q), ("key", g_k), ("value", g_v)):
        g = _merge_heads(g)
        # y = x W:  dW = x^T g,  dx += g W^T.
        grads[prefix + name] = flat_x @ g.reshape(-1, d)
        g_x += g @ params[prefix + name].T
    return g_x

# ---------------------------------------------------------------------------
# Argument checks used only here
# ---------------------------------------------------------------------------


def _check_token_ids(name, value, vocab_size, max_len=None):
    """
    Check a batch of token ids for a model: a non-empty 2-D integer array
    `(batch, seq_len)` of ids from 0 to `vocab_size - 1`, and, when `max_len`
    is given (a learned position table's rows), `seq_len <= max_len`.

    Returns:
        `value` as a numpy integer array.

    Raises:
        ValueError: "<name> must be a non-empty 2-D integer array (batch,
            seq_len) of ids from 0 to <vocab_size - 1>, got ...", or
            "<name> has seq_len <n>, past the learned table's <max_len> rows".
    """
    array = np.asarray(value)
    if (
        array.ndim != 2
        or array.size == 0
        or not np.issubdtype(array.dtype, np.integer)
        or array.min() < 0
        or array.max() >= vocab_size
    ):
        raise ValueError(
            f"{name} must be a non-empty 2-D integer array (batch, seq_len) of ids from 0 to "
            f"{vocab_size - 1}, got shape {array.shape} of {array.dtype}"
        )
    if max_len is not None and array.shape[1] > max_len:
        raise ValueError(
            f"{name} has seq_len {array.shape[1]}, past the learned table's {max_len} rows"
        )
    return array
