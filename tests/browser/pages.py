"""What the browser tests read off a page, and how they open one: no fixtures here (see
conftest.py), only functions and constants a test imports by name."""

from __future__ import annotations

import json
import time
from urllib.parse import urlsplit

from tools.heatmap_settings import heatmap_settings
from tools.lesson import page_of_sections
from tools.page_protocol import marks

BOOT_TIMEOUT_S = 90
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

# Notes every worker the page makes (start-python.js's factory looks Worker up when it makes one):
# its name, script and the type of every message it posts.
RECORD_WORKERS = """
window.__workers = [];
const RealWorker = window.Worker;
window.Worker = class extends RealWorker {
  constructor(url, options) {
    super(url, options);
    const record = { name: options?.name ?? null, url: String(url), said: [] };
    window.__workers.push(record);
    this.addEventListener("message", ({ data }) => record.said.push(data?.type));
  }
};
"""


class PageLog:
    """What a page did: every request URL (workers included), console messages, page errors."""

    def __init__(self):
        self.requests: list[str] = []
        self.console: list[str] = []
        self.errors: list[str] = []
        self.blocked: list[str] = []  # requests that would have left the machine

    def foreign_requests(self, site_url: str) -> list[str]:
        return [url for url in self.requests if not url.startswith((site_url, "data:", "blob:"))]

    def console_errors(self) -> list[str]:
        return [line for line in self.console if line.startswith("[error]")] + self.errors

def leaves_the_machine(url: str) -> bool:
    """True for a network request to anywhere but 127.0.0.1 (data:, blob: and file: URLs stay
    on the machine)."""
    parts = urlsplit(url)
    return parts.scheme not in ("data", "blob", "about", "file") and parts.hostname != "127.0.0.1"


def block_the_network(context, page_log: PageLog) -> None:
    """Abort, and note, every request that would leave the machine."""

    def refuse(route):
        page_log.blocked.append(route.request.url)
        route.abort()

    context.route(leaves_the_machine, refuse)


CONTEXT_DEFAULTS = {
    "viewport": {"width": 1200, "height": 1000},
    # Service workers are blocked unless a test asks for them (test_offline_page.py does):
    # otherwise each test's page would cache the whole site (27 MB) in the background once up.
    "service_workers": "block",
}


def open_context(browser, page_log: PageLog, **options):
    """A fresh browser context with the suite's defaults, that logs every request, and every
    page's console messages and errors, into `page_log` and aborts (and notes) any request that
    would leave the machine."""
    context = browser.new_context(**{**CONTEXT_DEFAULTS, **options})
    block_the_network(context, page_log)
    context.on("request", lambda r: page_log.requests.append(r.url))

    def watch(page):
        page.on("console", lambda m: page_log.console.append(f"[{m.type}] {m.text}"))
        page.on("pageerror", lambda e: page_log.errors.append(f"[pageerror] {e}"))

    context.on("page", watch)
    return context

def wait_for_state(page, *, timeout: float = BOOT_TIMEOUT_S) -> str:
    """Poll <html data-state> until it leaves "loading" (no string eval: works under a strict
    CSP)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = page.evaluate("() => document.documentElement.dataset.state")
        if state != "loading":
            return state
        page.wait_for_timeout(100)
    return "loading"


def poll(page, function, predicate, *, timeout: float = 30, arg=None):
    """Evaluate `function` in the page until `predicate(value)` holds; return the last value."""
    deadline = time.monotonic() + timeout
    value = None
    while time.monotonic() < deadline:
        value = page.evaluate(function, arg)
        if predicate(value):
            return value
        page.wait_for_timeout(50)
    raise AssertionError(
        f"timed out after {timeout} s waiting on {function!r}; last value {value!r}"
    )


# True while the focus is in a code editor's text (inside its shadow root).
IN_EDITOR = (
    "() => document.activeElement.shadowRoot?.activeElement?.classList.contains('cm-content')"
    " ?? false"
)


def code_editor(page, cell: str):
    """The text area of a cell's code editor, made as for a learner: by coming into view.

    app/editor.js makes CodeMirror only when an editor is about to be seen; a closed
    "Show the Python" has to be opened first.
    """
    host = page.locator(f".cell[data-cell='{cell}'] .cell-editor")
    host.scroll_into_view_if_needed()
    editor = host.locator(".cm-content")
    editor.wait_for()
    # CodeMirror measures its new view in the next frame (gutter width, line heights): a click
    # before that can land beside the text it aimed at.
    page.evaluate(
        "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
    )
    return editor


def code_of(page, cell: str) -> str:
    """The code a cell's editor shows, line by line (the editor made first, see code_editor)."""
    return code_editor(page, cell).evaluate(
        "(content) => [...content.querySelectorAll('.cm-line')]"
        ".map((l) => l.textContent).join('\\n')"
    )


