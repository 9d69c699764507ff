"""What the tests and the benchmark need beyond python3 and Node: a virtual environment with
requirements-dev.txt, and Chromium (Debian's package; Playwright's downloads are not used)."""

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
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        raise BuildError(
            "no Chromium found: install it (apt-get install -y chromium) or set PELAB_CHROMIUM"
        )
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    run(["apt-get", "update", "-q"], env=env)
    run(["apt-get", "install", "-y", "-q", "--no-install-recommends", "chromium"], env=env)
    if path := find_chromium():
        return path
    raise BuildError("apt-get installed chromium but no chromium executable is on PATH")


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
