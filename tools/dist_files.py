"""dist/ as one build writes it: each file written or copied only when its content changed (so
an unchanged file keeps its time, and the server its .br/.gz siblings), the set of files this
build made, which of them are stored zips, and the pruning of whatever else dist/ holds."""

from __future__ import annotations

import shutil
from pathlib import Path

from tools.project import sha256


def copy_if_changed(source: Path, target: Path) -> None:
    if (
        target.exists()
        and target.stat().st_size == source.stat().st_size
        and sha256(target) == sha256(source)
    ):
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(source, target)


def write_if_changed(target: Path, text: str) -> None:
    if not target.exists() or target.read_text(encoding="utf-8") != text:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")


class DistFiles:
    """The files one build makes in `root` (dist/): `made`, every path written or copied, and
    `stored`, those that are stored zips (compressed like text: tools/compress.py)."""

    def __init__(self, root: Path):
        self.root = root
        self.made: set[Path] = set()
        self.stored: set[Path] = set()

    def place(self, source: Path, name: str, stored: bool = False) -> Path:
        """`source` copied to `name` (a path relative to dist/)."""
        target = self.root / name
        copy_if_changed(source, target)
        self.made.add(target)
        if stored:
            self.stored.add(target)
        return target

    def write(self, name: str, text: str) -> Path:
        """`text` written to `name` (a path relative to dist/)."""
        target = self.root / name
        write_if_changed(target, text)
        self.made.add(target)
        return target

    def prune(self) -> None:
        """Delete what dist/ holds but this build did not make, and the folders left empty."""
        for path in sorted(self.root.rglob("*"), reverse=True):
            if path.is_file() and path not in self.made:
                path.unlink()
            elif path.is_dir() and not any(path.iterdir()):
                path.rmdir()
