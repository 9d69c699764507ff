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
  (`ntk_scaled_base`).  The others are slowed by less than $s$, too little:
  for the models of `MODEL_SETTINGS`, at every integer $s$ from 2 to 32,
  every pair short of a full turn in training except the slowest still
  leaves the trained angles (`pelab.stretch_effects.angle_coverage`).
* YaRN (Peng et al. 2023, arXiv:2309.00071) interpolates pair by pair, the
  "NTK-by-parts" blend: fast pairs keep their frequency, slow ones are
  divided by $s$, a ramp blends the ones between; and it scales the
  attention logits (`yarn_attention_scale`).  The paper's ramp is linear in
  the number of turns over $L$ (`yarn_frequencies_by_turns`); the authors'
  code and Hugging Face transformers, which YaRN models run, lay it
  linearly over the pair index instead (`yarn_frequencies`, the one
  `stretched_frequencies` uses).
* Llama 3.1 (Meta, 2024) keeps fast pairs, divides slow pairs' frequencies
  by a fixed factor and blends between (`llama3_frequencies`, with its
  published parameters in `LLAMA31_ROPE_SCALING`).

Each function is a formula of a few lines; `rope_rotate` then rotates with
the frequencies, the base or the positions they give.  `stretched_frequencies`
picks a method by name.  What a stretch does, which pairs turn past the
angles seen in training and one query-key pair's score across offsets
before and after, is `pelab.stretch_effects`'s.
"""

import math

import numpy as np

from .checks import (
    MAX_D_MODEL,
    MAX_SEQ_LEN,
    check_choice,
    check_even_size,
    check_positions,
    check_real,
    check_size,
)
from .positional_encoding import angular_frequencies

# YaRN's ramp bounds for LLaMA (Peng et al. 2023; beta_slow and beta_fast in the authors'
# code): pairs that turn fewer than alpha times over the trained length are interpolated,
# more than beta times left alone.
YARN_ALPHA = 1.0
YARN_BETA = 32.0

# Llama 3.1's RoPE scaling, as published in the "rope_scaling" of its config.json
# (rope_type "llama3"); it applies to Llama 3's base 500000 and trained length 8192.
LLAMA31_ROPE_SCALING = {
    "factor": 8.0,
    "low_freq_factor": 1.0,
    "high_freq_factor": 4.0,
    "original_max_position_embeddings": 8192,
}

# Real models' RoPE settings, from their config.json files ("rope_theta",
# "max_position_embeddings"; sources in docs/teaching-notes.md). Each has heads of MODEL_HEAD_DIM.
MODEL_SETTINGS = {
    "llama2": {"name": "LLaMA 2", "base": 10000.0, "train_len": 4096},
    "codellama": {"name": "Code Llama", "base": 1000000.0, "train_len": 16384},
    "llama3": {"name": "Llama 3", "base": 500000.0, "train_len": 8192},
}
# Their head dimension: hidden size 4096 over 32 heads.
MODEL_HEAD_DIM = 128

# The methods `stretched_frequencies` knows, by name.
METHODS = ("none", "interpolation", "ntk", "yarn", "llama3")
# The largest stretch s = L'/L the functions below accept.
MAX_SCALE = 1024.0


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
    YaRN's frequencies as real models run them: the "NTK-by-parts" blend of
    Peng et al. 2023 ("YaRN: Efficient Context Window Extension of Large
    Language Models", arXiv:2309.00071, section 3.2), with its ramp laid over
    the pair index, as the authors' code and Hugging Face transformers
    compute it.

    Pair $i$ turns $r_i = L \omega_i / 2\pi$ times over the trained length $L$,
    $\omega_i = base^{-2i/d}$.  Solved for $i$, the (fractional) pair index at
    which a pair turns $r$ times is

    $$
    c(r) = \frac{d \, \ln\!\big(L / (2\pi r)\big)}{2 \ln base} .
    $$

    The ramp starts at the last pair that turns at least $\beta$ times and
    ends at the first that turns at most $\alpha$ times, both clamped:

    $$
    a = \max\big(\lfloor c(\beta) \rfloor, 0\big), \qquad
    b = \min\big(\lceil c(\alpha) \rceil, d - 1\big)
    \quad (b = a + 0.001 \text{ if } a = b),
    $$

    $$
    \gamma_i = 1 - \min\Big(1, \max\Big(0, \frac{i - a}{b - a}\Big)\Big),
    \qquad
    \omega'_i = (1 - \gamma_i) \, \frac{\omega_i}{s} + \gamma_i \, \omega_i .
    $$

    Pairs $0$ to $a$ keep their frequency; pairs from $b$ on are
    interpolated, $\omega_i / s$, as position interpolation would; between,
    the interpolated share grows linearly with the index $i$.  The paper's
    values for LLaMA are $\alpha = 1$, $\beta = 32$.

    The paper's own ramp is linear in $r$ (`yarn_frequencies_by_turns`).
    Both keep the pairs that turn more than $\beta$ times and interpolate
    those that turn fewer than $\alpha$ times, exactly; between, they
    differ, because $r_i$ falls geometrically with $i$: for LLaMA 2 (d 128,
    base 10000, L 4096) at $s = 4$ they differ on pairs 21 to 45, by up to
    27.5 % of $\omega_i$ (pair 30).  And when even the fastest pair turns
    fewer than $\beta$ times ($c(\beta) < 0$), the clamp starts the ramp at
    pair 0, which keeps its frequency here, not in the paper's formula.

    Written after the authors' code (github.com/jquesnelle/yarn,
    `scaled_rope/LlamaYaRNScaledRotaryEmbedding.py`: `find_correction_dim`,
    `find_correction_range`, `linear_ramp_mask`; the same functions, prefixed
    `_yarn_`, in `scaled_rope/modeling_llama_yarn.py`, with `beta_fast` = 32
    and `beta_slow` = 1 playing $\beta$ and $\alpha$) and Hugging Face
    transformers' `_compute_yarn_parameters`
    (`src/transformers/modeling_rope_utils.py`), which follows it.  Two
    differences: they compute the ramp and the frequencies in float32, this
    function in float64; and where their clamps cross, $a > b$, their ramp
    runs backwards (every pair interpolated when every pair turns more than
    $\beta$ times, every pair kept when every pair turns fewer than $\alpha$
    times), while this function does what the bounds say, as the paper's
    formula does: $\gamma_i = 1$ for every pair when $a > d - 1$, and
    $\gamma_i = 0$ when $b < 0$.  No real model comes near that: with the
    default bounds it takes a base under 23 or a trained length under $2\pi$.
    $\alpha = 0$ puts $c(\alpha)$ at infinity, so $b = d - 1$.

    Args:
        d: the head dimension, an even integer from 2 to `MAX_D_MODEL`.
        base: a finite real number > 1.
        scale: $s = L'/L$, a finite real number of at least 1.
        train_len: the trained length $L$, an integer from 1 to `MAX_SEQ_LEN`.
        alpha: the ramp's bound in slow turns ($\beta_{slow}$), a finite real
            number of at least 0.
        beta: its bound in fast turns ($\beta_{fast}$), a finite real number
            greater than `alpha`.

    Returns:
        float64 array of shape `(d / 2,)`, $\omega'_i$ for each pair, each
        from $\omega_i / s$ to $\omega_i$.

    Raises:
        ValueError: naming the argument that is out of range.

    Example:
        >>> (yarn_frequencies(8, 10000.0, 4.0, 2048) / angular_frequencies(8)).round(4).tolist()
        [1.0, 1.0, 0.625, 0.25]
        >>> w = yarn_frequencies(128, 10000.0, 4.0, 4096) / angular_frequencies(128)
        >>> w[[20, 21, 30, 45, 46]].round(4).tolist()
        [1.0, 0.9712, 0.7115, 0.2788, 0.25]
    """
    d = check_even_size("d", d, MAX_D_MODEL)
    base = check_real("base", base, 1, strict=True)
    scale = check_real("scale", scale, 1)
    train_len = check_size("train_len", train_len, MAX_SEQ_LEN)
    alpha = check_real("alpha", alpha, 0)
    beta = check_real("beta", beta, alpha, strict=True, minimum_name="alpha")
    omega = angular_frequencies(d, base)
    start = max(math.floor(_turning_index(beta, d, base, train_len)), 0)  # a
    # alpha = 0: c(0) is +inf, clamped to d - 1.
    end = d - 1 if alpha == 0 else min(math.ceil(_turning_index(alpha, d, base, train_len)), d - 1)
    if start > end:
        # Crossed clamps: every pair is on one side. a > d - 1: all turn more than beta
        # times, all kept; b < 0: all turn fewer than alpha times, all interpolated.
        kept = np.full(d // 2, 1.0 if end == d - 1 else 0.0)
    else:
        width = end - start if end > start else 0.001  # a = b: a step after pair a
        kept = 1.0 - np.clip((np.arange(d // 2) - start) / width, 0.0, 1.0)  # gamma_i
    return (1.0 - kept) * (omega / scale) + kept * omega


def _turning_index(turns, d, base, train_len):
    r"""
    $c(r) = d \ln(L / (2\pi r)) / (2 \ln base)$, the fractional pair index at
    which a pair turns `turns` $= r > 0$ times over `train_len` $= L$
    (`yarn_frequencies`), a finite Python float.  Where $L / (2\pi r)$ leaves
    the float range ($r$ near 0 or near the float maximum), the logarithm is
    taken term by term instead.
    """
    ratio = train_len / (turns * 2.0 * math.pi)
    if 0.0 < ratio < math.inf:
        log_ratio = math.log(ratio)
    else:
        log_ratio = math.log(train_len) - math.log(2.0 * math.pi) - math.log(turns)
    return d * log_ratio / (2.0 * math.log(base))


def yarn_frequencies_by_turns(d, base, scale, train_len, alpha=YARN_ALPHA, beta=YARN_BETA):
    r"""
    The YaRN paper's "NTK-by-parts" frequencies, as its formula writes them
    (Peng et al. 2023, arXiv:2309.00071, section 3.2, equations 17 to 20 of
    the version in the authors' repository, `paper/yarn.pdf`): a ramp linear
    in the number of turns.  Pair $i$ turns $r_i = L / \lambda_i$ times over
    the trained length $L$, $\lambda_i = 2\pi / \omega_i$,
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

    Fast pairs ($r_i > \beta$) keep their frequency; slow pairs ($r_i < \alpha$)
    are interpolated, $\omega_i/s$; the ones between get a mix.  The paper's
    values for LLaMA are $\alpha = 1$, $\beta = 32$.

    This is not what YaRN models run: the authors' code and Hugging Face
    transformers lay the ramp over the pair index $i$ instead, between the
    rounded indices where $r = \beta$ and $r = \alpha$ (`yarn_frequencies`,
    which says where the two differ).  Llama 3.1's rule is this ramp, with
    its own bounds (`llama3_frequencies`).

    Args, return value and errors as `yarn_frequencies`, with `alpha` and
    `beta` the ramp's bounds in turns.

    Example:
        >>> w = yarn_frequencies_by_turns(8, 10000.0, 4.0, 2048)
        >>> (w / angular_frequencies(8)).round(4).tolist()
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
    YaRN's attention factor (Peng et al. 2023, arXiv:2309.00071, section 3.4,
    equation 22 of the version in the authors' repository): the logits
    $q^\top k / \sqrt{d}$ are divided by a temperature $t$ with

    $$
    \sqrt{1/t} = 0.1 \ln s + 1 ,
    $$

    and this function returns that $\sqrt{1/t}$: the factor by which both
    the rotated query and the rotated key are multiplied, so that each logit
    is multiplied by its square, $1/t$.  The authors' code
    (github.com/jquesnelle/yarn, `get_mscale` in
    `scaled_rope/LlamaYaRNScaledRotaryEmbedding.py`, `_yarn_get_mscale` in
    `scaled_rope/modeling_llama_yarn.py`) multiplies its cos and sin tables by
    it, and so does Hugging Face transformers (the `attention_factor` of
    `_compute_yarn_parameters`).  Their version gives 1.0 for $s \le 1$; here
    $s < 1$ is refused and $s = 1$ gives 1.0 exactly ($\ln 1 = 0$).  It grows
    slowly: 1.139 at $s = 4$, 1.277 at $s = 16$.

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


def llama3_frequencies(
    d,
    base,
    factor=LLAMA31_ROPE_SCALING["factor"],
    low_freq_factor=LLAMA31_ROPE_SCALING["low_freq_factor"],
    high_freq_factor=LLAMA31_ROPE_SCALING["high_freq_factor"],
    original_max_len=LLAMA31_ROPE_SCALING["original_max_position_embeddings"],
):
    r"""
    Llama 3.1's RoPE frequencies (rope_type `"llama3"`).  With
    $\omega_i = base^{-2i/d}$, wavelength $\lambda_i = 2\pi/\omega_i$, the
    trained length $L$ = `original_max_len` and the factor $s$ = `factor`:

    $$
    \omega'_i = \begin{cases}
        \omega_i & \lambda_i < L / h \\
        \omega_i / s & \lambda_i > L / l \\
        (1 - g_i) \, \omega_i / s + g_i \, \omega_i,
        \quad g_i = \dfrac{L / \lambda_i - l}{h - l} & \text{otherwise}
    \end{cases}
    $$

    with $l$ = `low_freq_factor` and $h$ = `high_freq_factor`.  Pairs that
    turn more than $h$ times within $L$ keep their frequency; pairs that turn
    less than $l$ times are slowed by $s$; between, the blend is linear in the
    number of turns $L/\lambda_i$.  That is the YaRN paper's ramp, linear in
    turns (`yarn_frequencies_by_turns` with $\alpha = l$, $\beta = h$, scale
    $s$), not the ramp over the pair index of YaRN's code (`yarn_frequencies`),
    and here without an attention factor.  The defaults are Llama 3.1's published values,
    `LLAMA31_ROPE_SCALING`: $s = 8$, $l = 1$, $h = 4$, $L = 8192$.

    Written after Hugging Face transformers' `_compute_llama3_parameters`
    (`src/transformers/modeling_rope_utils.py`), branch by branch.

    Args:
        d: the head dimension, an even integer from 2 to `MAX_D_MODEL`.
        base: a finite real number > 1 (500000 for Llama 3).
        factor: $s$, a finite real number from 1 to `MAX_SCALE`.
        low_freq_factor: $l$, a finite real number > 0.
        high_freq_factor: $h$, a finite real number greater than
            `low_freq_factor`.
        original_max_len: $L$, an integer from 1 to `MAX_SEQ_LEN`.

    Returns:
        float64 array of shape `(d / 2,)`, each from $\omega_i / s$ to $\omega_i$.

    Raises:
        ValueError: naming the argument that is out of range.

    Example:
        >>> w = llama3_frequencies(128, 500000.0)
        >>> (w / angular_frequencies(128, 500000.0))[[0, 28, 31, 35, 63]].round(4).tolist()
        [1.0, 1.0, 0.4935, 0.125, 0.125]
    """
    d = check_even_size("d", d, MAX_D_MODEL)
    base = check_real("base", base, 1, strict=True)
    factor = check_real("factor", factor, 1, maximum=MAX_SCALE)
    low = check_real("low_freq_factor", low_freq_factor, 0, strict=True)
    high = check_real(
        "high_freq_factor", high_freq_factor, low, strict=True, minimum_name="low_freq_factor"
    )
    length = check_size("original_max_len", original_max_len, MAX_SEQ_LEN)
    omega = angular_frequencies(d, base)
    # A base near the float maximum makes the slowest wavelengths overflow to inf: such a
    # pair is slow, and the comparisons below treat inf as the longest wavelength.
    with np.errstate(over="ignore", divide="ignore"):
        wavelength = 2.0 * math.pi / omega  # lambda_i
    low_wavelength = length / low  # pairs slower than this turn < l times within L
    high_wavelength = length / high  # pairs faster than this turn > h times within L
    # lambda > L / l: divided by the factor; otherwise kept (for now).
    scaled = np.where(wavelength > low_wavelength, omega / factor, omega)
    # g = (L / lambda - l) / (h - l), the blend in the band between.
    smooth = (length / wavelength - low) / (high - low)
    medium = (wavelength >= high_wavelength) & (wavelength <= low_wavelength)
    return np.where(medium, (1.0 - smooth) * scaled / factor + smooth * scaled, scaled)


def stretched_frequencies(method, d, base, train_len, scale):
    r"""
    Each pair's angle per position, $\omega'_i$, once a model trained on
    length $L$ = `train_len` is stretched by $s$ = `scale` (to $L' = sL$):

    * `"none"`: $\omega_i = base^{-2i/d}$, unchanged;
    * `"interpolation"`: $\omega_i / s$, which is position interpolation,
      $m \mapsto m/s$ (`interpolated_positions`), written as frequencies;
    * `"ntk"`: $base'^{-2i/d}$ with $base' = $ `ntk_scaled_base(base, s, d)`;
    * `"yarn"`: `yarn_frequencies(d, base, s, L)` ($\alpha = 1$, $\beta = 32$),
      YaRN as its authors' code and Hugging Face transformers run it, the ramp
      over the pair index (the paper's formula, linear in turns, is
      `yarn_frequencies_by_turns`);
    * `"llama3"`: `llama3_frequencies(d, base, original_max_len=L)` with
      Llama 3.1's published factor 8, whatever $s$ is.

    Args:
        method: one of `METHODS`.
        d: the head dimension, an even integer from 2 to `MAX_D_MODEL` (from 4
            for `"ntk"`).
        base: the trained base, a finite real number > 1.
        train_len: $L$, an integer from 1 to `MAX_SEQ_LEN`.
        scale: $s$, a finite real number from 1 to `MAX_SCALE`.

    Returns:
        float64 array of shape `(d / 2,)`: radians per position, pair by pair.

    Raises:
        ValueError: naming the argument that is out of range.

    Example:
        >>> stretched_frequencies("interpolation", 4, 10000.0, 4096, 4.0).tolist()
        [0.25, 0.0025]
    """
    method = check_choice("method", method, METHODS)
    d = check_even_size("d", d, MAX_D_MODEL, minimum=4 if method == "ntk" else 2)
    base = check_real("base", base, 1, strict=True)
    train_len = check_size("train_len", train_len, MAX_SEQ_LEN)
    scale = check_real("scale", scale, 1, maximum=MAX_SCALE)
    omega = angular_frequencies(d, base)
    if method == "interpolation":
        # (m / s) w_i = m (w_i / s): squeezing positions is slowing every pair by s.
        return omega / scale
    if method == "ntk":
        return angular_frequencies(d, ntk_scaled_base(base, scale, d))
    if method == "yarn":
        return yarn_frequencies(d, base, scale, train_len)
    if method == "llama3":
        return llama3_frequencies(d, base, original_max_len=train_len)
    return omega
