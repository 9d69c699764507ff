"""Where the project's folders are, and how every build step runs a command and reports."""

from __future__ import annotations

import hashlib
import os
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DIST = ROOT / "dist"
CACHE = ROOT / ".cache"
VENV = ROOT / ".venv"
NODE_MODULES = ROOT / "node_modules"
# The pages of the site's root that the build takes as they are (the course's are assembled).
SITE_FILES = ("embed.html", "embedding.html")


class BuildError(SystemExit):
    """A build failure with a message that says what to do."""

    def __init__(self, message: str):
        super().__init__(f"build.py: error: {message}")


def log(message: str) -> None:
    print(f"build.py: {message}", flush=True)


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def run(command: list[str], **kwargs) -> None:
    log("$ " + " ".join(str(part) for part in command))
    result = subprocess.run(command, cwd=ROOT, **kwargs)
    if result.returncode:
        raise BuildError(f"{command[0]} exited with {result.returncode}")


def replace_atomically(path: Path, data: bytes) -> None:
    """`path` holds `data`, written beside it and renamed over it: a reader sees the old file or
    the new one, never half of either."""
    with tempfile.NamedTemporaryFile(dir=path.parent, prefix=f".{path.name}.", delete=False) as f:
        f.write(data)
    os.replace(f.name, path)
