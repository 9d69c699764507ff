"""Offline after one visit: the service worker caches the build and serves it with the server
stopped; a new build replaces the cache; no page ever reaches beyond 127.0.0.1."""

from __future__ import annotations

import contextlib
import json
import re
import shutil
from types import SimpleNamespace

import pytest

from pages import CHAPTER_PAGES, PAGE_OF, RECORD_WORKERS, poll, wait_for_state
from site_server import DIST, served
from test_cells import output, type_code, wait_done


@pytest.fixture
def context_options():
    return {"service_workers": "allow"}


# The first chapter's page: the heatmap's.
FIRST = PAGE_OF["heatmap"]


@pytest.fixture
def own_site(tmp_path):
    """A copy of dist/ served on its own port, so a test can stop the server or rebuild the copy."""
    folder = tmp_path / "site"
    shutil.copytree(DIST, folder)
    with contextlib.ExitStack() as server:
        url = server.enter_context(served(folder))
        yield SimpleNamespace(folder=folder, url=url, stop=server.close)


def wait_until_cached(page) -> str:
    """Wait for the service worker to control the page (it claims it once the cache is full)
    and for the snapshot of a fresh Python to be in that cache."""
    poll(page, "() => navigator.serviceWorker.controller !== null", bool, timeout=60)
    poll(
        page, "() => document.documentElement.dataset.nextVisit", lambda v: v == "ready", timeout=90
    )
    keys = page.evaluate("() => caches.keys()")
    assert len(keys) == 1 and keys[0].startswith("pelab-"), keys
    files = page.evaluate(
        "(key) => caches.open(key).then((c) => c.keys()).then((r) => r.map((q) => q.url))", keys[0]
    )
    assert any(re.search(r"/py/python-snapshot-\w+\.bin$", url) for url in files), files
    return keys[0]


def test_after_one_visit_the_lesson_works_with_the_server_stopped_on_code_compiled_before(
    browser, page, own_site, page_log
):
    """After one visit the lesson works with the server stopped, its Python from the snapshot.
    And that visit compiled a marked copy of Pyodide's runtime, so the snapshot worker's compile
    of the service worker's copy was a fresh one, whose code V8 keeps with that copy: the second
    visit loads that code (wasm.Deserialize) instead of compiling the runtime again. (One test:
    each first visit and its caching cost some 15 s of CPU.)"""
    page.goto(own_site.url + FIRST)
    assert wait_for_state(page) == "ready"
    assert page.evaluate("() => document.documentElement.dataset.pythonStart") == "fresh"
    assert page.evaluate("() => document.documentElement.dataset.pythonRuntime") == "distinct"
    wait_until_cached(page)
    own_site.stop()

    browser.start_tracing(page=page, categories=["v8.wasm"])
    try:
        page.reload()
        assert wait_for_state(page) == "ready", page.inner_text("#boot")
    finally:
        trace = json.loads(browser.stop_tracing())
    assert page.evaluate("() => document.documentElement.dataset.pythonStart") == "snapshot"
    assert page.evaluate("() => document.documentElement.dataset.pythonRuntime") == "as served"
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    compiled = [
        e["name"]
        for e in events
        if e["name"] in ("wasm.Deserialize", "wasm.StartStreamingCompilation")
    ]
    assert "wasm.Deserialize" in compiled, compiled
    poll(
        page,
        "() => document.querySelector('#heatmap .heatmap-canvas').dataset.rendered",
        lambda v: v is not None,
    )
    type_code(
        page,
        "added",
        "import matplotlib.pyplot as plt\nplt.plot([0, 1], [1, 0])\nplt.show()\nprint('drawn')",
    )
    page.keyboard.press("Shift+Enter")
    assert wait_done(page, "added", timeout=90) == "done", output(page, "added")
    assert "drawn" in output(page, "added")
    assert page.locator(".cell[data-cell='added'] .cell-output img").count() == 1
    # a check is marked from the cached keys (app/quiz-keys.json is in the worker's list)
    question = page.locator(".quiz-check .quiz-question").first
    question.locator("input").first.check()
    question.locator(".quiz-feedback").wait_for(state="visible")
    show = question.locator(".quiz-show-answer")  # a first wrong answer gets a hint, then this
    if show.is_visible():
        show.click()
    question.locator(".quiz-explain").wait_for(state="visible")
    assert question.get_attribute("data-result") in ("right", "wrong")

    # The rest of the course too: the entrance, and a chapter never opened before.
    page.goto(f"{own_site.url}index.html")
    assert page.locator(".chapter").count() == len(CHAPTER_PAGES)
    page.goto(own_site.url + CHAPTER_PAGES[-1])
    assert wait_for_state(page) == "ready", page.inner_text("#boot")
    assert page.evaluate("() => document.documentElement.dataset.pythonStart") == "snapshot"

    page.goto(f"{own_site.url}embed.html?demo=similarity#seq_len=40")
    assert wait_for_state(page) == "ready", page.inner_text("#boot")
    page.goto(f"{own_site.url}embedding.html")
    assert page.locator("h1").is_visible()
    assert page_log.blocked == []


