"""Stored zips: a copy of a zip (a wheel, Python's standard library) whose members are kept
uncompressed, byte for byte, in the same order, with the same names, dates and attributes.

Why: a deflated member is close to random bytes to Brotli or gzip, so a deflated zip goes out
nearly as large as it is; a stored zip lets the server's encoding compress the members as a
whole (python_stdlib.zip: 2.36 MB on the wire as it is, about 1.4 MB stored and Brotli'd).
Pyodide's own CDN builds its zips uncompressed for the same reason. Nothing in the copy depends
on the time or the machine, so every build writes the same bytes; copies are kept in
.cache/stored/ under the source's sha256.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

from tools.project import CACHE, BuildError, sha256


def stored_copy(source: Path, cache: Path = CACHE / "stored", compression: int = zipfile.ZIP_STORED) -> Path:
    """The stored copy of the zip `source` (made once, then taken from `cache`); with
    `compression=zipfile.ZIP_DEFLATED`, a deflated one (for hosts that compress no zip)."""
    target = cache / f"{sha256(source)}-{compression}" / source.name
    if target.exists():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".part")
    with zipfile.ZipFile(source) as original, zipfile.ZipFile(partial, "w") as copy:
        for member in original.infolist():
            # A fresh header with the original's name, date and attributes: nothing of this
            # machine or this moment gets in, so the copy is the same on every build.
            info = zipfile.ZipInfo(member.filename, member.date_time)
            info.compress_type = compression
            info.create_system = member.create_system
            info.external_attr = member.external_attr
            info.internal_attr = member.internal_attr
            info.comment = member.comment
            info.extra = member.extra
            copy.writestr(info, original.read(member))  # read() checks each member's CRC-32
        copy.comment = original.comment
    if members_differ(source, partial, compression):
        partial.unlink()
        raise BuildError(f"the stored copy of {source.name} differs from it: a bug in tools/repack.py")
    partial.replace(target)
    return target


def members_differ(official: Path, copy: Path, compression: int = zipfile.ZIP_STORED) -> str | None:
    """None when `copy` holds the members of `official`, byte for byte, in the same order and
    with the same names and dates, all stored (or all compressed with `compression`); else what
    differs first."""
    with zipfile.ZipFile(official) as a, zipfile.ZipFile(copy) as b:
        ours, theirs = b.infolist(), a.infolist()
        if [m.filename for m in ours] != [m.filename for m in theirs]:
            return "the member names or their order"
        for mine, original in zip(ours, theirs):
            if mine.compress_type != compression:
                return f"{mine.filename} is not {'stored' if compression == zipfile.ZIP_STORED else 'deflated'}"
            if mine.date_time != original.date_time or mine.external_attr != original.external_attr:
                return f"{mine.filename}'s date or attributes"
            if b.read(mine) != a.read(original):
                return f"{mine.filename}'s bytes"
    return None
