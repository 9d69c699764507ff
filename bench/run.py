"""The benchmark behind `python3 build.py bench`: headless Chromium against the built dist/.

Every figure is the median of RUNS cold runs, each in a fresh browser context (empty cache),
measured in the same run as the floor: a bare page on the same bundle and server that only
loads Pyodide and numpy in a worker. The slider percentiles are stricter: taken over the
steps of all runs together, so one run's slow spell counts in full. Writes
bench/results.json and prints a Markdown table.
Figures, not assertions: this machine is shared and noisy, so compare ratios from one run.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

from lighthouse import lighthouse_figures, scores_table
from page_marks import MARK, MARKS, STAGES, wait_for_mark, wait_ready
from playwright.sync_api import sync_playwright
from training import experiment_run, training_figures, training_run

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tools.environment import find_chromium  # noqa: E402  (the project's Chromium lookup)
from tools.lesson import page_of_sections  # noqa: E402  (which page holds which section)
from tools.project import CACHE, DIST  # noqa: E402
from tools.served_pyodide import pyodide_folder  # noqa: E402
from tools.server import make_server  # noqa: E402  (the project's server)
from tools.vendor_pyodide import PYODIDE_NPM, STORED_RUNTIME, pyodide_version  # noqa: E402

CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
# Records every long main-thread task (> 50 ms) from the start of the page.
# And when the pre-rendered heatmap (<img data-timing="first-heatmap">) is first painted, by the
# Element Timing API. The page marks the picture with a data attribute, since `elementtiming` is
# not valid HTML (the Nu checker refuses it): the bench gives each such image `elementtiming` as
# it enters the document (from the parser, or in the section an embed inserts), before it paints.
LONG_TASKS = """
window.__firstHeatmap = null;
new MutationObserver((records) => {
  for (const record of records) {
    for (const node of record.addedNodes) {
      if (!(node instanceof Element)) continue;
      for (const image of [node, ...node.querySelectorAll("img[data-timing]")]) {
        if (image.matches("img[data-timing]")) {
          image.setAttribute("elementtiming", image.getAttribute("data-timing"));
        }
      }
    }
  }
}).observe(document, { childList: true, subtree: true });
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    window.__firstHeatmap ??= entry.renderTime || entry.loadTime;
  }
}).observe({ type: "element", buffered: true });
window.__longTasks = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    window.__longTasks.push([entry.startTime, entry.duration]);
  }
}).observe({ type: "longtask", buffered: true });
"""
# Issue 24's network profile: Chromium's own emulation (DevTools protocol), 20 Mbps down, 10 up,
# 40 ms latency, with the HTTP cache off; each run is a fresh context, so it starts empty too.
NETWORK = {
    "offline": False, "latency": 40, "downloadThroughput": 20e6 / 8, "uploadThroughput": 10e6 / 8
}
# Chrome DevTools' "Slow 4G" preset, as its source defines it (Slow4GConditions in
# front_end/core/sdk/NetworkManager.ts of ChromeDevTools/devtools-frontend): 1.6 Mbps down and
# 750 kbps up, each times 0.9, and a 150 ms target RTT times 3.75 as request latency.
SLOW_4G = {
    "offline": False, "latency": 150 * 3.75,
    "downloadThroughput": 1.6e6 / 8 * 0.9, "uploadThroughput": 750e3 / 8 * 0.9,
}
PROFILES = {"bench": NETWORK, "slow4g": SLOW_4G}
EMBED = "embed.html?demo=heatmap"
# The pages each run opens: a learner opening the heatmap's chapter at the heatmap (its
# pre-rendered picture in view), the training's, the experiment's and the free cell's.
PAGE_OF = page_of_sections()
LESSON = f"{PAGE_OF['heatmap']}#heatmap"
TRAINING = PAGE_OF["training"]
EXPERIMENT = PAGE_OF["extrapolation"]
CELLS = PAGE_OF["cell"]  # a teacher's embed, on the same profile (embed_net_cold_ms)
NETWORK_RUNS = 3  # fewer than the loopback runs: each pair takes some 20 s at this speed
# Every entry of a performance measure: [start, duration] each.
MEASURES = "(name) => performance.getEntriesByName(name).map((e) => [e.startTime, e.duration])"


def floor_run(browser, base: str) -> float:
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(f"{base}bench/floor.html")
        return wait_for_mark(page, "floor:numpy-imported")
    finally:
        context.close()


def network_page(context, profile: dict = NETWORK):
    """A page of `context` on the network profile; the worker's requests go through the page's
    network stack (Chromium attributes them to it), so they are throttled and counted too."""
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    cdp.send("Network.emulateNetworkConditions", profile)
    wire = {}  # encoded bytes on the wire (headers and body) of every finished request, by path

    def finished(request) -> None:
        sizes = request.sizes()
        path = urlsplit(request.url).path
        wire[path] = wire.get(path, 0) + sizes["responseHeadersSize"] + sizes["responseBodySize"]

    page.on("requestfinished", finished)
    return page, wire


def net_floor_run(browser, base: str) -> float:
    """The network floor: bench/floor.html served as a typical static host serves Pyodide."""
    context = browser.new_context()
    try:
        page, _ = network_page(context)
        page.goto(f"{base}bench/floor.html")
        return wait_for_mark(page, "floor:numpy-imported")
    finally:
        context.close()


def net_lesson_run(browser, url: str, profile: dict = NETWORK, timeout: float = 120) -> dict:
    """The lesson (or an embed, by `url`) cold on a network profile, as build.py serve serves it."""
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    try:
        page, wire = network_page(context, profile)
        page.add_init_script(LONG_TASKS)
        page.goto(url)
        # every live demo showing its result: long before Python on a slow link (issue 36)
        all_figures = wait_for_mark(page, MARKS["ALL_FIGURES"], timeout)
        cold = wait_for_mark(page, MARKS["FIRST_LIVE_HEATMAP"], timeout)
        wire_bytes = sum(wire.values())
        first_paint = page.evaluate("() => window.__firstHeatmap")
        return {
            "cold": cold,
            "wire_bytes": wire_bytes,
            "first_paint": first_paint if first_paint is not None else cold,
            "all_figures": all_figures,
            "files": dict(wire),
        }
    finally:
        context.close()


def drag(page, selector: str, steps: int = 40, passes: int = 3) -> None:
    """Drag a slider from one end to the other and back, `passes` times in all.

    Each pointer move waits only for Chromium to take it, and Chromium hands the page one pointer
    move per frame, as it does for a real mouse: the page sees an input about every 16.7 ms, the
    pace the one-frame target is about. (Pausing 16 ms between moves gave one every other frame.)
    """
    slider = page.locator(selector)
    slider.scroll_into_view_if_needed()
    box = slider.bounding_box()
    y = box["y"] + box["height"] / 2
    ends = (box["x"] + 4, box["x"] + box["width"] - 4)
    page.mouse.move(ends[0], y)
    page.mouse.down()
    for n in range(passes):
        start, end = ends if n % 2 == 0 else ends[::-1]
        for step in range(1, steps + 1):
            page.mouse.move(start + (end - start) * step / steps, y)
    page.mouse.up()


def lesson_run(browser, base: str) -> dict:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    try:
        page = context.new_page()
        page.add_init_script(LONG_TASKS)
        transferred = []
        page.on(
            "requestfinished",
            lambda request: transferred.append(request.sizes()["responseBodySize"]),
        )
        page.goto(base + LESSON)
        all_figures = wait_for_mark(page, MARKS["ALL_FIGURES"])
        cold = wait_for_mark(page, MARKS["FIRST_LIVE_HEATMAP"])
        stages = {stage: page.evaluate(MARK, MARKS["STAGE"] + stage) for stage in STAGES}
        wait_ready(page)
        cold_bytes = sum(transferred)
        # Once rendered, the page prepares the next visit in the background (the service worker
        # caches the build, a second worker snapshots a fresh Python: a few seconds of CPU, once
        # per build). Drag after that, so the slider figures are the page's steady state.
        # Dragging at d_model = 512 and sequence length 512: input to new pixels on the canvas.
        heatmap_at_512_once_settled(page)
        page.evaluate("(name) => performance.clearMeasures(name)", MARKS["HEATMAP_LATENCY"])
        drag(page, "#heatmap [name=base]")
        page.wait_for_timeout(500)
        # [input time, input to pixels] of every painted slider step
        steps = page.evaluate(MEASURES, MARKS["HEATMAP_LATENCY"])
        first_paint = page.evaluate("() => window.__firstHeatmap")
        # Issue 7: the longest main-thread task after first paint, during boot and dragging.
        long_tasks = page.evaluate("() => window.__longTasks")
        after_paint = [
            (start, duration) for start, duration in long_tasks if start >= (first_paint or 0)
        ]
        # A second visit in the same profile: what the service worker's cache and the snapshot
        # of a fresh Python buy (both prepared above, before dragging). From a blank page: the
        # page is still at LESSON, and going to the same address with its #fragment would only
        # scroll, reporting the first visit's mark again (warm_ms equal to cold_ms).
        page.goto("about:blank")
        page.goto(base + LESSON)
        warm = wait_for_mark(page, MARKS["FIRST_LIVE_HEATMAP"])
        return {
            "cold": cold,
            "all_figures": all_figures,
            "stages": stages,
            "first_paint": first_paint if first_paint is not None else cold,
            "cold_bytes": cold_bytes,
            "latencies": [duration for _, duration in steps],
            "input_intervals": [b[0] - a[0] for a, b in zip(steps, steps[1:])],
            "long_task_max": max((duration for _, duration in after_paint), default=0.0),
            "long_task_after_live_max": max(
                (duration for start, duration in after_paint if start >= cold), default=0.0
            ),
            "long_tasks": [(round(start), round(duration)) for start, duration in after_paint],
            "warm": warm,
        }
    finally:
        context.close()


def heatmap_at_512_once_settled(page) -> None:
    """Wait until the page has prepared the next visit, then set the heatmap to 512 x 512 and
    wait for it: the steady state in which both slider figures are taken."""
    deadline = time.monotonic() + 120
    while page.evaluate("() => document.documentElement.dataset.nextVisit") != "ready":
        if time.monotonic() > deadline:
            raise TimeoutError("the next visit was not prepared")
        page.wait_for_timeout(50)
    for name in ("d_model", "seq_len"):
        page.locator(f"#heatmap [name={name}]").press("End")
    deadline = time.monotonic() + 60
    while (
        page.evaluate("() => document.querySelector('.heatmap-canvas').dataset.rendered")
        != "512x512@10000"
    ):
        if time.monotonic() > deadline:
            raise TimeoutError("the heatmap did not reach 512 x 512")
        page.wait_for_timeout(20)




RENDER_TIMES = """
import time
import numpy as np
import matplotlib
import matplotlib.pyplot as plt
import io
import pyodide_js
pe = pelab.sinusoidal(512, 512)
def mpl():
    fig, ax = plt.subplots(figsize=(5.12, 5.12), dpi=100)
    ax.imshow(pe, cmap="coolwarm", vmin=-1, vmax=1)
    fig.savefig(io.BytesIO(), format="png")
    plt.close(fig)
