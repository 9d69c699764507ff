"""Lighthouse's scores of the site, for `python3 build.py bench` (and `--only lighthouse` alone).

Lighthouse (npm `lighthouse`, pinned in package.json) audits a page in the machine's Chromium and
scores it from 0 to 100 in four categories: Performance, Accessibility, Best Practices and SEO.
Its Cumulative Layout Shift (CLS) is recorded beside them. Each of PAGES is audited with both of
Lighthouse's settings: mobile, its default (a phone's screen, and a slow 4G link and a 4x slower
CPU, both simulated), and desktop (`--preset=desktop`). Scores move with the machine's load, so
every audit is taken RUNS times, and each run is recorded with the median. A measurement, not a
test: docs/performance.md holds the targets and the record.

The site audited is this working tree's, built into a temporary folder with its address known:
the loopback address it is served on, by the project's server, as the rest of the bench serves
dist/. So its SEO is scored as a hosted site's, with absolute hreflang links and a canonical link
(`build.py build --site-url`); dist/'s own pages, whose links are relative, lose the hreflang
audit. Nothing else of the two builds differs (tests/build/test_build.py).
"""

from __future__ import annotations

import datetime
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tools.server import make_server  # noqa: E402  (the project's server)
from tools.site import build  # noqa: E402

LIGHTHOUSE = ROOT / "node_modules" / "lighthouse"
CLI = LIGHTHOUSE / "cli" / "index.js"
# The entrance, three chapter pages (the first, where the rest of the bench opens the lesson, the
# largest, and the newest) and the first in Chinese. A page the site no longer has stops the job,
# named.
PAGES = (
    "index.html", "why-order.html", "inside-attention.html", "today.html", "zh/why-order.html",
)
PRESETS = ("mobile", "desktop")  # mobile is Lighthouse's default; desktop is --preset=desktop
RUNS = 3
# Lighthouse's category ids, and the keys they get in bench/results.json.
CATEGORIES = {
    "performance": "performance",
    "accessibility": "accessibility",
    "best-practices": "best_practices",
    "seo": "seo",
}
FIGURES = (*CATEGORIES.values(), "cls")


def shown_score(score: float | None) -> int | None:
    """A category's score as Lighthouse shows it: 0 to 100, halves rounded up (JavaScript's
    Math.round, where Python's round() would round 62.5 down to 62)."""
    return None if score is None else math.floor(score * 100 + 0.5)


def scores(report: dict) -> dict:
    """One audit's figures from Lighthouse's JSON report: the four category scores (0 to 100),
    the CLS it measured, and the machine's speed as Lighthouse gauged it (its benchmarkIndex: a
    busier machine scores lower). A figure Lighthouse could not measure is None, and the
    report's runtime error, if it has one, is kept."""
    categories = report.get("categories", {})
    figures = {
        key: shown_score(categories.get(category, {}).get("score"))
        for category, key in CATEGORIES.items()
    }
    cls = report.get("audits", {}).get("cumulative-layout-shift", {}).get("numericValue")
    figures["cls"] = None if cls is None else round(cls, 3)
    figures["benchmark_index"] = report.get("environment", {}).get("benchmarkIndex")
    error = report.get("runtimeError")
    if error:
        figures["error"] = f"{error.get('code')}: {error.get('message')}"
    return figures


def medians(runs: list[dict]) -> dict:
    """Each figure's median over the runs that measured it (None if none did)."""
    out = {}
    for key in FIGURES:
        values = [run[key] for run in runs if run.get(key) is not None]
        median = round(statistics.median(values), 3) if values else None
        out[key] = int(median) if median is not None and median == int(median) else median
    return out


def audit(url: str, preset: str, chromium: str, chrome_flags: list[str]) -> dict:
    """Lighthouse once on `url` with `preset`, in Chromium at `chromium`: its report's figures
    (`scores`), or the error that stopped it. A run that failed to record its trace (NO_NAVSTART,
    which Lighthouse itself says to run again) is taken once more."""
    command = [
        "node", str(CLI), url, "--output=json", "--output-path=stdout", "--quiet",
        f"--chrome-flags={' '.join(chrome_flags)}",
        *(["--preset=desktop"] if preset == "desktop" else []),
    ]
    for _ in range(2):  # Lighthouse asks to be run again when Chromium's trace failed
        result = subprocess.run(
            command, cwd=ROOT, capture_output=True, text=True, timeout=600,
            env={**os.environ, "CHROME_PATH": chromium},
        )
        if not (result.returncode and "run Lighthouse again" in result.stderr):
            break
    if result.returncode:
        return {"error": f"lighthouse exited with {result.returncode}: {result.stderr[-400:]}"}
    return scores(json.loads(result.stdout))


def lighthouse_figures(chromium: str, chromium_args: list[str]) -> dict:
    """Every page of PAGES audited RUNS times with each preset, the runs interleaved (the first
    run of every page and preset, then the second) so that a slow spell of the machine is spread
    over them. `chromium_args` are the bench's own, `--headless` given as `--headless=new`."""
    flags = ["--headless=new" if arg == "--headless" else arg for arg in chromium_args]
    folder = Path(tempfile.mkdtemp(prefix="pelab-lighthouse-"))
    server = make_server(0, folder, quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        build(dist=folder, site_url=base)
        missing = [page for page in PAGES if not (folder / page).is_file()]
        if missing:
            raise SystemExit(f"bench/lighthouse.py: the site has no {', '.join(missing)}")
        runs: dict[str, dict[str, list[dict]]] = {page: {p: [] for p in PRESETS} for page in PAGES}
        for n in range(RUNS):
            for page in PAGES:
                for preset in PRESETS:
                    run = audit(base + page, preset, chromium, flags)
                    runs[page][preset].append(run)
                    print(f"lighthouse run {n + 1}/{RUNS}: {page} {preset}: {brief(run)}",
                          flush=True)
    finally:
        server.shutdown()
        shutil.rmtree(folder, ignore_errors=True)
    return {
        "measured": datetime.date.today().isoformat(),
        "lighthouse": json.loads((LIGHTHOUSE / "package.json").read_text())["version"],
        "runs": RUNS,
        "pages": {
            page: {preset: {"runs": done, "median": medians(done)} for preset, done in by.items()}
            for page, by in runs.items()
        },
    }


def brief(run: dict) -> str:
    """One run's figures on a line, or its error."""
    if "error" in run and run.get("performance") is None:
        return run["error"]
    return ", ".join(f"{key} {run.get(key)}" for key in FIGURES)


def scores_table(figures: dict) -> str:
    """The figures as a Markdown table: a row per page and preset, each cell the two runs and
    their median."""
    head = "| page | preset | " + " | ".join(FIGURES) + " |"
    rows = [head, "|" + " --- |" * (len(FIGURES) + 2)]
    for page, by in figures["pages"].items():
        for preset, measured in by.items():
            cells = []
            for key in FIGURES:
                each = ", ".join(str(run.get(key)) for run in measured["runs"])
                cells.append(f"{each} → {measured['median'][key]}")
            rows.append(f"| {page} | {preset} | " + " | ".join(cells) + " |")
    return "\n".join(rows)
