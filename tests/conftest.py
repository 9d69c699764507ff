"""Shared fixtures: the built site served on 127.0.0.1, and headless Chromium driving it.

Browser tests fail (never skip) when Chromium or dist/ is missing: `python3 build.py test`
installs and builds both. On failure a test leaves a screenshot and its console log in
test-results/<test name>/.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import build  # noqa: E402  (the project's own build script: server and Chromium lookup)

DIST = Path(os.environ.get("PELAB_DIST", ROOT / "dist"))
RESULTS = ROOT / "test-results"
BOOT_TIMEOUT_S = 90
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


@contextlib.contextmanager
def served(directory: Path = DIST, **options):
    """`directory` served by build.py's own server on a free port of 127.0.0.1, in a thread of
    its own, until the block ends; yields the site's URL. `options` go to build.make_server
    (isolated=False serves like most static hosts, csp=True sends the strict policy)."""
    server = build.make_server(0, directory, quiet=True, **options)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def site_url():
    """dist/ served by build.py's own server on a free port of 127.0.0.1."""
    if not (DIST / "app" / "config.js").exists():
        pytest.fail(f"{DIST} is not built: run python3 build.py build (python3 build.py test does it)")
    with served() as url:
        yield url


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    executable = build.find_chromium()
    if executable is None:
        pytest.fail("no Chromium found: python3 build.py test installs Debian's chromium, or set PELAB_CHROMIUM")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


class PageLog:
    """What a page did: every request URL (workers included), console messages, page errors."""

    def __init__(self):
        self.requests: list[str] = []
        self.console: list[str] = []
        self.errors: list[str] = []
        self.blocked: list[str] = []  # requests that would have left the machine

    def foreign_requests(self, site_url: str) -> list[str]:
        return [url for url in self.requests if not url.startswith((site_url, "data:", "blob:"))]

    def console_errors(self) -> list[str]:
        return [line for line in self.console if line.startswith("[error]")] + self.errors


@pytest.fixture
def page_log():
    return PageLog()


def leaves_the_machine(url: str) -> bool:
    """True for a network request to anywhere but 127.0.0.1 (data:, blob: and file: URLs stay
    on the machine)."""
    parts = urlsplit(url)
    return parts.scheme not in ("data", "blob", "about", "file") and parts.hostname != "127.0.0.1"


def block_the_network(context, page_log: PageLog) -> None:
    """Abort, and note, every request that would leave the machine."""

    def refuse(route):
        page_log.blocked.append(route.request.url)
        route.abort()

    context.route(leaves_the_machine, refuse)


CONTEXT_DEFAULTS = {
    "viewport": {"width": 1200, "height": 1000},
    # Service workers are blocked unless a test asks for them (test_offline_page.py does):
    # otherwise each test's page would cache the whole site (27 MB) in the background once up.
    "service_workers": "block",
}


def open_context(browser, page_log: PageLog, **options):
    """A fresh browser context with the suite's defaults, that logs every request, and every
    page's console messages and errors, into `page_log` and aborts (and notes) any request that
    would leave the machine."""
    context = browser.new_context(**{**CONTEXT_DEFAULTS, **options})
    block_the_network(context, page_log)
    context.on("request", lambda r: page_log.requests.append(r.url))

    def watch(page):
        page.on("console", lambda m: page_log.console.append(f"[{m.type}] {m.text}"))
        page.on("pageerror", lambda e: page_log.errors.append(f"[pageerror] {e}"))

    context.on("page", watch)
    return context


@pytest.fixture
def context_options():
    """Options of the test's browser context, over CONTEXT_DEFAULTS."""
    return {}


@pytest.fixture
def page(browser, page_log, request, context_options):
    """A page in a fresh context. Every request that would leave the machine is aborted and
    fails the test, unless it is marked allow_foreign_requests."""
    context = open_context(browser, page_log, **context_options)
    page = context.new_page()
    yield page
    allowed = request.node.get_closest_marker("allow_foreign_requests") is not None
    report = getattr(request.node, "report_call", None)
    if report is not None and report.failed:
        folder = RESULTS / re.sub(r"[^\w.-]+", "_", request.node.name)
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        try:
            page.screenshot(path=str(folder / "screenshot.png"), full_page=True)
        except Exception as error:  # the page may be gone; the log still matters
            page_log.console.append(f"[test] screenshot failed: {error}")
        (folder / "console.log").write_text("\n".join(page_log.console + page_log.errors) + "\n")
        (folder / "requests.log").write_text("\n".join(page_log.requests) + "\n")
    context.close()
    if page_log.blocked and not allowed:
        pytest.fail(f"the page tried to leave the machine: {page_log.blocked}")


def wait_for_state(page, *, timeout: float = BOOT_TIMEOUT_S) -> str:
    """Poll <html data-state> until it leaves "loading" (no string eval: works under a strict CSP)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = page.evaluate("() => document.documentElement.dataset.state")
        if state != "loading":
            return state
        page.wait_for_timeout(100)
    return "loading"


def poll(page, function, predicate, *, timeout: float = 30, arg=None):
    """Evaluate `function` in the page until `predicate(value)` holds; return the last value."""
    deadline = time.monotonic() + timeout
    value = None
    while time.monotonic() < deadline:
        value = page.evaluate(function, arg)
        if predicate(value):
            return value
        page.wait_for_timeout(50)
    raise AssertionError(f"timed out after {timeout} s waiting on {function!r}; last value {value!r}")


# True while the focus is in a code editor's text (inside its shadow root).
IN_EDITOR = "() => document.activeElement.shadowRoot?.activeElement?.classList.contains('cm-content') ?? false"


def code_editor(page, cell: str):
    """The text area of a cell's code editor, made as for a learner: by coming into view.

    app/editor.js makes CodeMirror only when an editor is about to be seen; a closed
    "Show the Python" has to be opened first.
    """
    host = page.locator(f".cell[data-cell='{cell}'] .cell-editor")
    host.scroll_into_view_if_needed()
    editor = host.locator(".cm-content")
    editor.wait_for()
    # CodeMirror measures its new view in the next frame (gutter width, line heights): a click
    # before that can land beside the text it aimed at.
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    return editor


def code_of(page, cell: str) -> str:
    """The code a cell's editor shows, line by line (the editor made first, see code_editor)."""
    return code_editor(page, cell).evaluate("(content) => [...content.querySelectorAll('.cm-line')].map((l) => l.textContent).join('\\n')")


@pytest.fixture
def lesson(page, site_url):
    """The lesson page, booted: fails with the page's own message when boot does not succeed."""
    page.goto(site_url)
    state = wait_for_state(page)
    if state != "ready":
        message = page.inner_text("#boot")
        pytest.fail(f"the lesson did not become ready (data-state={state}): {message}")
    return page
