r"""
# Stretching the context: RoPE past the trained length

A model trained on sequences of length $L$ (`train_len`) has seen every pair
turn by angles $m \omega_i$ with $0 \le m < L$ only.  At a length $L' > L$
(`target_len`) its slow pairs, whose wavelength $\lambda_i = 2\pi/\omega_i$
is longer than $L$, turn further than ever in training.  The methods below
bring the angles back into the trained range, each in its own way; all use
the scale $s = L'/L$.

* Position interpolation (Chen et al. 2023, arXiv:2306.15595) squeezes the
  positions, $m \mapsto m L / L'$: every pair stays in range, and neighbours
  come $s$ times closer in every pair, the fast ones too
  (`interpolated_positions`).
* "NTK-aware" scaling (bloc97, 2023, a community proposal on Reddit's
  r/LocalLLaMA, not a paper) raises the base to $base \cdot s^{d/(d-2)}$: the
  fastest pair is unchanged and the slowest one is slowed by exactly $s$
  (`ntk_scaled_base`).
* YaRN (Peng et al. 2023, arXiv:2309.00071) interpolates pair by pair by
  wavelength, the "NTK-by-parts" blend, and scales the attention logits
  (`yarn_frequencies`, `yarn_attention_scale`).

Each function is a formula of a few lines; `rope_rotate` then rotates with
the frequencies, the base or the positions they give.
"""

import math

import numpy as np

from .checks import check_even_size, check_positions, check_real, check_size
from .positional_encoding import MAX_D_MODEL, MAX_SEQ_LEN, angular_frequencies

# YaRN's ramp bounds for LLaMA (Peng et al. 2023): pairs that turn fewer than
# alpha times over the trained length are interpolated, more than beta times left alone.
YARN_ALPHA = 1.0
YARN_BETA = 32.0


def interpolated_positions(positions, train_len, target_len):
    r"""
    Position interpolation (Chen et al. 2023, "Extending Context Window of
    Large Language Models via Positional Interpolation", arXiv:2306.15595):

    $$
    m \mapsto m \cdot \frac{L}{L'},
    $$

    $L$ = `train_len`, $L'$ = `target_len`.  The positions $0, \dots, L' - 1$
    land in $[0, L)$, so every pair's angle $m \omega_i$ stays within the
    range seen in training; the price is that neighbouring positions are
    $L/L'$ apart instead of 1, in every pair.

    Args:
        positions: a 1-D array of at least one real number, each from 0 to
            `MAX_SEQ_LEN`.
        train_len: the trained length $L$, an integer from 1 to `MAX_SEQ_LEN`.
        target_len: the length to reach $L'$, an integer from `train_len` to
            `MAX_SEQ_LEN`.

    Returns:
        float64 array of the same shape as `positions`, each multiplied by
        `train_len / target_len`.

    Raises:
        ValueError: naming the argument that is out of range.

    Example:
        >>> interpolated_positions([0, 1, 4095], 2048, 4096).tolist()
        [0.0, 0.5, 2047.5]
    """
    positions = check_positions(positions)
    train_len = check_size("train_len", train_len, MAX_SEQ_LEN)
    target_len = check_size("target_len", target_len, MAX_SEQ_LEN, minimum=train_len)
    return positions * (train_len / target_len)


def ntk_scaled_base(base, scale, d):
    r"""
    The "NTK-aware" base (bloc97, 2023: a community proposal posted on Reddit's
    r/LocalLLaMA, not a paper; Peng et al. 2023, arXiv:2309.00071, write it
    down):

    $$
    base' = base \cdot s^{d / (d - 2)} .
    $$

    With $\omega'_i = base'^{-2i/d}$ the fastest pair keeps
    $\omega'_0 = \omega_0 = 1$, and the slowest one, $i = d/2 - 1$, gets
    $\omega'_i = base^{-(d-2)/d} \cdot s^{-1} = \omega_i / s$: its wavelength
    grows by exactly $s$.  The pairs between are slowed by $s^{2i/(d-2)}$,
    less the faster they are.

    Args:
        base: the trained base, a finite real number > 1.
        scale: $s = L'/L$, a finite real number of at least 1.
        d: the head dimension, an even integer from 4 to `MAX_D_MODEL` (with
            one pair, $d = 2$, the fastest pair is the slowest).

    Returns:
        the new base, a Python float.

    Raises:
        ValueError: naming the argument that is out of range, or naming base
            and scale when the new base is beyond the float range.

    Example:
        >>> round(ntk_scaled_base(10000.0, 4.0, 128), 1)
        40889.9
    """
    base = check_real("base", base, 1, strict=True)
    scale = check_real("scale", scale, 1)
    d = check_even_size("d", d, MAX_D_MODEL, minimum=4)
    try:
        scaled = base * scale ** (d / (d - 2))
    except OverflowError:  # float ** raises rather than giving inf
        scaled = math.inf
    if not math.isfinite(scaled):
        raise ValueError(
            "base and scale must keep base * scale ** (d / (d - 2)) within the float range, "
            f"got base={base}, scale={scale}"
        )
    return scaled