mpl()  # the first figure also pays for fonts and caches
times = []
for _ in range(5):
    start = time.perf_counter(); mpl(); times.append((time.perf_counter() - start) * 1000)
print("MPL", sorted(times)[2])
"""


def cell_output(page, code: str, timeout: float = 120, cell: str = "scratch") -> str:
    """Run `code` in the cell `cell` (a demo's cell is opened first) and return its output."""
    where = f".cell[data-cell='{cell}']"
    page.locator(where).evaluate("(c) => { const d = c.closest('details'); if (d) d.open = true; }")
    # The cell's editor is made once it comes near the viewport (app/editor.js).
    page.locator(f"{where} .cell-editor").scroll_into_view_if_needed()
    page.locator(f"{where} .cm-content").click()
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    page.keyboard.insert_text(code)
    page.keyboard.press("Shift+Enter")
    deadline = time.monotonic() + timeout
    while page.evaluate("(w) => document.querySelector(w).dataset.status", where) in (
        None,
        "running",
    ):
        if time.monotonic() > deadline:
            raise TimeoutError("the cell did not finish")
        page.wait_for_timeout(50)
    return page.locator(f"{where} .cell-output").inner_text()


def python_figures(browser, base: str) -> dict:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    try:
        page = context.new_page()
        page.goto(base + CELLS)
        wait_ready(page)
        heap = cell_output(page, "import pyodide_js\npyodide_js._module.HEAPU8.length")
        mpl = cell_output(page, RENDER_TIMES)
        return {
            "worker_heap_bytes": int(heap.strip()),
            "mpl_render_ms": float(mpl.split("MPL")[1].split()[0]),
        }
    finally:
        context.close()


def official_file(served: Path) -> Path:
    """The official file of Pyodide's that `served` (in dist's Pyodide folder) is, or a stored
    copy of."""
    version = pyodide_version()
    if served.name in (*STORED_RUNTIME, "pyodide-lock.json"):
        return PYODIDE_NPM / served.name
    official = CACHE / f"pyodide-{version}" / served.name
    return official if served.suffix == ".whl" and official.exists() else served


def serve_with_floor(dist: Path, encoding: str | None = "precompressed"):
    """dist/ plus bench/ (the floor page) on one server: the same bundle for both. `encoding` as
    make_server takes it: "precompressed" as build.py serve, "typical" as most static hosts."""
    folder = Path(tempfile.mkdtemp(prefix="pelab-bench-"))
    pyodide = pyodide_folder(dist)
    for entry in dist.iterdir():
        if not (entry.name == "pyodide" and encoding == "typical" and pyodide is not None):
            (folder / entry.name).symlink_to(entry)
    if encoding == "typical" and pyodide is not None:
        # A typical Pyodide page serves the official files: deflated zips, the official lock.
        (folder / pyodide.relative_to(dist)).mkdir(parents=True)
        for entry in pyodide.iterdir():
            (folder / pyodide.relative_to(dist) / entry.name).symlink_to(official_file(entry))
    (folder / "bench").symlink_to(ROOT / "bench")
    server = make_server(0, folder, quiet=True, encoding=encoding)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--net-runs", type=int, default=NETWORK_RUNS)
    parser.add_argument(
        "--only", choices=("network", "training", "lighthouse"),
        help="only the network profile (its keys, printed; written only to --out if given), "
             "only the training demos (train_ms, steps per second, "
             "the extrapolation experiment's time; written to bench/training-results.json), "
             "or only Lighthouse (bench/lighthouse.py; written as the lighthouse entry of "
             "bench/results.json, or of --out)",
    )
    parser.add_argument(
        "--dist", type=Path, default=DIST,
        help="the built site to measure (default: dist/); Lighthouse audits a build of the "
             "working tree that knows its address instead (bench/lighthouse.py)",
    )
    parser.add_argument(
        "--out",
        type=Path,
        help="where to write the results (default: bench/results.json, for a whole bench only)",
    )
    args = parser.parse_args()
    if args.only == "training":
        return training_only(args.runs)
    if args.only == "lighthouse":
        return lighthouse_only(args.out or ROOT / "bench" / "results.json")
    if args.out is None and not args.only:
        args.out = ROOT / "bench" / "results.json"
    dist = args.dist.resolve()
    server, base = serve_with_floor(dist)
    typical_server, typical_base = serve_with_floor(dist, encoding="typical")
    chromium = find_chromium()
    floors, runs, net_floors, net_runs, embed_runs = [], [], [], [], []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            # floor and lesson alternate: the same noise
            for n in range(0 if args.only else args.runs):
                floors.append(floor_run(browser, base))
                runs.append(lesson_run(browser, base))
                print(
                    f"run {n + 1}/{args.runs}: floor {floors[-1]:.0f} ms, "
                    f"lesson {runs[-1]['cold']:.0f} ms, "
                    f"long tasks after first paint (start, ms): {runs[-1]['long_tasks']}",
                    flush=True,
                )
            extra = None if args.only else python_figures(browser, base)
            runs_trained = 0 if args.only else args.runs
            trained = [training_run(browser, base + TRAINING) for _ in range(runs_trained)]
            print(
                f"network profile (20/10 Mbps, 40 ms, empty cache), {args.net_runs} runs:",
                flush=True,
            )
            for n in range(args.net_runs):
                net_floors.append(net_floor_run(browser, typical_base))
                net_runs.append(net_lesson_run(browser, base + LESSON))
                embed_runs.append(net_lesson_run(browser, base + EMBED))
                print(
                    f"net run {n + 1}/{args.net_runs}: floor {net_floors[-1]:.0f} ms, "
                    f"lesson {net_runs[-1]['cold']:.0f} ms, "
                    f"{net_runs[-1]['wire_bytes'] / 1e6:.2f} MB on the wire; "
                    f"embed {embed_runs[-1]['cold']:.0f} ms",
                    flush=True,
                )
            # One run on Slow 4G: at about 180 kB/s it takes a minute, and it is reported, not a
            # target.
            slow4g = net_lesson_run(browser, base + LESSON, SLOW_4G, timeout=600)
            print(
                f"Slow 4G: lesson {slow4g['cold']:.0f} ms, {slow4g['wire_bytes'] / 1e6:.2f} MB",
                flush=True,
            )
        finally:
            browser.close()
            server.shutdown()
            typical_server.shutdown()
    # Last, with the bench's own Chromium closed: Lighthouse launches its own.
    lighthouse = None if args.only else lighthouse_figures(chromium, CHROMIUM_ARGS)
    net_floor = statistics.median(net_floors)
    net_cold = statistics.median(run["cold"] for run in net_runs)
    network = {
        # issue 24: the network profile (NETWORK), medians of net_runs
        "net_runs": args.net_runs,
        "net_floor_ms": round(net_floor),
        "net_cold_ms": round(net_cold),
        "net_ratio": round(net_cold / net_floor, 3),
        "net_first_paint_ms": round(statistics.median(run["first_paint"] for run in net_runs)),
        "net_all_figures_ms": round(statistics.median(run["all_figures"] for run in net_runs)),
        "wire_bytes": round(statistics.median(run["wire_bytes"] for run in net_runs)),
        "embed_net_cold_ms": round(statistics.median(run["cold"] for run in embed_runs)),
        "embed_wire_bytes": round(statistics.median(run["wire_bytes"] for run in embed_runs)),
        # Chrome DevTools' Slow 4G (SLOW_4G), one run
        "slow4g_cold_ms": round(slow4g["cold"]),
        "slow4g_all_figures_ms": round(slow4g["all_figures"]),
        # a cold start's encoded bytes per file (headers and body), the largest first
        "slow4g_wire_bytes_by_file": dict(
            sorted(slow4g["files"].items(), key=lambda item: -item[1])[:15]
        ),
    }
    results = (
        network
        if args.only
        else {
            **loopback_results(args, dist, floors, runs, extra, trained),
            **network,
            "lighthouse": lighthouse,
        }
    )
    if args.out:
        args.out.write_text(json.dumps(results, indent=2) + "\n")
    print("\n| figure | value |\n| --- | --- |")
    for key, value in results.items():
        if key != "lighthouse":
            print(f"| `{key}` | {value} |")
    if lighthouse:
        print("\n" + scores_table(lighthouse))
    if args.out:
        out = args.out.resolve()
        print(f"\nwritten to {out.relative_to(ROOT) if out.is_relative_to(ROOT) else out}")


def loopback_results(
    args, dist: Path, floors: list, runs: list, extra: dict, trained: list
) -> dict:
    latencies = [latency for run in runs for latency in run["latencies"]]
    floor = statistics.median(floors)
    cold = statistics.median(run["cold"] for run in runs)
    return {
        "runs": args.runs,
        "floor_ms": round(floor),
        "cold_ms": round(cold),
        "ratio": round(cold / floor, 3),
        "first_paint_ms": round(statistics.median(run["first_paint"] for run in runs)),
        "all_figures_ms": round(statistics.median(run["all_figures"] for run in runs)),
        **{
            f"stage_{stage}_ms": round(statistics.median(run["stages"][stage] for run in runs))
            for stage in STAGES
        },
        "slider_p50_ms": round(percentile(latencies, 0.50), 1),
        "slider_p95_ms": round(percentile(latencies, 0.95), 1),
        # the p95 of each run alone: how much one run's slow spell moves the pooled figure
        "slider_p95_by_run_ms": [round(percentile(run["latencies"], 0.95), 1) for run in runs],
        "slider_samples": len(latencies),
        "slider_input_interval_ms": round(
            statistics.median(interval for run in runs for interval in run["input_intervals"]), 1
        ),
        "long_task_max_ms": round(statistics.median(run["long_task_max"] for run in runs)),
        "long_task_after_live_max_ms": round(
            statistics.median(run["long_task_after_live_max"] for run in runs)
        ),
        "warm_ms": round(statistics.median(run["warm"] for run in runs)),
        "mpl_render_ms": round(extra["mpl_render_ms"], 1),
        "canvas_render_ms": round(percentile(latencies, 0.50), 1),
        # the site's own files, not the .br/.gz copies the server picks from
        "bundle_bytes": sum(
            p.stat().st_size
            for p in dist.rglob("*")
            if p.is_file() and p.suffix not in (".br", ".gz")
        ),
        "cold_transfer_bytes": round(statistics.median(run["cold_bytes"] for run in runs)),
        "worker_heap_bytes": extra["worker_heap_bytes"],
        **training_figures(trained),
    }


def training_only(runs: int) -> None:
    """--only training: the training demo's figures alone, in bench/training-results.json."""
    server, base = serve_with_floor(DIST)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=find_chromium(), args=CHROMIUM_ARGS)
        try:
            measured = []
            for n in range(runs):
                measured.append(training_run(browser, base + TRAINING))
                print(
                    f"training run {n + 1}/{runs}: structured in {measured[-1]['train_ms']:.0f} ms "
                    f"(step {measured[-1]['train_steps_to_structured']})",
                    flush=True,
                )
            experiments = {
                quick: [experiment_run(browser, base + EXPERIMENT, quick) for _ in range(runs)]
                for quick in (True, False)
            }
        finally:
            browser.close()
            server.shutdown()
    results = {
        **training_figures(measured),
        "experiment_quick_ms": round(statistics.median(experiments[True])),
        "experiment_default_ms": round(statistics.median(experiments[False])),
    }
    out = ROOT / "bench" / "training-results.json"
    out.write_text(json.dumps(results, indent=2) + "\n")
    print("\n| figure | value |\n| --- | --- |")
    for key, value in results.items():
        print(f"| `{key}` | {value} |")


def lighthouse_only(out: Path) -> None:
    """--only lighthouse: Lighthouse's figures alone, written as the `lighthouse` entry of `out`
    (bench/results.json), whose other figures stay the last whole bench's; the entry has its
    own date."""
    figures = lighthouse_figures(find_chromium(), CHROMIUM_ARGS)
    results = json.loads(out.read_text()) if out.exists() else {}
    results["lighthouse"] = figures
    out.write_text(json.dumps(results, indent=2) + "\n")
    print("\n" + scores_table(figures))
    print(f"\nwritten to {out.resolve()}")


if __name__ == "__main__":
    main()
