"""Tests for pelab.browser.entry_points: the table of entry points is assembled from the demo
modules, one per live demo section of the lesson, each with its entry test (which fuzzes each of
its entry points), and `call` runs one by name and hands back plain data only."""

import ast
import importlib
import pkgutil
import re
from pathlib import Path

import numpy as np
import pytest

from pelab.browser import demos, entry_points
from pelab.browser.entry_points import DEMO_OF, ENTRY_POINTS, call

ROOT = Path(__file__).resolve().parents[3]


def registry_live_demos() -> list[str]:
    """The live demos: the lesson's demo sections (lesson/, from which the build writes
    app/demos/registry.js's table) but registry.js's NOT_LIVE (the quiz, and the free code cell,
    which runs through pelab.browser.notebook, not an entry point)."""
    from tools.demo_lists import not_live
    from tools.lesson import demo_sections

    return [name for name in demo_sections() if name not in not_live()]


def demo_modules() -> list[str]:
    return sorted(
        m.name for m in pkgutil.iter_modules(demos.__path__) if not m.name.startswith("_")
    )


@pytest.mark.parametrize("name", registry_live_demos())
def test_every_live_demo_has_its_python_entry_module_and_tests(name):
    """A half-added demo fails here, naming the piece it lacks."""
    assert name in demo_modules(), (
        f"demo {name!r} is a demo section of lesson/ but has no py/pelab/browser/demos/{name}.py"
    )
    tests = ROOT / "tests" / "python" / "browser" / "demos" / f"test_{name}_entry.py"
    assert tests.exists(), f"demo {name!r} has no {tests.relative_to(ROOT)}"
    browser = ROOT / "tests" / "browser" / f"test_{name}_demo.py"
    assert browser.exists(), f"demo {name!r} has no {browser.relative_to(ROOT)}"
    module = importlib.import_module(f"pelab.browser.demos.{name}")
    assert module.ENTRY_POINTS, f"py/pelab/browser/demos/{name}.py defines no ENTRY_POINTS"


def fuzz_specs_problem(path: Path, entries: set[str], root: Path = ROOT) -> str | None:
    """What is wrong with the fuzzing of the demo entry test at `path`, whose demo defines the
    entry points `entries`, or None. Read with ast, not imported: a test module imports no
    other, so this test cannot import the entry test to read its FUZZ_SPECS."""
    where = path.relative_to(root)
    if not path.exists():
        return f"no {where}"
    body = ast.parse(path.read_text(encoding="utf-8"), filename=str(where)).body
    specs = [
        node.value
        for node in body
        if isinstance(node, ast.Assign)
        and [getattr(target, "id", None) for target in node.targets] == ["FUZZ_SPECS"]
    ]
    if len(specs) != 1 or not isinstance(specs[0], ast.Dict):
        return (
            f"{where} must hold one `FUZZ_SPECS = {{...}}`, a dict literal at module level with "
            f"a fuzz spec (fuzzing.Spec) for each entry point: {sorted(entries)}"
        )
    keys = specs[0].keys
    if not all(isinstance(key, ast.Constant) and isinstance(key.value, str) for key in keys):
        return f"{where}: FUZZ_SPECS's keys must be the entry points' names, written out"
    names = [key.value for key in keys]
    twice = sorted({name for name in names if names.count(name) > 1})
    missing, stale = sorted(entries - set(names)), sorted(set(names) - entries)
    wrong = [
        f"{what} {names}"
        for what, names in [
            ("add a fuzz spec for", missing),
            ("remove the specs of no entry point of the demo", stale),
            ("keep one spec each for", twice),
        ]
        if names
    ]
    if wrong:
        return f"edit FUZZ_SPECS in {where}: " + "; ".join(wrong)
    made = [
        node
        for node in body
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Call)
        and ast.unparse(node.value) == "entry_point_fuzz_tests(FUZZ_SPECS)"
        and all(
            isinstance(target, ast.Tuple)
            and all(getattr(name, "id", "").startswith("test") for name in target.elts)
            for target in node.targets
        )
    ]
    if not made:
        return (
            f"{where} must make FUZZ_SPECS into tests at module level: "
            "`test_fuzzed_arguments, test_fuzzed_keywords = entry_point_fuzz_tests(FUZZ_SPECS)`"
        )
    return None


@pytest.mark.parametrize("name", demo_modules())
def test_every_entry_point_is_fuzzed_by_its_demos_entry_test(name):
    """Each demo's entry test fuzzes exactly that demo's entry points: adding a demo or an entry
    point edits its own test file, not a central one."""
    module = importlib.import_module(f"pelab.browser.demos.{name}")
    path = ROOT / "tests" / "python" / "browser" / "demos" / f"test_{name}_entry.py"
    problem = fuzz_specs_problem(path, set(module.ENTRY_POINTS))
    assert problem is None, problem