def yarn_frequencies(d, base, scale, train_len, alpha=YARN_ALPHA, beta=YARN_BETA):
    r"""
    YaRN's "NTK-by-parts" frequencies (Peng et al. 2023, "YaRN: Efficient
    Context Window Extension of Large Language Models", arXiv:2309.00071,
    the "NTK-by-parts" interpolation).  Pair $i$ turns $r_i = L / \lambda_i$ times over the
    trained length $L$, $\lambda_i = 2\pi / \omega_i$,
    $\omega_i = base^{-2i/d}$; the ramp

    $$
    \gamma(r) = \begin{cases}
        0 & r < \alpha \\
        1 & r > \beta \\
        \dfrac{r - \alpha}{\beta - \alpha} & \text{otherwise}
    \end{cases}
    $$

    blends interpolating it with leaving it alone:

    $$
    \omega'_i = (1 - \gamma(r_i)) \, \frac{\omega_i}{s} + \gamma(r_i) \, \omega_i .
    $$

    Fast pairs ($r_i > \beta$, many turns within $L$) keep their frequency;
    slow pairs ($r_i < \alpha$, less than a turn) are interpolated, $\omega_i/s$,
    as position interpolation would; the ones between get a mix.  The
    paper's values for LLaMA are $\alpha = 1$, $\beta = 32$.

    Checked against the authors' code (github.com/jquesnelle/yarn,
    `scaled_rope/LlamaYaRNScaledRotaryEmbedding.py`): it blends the same two
    frequencies (`inv_freq_interpolation`, `inv_freq_extrapolation`), with
    `beta_fast` = 32 and `beta_slow` = 1 playing $\beta$ and $\alpha$, but
    its ramp is linear in the pair index $i$ between the rounded indices
    where $r = \beta$ and $r = \alpha$ (`find_correction_range`,
    `linear_ramp_mask`), and so differs from this one, linear in $r$, on the
    pairs between; both agree on the pairs outside.  Hugging Face's
    `_compute_yarn_parameters` follows the authors' code.

    Args:
        d: the head dimension, an even integer from 2 to `MAX_D_MODEL`.
        base: a finite real number > 1.
        scale: $s = L'/L$, a finite real number of at least 1.
        train_len: the trained length $L$, an integer from 1 to `MAX_SEQ_LEN`.
        alpha: the ramp's lower bound, a finite real number of at least 0.
        beta: its upper bound, a finite real number greater than `alpha`.

    Returns:
        float64 array of shape `(d / 2,)`, $\omega'_i$ for each pair, each
        from $\omega_i / s$ to $\omega_i$.

    Raises:
        ValueError: naming the argument that is out of range.

    Example:
        >>> (yarn_frequencies(8, 10000.0, 4.0, 2048) / angular_frequencies(8)).round(4).tolist()
        [1.0, 1.0, 0.3047, 0.25]
    """
    d = check_even_size("d", d, MAX_D_MODEL)
    base = check_real("base", base, 1, strict=True)
    scale = check_real("scale", scale, 1)
    train_len = check_size("train_len", train_len, MAX_SEQ_LEN)
    alpha = check_real("alpha", alpha, 0)
    beta = check_real("beta", beta, alpha, strict=True, minimum_name="alpha")
    omega = angular_frequencies(d, base)
    # r_i = L / lambda_i = L w_i / 2 pi: how many turns pair i makes over the trained length.
    turns = train_len * omega / (2.0 * math.pi)
    # gamma: 0 below alpha, 1 above beta, linear between. A beta barely above alpha may
    # make the slope overflow to inf; the clip then gives the step it tends to.
    with np.errstate(over="ignore"):
        gamma = np.clip((turns - alpha) / (beta - alpha), 0.0, 1.0)
    return (1.0 - gamma) * (omega / scale) + gamma * omega


def yarn_attention_scale(scale):
    r"""
    YaRN's attention factor (Peng et al. 2023, arXiv:2309.00071):
    the logits $q^\top k / \sqrt{d}$ are divided by a temperature $t$ with

    $$
    \sqrt{1/t} = 0.1 \ln s + 1 ,
    $$

    and this function returns that $\sqrt{1/t}$: the factor by which both
    the rotated query and the rotated key are multiplied (the authors' code,
    github.com/jquesnelle/yarn, multiplies its cos and sin tables by it, as
    `get_mscale`), so that each logit is multiplied by its square, $1/t$.
    It is 1 at $s = 1$ and grows slowly: 1.139 at $s = 4$, 1.277 at $s = 16$.

    Args:
        scale: $s = L'/L$, a finite real number of at least 1.

    Returns:
        $0.1 \ln s + 1$, a Python float of at least 1.

    Raises:
        ValueError: if `scale` is out of range.

    Example:
        >>> round(yarn_attention_scale(16), 4)
        1.2773
    """
    scale = check_real("scale", scale, 1)
    return 0.1 * math.log(scale) + 1.0
