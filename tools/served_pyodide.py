"""Pyodide as dist/ serves it: the runtime and the wheels in dist/pyodide/<pin>-<hash>/, the
standard library and the first screen's wheels as stored zips (tools/repack.py), the lock with
their hashes, and the standard library without bytecode for a slow link; `check` verifies it all
against the official files."""

from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from tools.dist_files import DistFiles, write_if_changed
from tools.project import CACHE, DIST, BuildError, log, sha256
from tools.repack import bytecode_beside_sources, members_differ, stored_copy, stored_with_bytecode
from tools.vendor_pyodide import (
    FIRST_SCREEN_PACKAGES,
    PYODIDE_NPM,
    PYODIDE_RUNTIME,
    STORED_RUNTIME,
    cached_wheels,
    needed_packages,
    official_lock,
    pyodide_version,
)

# The standard library without its bytecode, for a slow link (start-python.js's SLOW_LINK).
SOURCES_ONLY_STDLIB = "py/python_stdlib-sources.zip"


@dataclass(frozen=True)
class ServedPyodide:
    """Where the page finds Pyodide: `index_url`, config.js's PYODIDE_INDEX_URL (a JavaScript
    expression); `runtime_url`, the runtime's folder as seen from app/python/start-python.js;
    `prefetch`, the wheels the worker fetches at once ({file, integrity}); `sources_only`, the
    standard library without bytecode (SOURCES_ONLY_STDLIB) if dist/ has it."""

    index_url: str
    runtime_url: str
    prefetch: tuple[dict, ...]
    sources_only: str | None


def sri(hex_digest: str) -> str:
    """A sha256 as a subresource-integrity value, as Pyodide passes it to fetch."""
    return "sha256-" + base64.b64encode(bytes.fromhex(hex_digest)).decode()


def place_pyodide(
    files: DistFiles,
    version: str,
    lock: dict,
    wheels: list[Path],
    stdlib_bytecode: Path | None = None,
    cdn: str | None = None,
    stored_zips: bool = True,
) -> ServedPyodide:
    """Pyodide's files placed in dist/, or with `cdn` (a URL with {version}) nothing: the page
    then loads the runtime from there. The standard library and the first screen's wheels go out
    as stored zips unless `stored_zips` is False, so the lock the site serves carries their
    hashes: Pyodide checks every wheel it fetches against it (subresource integrity). The
    standard library holds the bytecode of the modules the boot imports, `stdlib_bytecode` (the
    output of tools/jobs/stdlib_bytecode.py)."""
    if cdn is not None:
        url = cdn.format(version=version)
        return ServedPyodide(json.dumps(url), url, (), None)
    served_lock = json.loads(json.dumps(lock))
    sources: dict[str, Path] = {}  # name in dist/pyodide/<folder>/: its source
    stored_names = set(STORED_RUNTIME if stored_zips else ())
    prefetch: list[dict] = []  # what the worker fetches at once (config.js's PREFETCH_WHEELS)
    for name in PYODIDE_RUNTIME:
        if name == "python_stdlib.zip" and stored_zips:
            if stdlib_bytecode is None:
                raise BuildError("the stored standard library needs its bytecode (stdlib_bytecode)")
            sources[name] = stored_with_bytecode(PYODIDE_NPM / name, stdlib_bytecode)
        elif name in stored_names:
            sources[name] = stored_copy(PYODIDE_NPM / name)
        elif name != "pyodide-lock.json":
            sources[name] = PYODIDE_NPM / name
    for wheel in wheels:
        entry = next(e for e in served_lock["packages"].values() if e["file_name"] == wheel.name)
        if entry["name"] in FIRST_SCREEN_PACKAGES:
            if stored_zips:
                wheel = stored_copy(wheel)
                stored_names.add(wheel.name)
                entry["sha256"] = sha256(wheel)
            prefetch.append({"file": wheel.name, "integrity": sri(entry["sha256"])})
        sources[wheel.name] = wheel
    served = CACHE / "served" / f"pyodide-lock-{version}.json"
    write_if_changed(served, json.dumps(served_lock, separators=(", ", ": ")))
    sources["pyodide-lock.json"] = served
    folder = pyodide_folder_name(version, sources)
    for name, source in sources.items():
        files.place(source, f"{folder}/{name}", stored=name in stored_names)
    sources_only = None
    if stored_zips:
        # On a slow link the page takes the standard library without its bytecode (see
        # app/python/start-python.js's SLOW_LINK, written by tools/generated_scripts.py).
        files.place(stored_copy(PYODIDE_NPM / "python_stdlib.zip"), SOURCES_ONLY_STDLIB, True)
        sources_only = SOURCES_ONLY_STDLIB
    return ServedPyodide(
        f'new URL("../{folder}/", import.meta.url).href',
        f"../../{folder}/",  # from app/python/start-python.js
        tuple(prefetch),
        sources_only,
    )


