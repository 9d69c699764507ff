"""The lesson page in headless Chromium: boot, the heatmap, its sliders and its readout."""

from __future__ import annotations

import hashlib
import math

import pytest

from pages import FIRST_HEATMAP, PAGE_OF, RECORD_WORKERS, poll, put_back, wait_for_state
from pelab import sinusoidal, sinusoidal_by_rotation, to_rgba
from site_server import DIST
from test_accessibility import numbers_of
from tools.heatmap_settings import heatmap_settings

CANVAS = ".heatmap-canvas"
# The worker paints the canvas (its placeholder here cannot be read directly): draw it on another.
PIXELS = """() => {
  const canvas = document.querySelector(".heatmap-canvas");
  const copy = Object.assign(
    document.createElement("canvas"), {width: canvas.width, height: canvas.height});
  const context = copy.getContext("2d");
  context.drawImage(canvas, 0, 0);
  const data = context.getImageData(0, 0, copy.width, copy.height).data;
  return {width: canvas.width, height: canvas.height, bytes: Array.from(data)};
}"""


def digest(image) -> tuple[int, int, str]:
    """PIXELS' result as (width, height, sha256 of the RGBA bytes)."""
    return image["width"], image["height"], hashlib.sha256(bytes(image["bytes"])).hexdigest()


def pixels(page) -> tuple[int, int, str]:
    return digest(page.evaluate(PIXELS))


def pixels_when(page, ready, timeout: float = 10) -> tuple[int, int, str]:
    """The canvas once `ready(pixels)`: the worker's frame reaches the page's canvas a frame or so
    after the page hears it was painted."""
    return digest(poll(page, PIXELS, lambda image: ready(digest(image)), timeout=timeout))


def rendered(page) -> str:
    return page.evaluate(f"() => document.querySelector('{CANVAS}').dataset.rendered")


def heatmap(page):
    return page.locator("#heatmap")


# The cell the readout shows: [data-pos, data-dim] (a shared page may show an earlier test's).
READ_CELL = "() => ['pos', 'dim'].map((k) => document.querySelector('.heatmap-readout').dataset[k])"


# ---- one booted page for the tests that put back every setting they change (put_back)

FIRST = "{seq_len}x{d_model}@{base:g}".format(**FIRST_HEATMAP)
# The first heatmap as the canvas shows it: width, height and the digest of its RGBA pixels.
FIRST_PIXELS = (
    FIRST_HEATMAP["d_model"],
    FIRST_HEATMAP["seq_len"],
    hashlib.sha256(
        to_rgba(
            sinusoidal_by_rotation(
                FIRST_HEATMAP["seq_len"], FIRST_HEATMAP["d_model"], FIRST_HEATMAP["base"]
            )
        ).tobytes()
    ).hexdigest(),
)


def show_as_served(page) -> None:
    """Put the heatmap's settings back as served and wait until the canvas shows that heatmap.

    The cell the pointer or keyboard last read stays chosen (nothing clears it), so a test that
    needs none chosen takes its own `lesson`.
    """
    put_back(page, "#heatmap")
    poll(page, f"() => document.querySelector('{CANVAS}').dataset.rendered", lambda v: v == FIRST)
    pixels_when(page, lambda seen: seen == FIRST_PIXELS)


@pytest.fixture
def shared_log(booted_lesson):
    """What the shared lesson did since it was opened (its requests, console and errors)."""
    return booted_lesson[1]