def test_a_new_build_replaces_the_cache_and_offers_a_reload(page, own_site):
    page.goto(own_site.url + FIRST)
    assert wait_for_state(page) == "ready"
    old = wait_until_cached(page)

    # What a rebuild does: a page changes, and so do the build id and the service worker.
    index = own_site.folder / FIRST
    index.write_text(index.read_text().replace("</h1>", " (new build)</h1>", 1))
    worker = own_site.folder / "service-worker.js"
    worker.write_text(re.sub(r'BUILD_ID = "\w+"', 'BUILD_ID = "0123456789ab"', worker.read_text()))

    page.reload()  # still the old build, from the cache; the browser finds the new worker
    assert wait_for_state(page) == "ready"
    assert "(new build)" not in page.inner_text("h1")
    poll(page, "() => caches.keys()", lambda keys: keys == ["pelab-0123456789ab"], timeout=60)
    notice = page.locator(".update-notice")
    notice.wait_for(state="visible")
    notice.get_by_role("button", name="Reload to use it").click()
    assert wait_for_state(page) == "ready"
    assert "(new build)" in page.inner_text("h1")
    assert old != "pelab-0123456789ab"


PAGES = ["index.html", *CHAPTER_PAGES, "embed.html?demo=heatmap", "embed.html?demo=cell",
         "embedding.html"]


@pytest.mark.parametrize("path", PAGES)
def test_no_page_reaches_beyond_this_machine(page, site_url, page_log, path):
    page.goto(site_url + path)
    if path == "index.html":
        page.wait_for_load_state("networkidle")
    elif path != "embedding.html":
        assert wait_for_state(page) == "ready"
    else:
        # The guide's two live examples (attention, the quiz) each boot a Python, then make its
        # snapshot: on two cores the network is seldom idle for long, so wait for the frames.
        poll(page, "() => document.querySelectorAll('iframe').length", lambda n: n == 2)
        poll(page, "() => 0", lambda _: len(page.frames) == 3, timeout=60)
        for frame in page.frames[1:]:  # the guide's live examples boot too
            poll(
                frame,
                "() => document.documentElement.dataset.state",
                lambda s: s == "ready",
                timeout=90,
            )
    assert page_log.blocked == []
    assert len(page_log.requests) >= 5 and all(
        not url.startswith("http") or "127.0.0.1" in url for url in page_log.requests
    )


def test_the_snapshot_waits_until_the_learner_leaves_the_page_alone(page, own_site):
    """Making it boots a second Python for seconds: not while the learner is dragging and typing."""
    page.add_init_script(RECORD_WORKERS)
    page.goto(own_site.url + FIRST)
    assert wait_for_state(page) == "ready"
    poll(
        page,
        "() => document.documentElement.dataset.nextVisit",
        lambda v: v == "snapshot",
        timeout=60,
    )
    slider = page.locator("#heatmap [name=base]")
    slider.focus()
    for _ in range(12):  # 6 s of input, never 2 s apart
        slider.press("ArrowLeft")
        page.wait_for_timeout(500)
        assert page.evaluate("() => document.documentElement.dataset.nextVisit") == "snapshot"
    assert sum("/python/worker/" in worker.url for worker in page.workers) == 1, (
        "no second Python yet"
    )
    poll(
        page, "() => document.documentElement.dataset.nextVisit", lambda v: v == "ready", timeout=90
    )
    # The snapshot maker is a worker of its own entry: it boots no learner's Python and says
    # nothing but its one reply (no boot stages).
    workers = page.evaluate("() => window.__workers")
    assert [(w["name"], w["url"].split("/app/python/")[1]) for w in workers] == [
        ("python", "worker/main.js"),
        ("python-snapshot", "worker/snapshot.js"),
    ]
    assert workers[1]["said"] == ["result"]
