"""app/'s code as dist/ serves it: third-party front-end code (app/cells/vendor/) bundled by
esbuild into one same-origin module each, and each page's and each worker's entry module bundled
with every module of app/ it imports into one file at its own path (tools/bundle.mjs)."""

from __future__ import annotations

import hashlib
import json
import re
import tempfile
from pathlib import Path

from tools.dist_files import DistFiles
from tools.project import CACHE, NODE_MODULES, ROOT, BuildError, run

# Entry points of third-party front-end code, each bundled by esbuild into one same-origin module.
VENDOR = ROOT / "app" / "cells" / "vendor"
# The module scripts the pages and the workers start from, each bundled by esbuild with every
# module of app/ it imports into one file at its own path: a page's code is then one request, not
# 65 in waves of imports, each wave a round trip (docs/performance.md). Each bundle stays at its
# entry's folder depth, so `new URL(..., import.meta.url)` means what it says in the source.
# Left as imports, each checked after the build: config.js (the workers' settings, written by the
# build after the bundles, see BUILD_ID) and CodeMirror (loaded when an editor is first needed).
BUNDLED = (
    "app/pages/lesson.js",
    "app/pages/embed.js",
    "app/pages/entrance.js",
    "app/pages/embedding.js",
    "app/pages/answer-key.js",
    "app/pages/report.js",
    "app/python/worker/main.js",
    "app/python/worker/snapshot.js",
)
NOT_BUNDLED = ("*/config.js", "*/vendor/codemirror.js")


def bundle_vendor(entry: Path) -> Path:
    """Bundle one app/vendor/ entry point with esbuild, cached by the entry's and the lock's
    hash."""
    key = hashlib.sha256(
        entry.read_bytes() + (ROOT / "package-lock.json").read_bytes()
    ).hexdigest()[:16]
    bundle = CACHE / "bundles" / f"{entry.stem}-{key}.js"
    if not bundle.exists():
        esbuild = NODE_MODULES / ".bin" / "esbuild"
        run([str(esbuild), str(entry), "--bundle", "--format=esm", "--minify", "--target=es2020",
             "--legal-comments=eof", "--log-level=warning", f"--outfile={bundle}"])
    return bundle


def bundle_modules(entry: str, dist: Path) -> tuple[bytes, set[str]]:
    """esbuild's bundle of the module `entry` (a path under app/, as in BUNDLED) with the copies in
    `dist`/app/ of the modules it imports (the generated registry and outline among them), and
    those copies, by path in `dist` (tools/bundle.mjs)."""
    with tempfile.TemporaryDirectory() as folder:
        bundle, meta = Path(folder) / "bundle.js", Path(folder) / "meta.json"
        job = {
            "source": str(ROOT / entry),
            "sourcefile": entry,
            "resolveDir": str((dist / entry).parent),
            "workingDir": str(dist),
            "outfile": str(bundle),
            "metafile": str(meta),
            "external": list(NOT_BUNDLED),
        }
        run(["node", str(ROOT / "tools" / "bundle.mjs"), json.dumps(job)])
        inputs = json.loads(meta.read_text())["inputs"]  # by path from dist, the entry as <stdin>
        return bundle.read_bytes(), {path for path in inputs if path != "<stdin>"}


def unresolved_imports(bundle: Path) -> list[str]:
    """The relative imports left in a bundle (NOT_BUNDLED) that name no file of dist/."""
    text = bundle.read_text(encoding="utf-8")
    found = re.findall(r"""(?:\bfrom|\bimport)\s*\(?\s*["'](\.{1,2}/[^"']+)["']""", text)
    return [path for path in found if not (bundle.parent / path).resolve().is_file()]


def bundle_app(files: DistFiles) -> set[Path]:
    """The vendor bundles and the entries' bundles written into dist/, from its copy of app/
    (which must be in place, generated modules included). Returns the copies in dist/app/ that
    the entries' bundles hold: nothing of the site fetches them, so the service worker does not
    list them, but a test or a reader may import one."""
    for entry in sorted(VENDOR.glob("*.js")):
        files.place(bundle_vendor(entry), f"app/cells/vendor/{entry.name}")
    in_bundles: set[Path] = set()
    for entry in BUNDLED:
        bundle, modules = bundle_modules(entry, files.root)
        files.write(entry, bundle.decode("utf-8"))
        in_bundles |= {files.root / module for module in modules}
    return in_bundles


def check_bundles(dist: Path) -> None:
    """A BuildError if a bundle imports what dist/ does not hold (its NOT_BUNDLED imports are
    resolved only once config.js is written)."""
    for entry in BUNDLED:
        if unresolved := unresolved_imports(dist / entry):
            raise BuildError(f"{entry} imports what dist/ does not hold: {', '.join(unresolved)}")
