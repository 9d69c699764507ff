"""Rooms of one job each: no module of app/, py/, tools/ or build.py over 600 lines, and no
import circle among tools/'s modules (imports inside functions counted too). A circle means two
rooms that are really one, or a third that both want."""

from __future__ import annotations

import ast
import subprocess

from site_server import ROOT

LIMIT = 600


def tracked(*folders: str) -> list[str]:
    return subprocess.run(
        ["git", "ls-files", *folders], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()


def test_no_module_is_over_600_lines():
    modules = [
        p for p in tracked("app", "py", "tools", "build.py")
        if p.endswith((".py", ".js", ".mjs")) and "/vendor/" not in p
    ]
    long = {p: n for p in modules if (n := len((ROOT / p).read_text("utf-8").splitlines())) > LIMIT}
    assert modules and long == {}, f"split these by job: {long}"


def tools_imports() -> dict[str, set[str]]:
    """Which tools/ modules each tools/ module imports, at its top or inside a function."""
    graph = {}
    for path in sorted((ROOT / "tools").glob("*.py")):
        found = set()
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                if node.module.startswith("tools."):
                    found.add(node.module.split(".")[1])
                elif node.module == "tools":
                    found |= {alias.name for alias in node.names}
            elif isinstance(node, ast.Import):
                found |= {a.name.split(".")[1] for a in node.names if a.name.startswith("tools.")}
        graph[path.stem] = found - {path.stem}
    return graph


def test_no_import_circle_in_tools():
    graph = tools_imports()
    state: dict[str, str] = {}

    def visit(module: str, path: list[str]) -> list[str] | None:
        state[module] = "open"
        for imported in sorted(graph.get(module, ())):
            if state.get(imported) == "open":
                return [*path[path.index(imported):], imported] if imported in path else path
            if imported not in state and (circle := visit(imported, [*path, imported])):
                return circle
        state[module] = "done"
        return None

    for module in graph:
        if module not in state:
            circle = visit(module, [module])
            assert circle is None, "an import circle in tools/: " + " -> ".join(circle)
