"""Accessibility of every page in headless Chromium.

- axe-core (node_modules/axe-core, pinned in package.json) finds nothing on the entrance, every
  chapter page, every embeddable demo, the teachers' guide and the teacher's kit (its notes and
  answer key), in the light and the dark colour scheme;
- the keyboard reaches every control, each shows a visible focus ring, the key controls work
  from the keyboard, and the only trap is the code editor's documented one (Esc, then Tab);
- every canvas and chart has a name that follows its sliders, and its numbers as a table;
- figures read on their own: every matrix has axes and a colour bar true to its range, no demo
  opens on a problem, and on a phone no figure text is under 11 px and nothing scrolls sideways;
- with prefers-reduced-motion nothing animates, in shadow roots too.

Booting Python takes seconds per page, so each chapter page is booted once for this module and
the tests take turns on it; each sets up the state it needs rather than relying on defaults.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

import pelab
from class_report import class_records, open_report, plain_csv
from pages import (
    CHAPTER_PAGES,
    FIGURE_TEXT_SIZES,
    IN_EDITOR,
    PAGE_OF,
    PHONE,
    SMALLEST_TEXT_PX,
    PageLog,
    all_figures_shown,
    chapter_pages,
    code_editor,
    colour_bar,
    figures_first,
    live_demos,
    open_context,
    poll,
    registry,
)
from site_server import FAST, ROOT
from test_colour_safety import contrast
from tools.course import read_course
from tools.lesson import demo_sections, read_section

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
# Every demo of embed.html?demo=NAME, as app/demos/registry.js lists them.
DEMOS = demo_sections()  # the lesson's demo sections; test_lesson.py ties them to registry.js
SCHEMES = ("light", "dark")

# In rAF calls, counted from before any script of the page runs: a JS animation needs a loop.
COUNT_ANIMATION_FRAMES = """
  window.__frames = 0;
  const request = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (callback) => (window.__frames++, request(callback));
"""


def new_page(browser, log: PageLog):
    context = open_context(browser, log)
    context.add_init_script(COUNT_ANIMATION_FRAMES)
    return context.new_page()


@pytest.fixture(scope="module")
def lesson_log():
    return PageLog()


@pytest.fixture(scope="module")
def chapters(browser, site_url, lesson_log):
    """The course's chapter pages, each booted once for the whole module, when first asked for,
    in one context: chapters("heatmap") is the page holding the section heatmap."""
    context = open_context(browser, lesson_log)
    context.add_init_script(COUNT_ANIMATION_FRAMES)
    yield chapter_pages(context, site_url)
    context.close()
    assert lesson_log.blocked == [], "the lesson tried to leave the machine"


# Each chapter page by the first section it holds (what `chapters` takes).
FIRST_OF = {
    chapter: next(s for s, c in PAGE_OF.items() if c == chapter) for chapter in CHAPTER_PAGES
}


@pytest.fixture(autouse=True)
def no_console_errors(request, lesson_log):
    yield
    if "chapters" in request.fixturenames:
        assert lesson_log.console_errors() == []


# ---- axe-core


def axe(page, **options) -> list[dict]:
    """axe-core's violations on the page as it is now: [{id, impact, help, nodes: [target]}]."""
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: npm ci installs the pinned axe-core")
    if not page.evaluate("() => 'axe' in window"):
        page.add_script_tag(content=AXE.read_text())
    return page.evaluate(
        """async (options) => (await axe.run(document, options)).violations.map((v) => ({
             id: v.id, impact: v.impact, help: v.help,
             nodes: v.nodes.map((n) => n.target.flat().join(" >> ")),
           }))""",
        options,
    )


def axe_in_both_schemes(page, where: str, **options) -> None:
    """axe finds nothing at all in the light and in the dark scheme: the serious and critical
    violations the issue forbids, and the moderate and minor ones too, kept at zero."""
    found = []
    for scheme in SCHEMES:
        page.emulate_media(color_scheme=scheme)
        found += [(scheme, v) for v in axe(page, **options)]
    page.emulate_media(color_scheme="light")
    serious = [(s, v) for s, v in found if v["impact"] in ("serious", "critical")]
    assert not serious, f"axe on {where}:\n{describe(serious)}"
    assert not found, f"axe on {where} (moderate or minor):\n{describe(found)}"


def describe(found) -> str:
    return "\n".join(
        f"  [{scheme}] {v['id']} ({v['impact']}): {v['help']}\n"
        + "\n".join(f"      {t}" for t in v["nodes"][:8])
        for scheme, v in found
    )


def open_every_details(page) -> None:
    page.evaluate("() => document.querySelectorAll('details').forEach((d) => (d.open = true))")


