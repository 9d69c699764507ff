"""Precompressed siblings (issue 24): what build.py writes beside dist/'s files, and how its
server chooses between them by Accept-Encoding."""

from __future__ import annotations

import gzip
import os
import subprocess
import urllib.request
import zipfile
import zlib

import pytest

from site_server import DIST, PYODIDE, served
from tools import compress
from tools.project import sha256

# Node's zlib has Brotli; Python's standard library has not, so the tests decode .br in Node.
UNBROTLI = (
    "process.stdout.write(require('zlib').brotliDecompressSync(require('fs').readFileSync(0)))"
)
SMALL = ["index.html", "static/lab.css", "app/config.js", "py/matplotlib-fontlist.json"]


def unbrotli(data: bytes) -> bytes:
    return subprocess.run(
        ["node", "-e", UNBROTLI], input=data, capture_output=True, check=True
    ).stdout


def compressible():
    """dist/'s files that get .br/.gz siblings: not scorm/, written after them (its zips are
    compressed already, and packages.json, the guide's list of them, is a few hundred bytes a
    package)."""
    return sorted(
        p
        for p in DIST.rglob("*")
        if p.is_file() and p.suffix in compress.COMPRESSIBLE and p.parent != DIST / "scorm"
    )


def test_every_compressible_file_has_siblings_that_decompress_to_it_byte_for_byte():
    files = compressible()
    assert {p.suffix for p in files} >= {".js", ".mjs", ".wasm", ".json", ".html", ".css"}
    for path in files:
        brotli, gz = path.with_name(path.name + ".br"), path.with_name(path.name + ".gz")
        if path.stat().st_size > 1000:  # tiny files may not shrink, and then have none
            assert brotli.exists() and gz.exists(), path
        original = path.read_bytes()
        if gz.exists():
            assert gzip.decompress(gz.read_bytes()) == original, gz
            assert gz.stat().st_size < len(original)
        if brotli.exists():
            assert unbrotli(brotli.read_bytes()) == original, brotli
            assert brotli.stat().st_size < len(original)
    wasm = DIST / PYODIDE / "pyodide.asm.wasm"
    assert (DIST / PYODIDE / "pyodide.asm.wasm.br").stat().st_size < 0.3 * wasm.stat().st_size


def test_only_stored_zips_have_siblings_not_deflated_ones_nor_images():
    """A deflated zip or a PNG gains 2% at most from Brotli; a stored zip (tools/repack.py) much
    more."""
    for path in [*DIST.rglob("*.whl"), *DIST.rglob("*.zip"), *DIST.rglob("*.png")]:
        siblings = {path.with_name(path.name + suffix).exists() for suffix in (".br", ".gz")}
        stored = path.suffix != ".png" and all(
            m.compress_type == zipfile.ZIP_STORED for m in zipfile.ZipFile(path).infolist()
        )
        assert siblings == {stored}, path


def test_the_siblings_are_the_same_bytes_on_every_build(tmp_path):
    sources = [DIST / name for name in SMALL]
    first = compress.compressed(sources, tmp_path / "a")
    second = compress.compressed(sources, tmp_path / "b")
    for source in sources:
        assert first[source].keys() == second[source].keys() == {".br", ".gz"}
        for suffix in (".br", ".gz"):
            made = sha256(first[source][suffix])
            assert (
                made
                == sha256(second[source][suffix])
                == sha256(source.with_name(source.name + suffix))
            )
        assert first[source][".gz"].read_bytes()[4:8] == b"\0\0\0\0"  # gzip's mtime


def test_a_warm_cache_compresses_nothing(tmp_path, monkeypatch):
    sources = [DIST / name for name in SMALL]
    compress.compressed(sources, tmp_path)

    def no_node(*args, **kwargs):
        raise AssertionError("compressed again")

    monkeypatch.setattr(compress.subprocess, "run", no_node)
    assert set(compress.compressed(sources, tmp_path)) == set(sources)


def get(url: str, accept_encoding: str | None, method: str = "GET", **headers):
    headers = {
        **headers,
        **({"Accept-Encoding": accept_encoding} if accept_encoding is not None else {}),
    }
    with urllib.request.urlopen(
        urllib.request.Request(url, method=method, headers=headers)
    ) as response:
        return response.headers, response.read()


