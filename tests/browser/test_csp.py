"""The pages under the strict Content-Security-Policy (tools/security_headers.py, as serve --csp
and hosting/'s configurations send it): no inline script or style, nothing from another origin,
WebAssembly allowed. Every part must still work, and only the embeds may be framed by another
site."""

from __future__ import annotations

import pytest

from class_report import class_records, open_report, plain_csv
from pages import PAGE_OF, code_editor, hold_python, poll, wait_for_state
from site_server import FAST, served
from tools.course import read_course
from tools.security_headers import STRICT_CSP


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
    assert response.headers["content-security-policy"] == f"{STRICT_CSP}; frame-ancestors 'self'"
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
    question.locator(".quiz-feedback").wait_for(state="visible")
    show = question.locator(".quiz-show-answer")  # a first wrong answer gets a hint, then this
    if show.is_visible():
        show.click()
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
    page.goto(f"{csp_url}teaching.html")  # the teacher's kit, its pages' code at work
    page.goto(f"{csp_url}answer-key.html")
    page.get_by_role("button", name="Show the answers").click()
    poll(page, "() => document.querySelector('.key-status').textContent",
         lambda s: s.startswith("The answers are shown"))
    records = class_records(read_course().questions)
    assert open_report(page, f"{csp_url}report.html", "c.csv", plain_csv(records)) == "shown"
    assert violations(page_log) == [] and page_log.console_errors() == []


@pytest.fixture
def course_page(tmp_path, csp_url):
    """A course page on another origin (another port) framing the quiz's embed, in Spanish, and
    a chapter page of the lesson."""
    (tmp_path / "course.html").write_text(
        f"""<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A course</title>
</head><body><h1>Week 3</h1>
<iframe id="embed" src="{csp_url}embed.html?demo=quiz&amp;lang=es" title="quiz"></iframe>
<iframe id="chapter" src="{csp_url}{PAGE_OF['heatmap']}" title="chapter"></iframe>
</body></html>"""
    )
    with served(tmp_path, isolated=False) as url:  # a plain static host
        yield f"{url}course.html"


def test_another_site_may_frame_the_embeds_and_no_other_page(page, page_log, course_page, csp_url):
    """frame-ancestors: the embeds sit in course pages anywhere; every other page only in the
    site's own (clickjacking), so the browser refuses the chapter page in another site's frame."""
    hold_python(page)
    page.goto(course_page)
    quiz = page.frame_locator("#embed").locator("form.quiz")
    quiz.wait_for()
    def refused() -> list[str]:
        return [line for line in page_log.console if "frame-ancestors 'self'" in line]

    poll(page, "() => 0", lambda _: refused())  # the console line comes as the frame is refused
    assert len(refused()) == 1 and f"'{csp_url}" in refused()[0], refused()
    frames = [frame.url for frame in page.frames]
    assert "chrome-error://chromewebdata/" in frames  # the chapter page: refused
    assert f"{csp_url}es/embed.html?demo=quiz&lang=es" in frames  # the Spanish embed: shown
    assert [line for line in violations(page_log) if line not in refused()] == []