@pytest.mark.parametrize("chapter", CHAPTER_PAGES)
def test_axe_finds_nothing_on_each_chapter_page(chapters, chapter):
    # Show everything there is to check: the Python and the numbers, a cell's output (text, a
    # heatmap and its numbers), quiz feedback right and wrong, and the share bar's text.
    page = chapters(FIRST_OF[chapter])
    open_every_details(page)
    scratch = page.locator(".cell[data-cell='scratch']")
    if scratch.count():
        scratch.locator(".cell-run").click()
        poll(
            page,
            "() => document.querySelector(`.cell[data-cell='scratch']`).dataset.status",
            lambda s: s == "done",
            timeout=60,
        )
        assert scratch.locator(".out-heatmap canvas").count() == 1
    if page.locator("input[name='quiz-1']").count():
        page.locator("input[name='quiz-1'][value='0']").check()
        page.locator("input[name='quiz-2'][value='1']").check()
        poll(  # each marked once the keys are in (app/quiz/keys.js)
            page,
            "() => document.querySelectorAll('.quiz-feedback:not([hidden])').length",
            lambda n: n >= 2,
        )
    share = page.locator("section.demo .share-link").first
    if share.count():
        share.click()
        poll(page, "() => document.querySelector('.share-status')?.textContent", bool)
    axe_in_both_schemes(page, chapter)


def test_axe_finds_nothing_on_the_entrance(page, site_url):
    page.goto(f"{site_url}index.html")
    axe_in_both_schemes(page, "index.html")
    # With progress kept: the resume link and the marks on the chapters' lists.
    page.evaluate(
        """() => localStorage.setItem("pelab:progress", JSON.stringify(
             {visited: ["attention", "formula"], checked: ["attention"],
              last: {page: "x.html", section: "formula"}}))"""
    )
    page.reload()
    assert page.locator(".resume").is_visible()
    axe_in_both_schemes(page, "index.html with progress")


@pytest.fixture(scope="module")
def embed_browser_context(browser):
    """One context for every embed page, so the HTTP cache spares refetching the page's files."""
    log = PageLog()
    context = open_context(browser, log, viewport={"width": 900, "height": 900})
    yield context
    context.close()
    assert log.blocked == [], "an embedded demo tried to leave the machine"


@pytest.mark.parametrize("demo", DEMOS)
def test_axe_finds_nothing_on_each_embedded_demo(embed_browser_context, site_url, demo):
    """Checked as an embed first shows, its figures drawn from the shipped results while Python
    is on its way (held here: it never arrives, and no Python boots 14 times). The same sections
    once Python is ready are checked on the chapter pages above."""
    page = embed_browser_context.new_page()
    page.route("**/pyodide/**", lambda route: None)  # never answered: Python stays on its way
    try:
        page.goto(f"{site_url}embed.html?demo={demo}")
        all_figures_shown(page)
        state = page.evaluate("() => document.documentElement.dataset.state")
        assert state == ("ready" if demo in registry(page, "WITHOUT_PYTHON") else "loading")
        open_every_details(page)
        axe_in_both_schemes(page, f"embed.html?demo={demo}")
        # A host page can also force the theme against the system's (data-theme): dark on light.
        page.evaluate("() => window.postMessage({type: 'pelab:theme', theme: 'dark'}, '*')")
        poll(page, "() => document.documentElement.dataset.theme", lambda theme: theme == "dark")
        found = [("data-theme=dark", v) for v in axe(page)]
        assert not found, f"axe on embed.html?demo={demo}:\n{describe(found)}"
    finally:
        page.close()


def test_axe_finds_nothing_on_the_teachers_page(page, site_url):
    page.goto(f"{site_url}embedding.html")
    poll(
        page,
        "() => document.querySelectorAll('.reference-table tbody tr').length",
        lambda n: n == len(DEMOS),
    )
    # the packages' download links, read from their list (dist/ alone under build.py test
    # --fast: the note saying how to get them)
    listed = ".scorm-downloads tbody " + ("td.note" if FAST else "a")
    poll(page, f"() => document.querySelectorAll('{listed}').length", lambda n: n >= 1)
    # The live example's iframe is embed.html?demo=attention, checked on its own above.
    axe_in_both_schemes(page, "embedding.html", iframes=False)


@pytest.mark.parametrize("kit_page", ["teaching.html", "answer-key.html", "report.html"])
def test_axe_finds_nothing_on_the_teachers_kit(page, site_url, kit_page):
    page.goto(f"{site_url}{kit_page}")
    axe_in_both_schemes(page, kit_page)


