"""The built site, and build.py's own server for it on a free port of 127.0.0.1."""

from __future__ import annotations

import contextlib
import os
import threading
from pathlib import Path

from tools.server import make_server

ROOT = Path(__file__).resolve().parent.parent
DIST = Path(os.environ.get("PELAB_DIST", ROOT / "dist"))
# dist's Pyodide folder, relative to the site: pyodide/<pin>-<hash of its files> (tools/site.py)
PYODIDE = next(
    (p.parent.relative_to(DIST).as_posix() for p in DIST.glob("pyodide/*/pyodide-lock.json")),
    "pyodide",
)


@contextlib.contextmanager
def served(directory: Path = DIST, **options):
    """`directory` served by build.py's own server on a free port of 127.0.0.1, in a thread of
    its own, until the block ends; yields the site's URL. `options` go to make_server
    (isolated=False serves like most static hosts, csp=True sends the strict policy)."""
    server = make_server(0, directory, quiet=True, **options)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
