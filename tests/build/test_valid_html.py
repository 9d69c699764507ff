"""Valid HTML, as the Nu HTML Checker (the W3C's validator, npm's vnu-jar pinned in
package.json) reads it: every page the build writes, in every language, and the embed code the
site gives teachers to paste (embedding.html's snippets, and what "Copy embed code" writes:
app/controls/embed-code.js). One run of the checker over all of them, so one Java start (about
5 s on two cores). Java comes from Debian's default-jre-headless, which `python3 build.py test`
installs when there is none (tools/environment.py); without it this test fails, never skips.
`build.py test --fast` skips it: a release check, not one for every edit."""

from __future__ import annotations

import html
import json
import re
import subprocess
import urllib.parse
from pathlib import Path

import pytest

from site_server import DIST, FAST
from tools.environment import find_java
from tools.project import ROOT

VNU = ROOT / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"
EMBED_CODE = ROOT / "app" / "controls" / "embed-code.js"
SNIPPET = re.compile(r'<pre class="snippet"><code>(.*?)</code></pre>', re.S)
# A course page around a snippet, as a teacher's page would hold it.
COURSE_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>A course page</title></head>
<body><h1>Week 3</h1>
{snippet}
</body></html>
"""
# A page with one error the checker must find, so that a run that checks nothing cannot pass.
CANARY = COURSE_PAGE.format(snippet='<iframe src="embed.html" title="t" width="100%"></iframe>')


def embed_snippets() -> list[str]:
    """The <iframe> snippets embedding.html shows teachers, as text (a MyST fence's lines
    dropped: Jupyter Book passes what is inside to the page)."""
    shown = [html.unescape(code) for code in SNIPPET.findall((DIST / "embedding.html").read_text())]
    return [
        "\n".join(line for line in code.splitlines() if not line.startswith("```"))
        for code in shown
        if "<iframe" in code
    ]


def copied_embed_code() -> str:
    """What "Copy embed code" writes (share.js calls embedCode), for an address with settings
    and a title that need escaping."""
    script = (
        f"import {{ embedCode }} from {json.dumps(EMBED_CODE.as_uri())};\n"
        "process.stdout.write(embedCode("
        '"https://example.org/lab/embed.html?demo=attention&lang=es#sentence=dog+bites+man&with_pe=1",'
        ' "Positional Encoding Lab: \\"dog bites man\\" <1>", 612.4));'
    )
    return subprocess.run(
        ["node", "--input-type=module", "-e", script], capture_output=True, text=True, check=True
    ).stdout


@pytest.mark.skipif(FAST, reason="build.py test --fast skips the Nu checker: build.py test runs it")
def test_every_built_page_and_embed_snippet_is_valid_html(tmp_path):
    java = find_java()
    if java is None:
        pytest.fail(
            "no Java found for the Nu HTML Checker: python3 build.py test installs Debian's "
            "default-jre-headless (or put a java 11+ on PATH)"
        )
    if not VNU.exists():
        pytest.fail(f"no {VNU.relative_to(ROOT)}: run npm ci (python3 build.py build does)")
    pages = sorted(DIST.rglob("*.html"))
    assert len(pages) >= 30, "the built pages, in every language"
    checked = {page: page.relative_to(DIST).as_posix() for page in pages}
    snippets = embed_snippets()
    assert len(snippets) >= 2, "embedding.html's plain HTML and Jupyter Book snippets"
    for n, snippet in enumerate([*snippets, copied_embed_code()], 1):
        document = tmp_path / f"snippet-{n}.html"
        document.write_text(COURSE_PAGE.format(snippet=snippet))
        checked[document] = (
            f"embedding.html's snippet {n}" if n <= len(snippets) else "Copy embed code's snippet"
        )
    canary = tmp_path / "canary.html"
    canary.write_text(CANARY)
    run = subprocess.run(
        [java, "-jar", str(VNU), "--errors-only", "--format", "json", *map(str, checked), canary],
        capture_output=True,
        text=True,
    )
    try:
        messages = json.loads(run.stderr)["messages"]  # vnu writes its JSON to stderr
    except (json.JSONDecodeError, KeyError):
        pytest.fail(f"the Nu checker said no JSON (exit {run.returncode}): {run.stderr[-2000:]}")

    def where(message) -> Path:
        return Path(urllib.parse.unquote(urllib.parse.urlsplit(message.get("url", "")).path))

    caught = [m for m in messages if where(m) == canary]
    assert [m["message"] for m in caught] == [
        "Bad value “100%” for attribute “width” on element “iframe”: Expected a digit but saw “%” "
        "instead."
    ], "the checker must find the one error planted for it"
    faults = [
        f"{checked.get(where(m), m.get('url'))}:{m.get('lastLine', '?')}: {m['message']}"
        for m in messages
        if where(m) != canary
    ]
    assert not faults, f"{len(faults)} errors:\n" + "\n".join(faults)
