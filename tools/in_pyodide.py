"""Build-time jobs run in the pinned Pyodide under Node (tools/pyodide-job.mjs), each a Python
file in tools/jobs/ whose main() takes JSON arguments and returns bytes, kept in .cache/jobs/."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tools.project import CACHE, ROOT, BuildError, log, replace_atomically
from tools.vendor_pyodide import PYODIDE_NPM, PYODIDE_RUNTIME

RUNNER = ROOT / "tools" / "pyodide-job.mjs"
JOBS = ROOT / "tools" / "jobs"


def run_in_pyodide(
    job: Path,
    arguments: dict,
    wheels: list[Path],
    pelab_wheel: Path | None = None,
    served: Path | None = None,
) -> bytes:
    """What `job`'s main(**arguments) returns in Pyodide under Node, given the pinned runtime,
    `wheels` to load from and, if given, `pelab_wheel` installed in site-packages first. With
    `served`, a folder of the site's (dist/pyodide/<pin>-<hash>/), the runtime, lock and wheels
    are that folder's instead of npm's and `wheels`: the files a browser would get."""
    with tempfile.TemporaryDirectory() as index:
        if served is None:
            files = [*(PYODIDE_NPM / name for name in PYODIDE_RUNTIME), *wheels]
        else:
            files = [path for path in served.iterdir() if path.suffix not in (".br", ".gz")]
        for path in files:
            if path.suffix == ".js" and served is not None:
                # copied: Node reads a .js under dist/ as an ES module (package.json's "type"),
                # and Pyodide's pyodide.asm.js is not one
                shutil.copy(path, Path(index) / path.name)
            else:
                os.symlink(path, Path(index) / path.name)
        command = ["node", str(RUNNER), index + "/", str(job), json.dumps(arguments)]
        result = subprocess.run(
            [*command, *([str(pelab_wheel)] if pelab_wheel else [])], cwd=ROOT, capture_output=True
        )
    if result.returncode or not result.stdout:
        raise BuildError(
            f"the build step {job.stem} failed under Node: "
            f"{result.stderr.decode(errors='replace').strip()[-800:]}"
        )
    return result.stdout


def job_output(
    name: str,
    arguments: dict,
    wheels: list[Path],
    pelab_wheel: Path | None = None,
    suffix: str = "",
) -> Path:
    """tools/jobs/<name>.py run in Pyodide (run_in_pyodide), kept in .cache/jobs/ (job_path)."""
    cached = job_path(name, arguments, wheels, pelab_wheel, suffix)
    if not cached.exists():
        log(f"running the build step {name} in Pyodide")
        cached.parent.mkdir(parents=True, exist_ok=True)
        output = run_in_pyodide(JOBS / f"{name}.py", arguments, wheels, pelab_wheel)
        replace_atomically(cached, output)  # a build beside this one may read it meanwhile
    return cached


def job_path(
    name: str,
    arguments: dict,
    wheels: list[Path],
    pelab_wheel: Path | None = None,
    suffix: str = "",
) -> Path:
    """Where job_output keeps what tools/jobs/<name>.py returns, whether it has run or not: in
    .cache/jobs/ under a hash of all its output depends on: the runner, the job's source, its
    arguments, the wheels, pelab."""
    made_by = b"\0".join(
        [
            RUNNER.read_bytes(),
            (JOBS / f"{name}.py").read_bytes(),
            json.dumps(arguments, sort_keys=True).encode(),
            *(path.name.encode() for path in wheels),
            pelab_wheel.read_bytes() if pelab_wheel else b"",
        ]
    )
    return CACHE / "jobs" / f"{name}-{hashlib.sha256(made_by).hexdigest()[:16]}{suffix}"


def job_outputs(
    jobs: dict[str, tuple[dict, bool, str]],
    wheels: list[Path],
    pelab_wheel: Path,
    stale: dict[str, Path] | None = None,
) -> dict[str, Path]:
    """job_output of each of `jobs` ({name: (arguments, whether pelab_wheel is installed first,
    suffix)}); those not kept in .cache/jobs/ run side by side, each in a Node of its own, as
    many at once as there are cores (each boots Pyodide, which takes a core for seconds). A job
    named in `stale` whose output is not kept does not run: its stale output stands in."""
    stale = stale or {}
    outputs: dict[str, Path] = {}
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        running = {}
        for name, (arguments, with_pelab, suffix) in jobs.items():
            pelab = pelab_wheel if with_pelab else None
            if name in stale and not job_path(name, arguments, wheels, pelab, suffix).exists():
                log(f"the build step {name} keeps its last output (build.py build remakes it)")
                outputs[name] = stale[name]
            else:
                running[name] = pool.submit(job_output, name, arguments, wheels, pelab, suffix)
    return {**outputs, **{name: future.result() for name, future in running.items()}}
