"""
# pelab: the Python behind Positional Encoding Lab

Pure numpy functions, the same under CPython and in the browser (Pyodide). Learners can call
them from the lesson's code cells.

    >>> import pelab
    >>> pe = pelab.sinusoidal(seq_len=50, d_model=128)   # (50, 128) float64
    >>> rgba = pelab.to_rgba(pe)                          # (50, 128, 4) uint8, cool-warm map
    >>> demo = pelab.order_blindness("dog bites man", [2, 1, 0])
    >>> demo.pooled_diff < 1e-12                          # attention alone cannot tell the order
    True

Modules, one concept each:
    positional_encoding  the sinusoidal encoding of Vaswani et al. (2017), its frequencies and
                         wavelengths, its terms for one position, its waves and clock hands,
                         and adding it to embeddings
    attention            single-head self-attention and why it is blind to word order:
                         tokens, toy embeddings and projections, permutations, the demonstration
    relative             a relative offset k is one matrix: M_k maps PE(pos) to PE(pos + k) for
                         every pos; least-squares fits with and without the cosine columns; the
                         table rebuilt from a few rows and rotations (what the heatmap draws)
    similarity           how alike two positions are: dot products and cosines between rows,
                         and how far a matrix is from depending only on the offset q - p
    learned              learned absolute position embeddings: a seeded random table with no
                         row past max_len
    rope                 rotary position embedding (RoFormer): rotate queries and keys pair by
                         pair, so their scores depend on position only through m - n; both
                         pairings (adjacent, half) and several heads, the permutation
                         between the pairings, and RoFormer's long-term decay bound
    score_terms          the four terms of an attention score with additive positions
                         (content and position, each against each) and which of them depend on
                         the offset i - j only
    alibi                ALiBi (Press et al. 2022): no position vector; each head adds
                         -m (i - j) to its scores, with the paper's geometric slopes; the
                         causal weights it gives and how far back a head looks
    tiny_transformer     a tiny Transformer in numpy (token embeddings, a position scheme: none,
                         learned, sinusoidal, rope or alibi; attention layers; a readout;
                         cross-entropy), its forward pass and its hand-written gradients
    position_tasks       tasks that need position, as seeded batches: copy the token k places
                         back, reverse a sequence
    training             Adam, and a Trainer that trains the tiny Transformer a slice at a time
    table_structure      what a learned table has learned: band contrast, principal
                         components, the closest sinusoid to a component
    length_generalisation  train on lengths up to L, test up to 4L, for every scheme and a
                         fixed set of seeds
    context_scaling      stretching RoPE past the trained length: position interpolation,
                         the NTK-aware base, YaRN's per-pair frequencies and attention factor,
                         Llama 3.1's scaling; which pairs leave the trained angles, and one
                         query-key pair's scores before and after
    extrapolation        how close two positions' vectors come as the sequence grows (few pairs
                         alias; more pairs keep neighbours closest), and the concatenated
                         (sines, then cosines) layout as a permutation of the interleaved one
    colormap             a perceptually uniform, colour-blind-safe diverging map for values in
                         [-1, 1]
    png                  RGBA pixels as a PNG file, without Pillow (build.py pre-renders with it)
    adapter              the entry points the browser's worker calls (converts for JavaScript)
    notebook             the lesson's code cells: a Notebook runs them in one shared namespace,
                         and show(matrix) draws a matrix on the page as a heatmap
    mpl_backend          the matplotlib backend a Notebook selects: plt.show() sends figures to
                         the page (imported only once the learner imports matplotlib)
"""

from .alibi import alibi_bias, alibi_slopes, alibi_weights, attention_distance
from .attention import (
    MAX_TOKENS,
    OrderBlindness,
    attention_scores,
    embed,
    order_blindness,
    permutation_matrix,
    projections,
    self_attention,
    tokenize,
)
from .colormap import COOL_WARM, to_rgba
from .context_scaling import (
    LLAMA31_ROPE_SCALING,
    angle_coverage,
    interpolated_positions,
    llama3_frequencies,
    ntk_scaled_base,
    stretched_frequencies,
    stretched_scores,
    yarn_attention_scale,
    yarn_frequencies,
)
from .extrapolation import concatenated, layout_permutation, nearest_distances
from .learned import LearnedTable, learned
from .length_generalisation import LengthExperiment
from .notebook import Notebook, show
from .png import png_bytes
from .positional_encoding import (
    add_positions,
    angular_frequencies,
    clock_angles,
    formula_terms,
    pair_waves,
    sinusoidal,
    wavelengths,
)
from .relative import (
    RelativeShift,
    fit_shift,
    map_independence,
    relative_residual,
    relative_shift,
    rotation,
    sinusoidal_by_rotation,
)
from .rope import (
    pairing_permutation,
    rope,
    rope_decay_bound,
    rope_relative_residual,
    rope_rotate,
    rope_scores,
)
from .score_terms import FourTerms, ScoreTerms, four_terms, score_terms
from .similarity import similarity, toeplitz_residual
from .table_structure import band_contrast, closest_sinusoid, principal_components
from .tiny_transformer import tiny_config
from .training import Trainer

__version__ = "0.1.0"
__all__ = [
    "COOL_WARM",
    "FourTerms",
    "LLAMA31_ROPE_SCALING",
    "LearnedTable",
    "LengthExperiment",
    "MAX_TOKENS",
    "Notebook",
    "OrderBlindness",
    "RelativeShift",
    "ScoreTerms",
    "add_positions",
    "alibi_bias",
    "alibi_slopes",
    "alibi_weights",
    "angle_coverage",
    "angular_frequencies",
    "attention_distance",
    "attention_scores",
    "band_contrast",
    "clock_angles",
    "closest_sinusoid",
    "concatenated",
    "embed",
    "fit_shift",
    "formula_terms",
    "four_terms",
    "interpolated_positions",
    "layout_permutation",
    "learned",
    "llama3_frequencies",
    "map_independence",
    "nearest_distances",
    "ntk_scaled_base",
    "order_blindness",
    "pair_waves",
    "pairing_permutation",
    "permutation_matrix",
    "png_bytes",
    "principal_components",
    "projections",
    "relative_residual",
    "relative_shift",
    "rope",
    "rope_decay_bound",
    "rope_relative_residual",
    "rope_rotate",
    "rope_scores",
    "rotation",
    "score_terms",
    "self_attention",
    "show",
    "similarity",
    "sinusoidal",
    "sinusoidal_by_rotation",
    "stretched_frequencies",
    "stretched_scores",
    "tiny_config",
    "to_rgba",
    "toeplitz_residual",
    "tokenize",
    "Trainer",
    "wavelengths",
    "yarn_attention_scale",
    "yarn_frequencies",
]
