"""The built site and its packages, and build.py's own server for them on a free port of
127.0.0.1."""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import tempfile
import threading
from pathlib import Path

import pytest

from tools.server import make_server

ROOT = Path(__file__).resolve().parent.parent
DIST = Path(os.environ.get("PELAB_DIST", ROOT / "dist"))
# `build.py packages` (tools/packages.py): the SCORM packages and their list, packages.json, as a
# hosted site's scorm/ holds them. `build.py test --fast` makes none and sets PELAB_FAST: the tests
# that read them skip (needs_packages), and the site is served as dist/ alone.
FAST = bool(os.environ.get("PELAB_FAST"))
SCORM_PACKAGES = Path(os.environ.get("PELAB_PACKAGES", ROOT / "packages")) / "scorm"
needs_packages = pytest.mark.skipif(
    FAST, reason="build.py test --fast makes no packages: python3 build.py test runs this"
)
# dist's Pyodide folder, relative to the site: pyodide/<pin>-<hash of its files>
# (tools/served_pyodide.py)
PYODIDE = next(
    (p.parent.relative_to(DIST).as_posix() for p in DIST.glob("pyodide/*/pyodide-lock.json")),
    "pyodide",
)


_hosted: list[Path] = []  # hosted()'s folder, once made


def hosted() -> Path:
    """The site as a teacher hosts it with its packages (docs/hosting.md): dist/ with the
    packages' folder as its scorm/, made of links in a folder of its own, once per process;
    under `build.py test --fast`, dist/ itself."""
    if FAST:
        return DIST
    if not _hosted:
        folder = Path(tempfile.mkdtemp(prefix="pelab-hosted-"))
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        for entry in DIST.iterdir():
            if entry.name != "scorm":
                (folder / entry.name).symlink_to(entry)
        (folder / "scorm").symlink_to(SCORM_PACKAGES)
        _hosted.append(folder)
    return _hosted[0]


@contextlib.contextmanager
def served(directory: Path | None = None, **options):
    """`directory` (by default the hosted site, dist/ with its packages: hosted()) served by
    build.py's own server on a free port of 127.0.0.1, in a thread of its own, until the block
    ends; yields the site's URL. `options` go to make_server (isolated=False serves like most
    static hosts, csp=True sends the strict policy)."""
    server = make_server(0, directory or hosted(), quiet=True, **options)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