def test_boots_to_ready_with_the_first_heatmap(as_served, shared_log, site_url):
    lesson, page_log = as_served, shared_log
    assert "Python is ready" in lesson.inner_text(".boot-message")
    assert rendered(lesson) == "64x128@10000"
    # The pre-rendered picture was drawn with the settings the build read from index.html: the
    # build's reading of the sliders (tools/heatmap_settings.py) is the page's (slider.js).
    built = heatmap_settings()
    assert rendered(lesson) == f"{built['seq_len']}x{built['d_model']}@{built['base']:g}"
    pixels_when(
        lesson, lambda seen: seen[:2] == (FIRST_HEATMAP["d_model"], FIRST_HEATMAP["seq_len"])
    )
    # Row 0 is PE(0) = [0, 1, 0, 1, ...]: white for sine columns, the +1 red for cosine columns.
    red = lesson.evaluate(PIXELS)["bytes"][:8]
    assert red[0] > 215 and red[1] > 215 and red[2] > 215  # sin(0) = 0 -> near white
    assert red[4] > 150 and red[5] < 60 and red[6] < 80  # cos(0) = 1 -> red end
    assert heatmap(lesson).get_by_role("slider", name="d_model").count() == 1
    assert heatmap(lesson).get_by_role("slider", name="sequence length").count() == 1
    assert heatmap(lesson).get_by_role("slider", name="base").count() == 1
    assert page_log.foreign_requests(site_url) == []
    assert page_log.console_errors() == []


@pytest.mark.parametrize(
    ("name", "keys", "expected"),
    [
        ("d_model", ["ArrowRight"] * 3, "64x134@10000"),
        ("sequence length", ["ArrowLeft"] * 4, "60x128@10000"),
        ("base", ["ArrowLeft"] * 20, "64x128@1000"),
    ],
)
def test_each_slider_repaints_the_canvas(as_served, shared_log, name, keys, expected):
    lesson, page_log = as_served, shared_log
    before = pixels(lesson)
    slider = heatmap(lesson).get_by_role("slider", name=name)
    slider.focus()
    for key in keys:
        slider.press(key)
    poll(
        lesson,
        f"() => document.querySelector('{CANVAS}').dataset.rendered",
        lambda v: v == expected,
    )
    seq_len, d_model = (int(n) for n in expected.split("@")[0].split("x"))
    pixels_when(lesson, lambda seen: seen != before and seen[:2] == (d_model, seq_len))
    shown = {
        "d_model": str(d_model),
        "sequence length": str(seq_len),
        "base": expected.split("@")[1],
    }[name]
    assert lesson.locator(f"output[for='{slider.get_attribute('id')}']").inner_text() == shown
    assert page_log.console_errors() == []


def test_dragging_a_slider_keeps_the_page_responsive_and_ends_on_the_last_value(as_served):
    lesson = as_served
    slider = heatmap(lesson).get_by_role("slider", name="d_model")
    slider.scroll_into_view_if_needed()
    box = slider.bounding_box()
    y = box["y"] + box["height"] / 2
    lesson.mouse.move(box["x"] + 4, y)
    lesson.mouse.down()
    for step in range(1, 41):  # drag right across the whole slider
        lesson.mouse.move(box["x"] + 4 + (box["width"] - 8) * step / 40, y)
    lesson.mouse.up()
    assert slider.input_value() == "512"
    poll(
        lesson,
        f"() => document.querySelector('{CANVAS}').dataset.rendered",
        lambda v: v == "64x512@10000",
    )
    pixels_when(lesson, lambda seen: seen[:2] == (512, 64))


def test_repaints_into_recycled_buffers_show_exactly_the_new_encoding(as_served):
    """After the first frames, results are copied into buffers the page gave back: no frame may
    show an older frame's pixels or values."""
    lesson = as_served
    slider = heatmap(lesson).get_by_role("slider", name="base")
    slider.focus()
    for _ in range(6):  # one repaint each, all 64 x 128: the same buffer sizes every time
        before = rendered(lesson)
        slider.press("ArrowRight")
        poll(
            lesson,
            f"() => document.querySelector('{CANVAS}').dataset.rendered",
            lambda v, b=before: v != b,
        )
    base = float(rendered(lesson).split("@")[1])
    assert base > 10000
    expected = sinusoidal_by_rotation(64, 128, base)  # what pelab.browser.demos.heatmap draws
    colours = to_rgba(expected).tobytes()
    assert colours == to_rgba(sinusoidal(64, 128, base)).tobytes()
    sha = hashlib.sha256(colours).hexdigest()
    pixels_when(
        lesson, lambda seen: seen == (FIRST_HEATMAP["d_model"], FIRST_HEATMAP["seq_len"], sha)
    )
    lesson.mouse.move(*cell_centre(lesson, 40, 3))
    poll(lesson, READ_CELL, lambda cell: cell == ["40", "3"])
    # Row 40 = 5 x 8 starts a block (B = 8 at 64 rows): exact in any numpy, whether or not its
    # complex product fuses multiply-adds, so this CPython value is Pyodide's too.
    assert float(lesson.locator(".heatmap-readout").get_attribute("data-value")) == expected[40, 3]


