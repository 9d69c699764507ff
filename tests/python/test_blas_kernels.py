"""The numeric tests pass whatever BLAS kernel numpy picks on this CPU.

Under CPython, numpy's `@` and `lstsq` go through OpenBLAS, which chooses a kernel by CPU (or
by OPENBLAS_CORETYPE); numpy's own loops (sums, sin, cos) choose SIMD code by CPU as well.
Another kernel adds in another order and changes the last bits of a result, even the sign of a
zero. A test that pinned those bits passed on one machine and failed on the next. This runs the
test modules marked `blas_numeric` (`pytestmark = pytest.mark.blas_numeric`: those whose code
goes through BLAS) again, under every kernel this CPU can run, so a new bit-exact comparison
fails here, on any machine with more than one kernel, not on a newcomer's machine. The machine's
own kernel is the suite's own run, so only the others are run again, and only those that
compute otherwise (a fingerprint of numpy's results tells). It is marked `blas` itself:
`-m "not blas"` leaves it out.
"""

from __future__ import annotations

import concurrent.futures
import os
import platform
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.blas
# The tests rerun. The fuzz tests of the entry points sit in marked modules (each demo's entry
# test) but check argument handling, not bits: rerun, they would only multiply the run's time.
RERUN = "blas_numeric and not fuzz"
# numpy's own AVX-512 loops (sin, cos and sums among them): off, to stand for an AVX2 machine.
NUMPY_AVX512 = "AVX512F AVX512CD AVX512_SKX AVX512_CLX AVX512_CNL AVX512_ICL"


def cpu_flags() -> set[str]:
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return set()
    for line in text.splitlines():
        if line.startswith("flags"):
            return set(line.split(":", 1)[1].split())
    return set()


def kernels() -> list[dict[str, str]]:
    """Environments that make numpy compute on another kernel, each one this CPU can run.

    The first is the machine's own choice. On x86-64, OpenBLAS's Prescott (SSE3, every x86-64
    CPU), Haswell (AVX2 and FMA) and SkylakeX (AVX-512) kernels sum in different orders.
    """
    choices = [{}]
    if platform.machine() in ("x86_64", "AMD64"):
        flags = cpu_flags()
        choices.append({"OPENBLAS_CORETYPE": "Prescott"})
        if {"avx2", "fma"} <= flags:
            choices.append({"OPENBLAS_CORETYPE": "Haswell"})
            if "avx512f" in flags:
                choices.append(
                    {"OPENBLAS_CORETYPE": "Haswell", "NPY_DISABLE_CPU_FEATURES": NUMPY_AVX512}
                )
        if {"avx512f", "avx512bw", "avx512vl", "avx512dq"} <= flags:
            choices.append({"OPENBLAS_CORETYPE": "SkylakeX"})
    return choices


# A fingerprint of how numpy computes: the bits of the operations the marked tests go through
# (matrix products, matrix-vector products and dot products, least squares and solves, from
# sizes below OpenBLAS's blocking to above it; numpy's own sin, cos, exp and sums), hashed.
FINGERPRINT = """
import hashlib, numpy as np
rng, seen = np.random.default_rng(0), hashlib.sha256()
for n in (1, 3, 8, 17, 64, 200):
    for k in (1, 5, 16, 33, 130, 513):
        a, b, v = rng.standard_normal((n, k)), rng.standard_normal((k, n)), rng.standard_normal(k)
        for x in (a @ b, a @ v, v @ b, v @ v, np.linalg.lstsq(a[:, :16], np.ones(n), rcond=None)[0],
                  np.linalg.solve(a @ b + n * np.eye(n), np.ones(n)), a.astype(np.float32) @ b,
                  np.sin(a * 99), np.cos(a * 99), np.exp(a), a.sum(axis=0), a.sum(axis=1)):
            seen.update(np.asarray(x).tobytes())
print(seen.hexdigest())
"""


def fingerprint(overrides: dict[str, str]) -> str:
    """How numpy computes under `overrides` (see FINGERPRINT)."""
    chosen = ("OPENBLAS_CORETYPE", "NPY_DISABLE_CPU_FEATURES")
    env = {k: v for k, v in os.environ.items() if k not in chosen}
    done = subprocess.run([sys.executable, "-c", FINGERPRINT], env={**env, **overrides},
                          capture_output=True, text=True, check=True)
    return done.stdout.strip()


def others() -> list[dict[str, str]]:
    """The kernels to run again: each that computes otherwise than the machine's own (which the
    suite itself has just run on) and than those before it. A kernel named otherwise can compute
    bit for bit the same: an AVX2 AMD CPU's own choice, OpenBLAS's Zen, runs its Haswell code."""
    seen = {fingerprint({})}
    chosen = []
    for choice in kernels()[1:]:
        mark = fingerprint(choice)
        if mark not in seen:
            seen.add(mark)
            chosen.append(choice)
    return chosen


def rerun(overrides: dict[str, str]) -> tuple[str, subprocess.CompletedProcess]:
    """The marked tests, in a fresh interpreter computing on the kernel `overrides` choose."""
    chosen = ("OPENBLAS_CORETYPE", "NPY_DISABLE_CPU_FEATURES")
    env = {k: v for k, v in os.environ.items() if k not in chosen}
    env.update(overrides, PYTHONPATH=str(ROOT / "py"), OPENBLAS_NUM_THREADS="1")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x", "-m", RERUN,
         "tests/python"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    return " ".join(f"{k}={v}" for k, v in overrides.items()), done


def test_numeric_tests_pass_under_every_kernel_this_cpu_has():
    """Every kernel but the machine's own (see others); two at a time (each is one thread:
    OPENBLAS_NUM_THREADS=1), so that a 2-core machine waits half as long."""
    to_run = others()
    with concurrent.futures.ThreadPoolExecutor(max_workers=min(2, os.cpu_count() or 1)) as pool:
        for name, done in pool.map(rerun, to_run):
            said = f"under {name}:\n{done.stdout[-3000:]}\n{done.stderr[-1000:]}"
            assert done.returncode == 0, said
            assert " passed" in done.stdout.splitlines()[-1], done.stdout[-500:]
    if platform.machine() in ("x86_64", "AMD64"):
        assert to_run  # Prescott at least: every x86-64 CPU runs it, and none picks it


def collected(marks: str) -> list[str]:
    """The node ids of the tests under tests/python that ``-m marks`` selects."""
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--collect-only",
         "-m", marks, "tests/python"],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT / "py")},
        capture_output=True, text=True,
    )
    return [line for line in done.stdout.splitlines() if "::" in line]


def test_the_marked_modules_are_the_ones_rerun():
    """The rerun selects by the marker: at least the modules the marker was first put on, and
    none of the fuzz tests."""
    rerun = collected(RERUN)
    files = {line.split("::")[0] for line in rerun}
    assert {"tests/python/test_rope.py", "tests/python/experiments/test_training.py",
            "tests/python/browser/demos/test_learned_entry.py"} <= files, rerun[-20:]
    assert "tests/python/test_blas_kernels.py" not in files
    fuzz = collected("fuzz")
    assert fuzz, "no test is marked fuzz: is entry_point_fuzz_tests still used?"
    assert not set(fuzz) & set(rerun), sorted(set(fuzz) & set(rerun))
