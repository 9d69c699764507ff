"""The test suite and the benchmark, each run against a fresh build in the environment it needs."""

from __future__ import annotations

import os
import subprocess

from tools.environment import ensure_chromium, ensure_java, ensure_venv
from tools.packages import PACKAGES, make_packages
from tools.project import DIST, ROOT, BuildError, run
from tools.site import build


def test(pytest_args: list[str], fast: bool = False) -> None:
    """The whole suite, as CI runs it: ruff, a build and every package (tools/packages.py), the
    JavaScript tests, tsc, then pytest with `pytest_args`. `fast`, for the edit loop: only the
    build and pytest, whose tests of the packages then skip (tests/site_server.py)."""
    python = ensure_venv()
    if not fast:
        # The linter before anything slow (its rules: pyproject.toml's [tool.ruff]).
        run([str(python), "-m", "ruff", "check", "py", "tools", "tests", "bench", "build.py"])
    chromium = ensure_chromium()
    if not fast:
        ensure_java()  # the Nu HTML Checker's (tests/build/test_valid_html.py; --fast skips it)
    if fast:
        build()
    else:
        make_packages()  # the site first, then every package from it
    # One BLAS thread per process: the suite runs a process per core already, and OpenBLAS's
    # extra threads only spin against them (about a fifth more CPU for the numeric tests).
    env = {
        **os.environ,
        "PELAB_CHROMIUM": chromium,
        "PELAB_DIST": str(DIST),
        "PELAB_PACKAGES": str(PACKAGES),
        "OPENBLAS_NUM_THREADS": "1",
    }
    if fast:
        env["PELAB_FAST"] = "1"
    else:
        # The JavaScript unit tests first (Node's own runner, a second or so), then the JSDoc
        # types of app/ (tsc, pinned in package.json: the page's globals, then the workers').
        run(["node", "--test", "tests/js/"])
        for config in ("jsconfig.json", "jsconfig.worker.json"):
            run(["node", "node_modules/typescript/bin/tsc", "--noEmit", "-p", config])
    command = [str(python), "-m", "pytest", *parallel(pytest_args), *pytest_args]
    result = subprocess.run(command, cwd=ROOT, env=env)
    if result.returncode == 5:
        raise BuildError("pytest collected no tests")
    if result.returncode:
        raise SystemExit(result.returncode)


def parallel(pytest_args: list[str]) -> list[str]:
    """pytest-xdist's options: a worker per core, at most 4, each with its own Chromium and
    server, unless the arguments choose (`-n 0`, `-p no:xdist`, `--pdb`). A test module runs
    whole on one worker (`--dist loadscope`), so a module's booted pages are booted once."""
    chosen = ("-n", "--numprocesses", "--pdb", "--trace", "no:xdist")
    if any(arg.startswith(chosen) for arg in pytest_args):
        return []
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return ["-n", str(min(4, cores or 1)), "--dist", "loadscope"]


def bench(args: list[str]) -> None:
    """Measure the built site in headless Chromium (bench/run.py) and write bench/results.json."""
    python = ensure_venv()
    chromium = ensure_chromium()
    build()
    env = {**os.environ, "PELAB_CHROMIUM": chromium}
    result = subprocess.run([str(python), str(ROOT / "bench" / "run.py"), *args], cwd=ROOT, env=env)
    if result.returncode:
        raise SystemExit(result.returncode)