CAPTION = f"""() => document
  .getElementById(document.querySelector('{CANVAS}').getAttribute('aria-details'))
  .querySelector('table').caption?.textContent ?? ''"""


def test_its_numbers_table_shows_what_is_on_the_canvas_open_or_opened_later(as_served):
    """The table is read from the heatmap on screen: kept up to date while open, and built from
    the latest heatmap (not the one shown when it was last open) when opened again."""
    lesson = as_served
    box = heatmap(lesson).locator("details.numbers")
    slider = heatmap(lesson).get_by_role("slider", name="base")

    def step_base() -> float:
        before = rendered(lesson)
        slider.press("ArrowRight")
        return float(
            poll(
                lesson,
                f"() => document.querySelector('{CANVAS}').dataset.rendered",
                lambda v: v != before,
            ).split("@")[1]
        )

    def check(base: float) -> None:
        poll(lesson, CAPTION, lambda caption: f"base {base:g}" in caption.replace(",", ""))
        pos1 = numbers_of(lesson, CANVAS)["rows"]["pos 1"]
        assert pos1 == pytest.approx(sinusoidal_by_rotation(64, 128, base)[1, :8], abs=5e-7)

    box.locator("summary").click()
    check(10000)
    check(step_base())  # open: follows the slider
    box.locator("summary").click()
    base = step_base()
    base = step_base()  # closed meanwhile: opened again, it shows this one
    box.locator("summary").click()
    check(base)


def cell_centre(page, pos: int, dim: int) -> tuple[float, float]:
    page.locator(CANVAS).scroll_into_view_if_needed()
    box = page.locator(CANVAS).bounding_box()
    width, height = page.evaluate(
        f"() => [document.querySelector('{CANVAS}').width,"
        f" document.querySelector('{CANVAS}').height]"
    )
    return (
        box["x"] + (dim + 0.5) * box["width"] / width,
        box["y"] + (pos + 0.5) * box["height"] / height,
    )


def test_hover_readout_shows_the_value_and_the_formula(as_served):
    lesson = as_served
    pos, dim = 5, 10
    lesson.mouse.move(*cell_centre(lesson, pos, dim))
    readout = lesson.locator(".heatmap-readout")
    poll(lesson, READ_CELL, lambda cell: cell == [str(pos), str(dim)])
    expected = sinusoidal(64, 128)[pos, dim]
    assert expected == pytest.approx(math.sin(5 / 10000 ** (10 / 128)), abs=1e-15)
    assert float(readout.get_attribute("data-value")) == pytest.approx(expected, abs=1e-12)
    assert readout.get_attribute("data-dim") == str(dim)
    text = readout.inner_text()
    assert "pos 5, dimension j = 10: pair i = 5, even j, sine" in text
    angle = 5 / 10000 ** (10 / 128)
    assert f"PE(5, 10) = sin(5 / 10000^(10/128)) = sin({angle:.6g})" in text
    assert f"= {expected:.5f}" in text
    assert lesson.locator(".heatmap-cursor").is_visible()


def test_keyboard_focus_reads_cells_with_the_arrow_keys(lesson):
    canvas = lesson.locator(CANVAS)
    canvas.focus()
    readout = lesson.locator(".heatmap-readout")
    assert readout.get_attribute("data-pos") == "1" and readout.get_attribute("data-dim") == "0"
    for key in ["ArrowRight", "ArrowRight", "ArrowRight", "ArrowDown"]:
        canvas.press(key)
    assert (readout.get_attribute("data-pos"), readout.get_attribute("data-dim")) == ("2", "3")
    expected = math.cos(2 / 10000 ** (2 / 128))  # odd j = 3 is the cosine of pair i = 1
    assert float(readout.get_attribute("data-value")) == pytest.approx(expected, abs=1e-12)
    assert "odd j, cosine" in readout.inner_text()
    canvas.press("End")
    assert readout.get_attribute("data-dim") == "127"


