"""What the tests and the benchmark need beyond python3 and Node: a virtual environment with
requirements-dev.txt, Chromium (Debian's package; Playwright's downloads are not used), and a
Java runtime for the Nu HTML Checker (npm's vnu-jar; Debian's default-jre-headless)."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from tools.project import ROOT, VENV, BuildError, run, sha256


def find_chromium() -> str | None:
    for candidate in (
        os.environ.get("PELAB_CHROMIUM"),
        "chromium",
        "chromium-browser",
        "google-chrome",
    ):
        if candidate and (path := shutil.which(candidate)):
            return path
    return None


def ensure_chromium() -> str:
    """Find Chromium, installing Debian's package when there is none (Playwright's downloads are
    not used)."""
    if path := find_chromium():
        return path
    return apt_install("chromium", find_chromium, "or set PELAB_CHROMIUM")


def find_java() -> str | None:
    return shutil.which("java")


def ensure_java() -> str:
    """Find a Java runtime, which the Nu HTML Checker needs (tests/build/test_valid_html.py),
    installing Debian's default-jre-headless when there is none (vnu-jar's own downloader, its
    install script, is not run: npm ci --ignore-scripts)."""
    if path := find_java():
        return path
    return apt_install("default-jre-headless", find_java, "or put a java (11+) on PATH")


def apt_install(package: str, find, otherwise: str) -> str:
    """Install Debian's `package` (as root, with apt-get), then `find()` what it provides."""
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        raise BuildError(
            f"no {package} found: install it (apt-get install -y {package}) {otherwise}"
        )
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    run(["apt-get", "update", "-q"], env=env)
    run(["apt-get", "install", "-y", "-q", "--no-install-recommends", package], env=env)
    if path := find():
        return path
    raise BuildError(f"apt-get installed {package} but what it provides is not on PATH")


def ensure_venv() -> Path:
    """A virtual environment in .venv/ with requirements-dev.txt, reinstalled when that file
    changes."""
    python = VENV / "bin" / "python"
    requirements = ROOT / "requirements-dev.txt"
    stamp = VENV / "requirements.sha256"
    wanted = sha256(requirements)
    if python.exists() and stamp.exists() and stamp.read_text() == wanted:
        return python
    if not python.exists():
        run([sys.executable, "-m", "venv", str(VENV)])
    run(
        [
            str(python),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "-r",
            str(requirements),
        ]
    )
    stamp.write_text(wanted)
    return python
