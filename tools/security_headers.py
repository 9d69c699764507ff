"""The response headers that protect the site, with one owner for everything that serves it:
tools/server.py sends them (`python3 build.py serve --csp`, and the suite's servers that ask),
a light build writes them into dist/_headers with its CDN allowed (tools/site.py), and hosting/'s
configurations for Netlify and Cloudflare Pages, nginx and Apache spell them out, held to this
module by tests/build/test_hosting.py. docs/hosting.md says what each one protects.

- Content-Security-Policy: STRICT_CSP, the policy the site is built to work under
  (tests/browser/test_csp.py), on every response (a worker takes its policy from its own script's
  response, never from the page). Every path but an embed's adds `frame-ancestors 'self'`: only
  the site itself may frame those pages, so no other site can lay them under its own clicks. The
  embeds (embed.html in every language's folder) are made to sit in other sites' pages, and their
  policy says nothing about ancestors: `frame-ancestors *` would still refuse a course page opened
  from a file, or one inside a sandboxed frame, whose origins no source expression matches.
- Referrer-Policy: the full address only to the site itself, the origin alone to others.
- X-Content-Type-Options: nosniff, every file only ever read as the type the server says.
"""

from __future__ import annotations

import re
import urllib.parse

from tools.languages import EMBED as EMBED_PAGE

# Everything from the site's own origin; 'wasm-unsafe-eval' because Pyodide compiles WebAssembly.
STRICT_CSP = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; "
    "img-src 'self' data: blob:; worker-src 'self' blob:"
)
FRAMED_BY_ITSELF = "frame-ancestors 'self'"
# The pages other sites embed: embed.html, zh/embed.html, es/embed.html (and the same under a
# sub-path). The hosting configurations use this pattern in their own syntax.
EMBED = re.compile(f"/{re.escape(EMBED_PAGE)}$")
REFERRER_POLICY = "strict-origin-when-cross-origin"
NOSNIFF = "nosniff"
# The directives a light build's CDN is added to: its scripts, and what Pyodide fetches from it
# (the runtime, the standard library, the lock and the wheels: connect-src, from default-src).
CDN_DIRECTIVES = ("default-src", "script-src")


def content_security_policy(url_path: str) -> str:
    """The policy sent with `url_path`: an embed's is the strict one, every other path's also
    lets only the site frame it."""
    return STRICT_CSP if EMBED.search(url_path) else f"{STRICT_CSP}; {FRAMED_BY_ITSELF}"


def allowing(policy: str, url: str) -> str:
    """`policy` with the origin of `url` (a light build's CDN) added to CDN_DIRECTIVES."""
    parts = urllib.parse.urlsplit(url)
    origin = f"{parts.scheme}://{parts.netloc}"
    directives = []
    for directive in policy.split("; "):
        name = directive.split(" ", 1)[0]
        directives.append(f"{directive} {origin}" if name in CDN_DIRECTIVES else directive)
    return "; ".join(directives)


def headers_allowing(text: str, url: str) -> str:
    """A _headers file's `text` with every Content-Security-Policy allowing `url`'s origin."""
    prefix = "  Content-Security-Policy: "
    return "".join(
        prefix + allowing(line[len(prefix) :].rstrip("\n"), url) + "\n"
        if line.startswith(prefix)
        else line
        for line in text.splitlines(keepends=True)
    )
