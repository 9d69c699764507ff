"""Caching and protective headers, and the hosts' examples in hosting/: tools/server.py sends
`Cache-Control: public, max-age=31536000, immutable` for the Pyodide folder (named by its files'
hash) and `no-cache` for everything else, and with --csp the strict Content-Security-Policy,
with `frame-ancestors 'self'` but on the embeds (tools/security_headers.py), and hosting/_headers
(Netlify, Cloudflare Pages), nginx.conf and apache.htaccess send the same for every file of the
site, each read as its host reads it, so they cannot drift apart."""

from __future__ import annotations

import re
import urllib.error
import urllib.request

import pytest

from site_server import DIST, PYODIDE, served
from tools import security_headers, server
from tools.project import ROOT
from tools.vendor_pyodide import PYODIDE_CDN

HOSTING = ROOT / "hosting"
COMPARED = (
    "Cache-Control",
    "X-Content-Type-Options",
    "Cross-Origin-Opener-Policy",
    "Cross-Origin-Embedder-Policy",
    "Content-Security-Policy",
    "Referrer-Policy",
)
EMBEDS = ("/embed.html", "/zh/embed.html", "/es/embed.html")


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


def nginx_locations(text: str) -> list[tuple[str, str, dict]]:
    """The location blocks of nginx.conf: (modifier, pattern, {header: value}) in order."""
    return [
        (modifier, pattern, dict(re.findall(r'^ +add_header (\S+) "([^"]*)"', body, re.M)))
        for modifier, pattern, body in re.findall(
            r'^location (?:(~) )?"?(\S+?)"? \{\n(.*?)^\}', text, re.M | re.S
        )
    ]


def nginx_headers(locations, path: str) -> dict:
    """What nginx sends for `path` (a 200): the first regular expression location that matches,
    else the longest prefix location (add_header in a location replaces the server's)."""
    for modifier, pattern, headers in locations:
        if modifier == "~" and re.search(pattern, path):
            return headers
    prefixes = [(p, h) for m, p, h in locations if not m and path.startswith(p)]
    return max(prefixes, key=lambda found: len(found[0]))[1]


def apache_headers(text: str, path: str) -> dict:
    """What Apache sends for `path` (a 200): each `Header [always] set` at the top or in an
    `<If "%{REQUEST_URI} =~ m#...#">` that matches, in order, a later one replacing an earlier."""
    headers: dict[str, str] = {}
    applies = True
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("<If "):
            applies = bool(re.search(re.search(r"=~ m#(.*)#", line)[1], path))
        elif line.startswith(("<FilesMatch", "</FilesMatch")):
            applies = line.startswith("</")  # Content-Encoding and Vary, for the .br/.gz copies
        elif line == "</If>":
            applies = True
        elif applies and (found := re.fullmatch(r'Header (?:always )?set (\S+) "([^"]*)"', line)):
            headers[found[1]] = found[2]
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
    assert len(rules) <= 100  # Cloudflare Pages reads no more (docs/hosting.md)
    assert (DIST / "_headers").read_text() == (HOSTING / "_headers").read_text()
    with served(csp=True) as site:
        for path in site_paths():
            sent = head(site + path.lstrip("/"))
            expected = netlify_headers(rules, path)
            assert {name: expected.get(name) for name in COMPARED} == {
                name: sent[name] for name in COMPARED
            }, path


def test_the_nginx_and_apache_examples_send_the_servers_headers_for_every_file():
    """Read as each server reads them. Apache's rewrite puts a .br or .gz copy in the file's
    place, and its <If> then sees the copy's path: the file's headers must hold for that too."""
    locations = nginx_locations((HOSTING / "nginx.conf").read_text())
    apache = (HOSTING / "apache.htaccess").read_text()
    with served(csp=True) as site:
        for path in site_paths():
            sent = head(site + path.lstrip("/"))
            expected = {name: sent[name] for name in COMPARED}
            nginx = nginx_headers(locations, path)
            assert {name: nginx.get(name) for name in COMPARED} == expected, f"nginx: {path}"
            copies = [s for s in ("", ".br", ".gz") if (DIST / f"{path[1:]}{s}").is_file()]
            for suffix in copies or [""]:
                sends = apache_headers(apache, path + suffix)
                assert {name: sends.get(name) for name in COMPARED} == expected, (
                    f"Apache: {path}{suffix}"
                )


def test_the_server_frames_only_the_embeds_anywhere_and_protects_every_file():
    """serve --csp: the strict policy on every file, which only the site may frame but for the
    embeds in every language; the referrer policy and nosniff everywhere, --csp or not."""
    policy = security_headers.STRICT_CSP
    with served(csp=True) as site:
        sent = {path: head(site + path.lstrip("/")) for path in site_paths()}
    for path, headers in sent.items():
        framed_anywhere = path in EMBEDS
        assert headers["Content-Security-Policy"] == (
            policy if framed_anywhere else f"{policy}; frame-ancestors 'self'"
        ), path
        assert headers["Referrer-Policy"] == "strict-origin-when-cross-origin", path
        assert headers["X-Content-Type-Options"] == "nosniff", path
    assert set(EMBEDS) <= set(sent) and "/index.html" in sent and "/app/config.js" in sent
    with served() as site:
        plain = head(f"{site}index.html")
    assert plain["Content-Security-Policy"] is None  # only with --csp
    assert plain["Referrer-Policy"] == "strict-origin-when-cross-origin"


def test_a_light_builds_headers_let_the_page_load_pyodide_from_the_cdn():
    """A light build (--pyodide-cdn) writes dist/_headers with the CDN's origin added to the
    policy's default-src (Pyodide fetches its runtime and wheels) and script-src, nothing else
    changed (tests/build/test_build.py checks that the light build writes this)."""
    text = (HOSTING / "_headers").read_text()
    light = security_headers.headers_allowing(text, PYODIDE_CDN)
    origin = "https://cdn.jsdelivr.net"
    assert PYODIDE_CDN.startswith(origin + "/")
    changed = [(a, b) for a, b in zip(text.splitlines(), light.splitlines()) if a != b]
    assert len(light.splitlines()) == len(text.splitlines())
    assert changed and all(a.startswith("  Content-Security-Policy: ") for a, _ in changed)
    for _, line in changed:
        directives = dict(d.split(" ", 1) for d in line.split(": ", 1)[1].split("; "))
        assert directives["default-src"] == f"'self' {origin}"
        assert directives["script-src"] == f"'self' 'wasm-unsafe-eval' {origin}"
        assert origin not in (directives["img-src"] + directives["worker-src"])


def test_the_nginx_and_apache_examples_send_the_servers_cache_headers():
    pattern = server.VERSIONED.pattern  # the server's rule, in both examples' own syntax
    nginx = (HOSTING / "nginx.conf").read_text()
    assert f'location ~ "^{pattern}" {{' in nginx  # quoted: nginx reads { as a block's start
    assert f'add_header Cache-Control "{server.IMMUTABLE}";' in nginx
    assert f'add_header Cache-Control "{server.REVALIDATE}" always;' in nginx
    assert "gzip_static on;" in nginx and "brotli_static on;" in nginx
    assert f"location ~ {security_headers.EMBED.pattern} {{" in nginx  # the embeds' rule too
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
