r"""
# Partial rotary embedding: RoPE on the first part of each head

GPT-NeoX (Black et al. 2022, arXiv:2204.06745) and Phi rotate only the first
$r = \lfloor d \cdot fraction \rfloor$ coordinates of each head's queries and keys and pass the
other $d - r$ through untouched: Hugging Face transformers calls the fraction `rotary_pct`
(GPT-NeoX's configuration, 0.25 by default) or `partial_rotary_factor` (Phi's, 0.5 by default).

The rotated part is RoPE in `rotate_half`'s layout over its own $r$ dimensions: pair $i$,
coordinates $(x_i, x_{i + r/2})$, turns by $p\, \omega_i$ with $\omega_i = base^{-2i/r}$ (the
frequencies run over the rotated dimensions, not over the whole head):

$$
x \mapsto \big(\, x_{:r} \cos\theta + \mathrm{rotate\_half}(x_{:r}) \sin\theta,\;\; x_{r:} \,\big),
\qquad \mathrm{rotate\_half}(a, b) = (-b, a).
$$

A query-key score then splits in two: $q_{:r}^\top R_{n-m}\, k_{:r}$, which depends on the
positions through the offset $m - n$ only, and $q_{r:} \cdot k_{r:}$, which does not depend on
position at all.  With `fraction = 1` it is ordinary RoPE in the half layout
(`rope_rotate(..., pairing="half")`).
"""

from .checks import MAX_DEMO_TOKENS, check_paired_vectors, check_real
from .positional_encoding import DEFAULT_BASE
from .rope import rope_rotate


def apply_partial_rotary(x, positions, fraction, base=DEFAULT_BASE):
    r"""
    Rotate the first `int(head_dim * fraction)` coordinates of each vector of `x` to its
    position, GPT-NeoX's way, and pass the rest through:

    $$
    y_{:r} = x_{:r} \cos\theta + \mathrm{rotate\_half}(x_{:r}) \sin\theta, \qquad
    y_{r:} = x_{r:}, \qquad r = \lfloor d \cdot fraction \rfloor,
    $$

    with $\theta$ = `positions[m]` $\cdot\, base^{-2i/r}$ for pair $i$ (coordinates $i$ and
    $i + r/2$) of row $m$.

    Args:
        x: queries or keys, array-like of shape `(seq_len, d)` or `(heads, seq_len, d)` of
            finite numbers, `d` even (from 2 to `MAX_D_MODEL`), `seq_len` at most
            `MAX_DEMO_TOKENS` (4096).
        positions: `seq_len` real positions, each from -`MAX_SEQ_LEN` to `MAX_SEQ_LEN`.
        fraction: the part of each head to rotate, a real number greater than 0 and at most 1
            (`rotary_pct`, `partial_rotary_factor`), such that `int(d * fraction)` is even and
            at least 2.
        base: a finite real number > 1.

    Returns:
        float64 array of the same shape as `x`: the first `int(d * fraction)` coordinates
        rotated, the others equal to `x`'s.

    Raises:
        ValueError: naming the argument that is out of range.

    Example:
        >>> y = apply_partial_rotary([[1.0, 0.0, 0.0, 0.0, 5.0, 6.0, 7.0, 8.0]], [1], 0.5)
        >>> y.round(4).tolist()   # pair 0 is (x_0, x_2), turned 1 radian; x_4 ... x_7 stay
        [[0.5403, 0.0, 0.8415, 0.0, 5.0, 6.0, 7.0, 8.0]]
    """
    x = check_paired_vectors("x", x, heads=True)
    fraction = check_real("fraction", fraction, 0, strict=True, maximum=1)
    seq_len, d = x.shape[-2], x.shape[-1]
    if seq_len > MAX_DEMO_TOKENS:
        raise ValueError(
            f"x must hold at most {MAX_DEMO_TOKENS} tokens (seq_len), got {seq_len}"
        )
    rotated = int(d * fraction)  # int(), as the reference code rounds it: towards 0
    if rotated < 2 or rotated % 2:
        raise ValueError(
            f"fraction must rotate an even number of at least 2 of x's {d} dims, "
            f"got int({d} * {fraction}) = {rotated}"
        )
    y = x.copy()
    # The first r dims: RoPE in the half layout, frequencies base^(-2i/r) over those r dims.
    y[..., :rotated] = rope_rotate(x[..., :rotated], positions, base, pairing="half")
    # The other d - r dims are x's, untouched.
    return y