def test_axe_finds_nothing_on_the_key_s_answers_and_a_class_report_shown(page, site_url):
    """The answers the key fills in, and the report of a file: its tables and misconceptions;
    then the message of a file it cannot read."""
    page.goto(f"{site_url}answer-key.html")
    page.get_by_role("button", name="Show the answers").click()
    poll(page, "() => document.querySelector('.key-status').textContent", bool)
    axe_in_both_schemes(page, "answer-key.html with its answers shown")
    records = class_records(read_course().questions)
    assert open_report(page, f"{site_url}report.html", "c.csv", plain_csv(records)) == "shown"
    axe_in_both_schemes(page, "report.html with a report")
    assert open_report(page, f"{site_url}report.html", "x.csv", "a,b\n1,2\n") == "problem"
    axe_in_both_schemes(page, "report.html with a problem")


# ---- canvases and charts: names and numbers

FIGURES = """() => [...document.querySelectorAll('canvas, svg')]
  // decorative (aria-hidden, like the clock faces, which are captioned in text), or part of a
  // larger image (the heatmap legend's strip)
  .filter((f) => !f.closest('[aria-hidden=true]') && !f.parentElement.closest('[role=img]'))
  .map((f) => {
    const details = document.getElementById(f.getAttribute('aria-details'));
    return {
      figure: f.getAttribute('class') ?? f.parentElement.className,
      role: f.getAttribute('role'),
      name: f.getAttribute('aria-label') ?? '',
      details: details?.matches('details.numbers') ?? false,
      summary: details?.querySelector('summary')?.textContent ?? '',
      cells: details?.querySelectorAll('tbody td').length ?? 0,
    };
  })"""


def test_every_figure_has_a_name_and_a_table_of_its_numbers(chapters):
    lesson = chapters("cell")
    scratch = lesson.locator(".cell[data-cell='scratch']")
    # the scratch cell draws with pelab.show
    if scratch.locator(".out-heatmap canvas").count() == 0:
        scratch.locator(".cell-run").click()
        poll(
            lesson,
            "() => document.querySelector(`.cell[data-cell='scratch'] .out-heatmap canvas`)"
            " !== null",
            bool,
            timeout=60,
        )
    figures = []
    for chapter in CHAPTER_PAGES:
        page = chapters(FIRST_OF[chapter])
        # A numbers table is built when its box opens (figures repaint on every slider step).
        page.evaluate(
            "() => document.querySelectorAll('details.numbers').forEach((d) => (d.open = true))"
        )
        figures += poll(
            page, FIGURES, lambda found: all(f["cells"] > 0 for f in found if f["details"])
        )
    kinds = {f["figure"].split()[0] for f in figures}
    assert {
        "heatmap-canvas", "waves-chart", "wavelength-chart", "relative-matrix", "similarity-dot",
        "similarity-cosine", "similarity-chart",
        "learned-panel-learned", "learned-panel-sinusoidal", "learned-panel-rope",
        "terms-content-content", "terms-content-position", "terms-position-content",
        "terms-position-position", "terms-total",
        "alibi-plain", "alibi-weights", "alibi-chart",  # alibi-heads: a <div>, see its own test
        "extrapolation-chart", "rope-matrix", "rope-decay", "stretching-scores",
        "out-heatmap",  # a cell's pelab.show output
    } <= kinds
    for figure in figures:
        assert figure["role"] == "img", figure
        assert len(figure["name"]) > 40 and "loading" not in figure["name"], figure
        assert (
            figure["details"]
            and figure["summary"].startswith("Show the numbers")
            and figure["cells"] > 0
        ), figure


# ---- figures that read on their own

# Every matrix drawn as a square, by its canvas's first class, with its section, as the lesson's
# sources hold them (the ALiBi heads' small squares are drawn by its module: a test of their own).
SQUARES = {
    square: name
    for name in demo_sections()
    for square in re.findall(r'<canvas class="([\w-]+) matrix"', read_section(name, 0).source_html)
}
# The colour bar that gives a square's scale: its own, in its figure, or the one its group of
# squares shares in its section (outside their figures); as a selector, for colour_bar.
SQUARE_BAR = """(c) => {
  const canvas = document.querySelector(`canvas.${c}`);
  const shared = [...canvas.closest('section').querySelectorAll('.colour-bar')]
    .find((b) => !b.closest('figure'));
  const bar = canvas.closest('figure').querySelector('.colour-bar') ?? shared;
  const path = (e) => e.id ? `#${e.id}`
    : `${path(e.parentElement)} > :nth-child(${[...e.parentElement.children].indexOf(e) + 1})`;
  return bar ? path(bar) : null;
}"""


SQUARE_AXES = """(s) => {
  const plot = document.querySelector(s).closest('.matrix-plot');
  return plot && {
    titles: [...plot.querySelectorAll('.axis-title')].map((t) => t.textContent.trim()),
    rows: plot.querySelectorAll('.matrix-y-ticks .matrix-tick').length,
    columns: plot.querySelectorAll('.matrix-x-ticks .matrix-tick').length,
  };
}"""
SQUARES_ON_PAGE = (
    "() => [...document.querySelectorAll('canvas.matrix')]"
    ".filter((c) => !c.closest('.alibi-head')).length"
)