def test_python_paints_the_canvas_from_its_worker(as_served):
    """The page hands the canvas to the worker, which paints each frame itself: the page's
    thread is not on the path from slider input to pixels, and no pixels are sent to it."""
    lesson = as_served
    handed_over = """() => {
      try { document.querySelector(".heatmap-canvas").getContext("2d"); return false; }
      catch (error) { return error.name === "InvalidStateError"; }
    }"""
    assert lesson.evaluate(handed_over)
    slider = heatmap(lesson).get_by_role("slider", name="sequence length")
    slider.press("ArrowLeft")
    poll(
        lesson,
        f"() => document.querySelector('{CANVAS}').dataset.rendered",
        lambda v: v == "63x128@10000",
    )
    pixels_when(lesson, lambda seen: seen[:2] == (128, 63))
    # Input to pixels is measured to the moment the worker painted: after the input, and before
    # the page heard of it.
    latency = lesson.evaluate(
        "() => performance.getEntriesByName('pelab:heatmap-latency')"
        ".map((e) => [e.duration, e.startTime + e.duration])"
    )
    assert len(latency) >= 2
    duration, painted = latency[-1]
    assert 0 < duration < 10_000 and painted <= lesson.evaluate("() => performance.now()")


def test_after_a_crash_the_heatmap_keeps_its_picture_and_repaints(lesson):
    """A dead worker takes the canvas it painted on along: a copy showing the same picture takes
    its place, with the same name, description and keyboard reading, and the page paints it."""
    from test_cells import type_code, wait_done

    heatmap(lesson).get_by_role("slider", name="sequence length").press("ArrowLeft")
    before = pixels_when(lesson, lambda seen: seen[:2] == (128, 63))
    described = lesson.locator(CANVAS).get_attribute("aria-details")
    type_code(lesson, "added", "import os\nos.abort()")
    lesson.keyboard.press("Shift+Enter")
    assert wait_done(lesson, "added") == "stopped"
    assert lesson.locator(CANVAS).count() == 1
    assert pixels(lesson) == before  # the copy shows what the lost canvas showed
    assert lesson.locator(CANVAS).get_attribute("aria-details") == described
    assert lesson.locator(CANVAS).get_attribute("tabindex") == "0"
    assert wait_for_state(lesson) == "ready"
    heatmap(lesson).get_by_role("slider", name="base").press("ArrowRight")
    poll(
        lesson,
        f"() => document.querySelector('{CANVAS}').dataset.rendered",
        lambda v: not v.endswith("@10000"),
    )
    base = float(rendered(lesson).split("@")[1])
    colours = to_rgba(sinusoidal(63, 128, base)).tobytes()
    pixels_when(lesson, lambda seen: seen == (128, 63, hashlib.sha256(colours).hexdigest()))
    canvas = lesson.locator(CANVAS)
    canvas.focus()
    canvas.press("ArrowRight")
    readout = lesson.locator(".heatmap-readout")
    assert (readout.get_attribute("data-pos"), readout.get_attribute("data-dim")) == ("1", "1")
    assert float(readout.get_attribute("data-value")) == pytest.approx(math.cos(1.0), abs=1e-12)


def test_the_page_makes_no_request_to_another_host(lesson, page_log, site_url):
    heatmap(lesson).get_by_role("slider", name="d_model").press("End")
    poll(
        lesson,
        f"() => document.querySelector('{CANVAS}').dataset.rendered",
        lambda v: v == "64x512@10000",
    )
    # worker requests are seen
    assert any(url.endswith("pyodide.asm.wasm") for url in page_log.requests)
    assert any("numpy" in url for url in page_log.requests)
    assert page_log.foreign_requests(site_url) == []


