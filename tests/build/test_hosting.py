"""Caching headers, and the hosts' examples in hosting/: tools/server.py sends
`Cache-Control: public, max-age=31536000, immutable` for the Pyodide folder (named by its files'
hash) and `no-cache` for everything else, and hosting/_headers (Netlify, Cloudflare Pages),
nginx.conf and apache.htaccess say the same, so they cannot drift apart."""

from __future__ import annotations

import re
import urllib.error
import urllib.request

import pytest

from site_server import DIST, PYODIDE, served
from tools import server
from tools.project import ROOT

HOSTING = ROOT / "hosting"
COMPARED = (
    "Cache-Control",
    "X-Content-Type-Options",
    "Cross-Origin-Opener-Policy",
    "Cross-Origin-Embedder-Policy",
)


def head(url: str) -> dict:
    request = urllib.request.Request(url, method="HEAD")
    try:
        with urllib.request.urlopen(request) as response:
            return {name: response.headers[name] for name in COMPARED} | {"status": response.status}
    except urllib.error.HTTPError as error:
        return {name: error.headers[name] for name in COMPARED} | {"status": error.code}


def site_paths() -> list[str]:
    """Every URL path of the built site a browser may ask for (not the .br/.gz copies, which
    the server sends in the file's place, nor the host's own _headers)."""
    files = sorted(p.relative_to(DIST).as_posix() for p in DIST.rglob("*") if p.is_file())
    return ["/", *(f"/{f}" for f in files if not f.endswith((".br", ".gz")) and f != "_headers")]


def netlify_rules(text: str) -> list[tuple[str, dict]]:
    """The rules of a _headers file: (path pattern, {header: value}) in order."""
    rules: list[tuple[str, dict]] = []
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if not line[0].isspace():
            rules.append((line.strip(), {}))
        else:
            name, value = line.strip().split(":", 1)
            rules[-1][1][name.strip()] = value.strip()
    return rules


def netlify_headers(rules, path: str) -> dict:
    """What Netlify and Cloudflare Pages send for `path`: every matching rule's headers, with a
    header set twice joined by a comma, as both hosts do (which the file must avoid)."""
    headers: dict[str, str] = {}
    for pattern, rule in rules:
        matches = path.startswith(pattern[:-1]) if pattern.endswith("*") else path == pattern
        if matches:
            for name, value in rule.items():
                headers[name] = f"{headers[name]}, {value}" if name in headers else value
    return headers


def test_the_server_lets_browsers_keep_the_pyodide_folder_and_revalidate_the_rest():
    with served() as site:
        wasm = head(f"{site}{PYODIDE}/pyodide.asm.wasm")
        lock = head(f"{site}{PYODIDE}/pyodide-lock.json")
        pages = [
            head(site + path)
            for path in ("", "index.html", "service-worker.js", "app/config.js", "py/bytecode.zip")
        ]
        missing = head(f"{site}{PYODIDE}/no-such-file.whl")
    assert wasm["Cache-Control"] == lock["Cache-Control"] == "public, max-age=31536000, immutable"
    assert {page["Cache-Control"] for page in pages} == {"no-cache"}
    assert (
        missing["status"] == 404 and missing["Cache-Control"] == "no-cache"
    )  # a 404 is never kept


def test_the_pyodide_folder_is_named_by_the_pin_and_its_files():
    assert re.fullmatch(r"pyodide/0\.27\.7-[0-9a-f]{12}", PYODIDE)
    assert server.VERSIONED.search(f"/{PYODIDE}/pyodide.asm.wasm")
    assert not server.VERSIONED.search(
        "/pyodide/pyodide.asm.wasm"
    )  # an unversioned folder is not kept


def test_a_change_to_any_pyodide_file_renames_the_folder(tmp_path):
    """What makes `immutable` safe: the build names the folder from every file in it."""
    from tools import served_pyodide

    files = {name: tmp_path / name for name in ("pyodide.asm.wasm", "pyodide-lock.json")}
    for name, path in files.items():
        path.write_bytes(name.encode())
    first = served_pyodide.pyodide_folder_name("0.27.7", files)
    assert first == served_pyodide.pyodide_folder_name(
        "0.27.7", dict(reversed(files.items()))
    )  # same files, same name
    files["pyodide-lock.json"].write_bytes(b"another lock")
    assert served_pyodide.pyodide_folder_name("0.27.7", files) != first
    assert served_pyodide.pyodide_folder_name("0.27.8", files).startswith("pyodide/0.27.8-")
    assert served_pyodide.pyodide_folder(DIST).relative_to(DIST).as_posix() == PYODIDE
    assert f'new URL("../{PYODIDE}/", import.meta.url)' in (DIST / "app" / "config.js").read_text()


def test_the_netlify_and_cloudflare_headers_match_the_servers_for_every_file():
    rules = netlify_rules((HOSTING / "_headers").read_text())
    assert (DIST / "_headers").read_text() == (HOSTING / "_headers").read_text()
    with served() as site:
        for path in site_paths():
            sent = head(site + path.lstrip("/"))
            expected = netlify_headers(rules, path)
            assert {name: expected.get(name) for name in COMPARED} == {
                name: sent[name] for name in COMPARED
            }, path


def test_the_nginx_and_apache_examples_send_the_servers_cache_headers():
    pattern = server.VERSIONED.pattern  # the server's rule, in both examples' own syntax
    nginx = (HOSTING / "nginx.conf").read_text()
    assert f'location ~ "^{pattern}" {{' in nginx  # quoted: nginx reads { as a block's start
    assert f'add_header Cache-Control "{server.IMMUTABLE}";' in nginx
    assert f'add_header Cache-Control "{server.REVALIDATE}" always;' in nginx
    assert "gzip_static on;" in nginx and "brotli_static on;" in nginx
    apache = (HOSTING / "apache.htaccess").read_text()
    assert f'<If "%{{REQUEST_URI}} =~ m#{pattern}#">' in apache
    assert f'Header set Cache-Control "{server.IMMUTABLE}"' in apache
    assert f'Header set Cache-Control "{server.REVALIDATE}"' in apache
    for text in (nginx, apache):
        for name in COMPARED[1:]:
            assert name in text


@pytest.mark.parametrize("name", ["_headers", "nginx.conf", "apache.htaccess"])
def test_every_example_names_the_same_isolation_headers_as_the_server(name):
    text = (HOSTING / name).read_text()
    assert "same-origin" in text and "require-corp" in text and "nosniff" in text