def test_every_square_has_axes_and_a_colour_bar_true_to_its_range(chapters):
    """Axes with titles and ticks on both sides, and a bar whose drawn ends and spoken name are
    the range the square was coloured over (the sentence that used to state it, kept for screen
    readers as the bar's name)."""
    squares = sum(chapters(FIRST_OF[c]).evaluate(SQUARES_ON_PAGE) for c in CHAPTER_PAGES)
    assert SQUARES and squares == len(SQUARES)
    for canvas, section in SQUARES.items():
        page = chapters(section)
        bar_selector = page.evaluate(SQUARE_BAR, canvas)
        assert bar_selector, f"{canvas}: no colour bar in its figure or its section"
        axes = page.evaluate(SQUARE_AXES, f".{canvas}")
        assert axes and all(axes["titles"]) and len(axes["titles"]) == 2, (canvas, axes)
        assert axes["rows"] >= 2 and axes["columns"] >= 2, (canvas, axes)
        bar = colour_bar(page, bar_selector)
        assert bar["role"] == "img" and bar["strip"] > 50, (canvas, bar)
        assert bar["low"] < bar["high"] and bar["low"] <= 0 <= bar["high"], (canvas, bar)
        # Drawn: the ends (to 4 significant figures), with a real minus sign; named in full.
        ends = [float(e.replace("−", "-")) for e in (bar["labels"][0], bar["labels"][-1])]
        assert ends == pytest.approx([bar["low"], bar["high"]], rel=1e-3), (canvas, bar)
        for end in (bar["low"], bar["high"]):
            spoken = "0" if end == 0 else f"{'−' if end < 0 else '+'}{abs(end):.6g}"
            assert spoken in bar["name"], (canvas, spoken, bar["name"])
        # Signed values get a scale symmetric about 0, white in the middle.
        if bar["low"] < 0 < bar["high"]:
            assert bar["low"] == -bar["high"] and bar["labels"][1] == "0", (canvas, bar)
    # The ALiBi heads share one bar: their bias runs from −(the steepest slope × 10) to 0.
    heads = colour_bar(chapters("alibi"), "#alibi .alibi-heads-bar")
    assert heads["labels"] == ["−5", "0"] and heads["missing"] == "masked (j > i)"
    # The heatmap's legend is the same bar.
    assert colour_bar(chapters("heatmap"), ".heatmap-legend")["labels"] == ["−1", "0", "+1"]


PROBLEMS = """(demos) => demos.map((id) => {
  const section = document.getElementById(id);
  return {
    id, live: section.dataset.live,
    problems: [...section.querySelectorAll('.problem, [role=alert]')]
      .filter((p) => !p.hidden && p.textContent.trim()).map((p) => p.textContent),
  };
})"""


def test_no_demo_opens_on_a_problem(chapters):
    """At its default settings every live demo shows its figure, and none shows a problem line
    (a red line there reads as a crash): the learned table's missing rows are a note in its
    figure."""
    shown = []
    for chapter in CHAPTER_PAGES:
        page = chapters(FIRST_OF[chapter])
        here = [name for name in live_demos(page) if PAGE_OF[name] == chapter]
        poll(page, PROBLEMS, lambda found: all(d["live"] == "shown" for d in found), arg=here)
        shown += page.evaluate(PROBLEMS, here)
    assert len(shown) >= 12
    for demo in shown:
        assert demo["live"] == "shown" and demo["problems"] == [], demo
    note = chapters("learned").locator("#learned .learned-error")
    assert note.is_visible() and "have no row" in note.inner_text()
    assert note.evaluate("(n) => !n.matches('.problem') && n.closest('figure') !== null")


@pytest.fixture(scope="module")
def phone(browser, site_url):
    """The chapter pages on a phone 390 px wide, each opened once for the phone's tests:
    phone("heatmap") is the page holding that section. Python is held on its way, as it is on a
    phone's slow link: the figures are drawn by the same code from the shipped results, and no
    Python boots five times for a layout."""
    log = PageLog()
    context = open_context(browser, log, **PHONE)
    context.route("**/pyodide/**", lambda route: None)  # never answered
    yield chapter_pages(context, site_url, opened_by=figures_first)
    context.close()
    assert log.blocked == [], "the lesson tried to leave the machine"


CLOSE_NUMBERS = (
    "() => document.querySelectorAll('details.numbers').forEach((d) => (d.open = false))"
)


