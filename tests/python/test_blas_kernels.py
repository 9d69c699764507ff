"""The numeric tests pass whatever BLAS kernel numpy picks on this CPU.

Under CPython, numpy's `@` and `lstsq` go through OpenBLAS, which chooses a kernel by CPU (or
by OPENBLAS_CORETYPE); numpy's own loops (sums, sin, cos) choose SIMD code by CPU as well.
Another kernel adds in another order and changes the last bits of a result, even the sign of a
zero. A test that pinned those bits passed on one machine and failed on the next. This runs the
modules whose tests multiply through BLAS again, under every kernel this CPU can run, so a
new bit-exact comparison fails here, on any machine with more than one kernel, not on a
newcomer's machine.
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# The test modules whose code or checks go through BLAS or LAPACK under CPython.
BLAS_MODULES = [
    "tests/python/test_relative.py",
    "tests/python/test_similarity.py",
    "tests/python/test_rope.py",
    "tests/python/test_alibi.py",
    "tests/python/test_score_terms.py",
    "tests/python/test_context_scaling.py",
    "tests/python/test_attention.py",
    "tests/python/test_extrapolation.py",
    "tests/python/test_colormap.py",
    "tests/python/test_adapter.py",
    "tests/python/test_positional_encoding.py",
    "tests/python/test_tiny_transformer.py",
    "tests/python/test_training.py",
    "tests/python/test_table_structure.py",
    "tests/python/test_length_generalisation.py",
    "tests/python/test_stretch_experiment.py",
]
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
                choices.append({"OPENBLAS_CORETYPE": "Haswell", "NPY_DISABLE_CPU_FEATURES": NUMPY_AVX512})
        if {"avx512f", "avx512bw", "avx512vl", "avx512dq"} <= flags:
            choices.append({"OPENBLAS_CORETYPE": "SkylakeX"})
    return choices


def test_numeric_tests_pass_under_every_kernel_this_cpu_has():
    ran = []
    for overrides in kernels():
        env = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_CORETYPE", "NPY_DISABLE_CPU_FEATURES")}
        env.update(overrides, PYTHONPATH=str(ROOT / "py"), OPENBLAS_NUM_THREADS="1")
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x", *BLAS_MODULES],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
        )
        name = " ".join(f"{k}={v}" for k, v in overrides.items()) or "the machine's own kernel"
        assert done.returncode == 0, f"under {name}:\n{done.stdout[-3000:]}\n{done.stderr[-1000:]}"
        assert " passed" in done.stdout.splitlines()[-1], done.stdout[-500:]
        ran.append(name)
    assert ran  # at least the machine's own kernel
