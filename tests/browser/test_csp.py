"""The pages under the strict Content-Security-Policy (STRICT_CSP in tools/server.py): no inline
script or style, nothing from another origin, WebAssembly allowed. Every part must still work."""

from __future__ import annotations

import pytest

from pages import PAGE_OF, code_editor, poll, wait_for_state
from site_server import FAST, served
from tools.server import STRICT_CSP


@pytest.fixture(scope="module")
def csp_url():
    with served(csp=True) as url:
        yield url


def violations(page_log) -> list[str]:
    return [
        line
        for line in page_log.console + page_log.errors
        if "Content Security Policy" in line or "Refused to" in line
    ]


def test_the_lesson_demos_and_cells_work_under_the_strict_policy(page, page_log, csp_url):
    # The entrance, its old-links script and the map included.
    response = page.goto(f"{csp_url}index.html#heatmap")
    page.wait_for_url(f"{csp_url}{PAGE_OF['heatmap']}#heatmap")
    assert response.headers["content-security-policy"] == STRICT_CSP
    assert wait_for_state(page) == "ready"
    poll(
        page,
        "() => document.querySelector('.heatmap-canvas').dataset.rendered",
        lambda v: v == "64x128@10000",
    )
    poll(
        page,
        "() => document.querySelector('.formula-table').dataset.rendered",
        lambda v: v == "1/4",
    )
    page.locator("#added .show-python summary").click()  # a demo's cell: the page's Python
    code_editor(page, "added").click()
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    # typed key by key, as a learner would (CodeMirror handles each key itself)
    page.keyboard.type(
        "import matplotlib.pyplot as plt; plt.plot([1, 3, 2]); plt.show(); "
        "pelab.show(np.eye(3)); 1 + 1"
    )
    page.keyboard.press("Shift+Enter")
    poll(
        page,
        "() => document.querySelector(`.cell[data-cell='added']`).dataset.status",
        lambda s: s == "done",
        timeout=90,
    )
    assert page.locator(".cell[data-cell='added'] img.out-figure").count() == 1
    assert page.locator(".cell[data-cell='added'] .out-heatmap canvas").count() == 1
    # a check's answer: its keys fetched (app/quiz-keys.json), its explanation rebuilt
    question = page.locator(".quiz-check .quiz-question").first
    question.locator("input").first.check()
    question.locator(".quiz-explain").wait_for(state="visible")
    assert violations(page_log) == [] and page_log.console_errors() == []


def test_embed_and_the_teachers_page_work_under_the_strict_policy(page, page_log, csp_url):
    page.goto(f"{csp_url}embed.html?demo=waves#pos=10")
    assert wait_for_state(page) == "ready"
    poll(
        page,
        "() => document.querySelector('#waves').dataset.rendered",
        lambda v: v == "128@10000:10",
    )
    page.goto(f"{csp_url}embedding.html")
    poll(
        page, "() => document.querySelectorAll('.reference-table tbody tr').length", lambda n: n > 5
    )
    # the packages' download links (dist/ alone under build.py test --fast: how to get them)
    listed = ".scorm-downloads tbody " + ("td.note" if FAST else "a")
    poll(page, f"() => document.querySelectorAll('{listed}').length", bool)
    for kit in ("teaching.html", "answer-key.html"):  # the teacher's kit
        page.goto(f"{csp_url}{kit}")
    assert violations(page_log) == [] and page_log.console_errors() == []