def test_the_fuzz_spec_check_names_what_to_edit(tmp_path):
    """The check above, on a half-edited entry test: it names the file and the entry points."""
    path = tmp_path / "test_demo_entry.py"
    assert fuzz_specs_problem(path, {"a"}, tmp_path) == "no test_demo_entry.py"
    path.write_text("FUZZ_SPECS = dict(a=1)\n")
    assert "must hold one `FUZZ_SPECS = {...}`" in fuzz_specs_problem(path, {"a"}, tmp_path)
    path.write_text("FUZZ_SPECS = {'a': 1, 'old': 2, 'a': 3}\n")
    assert fuzz_specs_problem(path, {"a", "b"}, tmp_path) == (
        "edit FUZZ_SPECS in test_demo_entry.py: add a fuzz spec for ['b']; remove the specs of "
        "no entry point of the demo ['old']; keep one spec each for ['a']"
    )
    path.write_text("FUZZ_SPECS = {'a': 1}\n")
    assert fuzz_specs_problem(path, {"a", "b"}, tmp_path) == (
        "edit FUZZ_SPECS in test_demo_entry.py: add a fuzz spec for ['b']"
    )
    path.write_text("FUZZ_SPECS = {'a': 1}\nfuzzed = entry_point_fuzz_tests(FUZZ_SPECS)\n")
    assert "must make FUZZ_SPECS into tests" in fuzz_specs_problem(path, {"a"}, tmp_path)
    path.write_text("FUZZ_SPECS = {'a': 1}\ntest_a, test_b = entry_point_fuzz_tests(FUZZ_SPECS)\n")
    assert fuzz_specs_problem(path, {"a"}, tmp_path) is None


def test_every_entry_module_is_a_live_demo_of_the_registry():
    live = registry_live_demos()
    for name in demo_modules():
        assert name in live, (
            f"py/pelab/browser/demos/{name}.py has no live demo section {name!r} in lesson/"
        )
        assert (ROOT / "app" / "demos" / f"{name}.js").exists(), f"no app/demos/{name}.js"


def test_the_table_is_every_demo_modules_entry_points():
    assembled = {}
    for name in demo_modules():
        module = importlib.import_module(f"pelab.browser.demos.{name}")
        for entry, function in module.ENTRY_POINTS.items():
            assert entry not in assembled, f"{entry!r} is defined twice"
            assembled[entry] = function
            assert DEMO_OF[entry] == name
            assert getattr(module, entry) is function  # its name is the function's
    assert ENTRY_POINTS == assembled
    assert list(ENTRY_POINTS) == sorted(ENTRY_POINTS)


@pytest.mark.parametrize("name", ["no_such_entry", "", "call", "_flat", "ENTRY_POINTS", "Heatmap"])
def test_unknown_entry_point_is_rejected(name):
    known = ", ".join(sorted(ENTRY_POINTS))
    with pytest.raises(ValueError, match=rf"^unknown entry point .*; known: {re.escape(known)}$"):
        call(name, {})


@pytest.mark.parametrize("name", sorted(ENTRY_POINTS))
def test_unexpected_keyword_is_rejected(name):
    with pytest.raises(TypeError):
        call(name, {"no_such_argument": 1})


def test_no_keyword_arguments_is_none_or_empty():
    # The page draws the colour map from app/figures/colormap.js, not through the worker.
    for kwargs in (None, {}):
        with pytest.raises(TypeError, match="seq_len"):
            call("heatmap", kwargs)


@pytest.mark.parametrize(
    "value, problem",
    [
        (np.zeros((2, 2)), r"an array of shape \(2, 2\), not flat"),
        (np.zeros(4)[::2], "an array that is not C-contiguous"),
        (np.zeros(3, dtype=np.float32), "an array of float32"),
        (np.zeros(3, dtype=bool), "an array of bool"),
        ([True, 1], "a list holding bool"),
        ([1.5], "a list holding float"),
        (np.float64(1.0), "a float64, not plain data"),
        ((1, 2), "a tuple, not plain data"),
        ({"a": 1}, "a dict, not plain data"),
    ],
)
def test_call_refuses_a_result_that_is_not_plain_data(monkeypatch, value, problem):
    monkeypatch.setitem(entry_points.ENTRY_POINTS, "heatmap", lambda: {"value": value})
    with pytest.raises(TypeError, match=rf"^entry point 'heatmap' returned 'value': {problem}"):
        call("heatmap")


def test_call_refuses_a_result_that_is_not_a_dict(monkeypatch):
    monkeypatch.setitem(entry_points.ENTRY_POINTS, "heatmap", lambda: [1, 2])
    with pytest.raises(TypeError, match="returned list, not a dict"):
        call("heatmap")