def dataset(page, selector: str, key: str):
    """`element.dataset[key]` of the first element matching `selector`, or None."""
    return page.evaluate(
        "([s, k]) => document.querySelector(s)?.dataset[k] ?? null", [selector, key]
    )


def run_quick_experiment(page, section: str, button: str) -> list[float]:
    """Run the experiment of `section` (a selector) with Quick on, by its `button`, and return
    the accuracies it shows (data-experiment-accuracy), once it is done; checks that its Python
    was ended then and that it says which setting ran."""
    demo = page.locator(section)
    demo.get_by_label("Quick").check()
    before = len(page.workers)
    demo.get_by_role("button", name=button).click()
    poll(
        page,
        f"() => document.querySelector('{section}').dataset.experiment",
        lambda v: v == "done",
        timeout=300,
    )
    assert len(page.workers) == before  # its Python is ended when it is done
    assert dataset(page, section, "experimentSetting") == "quick"
    return json.loads(dataset(page, section, "experimentAccuracy"))


def cell_values(page, selector: str) -> list[list[float]]:
    """The full-precision values behind a vector table (each cell's title holds its value)."""
    return page.evaluate(
        """(s) => [...document.querySelectorAll(s + " tbody tr")].map(tr =>
             [...tr.querySelectorAll("td[title]")].map(td => Number(td.title.split(": ")[1])))""",
        selector,
    )


def wait_rendered(page, section: str, expected: str):
    """Wait until `section`'s demo says it shows `expected` (its data-rendered)."""
    poll(
        page,
        "(s) => document.querySelector(s).dataset.rendered",
        lambda v: v == expected,
        arg=section,
    )


def canvas_size(page, selector: str) -> list[int]:
    """[width, height] of the canvas matching `selector`."""
    return page.evaluate(
        "(s) => [document.querySelector(s).width, document.querySelector(s).height]", selector
    )


# The chapter page of each section of the lesson (a demo's too: it is named as its section), and
# the chapter pages in the course's order, from their one owner (index.html's chapters).
PAGE_OF = page_of_sections()
CHAPTER_PAGES = list(dict.fromkeys(PAGE_OF.values()))


def boot(page, site_url: str, chapter: str = ""):
    """Open the lesson's page `chapter` (a chapter page, with any #fragment; the first chapter by
    default) and wait for it: fails with the page's own message when boot does not succeed."""
    page.goto(site_url + (chapter or CHAPTER_PAGES[0]))
    state = wait_for_state(page)
    message = page.inner_text("#boot") if state != "ready" else ""
    assert state == "ready", f"{chapter}: the lesson did not become ready ({state}): {message}"
    return page


def all_figures_shown(page, timeout: float = 30):
    """Wait until every figure of the page is drawn: the page's ALL_FIGURES mark, set once each
    live demo shows its first result, the shipped one while Python is on its way."""
    poll(
        page,
        f"() => performance.getEntriesByName('{marks()['ALL_FIGURES']}').length",
        lambda n: n > 0,
        timeout=timeout,
    )


def figures_first(page, site_url: str, chapter: str):
    """Open the lesson's page `chapter` and wait for its figures only (a context whose Pyodide
    requests are held shows them from the shipped results, and boots no Python)."""
    page.goto(site_url + chapter)
    all_figures_shown(page)
    return page