def pyodide_folder_name(version: str, sources: dict[str, Path]) -> str:
    """pyodide/<pin>-<hash>: named by the pin and a hash of every file's name and content, so a
    URL under it never changes content, and servers may let browsers keep them for good."""
    content = "".join(f"{name}:{sha256(path)}\n" for name, path in sorted(sources.items()))
    return f"pyodide/{version}-{hashlib.sha256(content.encode()).hexdigest()[:12]}"


def pyodide_folder(dist: Path | None = None) -> Path | None:
    """dist/pyodide/<pin>-<hash>/, the folder of Pyodide's files, or None in a light build."""
    found = sorted((dist or DIST).glob("pyodide/*/pyodide-lock.json"))
    if len(found) > 1:
        raise BuildError(
            f"{len(found)} Pyodide folders in dist/pyodide/: run python3 build.py build"
        )
    return found[0].parent if found else None


def check(dist: Path | None = None) -> None:
    """Verify dist/ on both sides of the repacking: the official files (the cached wheels and
    npm's runtime) against the official lock and npm's copy, then every served file against the
    lock the site serves, which must be the official one but for the stored copies' hashes, and
    every file that is not the official one against it, member by member: it must be its stored
    copy, and the standard library's may add only checked bytecode of its own sources (a build
    with stored_zips=False serves the official files and lock as they are)."""
    dist = dist or DIST
    if not (dist / "app" / "config.js").exists():
        raise BuildError("dist/ is not built: run python3 build.py build")
    pyodide = pyodide_folder(dist)
    if pyodide is None:
        log("dist/ is a light build (Pyodide from the CDN): nothing vendored to check")
        return
    served_folder = pyodide.relative_to(dist)
    version = pyodide_version()
    lock = official_lock(version)
    # cached_wheels() checks each against the lock
    officials = {path.name: path for path in cached_wheels(version, lock)}
    served_lock = json.loads((pyodide / "pyodide-lock.json").read_text())
    if (
        served_lock["info"] != lock["info"]
        or served_lock["packages"].keys() != lock["packages"].keys()
    ):
        raise BuildError(
            f"{served_folder}/pyodide-lock.json is not the official lock's: "
            "run python3 build.py build"
        )
    stored = 0
    for entry in needed_packages(lock):
        path = pyodide / entry["file_name"]
        served = served_lock["packages"][entry["name"].lower()]
        if not path.exists() or sha256(path) != served["sha256"]:
            raise BuildError(
                f"{served_folder}/{entry['file_name']} is missing or differs from "
                "the served lock: run python3 build.py build"
            )
        if {**served, "sha256": ""} != {**entry, "sha256": ""}:
            raise BuildError(
                f"the served lock's {entry['name']} entry differs from the official one: "
                "run python3 build.py build"
            )
        if served["sha256"] == entry["sha256"]:
            continue  # the official wheel
        if entry["name"] not in FIRST_SCREEN_PACKAGES:
            raise BuildError(
                f"the served lock changes the hash of {entry['file_name']}, which is not repacked"
            )
        if problem := members_differ(officials[entry["file_name"]], path):
            raise BuildError(
                f"{served_folder}/{entry['file_name']} is not the official wheel "
                f"stored ({problem})"
            )
        stored += 1
    for name in PYODIDE_RUNTIME:
        if name == "pyodide-lock.json":
            continue
        served, official = pyodide / name, PYODIDE_NPM / name
        if sha256(served) == sha256(official):
            continue
        if name not in STORED_RUNTIME:
            raise BuildError(
                f"{served_folder}/{name} differs from the npm package: run python3 build.py build"
            )
        if name == "python_stdlib.zip":  # the stored copy with checked bytecode beside the sources
            if problem := bytecode_beside_sources(official, served):
                raise BuildError(
                    f"{served_folder}/{name} is not npm's copy stored with its "
                    f"bytecode ({problem}): run python3 build.py build"
                )
        elif problem := members_differ(official, served):
            raise BuildError(
                f"{served_folder}/{name} is not npm's copy stored ({problem}): "
                "run python3 build.py build"
            )
        stored += 1
    log(
        f"dist/ verified: {len(PYODIDE_RUNTIME)} runtime files and "
        f"{len(needed_packages(lock))} wheels, "
        f"{stored} of them stored copies of the official files"
    )