def test_on_a_phone_no_figure_text_is_under_11_px(phone):
    """Every label a chart, square or bar draws, as rendered at 390 px: SVG text scales with its
    chart's viewBox, so a chart drawn 640 wide and shown 300 wide had 6 px labels."""
    sizes = []
    for chapter in CHAPTER_PAGES:
        page = phone(FIRST_OF[chapter])
        page.evaluate(CLOSE_NUMBERS)
        sizes += page.evaluate(FIGURE_TEXT_SIZES)
    drawn = {s["where"].split()[0] for s in sizes if s["where"]}
    charts = {
        "waves-chart", "wavelength-chart", "similarity-chart", "alibi-chart", "rope-decay",
        "rope-mean", "extrapolation-chart", "stretching-scores", "training-components",
        "matrix-tick", "colour-bar-labels",
    }
    assert charts - drawn == set(), drawn
    assert len(sizes) > 200
    small = [s for s in sizes if s["px"] < SMALLEST_TEXT_PX - 0.01]
    assert small == [], small[:10]


READOUTS = """() => [...document.querySelectorAll('.summary dt')]
  .filter((dt) => dt.getBoundingClientRect().width > 0).map((dt) => {
    const dd = dt.nextElementSibling;
    const a = dt.getBoundingClientRect(), b = dd.getBoundingClientRect();
    return {
      label: dt.textContent.trim(), labelBottom: a.bottom, valueTop: b.top,
      labelWidth: a.width, valueWidth: b.width,
    };
  })"""
CUT_TABLES = """() => [...document.querySelectorAll('.table-scroll')]
  .filter((b) => b.getBoundingClientRect().width > 0 && b.scrollWidth > b.clientWidth + 1)
  .map((b) => ({
    more: b.dataset.more ?? null,
    hint: b.nextElementSibling?.matches('.scroll-hint:not([hidden])') ?? false,
    mask: getComputedStyle(b).maskImage,
  }))"""
WIDTHS = "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"


def test_on_a_phone_nothing_scrolls_sideways_and_readouts_stand_above_their_values(phone):
    pairs, cut = [], []
    for chapter in CHAPTER_PAGES:
        page = phone(FIRST_OF[chapter])
        scroll, width = page.evaluate(WIDTHS)
        assert width == 390 and scroll <= width, chapter  # the page never scrolls sideways
        # Readouts: each label above its value, the label the full width (it wrapped a word a
        # line).
        pairs += page.evaluate(READOUTS)
        # A table cut at the box's edge says so: a fade on that edge and a hint to scroll.
        cut += page.evaluate(CUT_TABLES)
    assert len(pairs) >= 15
    for pair in pairs:
        assert pair["valueTop"] >= pair["labelBottom"] - 1 and pair["labelWidth"] > 250, pair
    assert cut, "the formula table is wider than a phone"
    for box in cut:
        assert box["more"] == "right" and box["hint"] and "gradient" in box["mask"], box


NAMED_BY = [  # a slider (its input's name), and a figure whose name must then say its new value
    ("#heatmap", "d_model", ".heatmap-canvas"),
    ("#waves", "pos", ".waves-chart"),
    ("#relative", "k", ".relative-matrix"),
    ("#similarity", "seq_len", ".similarity-dot"),
    ("#similarity", "pos", ".similarity-chart"),
    ("#learned", "seq_len", ".learned-panel-learned"),
    ("#training", "max_train_len", ".training-cosine"),
    ("#terms", "d_model", ".terms-position-position"),
    ("#alibi", "n_heads", ".alibi-heads"),
    ("#alibi", "head", ".alibi-weights"),
    ("#extrapolation", "train_len", ".extrapolation-chart"),
    ("#rope", "d", ".rope-matrix"),
    ("#stretching", "scale", ".stretching-scores"),
]


@pytest.mark.parametrize(("section", "slider", "figure"), NAMED_BY)
def test_a_figures_name_follows_its_slider(chapters, section, slider, figure):
    lesson = chapters(section.removeprefix("#"))
    label = lesson.locator(f"{section} {figure}")
    before = label.get_attribute("aria-label")
    control = lesson.locator(f"{section} [name={slider}]")
    control.press("ArrowRight")
    shown = lesson.locator(f"output[for='{control.get_attribute('id')}']").inner_text()
    after = poll(
        lesson,
        f"() => document.querySelector('{section} {figure}').getAttribute('aria-label')",
        lambda v: v != before,
    )
    assert re.search(rf"(?<![\d.]){re.escape(shown)}(?![\d.])", after), (shown, after)


def numbers_of(page, figure: str) -> dict:
    """The numbers table of a figure: {caption, columns, rows: {label: [float, ...]}}."""
    table = page.evaluate(
        """(selector) => {
             const details = document.querySelector(selector).getAttribute('aria-details');
             const table = document.getElementById(details).querySelector('table');
             return {
               caption: table.caption.textContent,
               columns: [...table.tHead.rows[0].cells].slice(1).map((c) => c.textContent),
               rows: [...table.tBodies[0].rows].map((r) => [...r.cells].map((c) => c.textContent)),
             };
           }""",
        figure,
    )
    number = lambda text: math.nan if text == "none" else float(text.replace("−", "-"))  # noqa: E731
    table["text"] = {row[0]: row[1:] for row in table["rows"]}
    table["rows"] = {row[0]: [number(t) for t in row[1:]] for row in table["rows"]}
    return table


