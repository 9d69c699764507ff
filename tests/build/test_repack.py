"""Stored zips (tools/repack.py): the standard library, numpy's wheel and the bytecode go out
uncompressed inside, so the server's Brotli compresses them; every member is the official
file's, byte for byte; the standard library adds only checked bytecode of its own modules; the
lock the site serves carries the new hashes, and `check` verifies both sides."""

from __future__ import annotations

import _imp
import base64
import hashlib
import io
import json
import re
import shutil
import zipfile

import pytest

from site_server import DIST, PYODIDE
from tools import in_pyodide, repack, served_pyodide, site, vendor_pyodide
from tools.project import CACHE, sha256

LOCK = json.loads((vendor_pyodide.PYODIDE_NPM / "pyodide-lock.json").read_text())
NUMPY = LOCK["packages"]["numpy"]["file_name"]
# (official file, the copy dist/ serves)
STORED = [
    (vendor_pyodide.PYODIDE_NPM / "python_stdlib.zip", DIST / PYODIDE / "python_stdlib.zip"),
    (CACHE / "pyodide-0.27.7" / NUMPY, DIST / PYODIDE / NUMPY),
]


@pytest.mark.parametrize(("official", "served"), STORED, ids=["python_stdlib.zip", "numpy"])
def test_every_member_is_the_official_files_byte_for_byte_and_stored(official, served):
    if (
        official.suffix == ".whl"
    ):  # the cached official wheel is the lock's (npm's stdlib is itself)
        assert sha256(official) == LOCK["packages"]["numpy"]["sha256"]
    with zipfile.ZipFile(official) as a, zipfile.ZipFile(served) as b:
        theirs, ours = a.infolist(), b.infolist()
        if official.name == "python_stdlib.zip":  # the official members, then only bytecode
            assert not any(m.filename.endswith(".pyc") for m in theirs)
            ours = [m for m in ours if not m.filename.endswith(".pyc")]
        assert [m.filename for m in ours] == [m.filename for m in theirs]  # same names, same order
        assert any(m.compress_type == zipfile.ZIP_DEFLATED for m in theirs)
        for mine, original in zip(ours, theirs):
            assert mine.compress_type == zipfile.ZIP_STORED, mine.filename
            assert (mine.date_time, mine.external_attr) == (
                original.date_time,
                original.external_attr,
            )
            assert b.read(mine) == a.read(original), mine.filename
    assert served.stat().st_size > official.stat().st_size  # uncompressed inside


def test_the_served_stdlib_adds_only_checked_bytecode_each_right_after_its_source():
    """Each extra member x.pyc follows x.py, is a checked hash-based pyc (PEP 552: flags 3, so
    zipimport compiles the source instead whenever the hash differs) of that very source, under
    one magic number (Pyodide's Python 3.12's: 3531, then \\r\\n)."""
    with zipfile.ZipFile(DIST / PYODIDE / "python_stdlib.zip") as served:
        members = served.infolist()
        pycs = [(n, m) for n, m in enumerate(members) if m.filename.endswith(".pyc")]
        assert len(pycs) > 100
        for n, member in pycs:
            source = members[n - 1]
            assert source.filename == member.filename[:-1]
            assert member.date_time == source.date_time
            assert member.external_attr == source.external_attr
            pyc = served.read(member)
            assert pyc[:4] == (3531).to_bytes(2, "little") + b"\r\n"
            assert int.from_bytes(pyc[4:8], "little") == 0b11
            # exact: the hash Pyodide's Python 3.12 wrote, recomputed by this CPython 3.11 (the same
            # keyed hash of the same bytes)
            key = int.from_bytes(pyc[:4], "little")
            assert pyc[8:16] == _imp.source_hash(key, served.read(source))
    stdlib = DIST / PYODIDE / "python_stdlib.zip"
    assert repack.bytecode_beside_sources(STORED[0][0], stdlib) is None


