"""Tests for the package pelab itself (py/pelab/__init__.py): its public names and docstring."""

import pelab


def test_public_names():
    assert pelab.__version__ == "0.1.0"
    assert set(pelab.__all__) == {
        "COOL_WARM", "MAX_TOKENS", "Notebook", "OrderBlindness", "add_positions", "angular_frequencies",
        "clock_angles", "embed", "formula_terms", "order_blindness", "pair_waves",
        "permutation_matrix", "png_bytes", "projections", "self_attention", "sinusoidal", "to_rgba",
        "show", "tokenize", "wavelengths",
        # relative, similarity, learned, rope, alibi, context_scaling, extrapolation
        "RelativeShift", "fit_shift", "map_independence", "relative_residual", "relative_shift", "rotation",
        "sinusoidal_by_rotation",
        "similarity", "toeplitz_residual",
        "LearnedTable", "learned",
        "rope", "rope_relative_residual", "rope_scores", "rope_rotate", "pairing_permutation",
        "alibi_slopes", "alibi_bias", "alibi_weights", "attention_distance", "attention_scores",
        "ScoreTerms", "FourTerms", "score_terms", "four_terms",
        "rope_decay_bound",
        "interpolated_positions", "ntk_scaled_base", "yarn_frequencies", "yarn_attention_scale",
        "LLAMA31_ROPE_SCALING", "llama3_frequencies", "stretched_frequencies", "angle_coverage",
        "stretched_scores",
        "concatenated", "layout_permutation", "nearest_distances",
        # tiny_transformer, training, table_structure, length_generalisation
        "tiny_config", "Trainer", "band_contrast", "principal_components", "closest_sinusoid",
        "LengthExperiment",
    }
    assert all(hasattr(pelab, name) for name in pelab.__all__)


def test_package_docstring_example_holds():
    import doctest

    assert doctest.testmod(pelab).failed == 0

