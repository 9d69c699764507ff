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
    tokens               words to vectors: the toy tokens and their fixed random embeddings
    attention            single-head self-attention and why it is blind to word order: toy
                         projections, permutations, the demonstration
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
                         between the pairings, and RoFormer's long-term decay bound (and how
                         loose it is for a query and key alike)
    multimodal_rope      M-RoPE (Qwen2-VL): three position ids (time, row, column) for text,
                         image and video tokens, and the angle of each frequency pair on the
                         axis its section gives it
    partial_rope         partial rotary embedding (GPT-NeoX, Phi): RoPE on the first part of
                         each head, the rest passed through
    score_terms          the four terms of an attention score with additive positions
                         (content and position, each against each) and which of them depend on
                         the offset i - j only
    alibi                ALiBi (Press et al. 2022): no position vector; each head adds
                         -m (i - j) to its scores, with the paper's geometric slopes; the
                         causal weights it gives and how far back a head looks
    context_scaling      stretching RoPE past the trained length: position interpolation,
                         the NTK-aware base, YaRN's per-pair frequencies and attention factor,
                         Llama 3.1's scaling
    stretch_effects      what a stretch does: which pairs leave the trained angles, and one
                         query-key pair's scores before and after
    extrapolation        how close two positions' vectors come as the sequence grows (few pairs
                         alias; more pairs keep neighbours closest), and the concatenated
                         (sines, then cosines) layout as a permutation of the interleaved one
    colormap             a perceptually uniform, colour-blind-safe diverging map for values in
                         [-1, 1]
    exercises            the checks of the lesson's exercises (after the sections they
                         practise), each saying in words what holds and what does not
    exercise_report      what the checks share: a report of what passed and what did not
    diagnoses            the exercises' common slips, which a failed check names when the
                         answer is what one gives, and the sentences the page words
    checks               every general argument check, once: a bad argument is a ValueError
                         naming the parameter, its range and what came

Two subpackages, each listing its modules in its own docstring:
    experiments          a tiny Transformer trained in the page, a slice of steps at a time:
                         the training demo's model and the two experiments (stateful, slow)
    browser              what the lesson's Web Worker runs: one module of entry points per
                         demo, the code cells' notebook, the matplotlib backend, PNG files

Every public name of all three layers is imported here by name from the module that defines it,
so an editor's go-to-definition reaches it; `__all__` lists them once.
"""

__version__ = "0.1.0"

# Every name `import pelab` gives, by the module that defines it.
from .alibi import alibi_bias, alibi_slopes, alibi_weights, attention_distance
from .attention import (
    OrderBlindness,
    attention_scores,
    order_blindness,
    permutation_matrix,
    projections,
    self_attention,
)
from .browser.notebook import Notebook, show
from .browser.png import png_bytes
from .colormap import COOL_WARM, to_rgba
from .context_scaling import (
    LLAMA31_ROPE_SCALING,
    interpolated_positions,
    llama3_frequencies,
    ntk_scaled_base,
    stretched_frequencies,
    yarn_attention_scale,
    yarn_frequencies,
)
from .exercises import check_exercise
from .experiments.length_generalisation import LengthExperiment
from .experiments.table_structure import band_contrast, closest_sinusoid, principal_components
from .experiments.tiny_transformer import tiny_config
from .experiments.training import Trainer
from .extrapolation import concatenated, layout_permutation, nearest_distances
from .learned import LearnedTable, learned
from .multimodal_rope import QWEN2_VL_MROPE_SECTION, mrope_angles, mrope_position_ids
from .partial_rope import apply_partial_rotary
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
    rope_bound_looseness,
    rope_decay_bound,
    rope_relative_residual,
    rope_rotate,
    rope_scores,
)
from .score_terms import FourTerms, ScoreTerms, four_terms, score_terms
from .similarity import similarity, toeplitz_residual
from .stretch_effects import angle_coverage, stretched_scores
from .tokens import MAX_TOKENS, embed, tokenize

__all__ = [
    "COOL_WARM",
    "FourTerms",
    "LLAMA31_ROPE_SCALING",
    "LearnedTable",
    "LengthExperiment",
    "MAX_TOKENS",
    "Notebook",
    "OrderBlindness",
    "QWEN2_VL_MROPE_SECTION",
    "RelativeShift",
    "ScoreTerms",
    "Trainer",
    "add_positions",
    "alibi_bias",
    "alibi_slopes",
    "alibi_weights",
    "angle_coverage",
    "angular_frequencies",
    "apply_partial_rotary",
    "attention_distance",
    "attention_scores",
    "band_contrast",
    "check_exercise",
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
    "mrope_angles",
    "mrope_position_ids",
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
    "rope_bound_looseness",
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
    "wavelengths",
    "yarn_attention_scale",
    "yarn_frequencies",
]
