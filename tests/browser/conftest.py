"""Fixtures of the browser tests: the built site served on 127.0.0.1, and headless Chromium.

Browser tests fail (never skip) when Chromium or dist/ is missing: `python3 build.py test`
installs and builds both. On failure a test leaves a screenshot and its console log in
test-results/<test name>/.
"""

from __future__ import annotations

import re
import shutil

import pytest

from pages import CHROMIUM_ARGS, PAGE_OF, PageLog, boot, chapter_pages, open_context, passed
from quiz_lesson import build_site
from site_server import DIST, ROOT, served
from tools.environment import find_chromium

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
        pytest.fail(
            f"{DIST} is not built: run python3 build.py build (python3 build.py test does it)"
        )
    with served() as url:
        yield url


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    executable = find_chromium()
    if executable is None:
        pytest.fail(
            "no Chromium found: python3 build.py test installs Debian's chromium, "
            "or set PELAB_CHROMIUM"
        )
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


def keep_evidence(request, page, page_log) -> None:
    """After a failed test: its screenshot, console log and requests in test-results/<test>/."""
    report = getattr(request.node, "report_call", None)
    if report is None or not report.failed:
        return
    folder = RESULTS / re.sub(r"[^\w.-]+", "_", request.node.name)
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    try:
        page.screenshot(path=str(folder / "screenshot.png"), full_page=True)
    except Exception as error:  # the page may be gone; the log still matters
        page_log.console.append(f"[test] screenshot failed: {error}")
    (folder / "console.log").write_text("\n".join(page_log.console + page_log.errors) + "\n")
    (folder / "requests.log").write_text("\n".join(page_log.requests) + "\n")


@pytest.fixture
def page(browser, page_log, request, context_options):
    """A page in a fresh context. Every request that would leave the machine is aborted and
    fails the test, unless it is marked allow_foreign_requests."""
    context = open_context(browser, page_log, **context_options)
    page = context.new_page()
    yield page
    allowed = request.node.get_closest_marker("allow_foreign_requests") is not None
    keep_evidence(request, page, page_log)
    context.close()
    if page_log.blocked and not allowed:
        pytest.fail(f"the page tried to leave the machine: {page_log.blocked}")


def lesson_page(module) -> str:
    """The chapter page a test module's lessons open: the page of its LESSON_SECTION, by default
    of the demo the module is named for (test_NAME_demo.py), else the first chapter."""
    section = getattr(module, "LESSON_SECTION", None)
    named = re.fullmatch(r"test_(\w+)_demo", module.__name__.rsplit(".", 1)[-1])
    if section is None and named:
        section = named.group(1)
    return PAGE_OF.get(section, next(iter(PAGE_OF.values())))


@pytest.fixture
def lesson_url(site_url, request):
    """The address of the module's chapter page (lesson_page), not yet opened."""
    return site_url + lesson_page(request.module)


@pytest.fixture
def lesson(page, site_url, request):
    """The module's chapter page (lesson_page), booted, in a fresh context: for a test that
    changes anything."""
    return boot(page, site_url, lesson_page(request.module))


@pytest.fixture(scope="module")
def booted_lesson(browser, site_url, request):
    """The module's chapter page, booted once for the whole module (each boot costs seconds), in
    its own context."""
    log = PageLog()
    context = open_context(browser, log)
    yield boot(context.new_page(), site_url, lesson_page(request.module)), log
    context.close()
    if log.blocked:
        pytest.fail(f"the page tried to leave the machine: {log.blocked}")


@pytest.fixture(scope="module")
def course(browser, site_url):
    """The module's chapter pages, each booted once, when first asked for, in one context (the
    HTTP cache spares refetching Python): course("heatmap") is the booted page holding the
    section heatmap. Only for tests that leave every setting as they found it, or that set up
    the state they need."""
    log = PageLog()
    context = open_context(browser, log)
    yield chapter_pages(context, site_url)
    context.close()
    if log.blocked:
        pytest.fail(f"the page tried to leave the machine: {log.blocked}")


@pytest.fixture
def shared_lesson(booted_lesson, request):
    """The module's one booted lesson, for tests that only read it: a test that takes it must
    leave every setting and the page's state as it found them (one that changes any takes
    `lesson`). A failure still leaves its evidence in test-results/."""
    page, log = booted_lesson
    yield page
    keep_evidence(request, page, log)


@pytest.fixture
def as_served(shared_lesson, request):
    """The module's one booted lesson with its demo as served: the module's
    `show_as_served(page)` puts it back (pages.put_back, then waits for the served figure) before
    the test, and after it when it passed (a failed one leaves its page as evidence). For a test
    that changes only what can be put back; one that leaves anything else (a cell's run, an
    experiment's results, a chosen cell of a figure) takes its own `lesson`."""
    show = request.module.show_as_served
    show(shared_lesson)
    yield shared_lesson
    if passed(request):
        show(shared_lesson)


@pytest.fixture
def as_served_or_own(request, context_options):
    """`as_served` in the default context; a lesson of its own in any other (a phone's)."""
    return request.getfixturevalue("lesson" if context_options else "as_served")


@pytest.fixture(scope="module")
def quiz_site(tmp_path_factory):
    """A copy of the built site whose lesson has end-test items (tests/browser/quiz_lesson.py),
    served: (its URL, the questions' keys)."""
    site, keys = build_site(tmp_path_factory.mktemp("quiz-site"))
    with served(site) as url:
        yield url, keys