def test_the_served_stdlib_is_the_same_bytes_on_every_build(tmp_path):
    """The pycs come from tools/jobs/stdlib_bytecode.py, as the build ran it (cached)."""
    wheels = vendor_pyodide.cached_wheels("0.27.7", LOCK)
    pelab = next((DIST / "py").glob("pelab-*.whl"))
    bytecode = in_pyodide.job_output("stdlib_bytecode", {}, wheels, pelab, ".zip")
    again = repack.stored_with_bytecode(STORED[0][0], bytecode, tmp_path)
    assert again.read_bytes() == (DIST / PYODIDE / "python_stdlib.zip").read_bytes()


def test_stored_with_bytecode_puts_each_pyc_right_after_its_source_and_refuses_a_stray(tmp_path):
    from importlib._bootstrap_external import _RAW_MAGIC_NUMBER, _code_to_hash_pyc

    def pyc(source):  # a checked hash-based pyc made by this CPython, as the job makes them
        code = compile(source, "x.py", "exec", dont_inherit=True)
        return bytes(
            _code_to_hash_pyc(code, _imp.source_hash(_RAW_MAGIC_NUMBER, source), checked=True)
        )

    official, bytecode, stray = tmp_path / "lib.zip", tmp_path / "pycs.zip", tmp_path / "stray.zip"
    sources = [("a.py", b"a = 1\n"), ("data.txt", b"text"), ("p/__init__.py", b"p = 2\n")]
    with zipfile.ZipFile(official, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in sources:
            archive.writestr(zipfile.ZipInfo(name, (2024, 5, 6, 7, 8, 10)), data)
    with zipfile.ZipFile(bytecode, "w") as archive:  # in another order than the sources'
        archive.writestr("p/__init__.pyc", pyc(b"p = 2\n"))
        archive.writestr("a.pyc", pyc(b"a = 1\n"))
    copy = repack.stored_with_bytecode(official, bytecode, tmp_path / "cache")
    with zipfile.ZipFile(copy) as archive:
        assert archive.namelist() == [
            "a.py",
            "a.pyc",
            "data.txt",
            "p/__init__.py",
            "p/__init__.pyc",
        ]
        assert {m.date_time for m in archive.infolist()} == {(2024, 5, 6, 7, 8, 10)}
    assert repack.bytecode_beside_sources(official, copy) is None
    assert (
        repack.stored_with_bytecode(official, bytecode, tmp_path / "again").read_bytes()
        == copy.read_bytes()
    )
    with zipfile.ZipFile(stray, "w") as archive:
        archive.writestr("b.pyc", pyc(b"b = 3\n"))
    with pytest.raises(
        SystemExit, match=r"stray.zip has bytecode of no .py in lib.zip: \['b.pyc'\]"
    ):
        repack.stored_with_bytecode(official, stray, tmp_path / "cache")


def test_deflating_the_stored_numpy_again_gives_the_official_wheel_byte_for_byte(tmp_path):
    """A stronger proof than member by member: names, dates, attributes, order and contents
    are all kept, so zlib at Python's default level rebuilds the very file the lock names."""
    again = repack.stored_copy(STORED[1][1], tmp_path, compression=zipfile.ZIP_DEFLATED)
    assert sha256(again) == LOCK["packages"]["numpy"]["sha256"]


def test_the_bytecode_archive_is_stored_too():
    with zipfile.ZipFile(DIST / "py" / "bytecode.zip") as archive:
        assert {m.compress_type for m in archive.infolist()} == {zipfile.ZIP_STORED}


@pytest.mark.parametrize("name", ["python_stdlib.zip", NUMPY, "bytecode.zip"])
def test_the_stored_zips_go_out_smaller_than_the_official_deflated_ones(name):
    """What the repacking is for: Brotli over the stored zip beats the deflated zip as it is."""
    folder = DIST / ("py" if name == "bytecode.zip" else PYODIDE)
    official = {"python_stdlib.zip": STORED[0][0], NUMPY: STORED[1][0]}.get(name)
    brotli = (folder / f"{name}.br").stat().st_size
    # the official deflated zip, or for our own bytecode, the same members deflated now (it grows
    # with every demo: a fixed figure went stale); the stdlib adds its pycs, so against the
    # official zip plus those pycs deflated (measured: stdlib 2.36 + 1.46 -> 2.36 MB, without pycs
    # 2.36 -> 1.48 MB; numpy 3.06 -> 1.93 MB; bytecode 1.02 -> 0.69 MB)
    if official:
        deflated = official.stat().st_size
    else:
        deflated = len(deflated_members(folder / name, ""))
    if name == "python_stdlib.zip":
        deflated += len(deflated_members(folder / name, ".pyc"))
    assert brotli < 0.8 * deflated


def deflated_members(archive, suffix):
    """A zip of `archive`'s members whose names end with `suffix`, deflated (zlib's default
    level)."""
    buffer = io.BytesIO()
    with (
        zipfile.ZipFile(archive) as source,
        zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as out,
    ):
        for member in source.infolist():
            if member.filename.endswith(suffix):
                out.writestr(member.filename, source.read(member))
    return buffer.getvalue()



def test_the_siblings_of_a_stored_zip_decompress_to_it():
    import gzip

    from test_compression import unbrotli

    stdlib = DIST / PYODIDE / "python_stdlib.zip"
    assert (
        gzip.decompress((DIST / PYODIDE / "python_stdlib.zip.gz").read_bytes())
        == stdlib.read_bytes()
    )
    bytecode = DIST / "py" / "bytecode.zip"
    assert unbrotli((DIST / "py" / "bytecode.zip.br").read_bytes()) == bytecode.read_bytes()


def test_a_stored_copy_is_the_same_bytes_on_every_build(tmp_path):
    six = CACHE / "pyodide-0.27.7" / LOCK["packages"]["six"]["file_name"]
    first = repack.stored_copy(six, tmp_path / "a")
    second = repack.stored_copy(six, tmp_path / "b")
    assert first.read_bytes() == second.read_bytes()
    assert repack.members_differ(six, first) is None


def test_members_differ_names_a_changed_member(tmp_path):
    def write(path, members, compress_type=zipfile.ZIP_STORED):
        with zipfile.ZipFile(path, "w") as archive:
            for name, data in members:
                archive.writestr(
                    zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0)), data, compress_type=compress_type
                )
        return path

    official = write(
        tmp_path / "a.zip", [("x.py", b"x = 1\n"), ("y.py", b"y = 2\n")], zipfile.ZIP_DEFLATED
    )
    assert (
        repack.members_differ(
            official, write(tmp_path / "b.zip", [("x.py", b"x = 1\n"), ("y.py", b"y = 3\n")])
        )
        == "y.py's bytes"
    )
    assert (
        repack.members_differ(
            official, write(tmp_path / "c.zip", [("y.py", b"y = 2\n"), ("x.py", b"x = 1\n")])
        )
        == "the member names or their order"
    )
    assert repack.members_differ(official, official) == "x.py is not stored"
    assert (
        repack.members_differ(
            official, write(tmp_path / "d.zip", [("x.py", b"x = 1\n"), ("y.py", b"y = 2\n")])
        )
        is None
    )


