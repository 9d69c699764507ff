"""Stored zips (tools/repack.py): the standard library, numpy's wheel and the bytecode go out
uncompressed inside, so the server's Brotli compresses them; every member is the official
file's, byte for byte; the lock the site serves carries the new hashes, and `check` verifies
both sides."""

from __future__ import annotations

import base64
import hashlib
import json
import re
import shutil
import zipfile

import pytest

from site_server import DIST, PYODIDE
from tools import repack, site, vendor_pyodide
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
    if official.suffix == ".whl":  # the cached official wheel is the lock's (npm's stdlib is itself)
        assert sha256(official) == LOCK["packages"]["numpy"]["sha256"]
    with zipfile.ZipFile(official) as a, zipfile.ZipFile(served) as b:
        theirs, ours = a.infolist(), b.infolist()
        assert [m.filename for m in ours] == [m.filename for m in theirs]  # same names, same order
        assert any(m.compress_type == zipfile.ZIP_DEFLATED for m in theirs)
        for mine, original in zip(ours, theirs):
            assert mine.compress_type == zipfile.ZIP_STORED, mine.filename
            assert (mine.date_time, mine.external_attr) == (original.date_time, original.external_attr)
            assert b.read(mine) == a.read(original), mine.filename
    assert served.stat().st_size > official.stat().st_size  # uncompressed inside


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
    # the official deflated zip, or for our own bytecode, the same members deflated (measured:
    # stdlib 2.36 -> 1.48 MB, numpy 3.06 -> 1.93 MB, bytecode 0.86 -> 0.60 MB)
    assert brotli < 0.8 * (official.stat().st_size if official else 858_000)


def test_the_siblings_of_a_stored_zip_decompress_to_it():
    import gzip

    from test_compression import unbrotli

    stdlib = DIST / PYODIDE / "python_stdlib.zip"
    assert gzip.decompress((DIST / PYODIDE / "python_stdlib.zip.gz").read_bytes()) == stdlib.read_bytes()
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
                archive.writestr(zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0)), data, compress_type=compress_type)
        return path

    official = write(tmp_path / "a.zip", [("x.py", b"x = 1\n"), ("y.py", b"y = 2\n")], zipfile.ZIP_DEFLATED)
    assert repack.members_differ(official, write(tmp_path / "b.zip", [("x.py", b"x = 1\n"), ("y.py", b"y = 3\n")])) == "y.py's bytes"
    assert repack.members_differ(official, write(tmp_path / "c.zip", [("y.py", b"y = 2\n"), ("x.py", b"x = 1\n")])) == "the member names or their order"
    assert repack.members_differ(official, official) == "x.py is not stored"
    assert repack.members_differ(official, write(tmp_path / "d.zip", [("x.py", b"x = 1\n"), ("y.py", b"y = 2\n")])) is None


def test_the_served_lock_is_the_official_one_but_for_the_stored_wheels_hashes():
    served = json.loads((DIST / PYODIDE / "pyodide-lock.json").read_text())
    assert served["info"] == LOCK["info"]
    changed = {name for name in LOCK["packages"] if served["packages"][name] != LOCK["packages"][name]}
    assert changed == {"numpy"}
    assert served["packages"]["numpy"]["sha256"] == sha256(DIST / PYODIDE / NUMPY)
    assert {**served["packages"]["numpy"], "sha256": ""} == {**LOCK["packages"]["numpy"], "sha256": ""}


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
    monkeypatch.setattr(site, "DIST", copy)
    return copy


def test_check_passes_on_the_build(dist_copy):
    site.check()


def test_check_refuses_the_official_deflated_wheel_under_the_served_lock(dist_copy):
    shutil.copy(STORED[1][0], dist_copy / PYODIDE / NUMPY)
    with pytest.raises(SystemExit, match=f"{NUMPY} is missing or differs from the served lock"):
        site.check()


def test_check_refuses_a_wheel_neither_official_nor_stored_even_when_the_served_lock_agrees(dist_copy, tmp_path):
    deflated = tmp_path / NUMPY  # the same members, deflated harder: not the official file
    with zipfile.ZipFile(STORED[1][0]) as official, zipfile.ZipFile(deflated, "w") as copy:
        for member in official.infolist():
            copy.writestr(member, official.read(member), compress_type=zipfile.ZIP_DEFLATED, compresslevel=1)
    assert sha256(deflated) != LOCK["packages"]["numpy"]["sha256"]
    shutil.copy(deflated, dist_copy / PYODIDE / NUMPY)
    lock = json.loads((dist_copy / PYODIDE / "pyodide-lock.json").read_text())
    lock["packages"]["numpy"]["sha256"] = sha256(deflated)
    (dist_copy / PYODIDE / "pyodide-lock.json").write_text(json.dumps(lock))
    with pytest.raises(SystemExit, match=f"{NUMPY} is not the official wheel stored .* is not stored"):
        site.check()


def test_check_refuses_a_served_lock_that_changes_another_wheels_hash(dist_copy):
    lock = json.loads((dist_copy / PYODIDE / "pyodide-lock.json").read_text())
    lock["packages"]["six"]["sha256"] = "0" * 64
    (dist_copy / PYODIDE / "pyodide-lock.json").write_text(json.dumps(lock))
    with pytest.raises(SystemExit, match="differs from the served lock"):
        site.check()


def test_check_refuses_a_stdlib_with_a_changed_member(dist_copy, tmp_path):
    stdlib = dist_copy / PYODIDE / "python_stdlib.zip"
    with zipfile.ZipFile(stdlib) as original, zipfile.ZipFile(tmp_path / "s.zip", "w") as changed:
        for n, member in enumerate(original.infolist()):
            changed.writestr(member, original.read(member) + (b"#" if n == 5 else b""))
    shutil.copy(tmp_path / "s.zip", stdlib)
    with pytest.raises(SystemExit, match="python_stdlib.zip is not npm's copy stored"):
        site.check()


def test_a_deflated_zips_build_serves_the_official_files_and_lock_as_they_are(tmp_path, monkeypatch):
    """build.py build --deflated-zips, for hosts that compress no zip: nothing of Pyodide's is
    repacked, our bytecode is deflated (the same members), and check() accepts it."""
    monkeypatch.setattr(site, "DIST", tmp_path / "dist")
    site.build(stored_zips=False)
    folder = site.pyodide_folder()
    assert (folder / "pyodide-lock.json").read_text() == json.dumps(LOCK, separators=(", ", ": "))
    assert sha256(folder / NUMPY) == LOCK["packages"]["numpy"]["sha256"]
    assert sha256(folder / "python_stdlib.zip") == sha256(vendor_pyodide.PYODIDE_NPM / "python_stdlib.zip")
    assert not (folder / f"{NUMPY}.br").exists() and not (folder / "python_stdlib.zip.br").exists()
    bytecode = tmp_path / "dist" / "py" / "bytecode.zip"
    assert repack.members_differ(DIST / "py" / "bytecode.zip", bytecode, zipfile.ZIP_DEFLATED) is None
    assert folder.name != PYODIDE.split("/")[1]  # other files, another folder
    site.check()
