"""Fixtures of the browser tests: the built site served on 127.0.0.1, and headless Chromium.

Browser tests fail (never skip) when Chromium or dist/ is missing: `python3 build.py test`
installs and builds both. On failure a test leaves a screenshot and its console log in
test-results/<test name>/.
"""

from __future__ import annotations

import re
import shutil

import pytest

from tools.environment import find_chromium
from pages import CHROMIUM_ARGS, PageLog, open_context, wait_for_state
from site_server import DIST, ROOT, served

RESULTS = ROOT / "test-results"


def pytest_collection_modifyitems(items):
    """Every test in this folder drives the browser: `-m "not browser"` leaves them all out."""
    for item in items:
        if "/tests/browser/" in str(item.path):
            item.add_marker(pytest.mark.browser)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


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

    executable = find_chromium()
    if executable is None:
        pytest.fail("no Chromium found: python3 build.py test installs Debian's chromium, or set PELAB_CHROMIUM")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page_log():
    return PageLog()


@pytest.fixture
def context_options():
    """Options of the test's browser context, over pages.CONTEXT_DEFAULTS."""
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


@pytest.fixture
def lesson(page, site_url):
    """The lesson page, booted: fails with the page's own message when boot does not succeed."""
    page.goto(site_url)
    state = wait_for_state(page)
    if state != "ready":
        message = page.inner_text("#boot")
        pytest.fail(f"the lesson did not become ready (data-state={state}): {message}")
    return page