def set_slider(page, section: str, name: str, value: int) -> None:
    """Move the slider named `name` to `value` with the keyboard: Home, then ArrowRight step by
    step."""
    control = page.locator(f"{section} [name={name}]")
    control.press("Home")
    step = float(control.get_attribute("step"))
    for _ in range(round((value - float(control.get_attribute("min"))) / step)):
        control.press("ArrowRight")
    assert float(control.input_value()) == value


def test_the_numbers_are_the_ones_python_computed(chapters):
    lesson = chapters("heatmap")
    # The source's worked example, d_model = 4, position 1: the heatmap's table lists it.
    set_slider(lesson, "#heatmap", "d_model", 4)
    set_slider(lesson, "#heatmap", "seq_len", 64)
    poll(
        lesson,
        "() => document.querySelector('.heatmap-canvas').dataset.rendered",
        lambda v: v.startswith("64x4@"),
    )
    base = float(lesson.locator("output[for='heatmap-base']").inner_text())
    heatmap = numbers_of(lesson, ".heatmap-canvas")
    assert heatmap["columns"] == ["j = 0", "j = 1", "j = 2", "j = 3"]
    if base == 10000:
        assert heatmap["text"]["pos 1"] == ["0.841471", "0.540302", "0.010000", "0.999950"]
    for label, values in heatmap["rows"].items():
        pos = int(label.split()[1])
        np.testing.assert_allclose(values, pelab.sinusoidal(pos + 1, 4, base)[pos], atol=5e-7)

    lesson = chapters("relative")
    set_slider(lesson, "#relative", "k", 3)
    poll(
        lesson,
        "() => document.querySelector('#relative').dataset.rendered",
        lambda v: v.startswith("3/"),
    )
    d_model = int(lesson.locator("output[for='relative-d-model']").inner_text())
    rotation = numbers_of(lesson, ".relative-matrix")
    shown = min(d_model, 8)
    assert (
        len(rotation["rows"]) == shown
        and rotation["caption"].startswith(f"M_3, {d_model} × {d_model}")
    )
    np.testing.assert_allclose(
        list(rotation["rows"].values()), pelab.rotation(3, d_model)[:shown, :shown], atol=5e-7
    )

    def read(name):
        return float(chapters(name.split("-")[0]).locator(f"output[for='{name}']").inner_text())

    n, d_model, base = (
        int(read("similarity-seq-len")),
        int(read("similarity-d-model")),
        read("similarity-base"),
    )
    poll(
        lesson,
        "() => document.querySelector('#similarity').dataset.rendered",
        lambda v: v.startswith(f"{n}x{d_model}@"),
    )
    dot, cosine = pelab.similarity(pelab.sinusoidal(n, d_model, base))
    np.testing.assert_allclose(
        list(numbers_of(lesson, ".similarity-dot")["rows"].values()), dot[:8, :8], atol=5e-7
    )
    np.testing.assert_allclose(
        list(numbers_of(lesson, ".similarity-cosine")["rows"].values()), cosine[:8, :8], atol=5e-7
    )

    lesson = chapters("extrapolation")
    n, d_model, base = (
        int(read("extrapolation-seq-len")),
        int(read("extrapolation-d-model")),
        read("extrapolation-base"),
    )
    nearest = pelab.nearest_distances(n, d_model, base)
    for label, (value,) in numbers_of(lesson, ".extrapolation-chart")["rows"].items():
        assert value == pytest.approx(nearest[int(label.split()[0]) - 1], abs=5e-7), label

    lesson = chapters("waves")
    pos, d_model, base = int(read("waves-pos")), int(read("waves-d-model")), read("waves-base")
    waves = numbers_of(lesson, ".waves-chart")
    omega = pelab.angular_frequencies(d_model, base)
    pairs = [int(c.split("= ")[1]) for c in waves["columns"][::2]]
    chosen = waves["rows"][f"{pos} (chosen)"]
    expected = [f(pos * omega[i]) for i in pairs for f in (math.sin, math.cos)]
    np.testing.assert_allclose(chosen, expected, atol=5e-7)


# ---- keyboard and focus