def test_a_missing_file_stops_boot_with_a_clear_message(page, lesson_url):
    page.route("**/py/pelab-*.whl", lambda route: route.fulfill(status=404, body="not found"))
    page.goto(lesson_url)
    assert wait_for_state(page) == "error"
    detail = page.inner_text(".boot-error-detail")
    assert "pelab-" in detail and "404" in detail
    assert (
        page.locator(".boot-stages [data-stage='pelab']").get_attribute("data-status") == "failed"
    )
    assert page.get_by_role("button", name="Retry").is_visible()


def test_python_starts_once_while_the_page_is_parsed(lesson):
    """start-python.js starts the worker before the modules run; the bridge adopts that one
    worker, with what it said meanwhile, rather than booting a second Python."""
    workers = [
        worker.url for worker in lesson.workers if worker.url.endswith("/app/python/worker/main.js")
    ]
    assert len(workers) == 1
    stages = lesson.eval_on_selector_all(
        ".boot-stages li", "items => items.map((li) => li.dataset.status)"
    )
    assert stages == ["done"] * 4


def test_the_boot_panel_lists_protocol_js_stages_and_only_the_learners_python_announces_them(
    page, lesson_url
):
    """BOOT_STAGES (app/python/protocol.js) is the one list of stage names: the panel is made from
    it, and the worker announces all but the page's last."""
    page.add_init_script(RECORD_WORKERS)
    page.goto(lesson_url)
    assert wait_for_state(page) == "ready"
    stages = page.evaluate(
        "async () => (await import(new URL('app/python/protocol.js', document.baseURI)))"
        ".BOOT_STAGES"
    )
    assert stages == ["runtime", "numpy", "pelab", "render"]
    listed = page.eval_on_selector_all(
        ".boot-stages li", "items => items.map((li) => [li.dataset.stage, li.dataset.status])"
    )
    assert listed == [[stage, "done"] for stage in stages]
    assert page.evaluate("() => document.querySelector('.boot progress').max") == len(stages)
    [python] = page.evaluate("() => window.__workers")  # the snapshot maker: see test_offline.py
    assert (python["name"], python["url"].split("/app/python/")[1]) == ("python", "worker/main.js")
    assert [t for t in python["said"] if t == "progress"] == ["progress"] * (len(stages) - 1)


def test_a_worker_that_cannot_load_stops_boot_with_a_clear_message(page, lesson_url):
    # It fails before pages/lesson.js has run: the bridge hears of it from start-python.js.
    page.route(
        "**/app/python/worker/main.js",
        lambda route: route.fulfill(status=404, body="not found"),
    )
    page.goto(lesson_url)
    assert wait_for_state(page) == "error"
    assert "the Python worker could not start" in page.inner_text(".boot-error-detail")
    assert page.get_by_role("button", name="Retry").is_visible()


@pytest.mark.parametrize(
    ("pattern", "stage"),
    [("**/py/pelab-*.whl", "pelab"), ("**/pyodide/*/numpy-*.whl", "numpy")],
)
def test_a_corrupt_file_stops_boot_with_a_clear_message_and_retry_recovers(
    page, lesson_url, pattern, stage
):
    broken = {"on": True}

    def serve(route):
        if broken["on"]:
            route.fulfill(
                status=200, body=b"this is not a wheel", content_type="application/octet-stream"
            )
        else:
            route.continue_()

    page.route(pattern, serve)
    page.goto(lesson_url)
    assert wait_for_state(page) == "error"
    assert (
        page.locator(f".boot-stages [data-stage='{stage}']").get_attribute("data-status")
        == "failed"
    )
    assert page.inner_text(".boot-error-detail").strip()  # the runtime's own words, not a blank box
    broken["on"] = False  # the file is fixed on the server: Retry gets the lesson going
    page.get_by_role("button", name="Retry").click()
    assert wait_for_state(page) == "ready"


