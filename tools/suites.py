"""The test suite and the benchmark, each run against a fresh build in the environment it needs."""

from __future__ import annotations

import os
import subprocess

from tools.environment import ensure_chromium, ensure_venv
from tools.project import DIST, ROOT, BuildError, run
from tools.site import build


def test(pytest_args: list[str]) -> None:
    python = ensure_venv()
    # The linter before anything slow (its rules: pyproject.toml's [tool.ruff]).
    run([str(python), "-m", "ruff", "check", "py", "tools", "tests", "bench", "build.py"])
    chromium = ensure_chromium()
    build()
    env = {**os.environ, "PELAB_CHROMIUM": chromium, "PELAB_DIST": str(DIST)}
    # The JavaScript unit tests first (Node's own runner, a second or so), then the JSDoc types
    # of app/ (tsc, pinned in package.json: the page's globals, then the workers'), then pytest.
    run(["node", "--test", "tests/js/"])
    for config in ("jsconfig.json", "jsconfig.worker.json"):
        run(["node", "node_modules/typescript/bin/tsc", "--noEmit", "-p", config])
    result = subprocess.run([str(python), "-m", "pytest", *pytest_args], cwd=ROOT, env=env)
    if result.returncode == 5:
        raise BuildError("pytest collected no tests")
    if result.returncode:
        raise SystemExit(result.returncode)


def bench(args: list[str]) -> None:
    """Measure the built site in headless Chromium (bench/run.py) and write bench/results.json."""
    python = ensure_venv()
    chromium = ensure_chromium()
    build()
    env = {**os.environ, "PELAB_CHROMIUM": chromium}
    result = subprocess.run([str(python), str(ROOT / "bench" / "run.py"), *args], cwd=ROOT, env=env)
    if result.returncode:
        raise SystemExit(result.returncode)
