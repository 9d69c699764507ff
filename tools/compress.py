"""Precompressed siblings: a `.br` and a `.gz` beside each compressible file of dist/, which
build.py's server (and nginx's gzip_static/brotli_static) send to browsers that ask for them.
Made by Node's zlib (tools/compress.mjs) with fixed settings, so every build writes the same
bytes, and kept in .cache/compressed/ under the source's sha256, so a warm rebuild does no work."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tools.project import CACHE, ROOT, BuildError, log, sha256

RUNNER = ROOT / "tools" / "compress.mjs"
# Text and WebAssembly. Not deflated zips and wheels: Brotli saved 1.5 to 2.5% of them
# (python_stdlib.zip 2.36 -> 2.30 MB, numpy's wheel 3.06 -> 3.01 MB). The stored copies that
# tools/repack.py makes of the first screen's zips are compressed too: build() names them.
COMPRESSIBLE = frozenset({".js", ".mjs", ".wasm", ".json", ".html", ".css", ".svg"})
ENCODINGS = {
    "br": ".br",
    "gzip": ".gz",
}  # Content-Encoding: suffix, in the server's order of preference


def compressed(
    paths: list[Path], cache: Path = CACHE / "compressed"
) -> dict[Path, dict[str, Path]]:
    """For each path, its cached {suffix: compressed copy}, holding only the encodings that make
    it smaller; compresses what the cache lacks in one Node run."""
    cache.mkdir(parents=True, exist_ok=True)
    keys = {path: sha256(path) for path in paths}
    missing = sorted(
        {key: path for path, key in keys.items() if not (cache / f"{key}.gz").exists()}.items()
    )
    if missing:
        log(f"compressing {len(missing)} files (Brotli 11, gzip 9)")
        jobs = [
            [str(path), str(cache / f"{key}.br.part"), str(cache / f"{key}.gz.part")]
            for key, path in missing
        ]
        result = subprocess.run(
            ["node", str(RUNNER), json.dumps(jobs)], cwd=ROOT, capture_output=True
        )
        if result.returncode:
            raise BuildError(
                "compressing failed under Node: "
                f"{result.stderr.decode(errors='replace').strip()[-800:]}"
            )
        for key, _ in missing:  # .gz last: its presence says both are complete
            for suffix in (".br", ".gz"):
                (cache / f"{key}{suffix}.part").replace(cache / f"{key}{suffix}")
    return {
        path: {
            suffix: cache / f"{key}{suffix}"
            for suffix in ENCODINGS.values()
            if (cache / f"{key}{suffix}").stat().st_size < path.stat().st_size
        }
        for path, key in keys.items()
    }