@pytest.mark.parametrize(
    ("module", "response", "said"),
    [
        (
            "pages/lesson.js",
            {"status": 404, "body": "not found"},
            "a script could not be loaded (pages/lesson.js or a module it imports)",
        ),
        (
            "pages/lesson.js",
            {"status": 200, "body": "export const = ;", "content_type": "text/javascript"},
            "pages/lesson.js: Uncaught SyntaxError",
        ),
    ],
)
def test_a_module_that_cannot_load_stops_boot_with_a_clear_message_and_retry_recovers(
    page, lesson_url, module, response, said
):
    """Not a silent "Starting Python…" for ever: preflight.js hears of it, and Retry recovers."""
    broken = {"on": True}
    page.route(
        f"**/app/{module}",
        lambda route: route.fulfill(**response) if broken["on"] else route.continue_(),
    )
    page.goto(lesson_url)
    assert wait_for_state(page, timeout=30) == "error"
    detail = page.inner_text(".boot-error-detail")
    assert said in detail and "Reload the page" in detail
    assert page.locator(".boot-message").inner_text() == "The lesson could not start."
    broken["on"] = False
    page.get_by_role("button", name="Retry").click()
    assert wait_for_state(page) == "ready"


def test_without_its_bytecode_python_still_starts(page, lesson_url, page_log):
    """py/bytecode.zip only saves compiling numpy on import: when it is missing, the boot goes
    on."""
    page.route("**/py/bytecode.zip", lambda route: route.fulfill(status=404, body="not found"))
    page.goto(lesson_url)
    assert wait_for_state(page) == "ready"
    assert any("Python compiles numpy on import" in text for text in page_log.console)


def test_opening_the_page_from_a_file_explains_how_to_serve_it(page):
    page.goto((DIST / PAGE_OF["heatmap"]).as_uri())
    assert wait_for_state(page, timeout=10) == "error"
    assert "python3 build.py serve" in page.inner_text(".boot-error-detail")
    assert not page.get_by_role("button", name="Retry").is_visible()  # reloading would not help


LEGEND_BYTES = """() => {
  const strip = document.querySelector(".heatmap-legend-strip");
  return Array.from(strip.getContext("2d").getImageData(0, 0, strip.width, 1).data);
}"""


def test_the_legend_is_pelabs_colour_map_drawn_without_python(page, lesson_url):
    """The colour scale needs no request to the worker: it is pelab's table
    (app/figures/colormap.js)."""
    from pelab.colormap import COOL_WARM

    page.route("**/pyodide/**", lambda route: None)  # held: Python never starts
    page.goto(lesson_url)
    legend = poll(page, LEGEND_BYTES, lambda data: any(data))
    assert legend == COOL_WARM.reshape(-1).tolist()


def test_the_concatenated_layout_is_the_same_numbers_in_other_columns(as_served):
    """The layout switch: sines first, then cosines, as TensorFlow's tutorial lays them out."""
    lesson = as_served
    demo = heatmap(lesson)
    demo.get_by_label("Sines first, then cosines (TensorFlow’s layout)").check()
    poll(
        lesson,
        f"() => document.querySelector('{CANVAS}').dataset.rendered",
        lambda r: r == "64x128@10000 concatenated",
    )
    canvas = demo.locator(CANVAS)
    canvas.focus()
    for key in ["Home", *["ArrowRight"] * 64]:  # to column 64: the first cosine
        lesson.keyboard.press(key)
    readout = demo.locator(".heatmap-readout")
    assert "j = 64: pair i = 0, second half, cosine" in readout.inner_text()
    pos = int(readout.get_attribute("data-pos"))
    assert float(readout.get_attribute("data-value")) == pytest.approx(math.cos(pos), abs=1e-12)
    lesson.keyboard.press("Home")  # column 0: the sine of pair 0
    assert "j = 0: pair i = 0, first half, sine" in readout.inner_text()
    demo.locator(".show-python summary").click()  # the code follows the switch
    poll(
        lesson,
        "() => document.querySelector('#heatmap .cell-editor').shadowRoot"
        "?.querySelector('.cm-content')?.textContent ?? ''",
        lambda code: "pelab.layout_permutation(128)" in code,
    )
