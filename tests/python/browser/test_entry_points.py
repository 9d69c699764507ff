"""Tests for pelab.browser.entry_points: the table of entry points is assembled from the demo
modules, one per live demo section of the lesson, and `call` runs one by name and hands back
plain data only."""

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
    app/demos/registry.js's table) but registry.js's WITHOUT_PYTHON and "cell" (the free code
    cell, which runs through pelab.browser.notebook, not an entry point)."""
    from tools.lesson import demo_sections

    text = (ROOT / "app" / "demos" / "registry.js").read_text()
    without = re.search(r"export const WITHOUT_PYTHON = Object\.freeze\(\[(.*?)\]\);", text, re.S)
    assert without, "app/demos/registry.js: WITHOUT_PYTHON not found"
    skipped = set(re.findall(r'"(\w+)"', without.group(1))) | {"cell"}
    return [name for name in demo_sections() if name not in skipped]


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


@pytest.mark.parametrize("name", ["nope", "", "call", "_flat", "ENTRY_POINTS", "Heatmap"])
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