def test_the_served_lock_is_the_official_one_but_for_the_stored_wheels_hashes():
    served = json.loads((DIST / PYODIDE / "pyodide-lock.json").read_text())
    assert served["info"] == LOCK["info"]
    changed = {
        name for name in LOCK["packages"] if served["packages"][name] != LOCK["packages"][name]
    }
    assert changed == {"numpy"}
    assert served["packages"]["numpy"]["sha256"] == sha256(DIST / PYODIDE / NUMPY)
    assert {**served["packages"]["numpy"], "sha256": ""} == {
        **LOCK["packages"]["numpy"],
        "sha256": "",
    }


def test_the_worker_prefetches_numpy_with_the_hash_pyodide_will_ask_for():
    """Pyodide 0.27.7 fetches a wheel with `integrity: "sha256-" + base64(lock's sha256)`; the
    worker's early fetch must ask for the same, or Pyodide's own request would not reuse it."""
    config = (DIST / "app" / "config.js").read_text()
    prefetch = json.loads(re.search(r"^export const PREFETCH_WHEELS = (.*);$", config, re.M)[1])
    digest = hashlib.sha256((DIST / PYODIDE / NUMPY).read_bytes()).digest()
    assert prefetch == [{"file": NUMPY, "integrity": "sha256-" + base64.b64encode(digest).decode()}]
    assert 'export const FIRST_PACKAGES = ["numpy"];' in config
    runtime = (vendor_pyodide.PYODIDE_NPM / "pyodide.asm.js").read_text()
    assert 's="sha256-"+' in runtime and "fetch(r,e?{integrity:e}:{})" in runtime