def chapter_pages(context, site_url: str, opened_by=boot):
    """A function of a section's name that returns its chapter's page in `context`, opened
    (`opened_by(page, site_url, chapter)`: booted, by default) the first time it is asked for and
    kept for the next asks (each boot costs seconds)."""
    opened = {}

    def page_holding(section: str):
        chapter = PAGE_OF[section]
        if chapter not in opened:
            opened[chapter] = opened_by(context.new_page(), site_url, chapter)
        return opened[chapter]

    return page_holding


# The first heatmap's settings, from their one owner (the heatmap section's sliders, as the build
# reads them), and the call the heatmap's code cell shows for them.
FIRST_HEATMAP = heatmap_settings()
FIRST_HEATMAP_CALL = (
    "pelab.sinusoidal(seq_len={seq_len}, d_model={d_model}, base={base:g})".format(**FIRST_HEATMAP)
)


def registry(page, name: str):
    """An export of app/demos/registry.js (DEMOS' names, LIVE_DEMOS, WITHOUT_PYTHON), as the page
    itself imports it."""
    return page.evaluate(
        "async (name) => {"
        " const value = (await import(new URL('app/demos/registry.js', document.baseURI)))[name];"
        " return Array.isArray(value) ? value : Object.keys(value); }",
        name,
    )


def live_demos(page) -> list[str]:
    """LIVE_DEMOS of app/demos/registry.js, the one list of the demos Python computes, as the page
    itself imports it."""
    return page.evaluate(
        "async () => (await import(new URL('app/demos/registry.js', document.baseURI))).LIVE_DEMOS"
    )


# ---- figures that read on their own (issue 34): what a learner sees of a figure's labels

# A phone's viewport (an iPhone 12 to 15 is 390 CSS pixels wide): for `context_options`.
PHONE = {"viewport": {"width": 390, "height": 844}}

# The smallest text a figure may draw, in CSS pixels as rendered.
SMALLEST_TEXT_PX = 11


def colour_bar(page, selector: str) -> dict:
    """The colour bar matching `selector`: its drawn labels, its ends (data-low, data-high, the
    range its square was coloured over), whether its "no value" grey shows, and its name."""
    return page.evaluate(
        """(s) => {
             const bar = document.querySelector(s);
             const grey = bar.querySelector('.colour-bar-missing');
             return {
               labels: [...bar.querySelectorAll('.colour-bar-labels span')]
                 .map((l) => l.textContent),
               low: Number(bar.dataset.low), high: Number(bar.dataset.high),
               missing: grey && !grey.hidden ? grey.textContent : null,
               name: bar.getAttribute('aria-label') ?? '', role: bar.getAttribute('role'),
               strip: bar.querySelector('canvas').getBoundingClientRect().width,
             };
           }""",
        selector,
    )


def matrix_axes(page, canvas: str) -> dict:
    """The axes around a matrix canvas (app/figures/matrix-axes.js): the titles and the tick
    labels drawn on each side."""
    return page.evaluate(
        """(s) => {
             const plot = document.querySelector(s).closest('.matrix-plot');
             const ticks = (side) => [
               ...plot.querySelectorAll(`.matrix-${side}-ticks .matrix-tick`)]
               .map((t) => t.textContent);
             return {
               rowTitle: plot.querySelector('.matrix-y-title').textContent,
               columnTitle: plot.querySelector('.matrix-x-title').textContent,
               rows: ticks('y'), columns: ticks('x'),
             };
           }""",
        canvas,
    )


def chart_geometry(page, chart: str) -> dict:
    """A line chart's drawing, in its own units (CSS pixels: charts are drawn at their width):
    the top and bottom grid lines, each series' highest and lowest point, and each marker
    label's box."""
    return page.evaluate(
        """(s) => {
             const chart = document.querySelector(s);
             const grid = [...chart.querySelectorAll('line.grid')]
               .map((l) => Number(l.getAttribute('y1')));
             const ys = (p) => p.getAttribute('d').split(/[ML]/).filter(Boolean)
               .map((xy) => Number(xy.split(',')[1]));
             const box = chart.getBoundingClientRect();
             return {
               gridTop: Math.min(...grid), gridBottom: Math.max(...grid),
               series: [...chart.querySelectorAll('path.series')]
                 .map((p) => ({ top: Math.min(...ys(p)), bottom: Math.max(...ys(p)) })),
               markerLabels: [...chart.querySelectorAll('text.marker-label')].map((t) => {
                 const b = t.getBoundingClientRect();
                 return { text: t.textContent, top: b.top - box.top, bottom: b.bottom - box.top };
               }),
               key: [...(chart.previousElementSibling?.matches('.chart-key-list')
                 ? chart.previousElementSibling.querySelectorAll('li') : [])]
                 .map((li) => li.textContent),
               xTitle: [...chart.querySelectorAll('text.axis')].map((t) => t.textContent),
             };
           }""",
        chart,
    )


