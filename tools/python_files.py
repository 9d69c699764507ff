"""dist/py/: pelab's wheel, and what the build computes with it in the pinned Pyodide under Node
(tools/in_pyodide.py, each job kept in .cache/jobs/ under a hash of all it is made from):
matplotlib's font cache, the first heatmap's picture, every live demo's first result, and the
bytecode of numpy's and pelab's modules."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

from tools.dist_files import DistFiles
from tools.lesson import FIRST_RESULT
from tools.repack import stored_copy


def build_time_jobs(
    first_heatmap: dict, calls: dict, stdlib: bool = True
) -> dict[str, tuple[dict, bool, str]]:
    """The jobs of tools/jobs/ whose outputs dist/ serves, as tools/in_pyodide.py's job_outputs
    takes them ({name: (arguments, whether pelab is installed first, suffix)}): the font cache,
    the first heatmap drawn with `first_heatmap` (tools/heatmap_settings.py), the demos' first
    results from `calls` (tools/first_results.py), the bytecode, and with `stdlib` the standard
    library's (tools/served_pyodide.py)."""
    jobs = {
        "font_cache": ({}, False, ".json"),
        "first_heatmap": (first_heatmap, True, ".png"),
        "first_results": ({"calls": calls}, True, ".json"),
        "bytecode": ({}, True, ".zip"),
    }
    if stdlib:
        jobs["stdlib_bytecode"] = ({}, True, ".zip")
    return jobs


def place_python_files(
    files: DistFiles, pelab: Path, outputs: dict[str, Path], stored_zips: bool = True
) -> None:
    """pelab's wheel and the jobs' `outputs` (build_time_jobs, run) in dist/py/, the bytecode as
    a stored zip unless `stored_zips` is False."""
    files.place(outputs["font_cache"], "py/matplotlib-fontlist.json")
    files.place(pelab, f"py/{pelab.name}")
    files.place(outputs["first_heatmap"], "py/first-heatmap.png")
    # Every live demo's first result (tools/first_results.py), a file per demo.
    for name, shipped in json.loads(outputs["first_results"].read_bytes()).items():
        files.write(FIRST_RESULT.format(name=name), json.dumps(shipped, separators=(",", ":")))
    bytecode = outputs["bytecode"]  # a stored zip
    if stored_zips:
        files.place(bytecode, "py/bytecode.zip", stored=True)
    else:
        files.place(stored_copy(bytecode, compression=zipfile.ZIP_DEFLATED), "py/bytecode.zip")
