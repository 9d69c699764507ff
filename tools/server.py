"""The development server for dist/: the MIME types Pyodide needs, cross-origin isolation
(COOP/COEP), and optionally the strict Content-Security-Policy the site is built to work under."""

from __future__ import annotations

import functools
import http.server
from pathlib import Path

from tools.project import DIST, BuildError
from tools.site import build

# The strict Content-Security-Policy the site is built to work under (serve --csp sends it):
# everything from its own origin; 'wasm-unsafe-eval' because Pyodide compiles WebAssembly.
STRICT_CSP = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; "
    "img-src 'self' data: blob:; worker-src 'self' blob:"
)


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Static files with the MIME types Pyodide needs and no caching surprises while developing."""

    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".json": "application/json",
        ".whl": "application/zip",
        ".zip": "application/zip",
        ".svg": "image/svg+xml",
    }
    quiet = False
    # Cross-origin isolation lets the page share memory with the worker, which is what lets
    # Stop interrupt running Python; without it (most static hosts) Stop restarts the worker.
    isolated = True
    csp = False

    def end_headers(self) -> None:
        if self.csp:
            self.send_header("Content-Security-Policy", STRICT_CSP)
        self.send_header("Cache-Control", "no-cache")
        self.send_header("X-Content-Type-Options", "nosniff")
        if self.isolated:
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        super().end_headers()

    def log_message(self, format: str, *args) -> None:
        if not self.quiet:
            super().log_message(format, *args)


def make_server(
    port: int, directory: Path = DIST, quiet: bool = False, isolated: bool = True, csp: bool = False
) -> http.server.ThreadingHTTPServer:
    settings = {"quiet": quiet, "isolated": isolated, "csp": csp}
    handler = functools.partial(type("Handler", (SiteHandler,), settings), directory=str(directory))
    return http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)


def serve(port: int, isolated: bool = True, csp: bool = False) -> None:
    build()
    try:
        server = make_server(port, isolated=isolated, csp=csp)
    except OSError as error:
        raise BuildError(f"cannot listen on 127.0.0.1:{port} ({error.strerror}): try --port 8001") from None
    print(f"Serving Positional Encoding Lab at http://127.0.0.1:{port}/  (Ctrl+C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print()
    finally:
        server.server_close()