# Every piece of text a figure draws, with its rendered size: SVG text scales with its chart's
# viewBox (font size times shown width over viewBox width); HTML labels are their font size.
FIGURE_TEXT_SIZES = """() => {
  const shown = (e) => { const b = e.getBoundingClientRect(); return b.width > 0 && b.height > 0; };
  const svgText = [...document.querySelectorAll('svg.chart text')].filter(shown).map((t) => {
    const svg = t.ownerSVGElement;
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    return {
      where: svg.getAttribute('class'), text: t.textContent,
      px: parseFloat(getComputedStyle(t).fontSize) * scale,
    };
  });
  const html = [...document.querySelectorAll(
    '.matrix-tick, .axis-title, .colour-bar-labels span, .colour-bar-missing, .chart-key-list li, '
    + '.dial figcaption, .alibi-head-label, .heatmap-x-ticks span, .heatmap-y-ticks span'
  )].filter(shown).map((e) => ({
    where: e.className || e.parentElement.className, text: e.textContent,
    px: parseFloat(getComputedStyle(e).fontSize),
  }));
  return [...svgText, ...html];
}"""


def hold_python(page_or_context) -> None:
    """Hold Pyodide's requests on their way, never answered, in every frame of the page (or every
    page of the context): the page stays in data-state "loading", wires everything that is
    JavaScript (quizzes, LMS reporting, links, the map, notices), draws its figures from the
    shipped first results, and boots no Python, which costs seconds of CPU a page. For a test of
    what the page shows or what its JavaScript does (CONTRIBUTING.md). Call it before goto."""
    page_or_context.route("**/pyodide/**", lambda route: None)


# ---- one booted page shared by a module's tests: each puts its demo back as served

# Puts every setting of a demo's section (its named inputs, as share.js reads them: not a quiz's
# answers nor a prediction's guess) back as the page was served, telling the demo as a learner's
# move would (input and change events), and closes its open <details>; returns what it put back.
PUT_BACK = """(section) => {
  const root = document.querySelector(section);
  const put = [];
  const tell = (input) => {
    for (const type of ["input", "change"]) input.dispatchEvent(new Event(type, {bubbles: true}));
  };
  for (const input of root.querySelectorAll("input[name]")) {
    if (input.closest(".quiz, .prediction")) continue;
    if (input.type === "radio" || input.type === "checkbox") {
      if (input.checked === input.defaultChecked) continue;
      input.checked = input.defaultChecked;
      if (!input.checked && input.type === "radio") continue;  // its group's default tells
    } else if (input.value === input.defaultValue) continue;
    else input.value = input.defaultValue;
    tell(input);
    put.push(input.name);
  }
  for (const details of root.querySelectorAll("details[open]")) {
    details.open = false;
    put.push(details.className);
  }
  return put;
}"""


def put_back(page, section: str) -> list[str]:
    """Put the demo of `section` (a selector) back as served (PUT_BACK), with the mouse off every
    figure, the focus nowhere and the page at its top, as just opened (a figure scrolled to the
    top edge is under the sticky course map); returns what was put back. The caller waits for the
    demo to show its served settings again."""
    page.mouse.move(0, 0)
    page.evaluate(
        "() => { document.activeElement?.blur();"
        " window.scrollTo({top: 0, left: 0, behavior: 'instant'}); }"
    )
    return page.evaluate(PUT_BACK, section)


def passed(request) -> bool:
    """Whether the test of this fixture passed: a failed one leaves the shared page as it failed
    for its evidence (the next test puts the page back before it starts)."""
    report = getattr(request.node, "report_call", None)
    return report is not None and report.passed