FOCUSED = """() => {
  // the focused element, inside the code editors' shadow roots too
  let element = document.activeElement;
  while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement;
  if (!element || element === document.body) return null;
  (window.__tabbed ??= new Set()).add(element);
  // A code editor's ring is drawn around the whole editor, not its text.
  const ring = element.closest('.cm-editor') ?? element;
  const style = getComputedStyle(ring);
  // The colour around the ring: the nearest opaque background outside the element.
  let around = 'rgb(255, 255, 255)';
  const outside = (e) => e.parentElement ?? e.getRootNode().host;
  for (let e = outside(ring); e; e = outside(e)) {
    const colour = getComputedStyle(e).backgroundColor;
    // rgba(): not opaque, look further out
    if (colour.startsWith('rgb(')) { around = colour; break; }
  }
  const tag = `${element.tagName.toLowerCase()}.${element.className || ''}#${element.id || ''}`;
  const label = element.getAttribute('aria-label') ?? element.textContent.slice(0, 30);
  return {
    what: `${tag} ${label}`,
    outline: [style.outlineStyle, parseFloat(style.outlineWidth), style.outlineColor],
    shadow: style.boxShadow, around,
    editor: element.classList.contains('cm-content'),
  };
}"""

TABBABLE = """() => {
  // every control the keyboard should reach, visible now
  const all = [...document.querySelectorAll(
    'a[href], button:not(:disabled), input:not(:disabled), textarea:not([hidden]), summary, '
    + '[tabindex="0"]')];
  for (const host of document.querySelectorAll('.cell-editor')) {
    all.push(...(host.shadowRoot?.querySelectorAll('.cm-content') ?? []));
  }
  const seen = window.__tabbed ?? new Set();
  // A radio group is one tab stop: reaching any of its buttons counts for all of them.
  const reached = (e) => seen.has(e)
    || (e.type === 'radio' && [...document.getElementsByName(e.name)].some((r) => seen.has(r)));
  return all.filter((e) => e.checkVisibility()).filter((e) => !reached(e))
    .map((e) => `${e.tagName.toLowerCase()}.${e.className}#${e.id} `
      + (e.getAttribute('aria-label') ?? e.textContent.slice(0, 40)));
}"""


def srgb(css: str) -> list[float]:
    return [float(v) for v in re.findall(r"[\d.]+", css)[:3]]


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("chapter", CHAPTER_PAGES)
def test_tab_reaches_every_control_and_each_shows_a_focus_ring(chapters, chapter, scheme):
    lesson = chapters(FIRST_OF[chapter])
    cells = lesson.locator(".cell").count()
    lesson.emulate_media(color_scheme=scheme)
    open_every_details(lesson)
    lesson.evaluate(
        "() => { window.__tabbed = new Set(); document.activeElement?.blur();"
        " window.scrollTo(0, 0); }"
    )
    # Tab starts from the focused element: start from the top of the page (the body).
    lesson.evaluate(
        "() => { const b = document.body; b.tabIndex = -1; b.focus();"
        " b.removeAttribute('tabindex'); }"
    )
    no_ring, stops, editors, last = [], 0, 0, None
    for _ in range(600):
        lesson.keyboard.press("Tab")
        focused = lesson.evaluate(FOCUSED)
        if focused is None:  # past the last control: the walk wrapped around
            break
        if focused["what"].startswith("pre.cell-preview"):
            # An editor still being made: the focus moves into it once it is (cells/editor.js).
            focused = poll(lesson, FOCUSED, lambda f: f is not None and f["editor"], timeout=10)
        stops, last = stops + 1, focused["what"]
        for _ in range(10):  # CodeMirror marks its editor focused a few milliseconds after focus
            style, width, colour = focused["outline"]
            ringed = (style != "none" and width >= 2) or focused["shadow"] != "none"
            if ringed:
                break
            lesson.wait_for_timeout(30)
            focused = lesson.evaluate(FOCUSED)
        if not ringed or contrast(srgb(colour), srgb(focused["around"])) < 3:
            no_ring.append(
                f"{focused['what']}: outline {style} {width}px {colour} on {focused['around']}"
            )
        if focused["editor"]:
            # The documented way out of an editor, where Tab indents: Esc, then Tab.
            editors += 1
            lesson.keyboard.press("Escape")
    lesson.emulate_media(color_scheme="light")
    assert stops > 20 and editors >= cells, (
        f"Tab left the page after {stops} stops ({editors} of {cells} editors), at {last}"
    )
    assert not no_ring, (
        "no visible focus ring (3:1 against its surroundings):\n" + "\n".join(no_ring)
    )
    assert lesson.evaluate(TABBABLE) == [], "never reached by Tab"


