"""dist/py/: pelab's wheel, and what the build computes with it in the pinned Pyodide under Node
(tools/in_pyodide.py, each job kept in .cache/jobs/ under a hash of all it is made from):
matplotlib's font cache, the first heatmap's picture, every live demo's first result, and the
bytecode of numpy's and pelab's modules."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

from tools import in_pyodide
from tools.dist_files import DistFiles
from tools.lesson import FIRST_RESULT
from tools.repack import stored_copy


def place_python_files(
    files: DistFiles,
    wheels: list[Path],
    pelab: Path,
    first_heatmap: dict,
    calls: dict,
    stored_zips: bool = True,
) -> None:
    """pelab's wheel and the jobs' outputs in dist/py/: the first heatmap drawn with
    `first_heatmap` (tools/heatmap_settings.py), the demos' first results from `calls`
    (tools/first_results.py), and the bytecode as a stored zip unless `stored_zips` is False."""
    font_cache = in_pyodide.job_output("font_cache", {}, wheels, suffix=".json")
    files.place(font_cache, "py/matplotlib-fontlist.json")
    files.place(pelab, f"py/{pelab.name}")
    picture = in_pyodide.job_output("first_heatmap", first_heatmap, wheels, pelab, ".png")
    files.place(picture, "py/first-heatmap.png")
    # Every live demo's first result (tools/first_results.py), a file per demo.
    job = in_pyodide.job_output("first_results", {"calls": calls}, wheels, pelab, ".json")
    for name, shipped in json.loads(job.read_bytes()).items():
        files.write(FIRST_RESULT.format(name=name), json.dumps(shipped, separators=(",", ":")))
    bytecode = in_pyodide.job_output("bytecode", {}, wheels, pelab, ".zip")  # a stored zip
    if stored_zips:
        files.place(bytecode, "py/bytecode.zip", stored=True)
    else:
        files.place(stored_copy(bytecode, compression=zipfile.ZIP_DEFLATED), "py/bytecode.zip")