@pytest.fixture
def dist_copy(tmp_path, monkeypatch):
    """dist/ for check() to read, its pyodide/ a copy a test may tamper with."""
    copy = tmp_path / "dist"
    copy.mkdir()
    for entry in DIST.iterdir():
        if entry.name != "pyodide":
            (copy / entry.name).symlink_to(entry)
    shutil.copytree(DIST / "pyodide", copy / "pyodide")  # pyodide/<pin>-<hash>/
    monkeypatch.setattr(served_pyodide, "DIST", copy)
    return copy


def test_check_passes_on_the_build(dist_copy):
    served_pyodide.check()


def test_check_refuses_the_official_deflated_wheel_under_the_served_lock(dist_copy):
    shutil.copy(STORED[1][0], dist_copy / PYODIDE / NUMPY)
    with pytest.raises(SystemExit, match=f"{NUMPY} is missing or differs from the served lock"):
        served_pyodide.check()


def test_check_refuses_a_wheel_neither_official_nor_stored_even_when_the_served_lock_agrees(
    dist_copy, tmp_path
):
    deflated = tmp_path / NUMPY  # the same members, deflated harder: not the official file
    with zipfile.ZipFile(STORED[1][0]) as official, zipfile.ZipFile(deflated, "w") as copy:
        for member in official.infolist():
            copy.writestr(
                member, official.read(member), compress_type=zipfile.ZIP_DEFLATED, compresslevel=1
            )
    assert sha256(deflated) != LOCK["packages"]["numpy"]["sha256"]
    shutil.copy(deflated, dist_copy / PYODIDE / NUMPY)
    lock = json.loads((dist_copy / PYODIDE / "pyodide-lock.json").read_text())
    lock["packages"]["numpy"]["sha256"] = sha256(deflated)
    (dist_copy / PYODIDE / "pyodide-lock.json").write_text(json.dumps(lock))
    with pytest.raises(
        SystemExit, match=f"{NUMPY} is not the official wheel stored .* is not stored"
    ):
        served_pyodide.check()


def test_check_refuses_a_served_lock_that_changes_another_wheels_hash(dist_copy):
    lock = json.loads((dist_copy / PYODIDE / "pyodide-lock.json").read_text())
    lock["packages"]["six"]["sha256"] = "0" * 64
    (dist_copy / PYODIDE / "pyodide-lock.json").write_text(json.dumps(lock))
    with pytest.raises(SystemExit, match="differs from the served lock"):
        served_pyodide.check()


def test_check_refuses_a_stdlib_with_a_changed_member(dist_copy, tmp_path):
    stdlib = dist_copy / PYODIDE / "python_stdlib.zip"
    with zipfile.ZipFile(stdlib) as original, zipfile.ZipFile(tmp_path / "s.zip", "w") as changed:
        for n, member in enumerate(original.infolist()):
            changed.writestr(member, original.read(member) + (b"#" if n == 5 else b""))
    shutil.copy(tmp_path / "s.zip", stdlib)
    with pytest.raises(SystemExit, match="python_stdlib.zip is not npm's copy stored"):
        served_pyodide.check()


