"""A request waterfall of the lesson's cold start on the bench's network profile (issue 24).

    .venv/bin/python bench/waterfall.py [--page embed.html?demo=heatmap] [--profile slow4g]

Serves dist/ as `build.py serve` does, opens the page in headless Chromium with the network
emulated as in bench/run.py (empty cache), and prints, for every request until the first live
heatmap, when it was sent, when its first byte and its last byte came (ms from navigation), and
how many bytes it put on the wire (headers and encoded body). A tool for finding where the bytes
and the time go, not a benchmark: one run, on a shared machine.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))
from page_marks import MARK, MARKS, STAGES, wait_for_mark  # noqa: E402
from run import CHROMIUM_ARGS, PROFILES, network_page, serve_with_floor  # noqa: E402

from tools.environment import find_chromium  # noqa: E402
from tools.project import DIST  # noqa: E402


def waterfall(browser, url: str, profile: dict) -> list[dict]:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    try:
        page, _ = network_page(context, profile)
        finished = []  # Playwright sees the worker's requests too (CDP on the page does not)
        page.on("requestfinished", lambda request: finished.append(request))
        page.goto(url)
        live = wait_for_mark(page, MARKS["FIRST_LIVE_HEATMAP"], timeout=600)
        # the worker's boot stages, as the page marks them (bench/run.py's STAGES)
        stages = {stage: page.evaluate(MARK, MARKS["STAGE"] + stage) for stage in STAGES}
        origin = page.evaluate("() => performance.timeOrigin")
        rows = []
        for request in finished:
            timing, sizes = request.timing, request.sizes()
            rows.append({
                "path": request.url.split("/", 3)[-1] or "/",
                "sent": timing["startTime"] - origin,  # ms from the page's navigation
                "first_byte": timing["startTime"] - origin + timing["responseStart"],
                "done": timing["startTime"] - origin + timing["responseEnd"],
                "wire": sizes["responseHeadersSize"] + sizes["responseBodySize"],
                "encoding": (request.response().headers.get("content-encoding") or ""),
            })
        rows.sort(key=lambda row: row["sent"])
        return rows, live, stages
    finally:
        context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--page", default="", help="the page, relative to the site root (default: the lesson)"
    )
    parser.add_argument("--profile", default="bench", choices=sorted(PROFILES))
    parser.add_argument("--dist", type=Path, default=DIST, help="the built site (default: dist/)")
    args = parser.parse_args()
    server, base = serve_with_floor(args.dist.resolve())
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=find_chromium(), args=CHROMIUM_ARGS)
        try:
            rows, live, stages = waterfall(browser, base + args.page, PROFILES[args.profile])
        finally:
            browser.close()
            server.shutdown()
    print(
        "| request | sent | first byte | done | wire bytes | encoding |\n| --- | --- | --- | --- | "
        "--- | --- |"
    )
    for row in rows:
        print(
            f"| {row['path']} | {row['sent']:.0f} | {row['first_byte']:.0f} | {row['done']:.0f} | "
            f"{row['wire']:,} | {row['encoding']} |"
        )
    print(f"\n{len(rows)} requests, {sum(r['wire'] for r in rows):,} bytes on the wire; "
          f"first live heatmap at {live:.0f} ms (page clock)")
    print(
        "boot stages began at (ms): "
        + ", ".join(f"{k} {v:.0f}" for k, v in stages.items() if v is not None)
    )


if __name__ == "__main__":
    main()
