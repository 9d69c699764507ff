"""The benchmark's page helpers (bench/run.py, bench/page_marks.py) against the real lesson: a
change to the page must not break `python3 build.py bench` unnoticed. Figures are the
benchmark's; here only that it runs."""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

from pages import hold_python, poll
from site_server import ROOT

sys.path.insert(0, str(ROOT / "bench"))
import lighthouse  # noqa: E402  (bench/lighthouse.py)
import page_marks  # noqa: E402  (bench/page_marks.py)
import run  # noqa: E402  (bench/run.py)

# A report of Lighthouse 12.8.2 on why-order.html (mobile), cut to the fields the bench reads and
# a few that say what it is: the scores the issue quotes, before its layout shift was fixed.
REPORT = json.loads((Path(__file__).parent / "lighthouse-report.json").read_text())


def test_the_benchmark_reads_the_boot_stages_of_protocol_js(lesson):
    """bench/page_marks.py parses BOOT_STAGES out of app/python/protocol.js: the names the page
    marks."""
    stages = lesson.evaluate(
        "async () => (await import(new URL('app/python/protocol.js', document.baseURI)))"
        ".BOOT_STAGES"
    )
    assert page_marks.boot_stages() == tuple(stages)
    assert page_marks.STAGES == (*stages[:-1], "ready")
    for stage in page_marks.STAGES:
        assert page_marks.wait_for_mark(lesson, f"pelab:stage-{stage}") > 0


def test_the_benchmark_can_run_a_cell_and_drag_the_heatmap(lesson):
    assert run.cell_output(lesson, "6 * 7", cell="added") == "42"  # a demo cell of its page
    lesson.evaluate("() => performance.clearMeasures('pelab:heatmap-latency')")
    run.drag(lesson, "#heatmap [name=base]", steps=8)
    latencies = poll(
        lesson,
        "() => performance.getEntriesByName('pelab:heatmap-latency').length",
        lambda n: n > 0,
    )
    assert latencies >= 1
    assert page_marks.wait_for_mark(lesson, "pelab:first-live-heatmap") > 0


def test_the_benchmark_measures_an_embed_cold_on_a_network_profile(browser, site_url):
    """embed_net_cold_ms: the heatmap embed marks its first live heatmap too, and its requests
    (the worker's included) are counted. Run unthrottled here: the figures are the bench's."""
    unthrottled = {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
    result = run.net_lesson_run(browser, site_url + run.EMBED, unthrottled)
    assert result["cold"] > 0 and result["first_paint"] > 0
    assert result["wire_bytes"] > 4_000_000  # the runtime, the stdlib and numpy, Brotli'd


def test_the_benchmark_times_the_pre_rendered_heatmaps_first_paint(page, site_url):
    """first_paint_ms: the page marks the pre-rendered heatmap `data-timing="first-heatmap"`
    (`elementtiming` is not valid HTML); the bench's script gives it `elementtiming` as it enters
    the page, whether the parser puts it there or an embed inserts its chapter's section, so the
    Element Timing API reports its paint. Python is held: the picture is on the page before it."""
    hold_python(page)
    page.add_init_script(run.LONG_TASKS)
    for url in (run.LESSON, run.EMBED):
        page.goto(site_url + url)
        painted = poll(page, "() => window.__firstHeatmap", lambda time: time is not None)
        assert painted > 0, url
        assert page.evaluate(
            "() => [...document.querySelectorAll('[elementtiming]')].map((e) => e.dataset.timing)"
        ) == ["first-heatmap"], url


def test_the_slow_4g_profile_is_devtools_own():
    """Chrome DevTools' Slow4GConditions: 1.6 Mbps down and 750 kbps up, each times 0.9, and a
    150 ms RTT times 3.75, in bytes per second and ms as the DevTools protocol takes them."""
    assert run.SLOW_4G == {"offline": False, "latency": 562.5, "downloadThroughput": 180_000.0,
                           "uploadThroughput": 84_375.0}


def test_the_benchmark_reads_lighthouses_scores_and_cls_from_its_report():
    """bench/lighthouse.py's figures from a stored report (the suite runs no Lighthouse): the
    scores as Lighthouse shows them, 0 to 100, the CLS to 3 decimals, the machine's speed."""
    assert lighthouse.scores(REPORT) == {
        "performance": 77, "accessibility": 100, "best_practices": 96, "seo": 91, "cls": 0.619,
        "benchmark_index": 2350,
    }
    assert lighthouse.shown_score(0.625) == 63 and lighthouse.shown_score(0.615) == 62  # JS's


def test_a_failed_audit_is_kept_with_its_error_and_left_out_of_the_median():
    failed = copy.deepcopy(REPORT)
    failed["runtimeError"] = {"code": "NO_FCP", "message": "The page did not paint any content."}
    for category in failed["categories"].values():
        category["score"] = None
    del failed["audits"]["cumulative-layout-shift"]["numericValue"]
    figures = lighthouse.scores(failed)
    assert figures["error"] == "NO_FCP: The page did not paint any content."
    assert {key: figures[key] for key in lighthouse.FIGURES} == dict.fromkeys(lighthouse.FIGURES)
    second = {**lighthouse.scores(REPORT), "performance": 80, "cls": 0.45}
    assert lighthouse.medians([lighthouse.scores(REPORT), second]) == {
        "performance": 78.5, "accessibility": 100, "best_practices": 96, "seo": 91, "cls": 0.534,
    }
    assert lighthouse.medians([figures, second])["performance"] == 80
    assert lighthouse.medians([figures])["seo"] is None