def test_a_deflated_zips_build_serves_the_official_files_and_lock_as_they_are(tmp_path):
    """build.py build --deflated-zips, for hosts that compress no zip: nothing of Pyodide's is
    repacked, our bytecode is deflated (the same members), and check() accepts it."""
    site.build(stored_zips=False, dist=tmp_path / "dist")
    folder = served_pyodide.pyodide_folder(tmp_path / "dist")
    assert (folder / "pyodide-lock.json").read_text() == json.dumps(LOCK, separators=(", ", ": "))
    assert sha256(folder / NUMPY) == LOCK["packages"]["numpy"]["sha256"]
    assert sha256(folder / "python_stdlib.zip") == sha256(
        vendor_pyodide.PYODIDE_NPM / "python_stdlib.zip"
    )
    assert not (folder / f"{NUMPY}.br").exists() and not (folder / "python_stdlib.zip.br").exists()
    bytecode = tmp_path / "dist" / "py" / "bytecode.zip"
    assert (
        repack.members_differ(DIST / "py" / "bytecode.zip", bytecode, zipfile.ZIP_DEFLATED) is None
    )
    assert folder.name != PYODIDE.split("/")[1]  # other files, another folder
    served_pyodide.check(tmp_path / "dist")


def rewrite(path, edit):
    """The zip at `path` rewritten: each member named in the dict `edit(data)` (`data`: every
    member's bytes by name) replaced by the (name, bytes) pairs listed there, the others kept."""
    with zipfile.ZipFile(path) as original:
        members = [(info, original.read(info)) for info in original.infolist()]
    replacements = edit({info.filename: data for info, data in members})
    with zipfile.ZipFile(path, "w") as copy:
        for info, data in members:
            for name, new in replacements.get(info.filename, [(info.filename, data)]):
                header = zipfile.ZipInfo(name, info.date_time)
                header.external_attr = info.external_attr
                copy.writestr(header, new)


def unchecked(pyc):
    return pyc[:4] + (1).to_bytes(4, "little") + pyc[8:]  # flags 1: hash-based, never checked


def under_magic(magic, pyc, source):
    """`pyc` under another magic number, its hash keyed by that magic as Python would."""
    head = magic.to_bytes(2, "little") + b"\r\n"
    return head + pyc[4:8] + _imp.source_hash(int.from_bytes(head, "little"), source) + pyc[16:]


PY, PYC = "json/__init__.py", "json/__init__.pyc"
NOT_NEXT = repack.NOT_BESIDE_ITS_SOURCE
TAMPERED = {  # what is done to the served stdlib, and what check() must say
    "a pyc of another source": (
        lambda data: {PYC: [(PYC, data["json/decoder.pyc"])]},
        f"{PYC}'s hash is not its source's",
    ),
    "an unchecked pyc": (
        lambda data: {PYC: [(PYC, unchecked(data[PYC]))]},
        f"{PYC} is not a checked hash-based pyc",
    ),
    "a pyc beside no .py": (
        lambda data: {PYC: [(PYC, data[PYC]), ("json/nowhere.pyc", data[PYC])]},
        f"json/nowhere.pyc {NOT_NEXT}",
    ),
    "a pyc before its .py": (
        lambda data: {PY: [], PYC: [(PYC, data[PYC]), (PY, data[PY])]},
        f"{PYC} {NOT_NEXT}",
    ),
    "a pyc under another magic number": (
        lambda data: {PYC: [(PYC, under_magic(3495, data[PYC], data[PY]))]},  # 3495: Python 3.11's
        f"{PYC}'s magic number differs from the other pycs'",
    ),
}


@pytest.mark.parametrize("tampering", TAMPERED)
def test_check_refuses_a_stdlib_with_bytecode_not_its_sources_checked_pyc(dist_copy, tampering):
    edit, problem = TAMPERED[tampering]
    rewrite(dist_copy / PYODIDE / "python_stdlib.zip", edit)
    stored_with = "python_stdlib.zip is not npm's copy stored with its bytecode"
    with pytest.raises(SystemExit, match=re.escape(f"{stored_with} ({problem})")):
        served_pyodide.check()