def test_key_controls_work_from_the_keyboard(chapters):
    lesson = chapters("heatmap")
    # A slider: the arrow keys change the value and the demo redraws.
    d_model = lesson.locator("#heatmap [name=d_model]")
    set_slider(lesson, "#heatmap", "d_model", 64)
    d_model.press("ArrowRight")
    assert d_model.get_attribute("aria-valuetext") == "66"
    poll(
        lesson,
        "() => document.querySelector('.heatmap-canvas').dataset.rendered",
        lambda v: "x66@" in v,
    )

    # The heatmap: arrow keys move the readout, Enter chooses that row as the position.
    canvas = lesson.locator(".heatmap-canvas")
    canvas.focus()
    for key in ["Home", "ArrowDown", "ArrowDown", "ArrowRight"]:
        canvas.press(key)
    readout = lesson.evaluate("() => ({...document.querySelector('.heatmap-readout').dataset})")
    canvas.press("PageDown")
    later = lesson.evaluate("() => ({...document.querySelector('.heatmap-readout').dataset})")
    assert int(later["pos"]) == int(readout["pos"]) + 10 and readout["dim"] == "1"
    canvas.press("Enter")
    poll(lesson, "() => document.querySelector('#waves-pos').value", lambda v: v == later["pos"])

    # A checkbox with Space, a button with Enter, a <summary> with Enter.
    pe = lesson.locator("#attention [name=with_pe]")
    turned_on = not pe.is_checked()
    pe.focus()
    lesson.keyboard.press("Space")
    poll(
        lesson,
        "() => document.querySelector('.attention-summary').dataset.withPe",
        lambda v: v == str(turned_on).lower(),
    )
    summary = lesson.locator("#formula .show-python summary")
    was_open = summary.evaluate("(s) => s.parentElement.open")
    summary.focus()
    lesson.keyboard.press("Enter")
    assert summary.evaluate("(s) => s.parentElement.open") != was_open

    lesson = chapters("relative")
    lesson.locator("#relative .share-link").focus()
    lesson.keyboard.press("Enter")
    poll(lesson, "() => document.querySelector('#relative .share-status').textContent", bool)
    assert lesson.locator("#relative .share-text").is_visible()

    # A check's answer with the arrow keys: feedback at once (its options in shuffled order).
    checked = chapters("attention")
    options = checked.locator(".quiz-check .quiz-question").first.locator("input")
    options.nth(0).focus()
    checked.keyboard.press("ArrowDown")
    assert options.nth(1).is_checked()
    feedback = poll(
        checked,
        "(r) => r.closest('fieldset').querySelector('.quiz-feedback').textContent",
        bool,
        arg=options.nth(1).element_handle(),
    )
    assert feedback == "Right." or feedback.startswith("Not quite")

    lesson = chapters("quiz")

    # The editor's documented trap: Tab indents and stays, Esc then Tab moves on.
    code_editor(lesson, "scratch").click()
    poll(lesson, IN_EDITOR, bool, timeout=5)  # the click put the focus in the editor
    # This module's tests share one page: the Tab walk's last Esc in this editor opens CodeMirror's
    # escape hatch for 2 s, which any other key closes.
    lesson.keyboard.press("End")
    lesson.keyboard.press("Tab")
    assert lesson.evaluate(IN_EDITOR)
    lesson.keyboard.press("Escape")
    lesson.keyboard.press("Tab")
    assert lesson.evaluate("() => document.activeElement.className") == "cell-run"


# ---- reduced motion

ANIMATIONS = """() => {
  // running animations and the longest animation/transition duration of any element, shadow
  // roots (the code editors) included: document.getAnimations() does not look inside them.
  const hosts = [...document.querySelectorAll('*')].filter((e) => e.shadowRoot);
  const roots = [document, ...hosts.map((e) => e.shadowRoot)];
  const seconds = (list) => Math.max(...list.split(',').map(parseFloat));
  let longest = 0;
  for (const root of roots) {
    for (const element of root.querySelectorAll('*')) {
      for (const pseudo of [null, '::before', '::after']) {
        const style = getComputedStyle(element, pseudo);
        if (style.animationName !== 'none') {
          longest = Math.max(longest, seconds(style.animationDuration));
        }
        longest = Math.max(longest, seconds(style.transitionDuration));
      }
    }
  }
  return {
    running: roots.flatMap((r) => r.getAnimations()).filter((a) => a.playState === 'running')
      .map((a) => a.animationName ?? a.transitionProperty),
    longest, scroll: getComputedStyle(document.documentElement).scrollBehavior,
  };
}"""


def test_reduced_motion_stops_every_animation(chapters):
    lesson = chapters("cell")
    code_editor(lesson, "scratch").click()  # its cursor blinks
    lesson.emulate_media(reduced_motion="no-preference")
    moving = lesson.evaluate(ANIMATIONS)
    assert moving["running"], (
        "the check must see the editor's blinking cursor, or it proves nothing"
    )
    lesson.emulate_media(reduced_motion="reduce")
    try:
        still = lesson.evaluate(ANIMATIONS)
        assert still == {"running": [], "longest": 0, "scroll": "auto"}
        # No JavaScript animation either: an idle page asks for no animation frames.
        frames = lesson.evaluate("() => window.__frames")
        lesson.wait_for_timeout(1000)
        assert lesson.evaluate("() => window.__frames") == frames
    finally:
        lesson.emulate_media(reduced_motion="no-preference")
