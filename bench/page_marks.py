"""How the benchmark reads the page: the performance marks it leaves (app/page-protocol.js), the
boot stages the worker announces (app/python/protocol.js), and waiting for either, or for the
page to be ready. Every job of the bench (bench/run.py, bench/training.py, bench/waterfall.py)
reads the page through these."""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tools.page_protocol import marks  # noqa: E402  (app/page-protocol.js: the marks' owner)

MARK = "(name) => performance.getEntriesByName(name)[0]?.startTime ?? null"


def boot_stages(protocol: Path = ROOT / "app" / "python" / "protocol.js") -> tuple[str, ...]:
    """BOOT_STAGES of app/python/protocol.js, their one owner: its
    `BOOT_STAGES = Object.freeze([...])`."""
    match = re.search(
        r"^export const BOOT_STAGES = Object\.freeze\((\[[^\]]*\])\);$", protocol.read_text(), re.M
    )
    if not match:
        raise ValueError(f"no BOOT_STAGES = Object.freeze([...]) line in {protocol}")
    return tuple(json.loads(match[1]))


# The boot stages the worker announces (all but the page's last), each marked as when it began
# (MARKS["STAGE"] + NAME); "ready" is its end.
STAGES = (*boot_stages()[:-1], "ready")
# The performance marks the page leaves (MARK of app/page-protocol.js).
MARKS = marks()
# Every entry of a performance measure: [start, duration] each.
MEASURES = "(name) => performance.getEntriesByName(name).map((e) => [e.startTime, e.duration])"


def wait_for_mark(page, name: str, timeout: float = 120) -> float:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = page.evaluate(MARK, name)
        if value is not None:
            return value
        page.wait_for_timeout(20)
    raise TimeoutError(f"no {name} mark after {timeout} s")


def wait_ready(page, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while page.evaluate("() => document.documentElement.dataset.state") != "ready":
        if time.monotonic() > deadline:
            raise TimeoutError("the lesson did not become ready")
        page.wait_for_timeout(50)