@pytest.mark.parametrize(
    ("accept_encoding", "coding"),
    [
        ("gzip, deflate, br", "br"),  # what Chromium sends
        ("br;q=0.5, gzip", "br"),
        ("gzip", "gzip"),
        ("br;q=0, gzip", "gzip"),
        ("*", "br"),
        ("identity", None),
        ("", None),
        (None, None),  # urllib's own default is "identity"
        ("deflate", None),
    ],
)
@pytest.mark.parametrize(
    ("path", "content_type"),
    [(f"{PYODIDE}/pyodide.asm.wasm", "application/wasm"), ("", "text/html")],
)
def test_the_server_sends_the_encoding_asked_for_with_the_originals_type(
    accept_encoding, coding, path, content_type
):
    original = (DIST / (path or "index.html")).read_bytes()
    with served() as site:
        headers, body = get(site + path, accept_encoding)
        head, empty = get(site + path, accept_encoding, method="HEAD")
    assert headers["Content-Type"].split(";")[0] == content_type
    assert headers["Content-Encoding"] == coding
    assert headers["Vary"] == "Accept-Encoding"
    assert int(headers["Content-Length"]) == len(body)
    assert {"br": unbrotli, "gzip": gzip.decompress, None: bytes}[coding](body) == original
    assert empty == b"" and head["Content-Length"] == headers["Content-Length"]
    assert head["Content-Encoding"] == coding and head["Content-Type"] == headers["Content-Type"]


def test_a_file_without_siblings_is_sent_as_it_is_with_no_vary():
    original = (DIST / "py" / "first-heatmap.png").read_bytes()
    with served() as site:
        headers, body = get(site + "py/first-heatmap.png", "gzip, deflate, br")
    assert body == original and headers["Content-Encoding"] is None and headers["Vary"] is None
    assert headers["Content-Type"] == "image/png" and int(headers["Content-Length"]) == len(
        original
    )


def test_a_range_request_gets_the_file_itself():
    original = (DIST / "index.html").read_bytes()
    with served() as site:
        headers, body = get(site + "index.html", "gzip, deflate, br", Range="bytes=0-99")
    assert headers["Content-Encoding"] is None and body[:100] == original[:100]


def test_the_typical_host_gzips_wasm_js_and_json_on_the_fly_and_nothing_else():
    with served(encoding="typical") as site:
        wasm_headers, wasm = get(site + f"{PYODIDE}/pyodide.asm.wasm", "gzip, deflate, br")
        html_headers, html = get(site + "index.html", "gzip, deflate, br")
        plain_headers, plain = get(site + "app/config.js", None)
    assert (
        wasm_headers["Content-Encoding"] == "gzip"
        and wasm_headers["Content-Type"] == "application/wasm"
    )
    assert zlib.decompress(wasm, 31) == (DIST / PYODIDE / "pyodide.asm.wasm").read_bytes()
    assert html_headers["Content-Encoding"] is None and html == (DIST / "index.html").read_bytes()
    assert (
        plain_headers["Content-Encoding"] is None
        and plain == (DIST / "app" / "config.js").read_bytes()
    )


def test_a_file_changed_after_the_build_is_sent_as_it_is_not_its_stale_siblings(tmp_path):
    """What tests/browser/test_offline.py does to simulate a rebuild: edit dist's files by hand."""
    (tmp_path / "index.html").write_bytes((DIST / "index.html").read_bytes())
    for suffix in (".br", ".gz"):
        (tmp_path / f"index.html{suffix}").write_bytes((DIST / f"index.html{suffix}").read_bytes())
    with served(tmp_path) as site:
        assert get(site, "gzip, deflate, br")[0]["Content-Encoding"] == "br"
        (tmp_path / "index.html").write_text("changed")
        later = (
            tmp_path / "index.html.br"
        ).stat().st_mtime + 1  # file times are coarser than a request
        os.utime(tmp_path / "index.html", (later, later))
        headers, body = get(site, "gzip, deflate, br")
    assert headers["Content-Encoding"] is None and body == b"changed"
