"""The benchmark's page helpers (bench/run.py) against the real lesson: a change to the page must
not break `python3 build.py bench` unnoticed. Figures are the benchmark's; here only that it runs."""

from __future__ import annotations

import sys

import pytest

from pages import poll
from site_server import ROOT

sys.path.insert(0, str(ROOT / "bench"))
import run  # noqa: E402  (bench/run.py)



def test_the_benchmark_reads_the_boot_stages_of_protocol_js(lesson):
    """bench/run.py parses BOOT_STAGES out of app/python/protocol.js: the names the page marks."""
    stages = lesson.evaluate("async () => (await import(new URL('app/python/protocol.js', document.baseURI))).BOOT_STAGES")
    assert run.boot_stages() == tuple(stages)
    assert run.STAGES == (*stages[:-1], "ready")
    for stage in run.STAGES:
        assert run.wait_for_mark(lesson, f"pelab:stage-{stage}") > 0


def test_the_benchmark_can_run_a_cell_and_drag_the_heatmap(lesson):
    assert run.cell_output(lesson, "6 * 7") == "42"
    lesson.evaluate("() => performance.clearMeasures('pelab:heatmap-latency')")
    run.drag(lesson, "#heatmap [name=base]", steps=8)
    latencies = poll(lesson, "() => performance.getEntriesByName('pelab:heatmap-latency').length", lambda n: n > 0)
    assert latencies >= 1
    assert run.wait_for_mark(lesson, "pelab:first-live-heatmap") > 0
