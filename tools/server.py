"""The development server for dist/: the MIME types Pyodide needs, cross-origin isolation
(COOP/COEP), and optionally (--csp) the strict Content-Security-Policy the site is built to work
under, with the frame-ancestors the hosts' configurations send (tools/security_headers.py)."""

from __future__ import annotations

import functools
import gzip
import http.server
import io
import os
import re
import threading
import time
import urllib.parse
from pathlib import Path

from tools.compress import ENCODINGS
from tools.project import DIST, ROOT, BuildError
from tools.security_headers import NOSNIFF, REFERRER_POLICY, content_security_policy
from tools.site import SOURCES, build, stamp

# Cache-Control. A file whose URL changes whenever its content does may be kept for good: the
# Pyodide folder, dist/pyodide/<pin>-<hash of its files>/, named so by the build. Everything else
# (the pages, the service worker, app/, py/, static/) keeps its URL from one build to the next, so
# browsers must ask each time (no-cache: a 304 without a body when it has not changed). The
# examples in hosting/ send the same; tests/build/test_hosting.py holds them to it.
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
VERSIONED = re.compile(r"/pyodide/[^/]+-[0-9a-f]{12}/[^/]+$")


def cache_control(url_path: str, status: int = 200) -> str:
    """The Cache-Control the server sends for `url_path` (a response with `status`)."""
    return IMMUTABLE if status in (200, 206, 304) and VERSIONED.search(url_path) else REVALIDATE


# What a typical static host gzips on the fly (serve_gzip="typical", the bench's network floor).
TYPICAL_GZIP = frozenset({".wasm", ".js", ".mjs", ".json"})


def accepted(header: str | None) -> set[str]:
    """The content codings an Accept-Encoding header accepts (q > 0), "*" standing for any."""
    codings = set()
    for part in (header or "").split(","):
        coding, *parameters = (piece.strip() for piece in part.split(";"))
        quality = next((p[2:] for p in parameters if p.lower().startswith("q=")), "1")
        try:
            if coding and float(quality) > 0:
                codings.add(coding.lower())
        except ValueError:
            pass
    return set(ENCODINGS) if "*" in codings else codings


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
    # "precompressed": send build.py's .br/.gz siblings to clients that accept them (build.py
    # serve); "typical": gzip .wasm/.js/.mjs/.json on the fly, like most static hosts, and ignore
    # the siblings; None: every file as it is.
    encoding = "precompressed"
    vary = False
    typical_cache: dict = {}  # (path, mtime, size): gzipped bytes, per server class

    def send_response(self, code, message=None):
        self.status = code
        super().send_response(code, message)

    def send_head(self):
        self.vary = False
        path = self.translate_path(self.path)
        if os.path.isdir(path) and urllib.parse.urlsplit(self.path).path.endswith("/"):
            path = os.path.join(path, "index.html")
        if not os.path.isfile(path) or self.encoding is None:
            return super().send_head()
        if self.encoding == "typical":
            if Path(path).suffix not in TYPICAL_GZIP:
                return super().send_head()
            self.vary = True
            if "gzip" not in accepted(self.headers.get("Accept-Encoding")):
                return super().send_head()
            return self.send_encoded(path, "gzip", self.typical_gzip(path))
        # A sibling older than its file is stale (the file was changed after the build): skip it.
        modified = os.stat(path).st_mtime_ns
        siblings = {
            coding: path + suffix
            for coding, suffix in ENCODINGS.items()
            if os.path.isfile(path + suffix) and os.stat(path + suffix).st_mtime_ns >= modified
        }
        if not siblings:
            return super().send_head()
        self.vary = True
        # A range of an encoded body is a range of the encoding: send ranges of the file itself.
        codings = (
            set() if "Range" in self.headers else accepted(self.headers.get("Accept-Encoding"))
        )
        coding = next(
            (coding for coding in ENCODINGS if coding in codings and coding in siblings), None
        )
        if coding is None:
            return super().send_head()
        with open(siblings[coding], "rb") as file:
            return self.send_encoded(path, coding, file.read())

    def typical_gzip(self, path: str) -> bytes:
        status = os.stat(path)
        key = (path, status.st_mtime_ns, status.st_size)
        if key not in self.typical_cache:  # a host compresses once and keeps it too
            self.typical_cache[key] = gzip.compress(
                Path(path).read_bytes(), compresslevel=6, mtime=0
            )
        return self.typical_cache[key]

    def send_encoded(self, path: str, coding: str, body: bytes):
        """The headers of `path` sent as `body`, its content in `coding`; returns the body to
        copy."""
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Encoding", coding)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Last-Modified", self.date_time_string(int(os.stat(path).st_mtime)))
        self.end_headers()
        return io.BytesIO(body)

    def end_headers(self) -> None:
        if self.vary:
            self.send_header("Vary", "Accept-Encoding")
        path = urllib.parse.unquote(urllib.parse.urlsplit(self.path).path)
        if self.csp:
            self.send_header("Content-Security-Policy", content_security_policy(path))
        self.send_header("Cache-Control", cache_control(path, getattr(self, "status", 200)))
        self.send_header("X-Content-Type-Options", NOSNIFF)
        self.send_header("Referrer-Policy", REFERRER_POLICY)
        if self.isolated:
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        super().end_headers()

    def log_message(self, format: str, *args) -> None:
        if not self.quiet:
            super().log_message(format, *args)


