"""Tests for the package pelab itself (py/pelab/__init__.py): its public names and docstring."""

import importlib
import pkgutil
import re
from pathlib import Path

import pytest

import pelab


def test_public_names():
    assert pelab.__version__ == "0.1.0"
    assert set(pelab.__all__) == {
        "COOL_WARM",
        "MAX_TOKENS",
        "Notebook",
        "OrderBlindness",
        "add_positions",
        "angular_frequencies",
        "check_exercise",
        "clock_angles",
        "embed",
        "formula_terms",
        "order_blindness",
        "pair_waves",
        "permutation_matrix",
        "png_bytes",
        "projections",
        "self_attention",
        "sinusoidal",
        "to_rgba",
        "show",
        "tokenize",
        "wavelengths",
        # relative, similarity, learned, rope, alibi, context_scaling, extrapolation
        "RelativeShift",
        "fit_shift",
        "map_independence",
        "relative_residual",
        "relative_shift",
        "rotation",
        "sinusoidal_by_rotation",
        "similarity",
        "toeplitz_residual",
        "LearnedTable",
        "learned",
        "rope",
        "rope_relative_residual",
        "rope_scores",
        "rope_rotate",
        "pairing_permutation",
        "alibi_slopes",
        "alibi_bias",
        "alibi_weights",
        "attention_distance",
        "attention_scores",
        "ScoreTerms",
        "FourTerms",
        "score_terms",
        "four_terms",
        "rope_bound_looseness",
        "rope_decay_bound",
        "interpolated_positions",
        "ntk_scaled_base",
        "yarn_frequencies",
        "yarn_attention_scale",
        "LLAMA31_ROPE_SCALING",
        "llama3_frequencies",
        "stretched_frequencies",
        "angle_coverage",
        "stretched_scores",
        "concatenated",
        "layout_permutation",
        "nearest_distances",
        # tiny_transformer, training, table_structure, length_generalisation
        "tiny_config",
        "Trainer",
        "band_contrast",
        "principal_components",
        "closest_sinusoid",
        "LengthExperiment",
        # multimodal_rope, partial_rope
        "QWEN2_VL_MROPE_SECTION",
        "mrope_position_ids",
        "mrope_angles",
        "apply_partial_rotary",
    }
    assert all(hasattr(pelab, name) for name in pelab.__all__)


def test_package_docstring_example_holds():
    import doctest

    assert doctest.testmod(pelab).failed == 0



def listed_modules(package) -> set[str]:
    """The names a package's docstring lists, one a line, four spaces in ("    name  what")."""
    return set(re.findall(r"^    (\w+)/? {2,}\S", package.__doc__, re.M))


@pytest.mark.parametrize("name", ["pelab", "pelab.experiments", "pelab.browser"])
def test_each_package_docstring_lists_its_modules(name):
    package = importlib.import_module(name)
    modules = {m.name for m in pkgutil.iter_modules(package.__path__)} - {"__init__"}
    assert listed_modules(package) == modules, name


def test_each_public_name_is_imported_by_name_and_listed_once():
    """pelab's names are imported from their modules one by one (an editor's go-to-definition
    follows them), and __all__ lists each once: nothing public is left out, nothing private in."""
    source = Path(pelab.__file__).read_text(encoding="utf-8")
    imported = {
        name: module
        for module, names in re.findall(r"^from \.([\w.]+) import (\([^)]*\)|.*)$", source, re.M)
        for name in re.findall(r"\w+", names)
    }
    assert sorted(imported) == pelab.__all__ == sorted(set(pelab.__all__))
    for name, module in imported.items():
        loaded = importlib.import_module(f"pelab.{module}")
        assert getattr(pelab, name) is getattr(loaded, name), name
        assert not name.startswith("_"), name


def test_no_module_is_over_600_lines():
    root = Path(pelab.__file__).parent
    long = {p.relative_to(root).as_posix(): n for p in root.rglob("*.py")
            if (n := len(p.read_text().splitlines())) > 600}
    assert not long, long


# Modules tested in another module's file, by the file.
TESTED_WITH = {"browser/display.py": "browser/test_notebook.py",
               "exercise_report.py": "test_exercises.py",
               "browser/mpl_backend.py": "browser/test_notebook.py"}


def test_every_module_has_its_test_module():
    """pelab/[sub/]X.py is tested in tests/python/[sub/]test_X.py; a demo's entry module
    pelab/browser/demos/NAME.py in tests/python/browser/demos/test_NAME_entry.py."""
    root = Path(pelab.__file__).parent
    tests = Path(__file__).parent
    for module in sorted(root.rglob("*.py")):
        path = module.relative_to(root)
        if path.name == "__init__.py":
            continue
        if path.parent.as_posix() == "browser/demos":
            expected = path.parent / f"test_{path.stem}_entry.py"
        else:
            expected = Path(TESTED_WITH.get(path.as_posix(), path.parent / f"test_{path.name}"))
        missing = f"py/pelab/{path.as_posix()} has no tests/python/{expected.as_posix()}"
        assert (tests / expected).exists(), missing
