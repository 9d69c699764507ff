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
                         between the pairings, and RoFormer's long-term decay bound
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
    exercises            the checks of the lesson's exercises ("Your turn"), each saying in
                         words what holds and what does not
    checks               every general argument check, once: a bad argument is a ValueError
                         naming the parameter, its range and what came

Two subpackages, each listing its modules in its own docstring:
    experiments          a tiny Transformer trained in the page, a slice of steps at a time:
                         the training demo's model and the two experiments (stateful, slow)
    browser              what the lesson's Web Worker runs: one module of entry points per
                         demo, the code cells' notebook, the matplotlib backend, PNG files

Every public name of all three layers is exported here, listed once in `_PUBLIC`.
"""

import importlib

__version__ = "0.1.0"

# Every name `import pelab` gives, by the module that defines it.
_PUBLIC = {
    "positional_encoding": [
        "add_positions",
        "angular_frequencies",
        "clock_angles",
        "formula_terms",
        "pair_waves",
        "sinusoidal",
        "wavelengths",
    ],
    "attention": [
        "OrderBlindness",
        "attention_scores",
        "order_blindness",
        "permutation_matrix",
        "projections",
        "self_attention",
    ],
    "tokens": ["MAX_TOKENS", "embed", "tokenize"],
    "relative": [
        "RelativeShift",
        "fit_shift",
        "map_independence",
        "relative_residual",
        "relative_shift",
        "rotation",
        "sinusoidal_by_rotation",
    ],
    "similarity": ["similarity", "toeplitz_residual"],
    "learned": ["LearnedTable", "learned"],
    "rope": [
        "pairing_permutation",
        "rope",
        "rope_decay_bound",
        "rope_relative_residual",
        "rope_rotate",
        "rope_scores",
    ],
    "score_terms": ["FourTerms", "ScoreTerms", "four_terms", "score_terms"],
    "alibi": ["alibi_bias", "alibi_slopes", "alibi_weights", "attention_distance"],
    "context_scaling": [
        "LLAMA31_ROPE_SCALING",
        "interpolated_positions",
        "llama3_frequencies",
        "ntk_scaled_base",
        "stretched_frequencies",
        "yarn_attention_scale",
        "yarn_frequencies",
    ],
    "stretch_effects": ["angle_coverage", "stretched_scores"],
    "extrapolation": ["concatenated", "layout_permutation", "nearest_distances"],
    "colormap": ["COOL_WARM", "to_rgba"],
    "exercises": ["check_exercise"],
    "experiments.tiny_transformer": ["tiny_config"],
    "experiments.training": ["Trainer"],
    "experiments.table_structure": ["band_contrast", "closest_sinusoid", "principal_components"],
    "experiments.length_generalisation": ["LengthExperiment"],
    "browser.notebook": ["Notebook", "show"],
    "browser.png": ["png_bytes"],
}

for _module, _names in _PUBLIC.items():
    _loaded = importlib.import_module(f"{__name__}.{_module}")
    globals().update({_name: getattr(_loaded, _name) for _name in _names})
del _module, _names, _loaded

__all__ = sorted(_name for _names in _PUBLIC.values() for _name in _names)