def make_server(
    port: int,
    directory: Path = DIST,
    quiet: bool = False,
    isolated: bool = True,
    csp: bool = False,
    encoding: str | None = "precompressed",
) -> http.server.ThreadingHTTPServer:
    settings = {
        "quiet": quiet,
        "isolated": isolated,
        "csp": csp,
        "encoding": encoding,
        "typical_cache": {},
    }
    handler = functools.partial(type("Handler", (SiteHandler,), settings), directory=str(directory))
    return http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)


def rebuild_on_change(interval: float = 0.3) -> None:
    """Rebuild whenever a source of the site changes (any file the build reads: tools/site.py's
    SOURCES, the root's pages, lesson/, app/, py/, static/, locale/, ...), so that an edit shows
    on the next reload. The rebuild is incremental: a step none of whose sources changed is
    skipped. A broken source is reported and the last good site stays served."""
    seen = stamp(SOURCES)
    while True:
        time.sleep(interval)
        now = stamp(SOURCES)
        if now == seen:
            continue
        while True:  # an editor's save can take a few writes: wait until they are done
            time.sleep(interval)
            settled = stamp(SOURCES)
            if settled == now:
                break
            now = settled
        changed = sorted({str(entry[0].relative_to(ROOT)) for entry in set(seen) ^ set(now)})
        seen = now
        started = time.monotonic()
        try:
            build(incremental=True)
        except SystemExit as error:  # BuildError: say what is wrong, keep serving
            print(f"Not rebuilt: {error}", flush=True)
            continue
        said = ", ".join(changed[:3]) + (f" and {len(changed) - 3} more" if changed[3:] else "")
        print(f"Rebuilt in {time.monotonic() - started:.1f} s: {said} changed", flush=True)


def serve(port: int, isolated: bool = True, csp: bool = False) -> None:
    build(incremental=True)  # the steps' sources remembered for the rebuilds
    try:
        server = make_server(port, isolated=isolated, csp=csp)
    except OSError as error:
        raise BuildError(
            f"cannot listen on 127.0.0.1:{port} ({error.strerror}): try --port 8001"
        ) from None
    threading.Thread(target=rebuild_on_change, daemon=True).start()
    print(
        f"Serving Positional Encoding Lab at http://127.0.0.1:{port}/  (Ctrl+C stops)", flush=True
    )
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print()
    finally:
        server.server_close()
