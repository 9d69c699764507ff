"""Stored zips: a copy of a zip (a wheel, Python's standard library) whose members are kept
uncompressed, byte for byte, in the same order, with the same names, dates and attributes.

Why: a deflated member is close to random bytes to Brotli or gzip, so a deflated zip goes out
nearly as large as it is; a stored zip lets the server's encoding compress the members as a
whole (python_stdlib.zip: 2.36 MB on the wire as it is, about 1.4 MB stored and Brotli'd).
Pyodide's own CDN builds its zips uncompressed for the same reason. Nothing in the copy depends
on the time or the machine, so every build writes the same bytes; copies are kept in
.cache/stored/ under the source's sha256.

The standard library the site serves is its stored copy with bytecode added
(`stored_with_bytecode`): each `.pyc` of tools/jobs/stdlib_bytecode.py right after its `.py`,
every official member still byte for byte and in order (`bytecode_beside_sources` checks it).
"""

from __future__ import annotations

import _imp
import zipfile
from pathlib import Path

from tools.project import CACHE, BuildError, sha256

# A checked hash-based pyc (PEP 552): magic (4 bytes), flags, the source's hash (8 bytes), code.
PYC_FLAGS_CHECKED_HASH = 0b11  # bit 0: hash-based; bit 1: check the hash against the source
NOT_BESIDE_ITS_SOURCE = "is neither the next official member nor the bytecode of the .py before it"


def stored_copy(
    source: Path, cache: Path = CACHE / "stored", compression: int = zipfile.ZIP_STORED
) -> Path:
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
            # read() checks each member's CRC-32
            copy.writestr(_same_header(member, compression), original.read(member))
        copy.comment = original.comment
    if members_differ(source, partial, compression):
        partial.unlink()
        raise BuildError(
            f"the stored copy of {source.name} differs from it: a bug in tools/repack.py"
        )
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
                wanted = "stored" if compression == zipfile.ZIP_STORED else "deflated"
                return f"{mine.filename} is not {wanted}"
            if mine.date_time != original.date_time or mine.external_attr != original.external_attr:
                return f"{mine.filename}'s date or attributes"
            if b.read(mine) != a.read(original):
                return f"{mine.filename}'s bytes"
    return None


def stored_with_bytecode(source: Path, bytecode: Path, cache: Path = CACHE / "stored") -> Path:
    """The stored copy of the zip `source` with each member of the zip `bytecode` (`x.pyc`, a
    checked hash-based pyc of `source`'s `x.py`) inserted right after its `.py`, so that Brotli's
    window holds a module's source and its bytecode together. Made once, then taken from `cache`.

    Raises BuildError if a `.pyc` has no `.py` in `source` or is not a checked pyc of it.
    """
    target = cache / f"{sha256(source)}-{sha256(bytecode)[:16]}-with-bytecode" / source.name
    if target.exists():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".part")
    with zipfile.ZipFile(bytecode) as compiled:
        pycs = {member.filename: compiled.read(member) for member in compiled.infolist()}
    with zipfile.ZipFile(source) as original, zipfile.ZipFile(partial, "w") as copy:
        names = set(original.namelist())
        if strays := sorted(name for name in pycs if name[:-1] not in names):
            raise BuildError(
                f"{bytecode.name} has bytecode of no .py in {source.name}: {strays[:5]}"
            )
        for member in original.infolist():
            copy.writestr(_same_header(member, zipfile.ZIP_STORED), original.read(member))
            if (pyc := member.filename + "c") in pycs and member.filename.endswith(".py"):
                # the .py's date and attributes: nothing of this build's time gets in
                copy.writestr(_same_header(member, zipfile.ZIP_STORED, pyc), pycs[pyc])
        copy.comment = original.comment
    if problem := bytecode_beside_sources(source, partial):
        partial.unlink()
        raise BuildError(f"{source.name} with bytecode is not as it should be ({problem})")
    partial.replace(target)
    return target


def _same_header(member: zipfile.ZipInfo, compression: int, name: str = "") -> zipfile.ZipInfo:
    """A fresh header with `member`'s date and attributes (and its name, or `name`)."""
    info = zipfile.ZipInfo(name or member.filename, member.date_time)
    info.compress_type = compression
    info.create_system = member.create_system
    info.external_attr = member.external_attr
    info.internal_attr = member.internal_attr
    if not name:
        info.comment = member.comment
        info.extra = member.extra
    return info


def bytecode_beside_sources(official: Path, copy: Path) -> str | None:
    """None when `copy` holds the members of `official`, byte for byte, in the same order and
    with the same names, dates and attributes, all stored, plus only bytecode: each extra member
    `x.pyc` right after the official `x.py`, a checked hash-based pyc (flags 3) whose hash is
    that `.py`'s under the pyc's own magic number, the same magic in every pyc. Else what is
    wrong first.

    The hash is `_imp.source_hash(key, source)` with key the magic number read as a
    little-endian integer: the function zipimport checks pycs with, and the same in CPython
    3.11 as in Pyodide's 3.12 for the same key and bytes (the tests compare it with the hashes
    Pyodide's Python wrote).
    """
    with zipfile.ZipFile(official) as a, zipfile.ZipFile(copy) as b:
        theirs = a.infolist()
        index, source, magic = 0, None, None  # the next official member; the .py just read
        for mine in b.infolist():
            if mine.compress_type != zipfile.ZIP_STORED:
                return f"{mine.filename} is not stored"
            if index < len(theirs) and mine.filename == theirs[index].filename:
                original = theirs[index]
                index += 1
                if (mine.date_time, mine.external_attr) != (
                    original.date_time,
                    original.external_attr,
                ):
                    return f"{mine.filename}'s date or attributes"
                data = b.read(mine)
                if data != a.read(original):
                    return f"{mine.filename}'s bytes"
                source = (mine.filename, data) if mine.filename.endswith(".py") else None
                continue
            if source is None or mine.filename != source[0] + "c":
                return f"{mine.filename} {NOT_BESIDE_ITS_SOURCE}"
            pyc = b.read(mine)
            if len(pyc) < 16 or pyc[2:4] != b"\r\n":
                return f"{mine.filename} is not a pyc"
            if int.from_bytes(pyc[4:8], "little") != PYC_FLAGS_CHECKED_HASH:
                return f"{mine.filename} is not a checked hash-based pyc"
            if pyc[8:16] != _imp.source_hash(int.from_bytes(pyc[:4], "little"), source[1]):
                return f"{mine.filename}'s hash is not its source's"
            if pyc[:4] != (magic := magic or pyc[:4]):
                return f"{mine.filename}'s magic number differs from the other pycs'"
            source = None  # one pyc per source
        if index != len(theirs):
            return "the member names or their order"
    return None
