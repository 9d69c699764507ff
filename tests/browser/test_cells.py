"""Live code cells in headless Chromium: type, run by keyboard and button, read the output,
stop runaway code, keep edits across reloads."""

from __future__ import annotations

import pytest

from pages import (
    BOOT_TIMEOUT_S,
    FIRST_HEATMAP_CALL,
    IN_EDITOR,
    PAGE_OF,
    boot,
    code_editor,
    code_of,
    poll,
    wait_for_state,
)
from site_server import PYODIDE, served
from tools.course import read_course

COURSE = read_course()

# `lesson` opens the page of the free cell ("Your turn", the cell scratch); `first_chapter` the
# first chapter's, whose demos' cells ("Show the Python") share its Python with the heatmap.
LESSON_SECTION = "cell"


@pytest.fixture
def first_chapter(page, site_url):
    return boot(page, site_url, PAGE_OF["heatmap"])


def cell(page, name: str):
    return page.locator(f".cell[data-cell='{name}']")


def type_code(page, name: str, code: str) -> None:
    """Replace a cell's code the way a learner would: open its "Show the Python" if it is a
    demo's, click, select all, type."""
    cell(page, name).evaluate("(c) => { const d = c.closest('details'); if (d) d.open = true; }")
    code_editor(page, name).click()
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    page.keyboard.insert_text(code)


def wait_done(page, name: str, timeout: float = 60) -> str:
    """Wait for the cell to leave "running"; returns its final status."""
    return poll(
        page,
        "(n) => document.querySelector(`.cell[data-cell='${n}']`).dataset.status",
        lambda status: status not in (None, "running"),
        timeout=timeout,
        arg=name,
    )


def output(page, name: str) -> str:
    return cell(page, name).locator(".cell-output").inner_text()


def test_a_cell_runs_with_shift_enter_ctrl_enter_and_the_button(lesson):
    type_code(lesson, "scratch", "x = 6 * 7\nprint('hello', x)\nx + 0.5")
    lesson.keyboard.press("Shift+Enter")
    assert wait_done(lesson, "scratch") == "done"
    assert cell(lesson, "scratch").locator(".out-stdout").inner_text() == "hello 42"
    assert cell(lesson, "scratch").locator(".out-result").inner_text() == "42.5"
    type_code(lesson, "scratch", "x * 2")  # the namespace is shared across runs
    lesson.keyboard.press("Control+Enter")
    assert wait_done(lesson, "scratch") == "done"
    assert output(lesson, "scratch") == "84"
    type_code(lesson, "scratch", "print(np.arange(3), pelab.sinusoidal(1, 4).tolist())")
    cell(lesson, "scratch").get_by_role("button", name="Run", exact=True).click()
    assert wait_done(lesson, "scratch") == "done"
    assert output(lesson, "scratch") == "[0 1 2] [[0.0, 1.0, 0.0, 1.0]]"


def test_editors_are_made_when_the_learner_comes_to_them(first_chapter):
    lesson = first_chapter
    # Booted, and nothing asked for an editor yet: CodeMirror is not even loaded, and each cell
    # shows its code as text (the demo's current code, here the heatmap's).
    loaded = (
        "() => performance.getEntriesByType('resource')"
        ".some((r) => r.name.endsWith('/vendor/codemirror.js'))"
    )
    assert not lesson.evaluate(loaded)
    assert lesson.locator(".cell-editor .cm-editor").count() == 0
    preview = cell(lesson, "heatmap").locator(".cell-preview")
    assert FIRST_HEATMAP_CALL in preview.text_content()
    # Opening "Show the Python" makes its editor, with that code; the others wait.
    cell(lesson, "heatmap").locator("xpath=ancestor::details/summary").click()
    poll(
        lesson,
        "() => document.querySelector('.cell[data-cell=heatmap] .cell-editor').dataset.editor",
        lambda v: v == "ready",
    )
    assert lesson.evaluate(loaded) and preview.count() == 0
    assert FIRST_HEATMAP_CALL in code_of(lesson, "heatmap")
    assert lesson.evaluate(
        "() => document.querySelector('.cell[data-cell=formula] .cell-editor').shadowRoot"
    ) is None



def test_tabbing_to_a_cell_before_its_editor_is_made_lands_in_the_editor(lesson):
    scratch = cell(lesson, "scratch").locator(".cell-preview")
    scratch.evaluate("(pre) => pre.focus({ preventScroll: true })")
    poll(lesson, IN_EDITOR, bool)
    assert code_of(lesson, "scratch").startswith("# A scratch cell.")


def test_a_cell_keeps_its_code_and_runs_when_the_editor_cannot_load(page, lesson_url):
    page.route("**/vendor/codemirror.js", lambda route: route.abort())
    page.goto(lesson_url)
    assert wait_for_state(page) == "ready"
    host = cell(page, "scratch").locator(".cell-editor")
    host.scroll_into_view_if_needed()
    poll(
        page,
        "() => document.querySelector('.cell[data-cell=scratch] .cell-editor').dataset.editor",
        lambda v: v == "failed",
    )
    preview = cell(page, "scratch").locator(".cell-preview")
    assert preview.text_content().startswith("# A scratch cell.")
    assert "the editor could not load" in preview.get_attribute("aria-label")
    cell(page, "scratch").get_by_role("button", name="Run").click()
    assert wait_done(page, "scratch") == "done"
    assert "array(" in output(page, "scratch")


def test_cells_of_a_page_share_one_namespace(first_chapter):
    lesson = first_chapter
    heatmap = lesson.locator("#heatmap")
    heatmap.locator(".show-python summary").click()
    assert FIRST_HEATMAP_CALL in code_of(lesson, "heatmap")
    heatmap.get_by_role("button", name="Run", exact=True).click()
    assert wait_done(lesson, "heatmap") == "done"
    assert cell(lesson, "heatmap").locator(".out-heatmap canvas").count() == 1
    assert "64 × 128" in cell(lesson, "heatmap").locator(".out-heatmap figcaption").inner_text()
    type_code(lesson, "added", "pe.shape")
    lesson.keyboard.press("Shift+Enter")
    assert wait_done(lesson, "added") == "done"
    assert output(lesson, "added") == "(64, 128)"


def test_output_streams_while_the_cell_runs(lesson):
    type_code(
        lesson,
        "scratch",
        "import time\nprint('first', flush=True)\ntime.sleep(1.5)\nprint('second')",
    )
    lesson.keyboard.press("Shift+Enter")
    poll(
        lesson,
        "() => document.querySelector(`.cell[data-cell='scratch'] .cell-output`).innerText",
        lambda t: "first" in t,
    )
    assert cell(lesson, "scratch").get_attribute("data-status") == "running"
    assert wait_done(lesson, "scratch") == "done"
    assert output(lesson, "scratch") == "first\nsecond"


def test_a_traceback_names_the_learners_line_and_other_cells_keep_working(first_chapter):
    lesson = first_chapter
    type_code(lesson, "added", "a = 1\nb = 0\nc = a / b\n")
    lesson.keyboard.press("Shift+Enter")
    assert wait_done(lesson, "added") == "failed"
    text = cell(lesson, "added").locator(".out-error").inner_text()
    assert 'File "<cell added>", line 3, in <module>' in text
    assert "c = a / b" in text and text.strip().endswith("ZeroDivisionError: division by zero")
    assert "notebook.py" not in text and "_pyodide" not in text
    assert "ZeroDivisionError" in cell(lesson, "added").locator(".cell-status").inner_text()
    type_code(lesson, "added", "print('still fine')\ndef f(:\n")
    lesson.keyboard.press("Shift+Enter")
    assert wait_done(lesson, "added") == "failed"
    assert "line 2" in output(lesson, "added") and "SyntaxError" in output(lesson, "added")
    lesson.locator("#formula .show-python summary").click()
    cell(lesson, "formula").get_by_role("button", name="Run", exact=True).click()
    assert wait_done(lesson, "formula") == "done"
    assert "value=0.841471" in output(lesson, "formula")


def test_matplotlib_loads_on_first_use_and_figures_show_inline_in_order(lesson, page_log):
    lesson.evaluate(
        """() => {
             window.statusLog = [];
             const status = document.querySelector(".cell[data-cell='scratch'] .cell-status");
             new MutationObserver(() => window.statusLog.push(status.textContent))
               .observe(status, {childList: true, characterData: true, subtree: true});
           }"""
    )
    type_code(
        lesson,
        "scratch",
        "import matplotlib.pyplot as plt\nplt.plot([0, 1], [1, 0])\nplt.show()\nprint('between')\n"
        "plt.figure(figsize=(3, 2)); plt.plot([1, 2, 3])\nplt.show()\n"
        "plt.figure(); plt.plot([3, 1]);",
    )
    lesson.keyboard.press("Shift+Enter")
    assert wait_done(lesson, "scratch", timeout=90) == "done"
    assert any("matplotlib" in text for text in lesson.evaluate("() => window.statusLog"))
    kinds = lesson.evaluate(
        "() => [...document.querySelector(`.cell[data-cell='scratch'] .cell-output`).children]"
        ".map(e => e.tagName === 'IMG' ? 'img' : e.dataset.kind)"
    )
    assert kinds == ["img", "stdout", "img", "img"]  # shown, printed, shown, left open at the end
    sizes = lesson.evaluate(
        "() => [...document.querySelectorAll(`.cell[data-cell='scratch'] img`)]"
        ".map(i => [i.naturalWidth, i.complete])"
    )
    assert all(width > 100 and complete for width, complete in sizes)
    assert "font cache" not in output(lesson, "scratch")  # built at build time, not in the browser


def test_numpy_and_pelab_were_imported_from_the_bytecode_made_at_build_time(lesson):
    """Pyodide never writes bytecode, so a .pyc beside a module came from py/bytecode.zip; its
    source hash matching the source means the import used it rather than compiling."""
    type_code(
        lesson,
        "scratch",
        "import importlib.util, sys\n"
        "def from_bytecode(name):\n"
        "    source = sys.modules[name].__file__\n"
        "    with open(importlib.util.cache_from_source(source), 'rb') as f: pyc = f.read()\n"
        "    with open(source, 'rb') as f: digest = importlib.util.source_hash(f.read())\n"
        "    return pyc[4:8] == bytes([3, 0, 0, 0]) and pyc[8:16] == digest\n"
        "names = ['numpy', 'numpy._core.numeric', 'numpy.linalg._linalg',"
        " 'pelab.browser.entry_points', 'pelab.colormap']\n"
        "print(sys.dont_write_bytecode, [from_bytecode(n) for n in names])",
    )
    lesson.keyboard.press("Shift+Enter")
    assert wait_done(lesson, "scratch") == "done"
    assert output(lesson, "scratch") == "True [True, True, True, True, True]"


def test_matplotlib_is_not_loaded_at_boot(lesson, page_log):
    assert not any("matplotlib" in url for url in page_log.requests)


def test_stop_interrupts_an_endless_loop_and_python_keeps_working(lesson):
    assert lesson.evaluate("() => crossOriginIsolated") is True
    type_code(lesson, "scratch", "n = 0\nwhile True:\n    n += 1")
    lesson.keyboard.press("Shift+Enter")
    poll(
        lesson,
        "() => document.querySelector(`.cell[data-cell='scratch']`).dataset.status",
        lambda s: s == "running",
    )
    lesson.wait_for_timeout(300)
    cell(lesson, "scratch").get_by_role("button", name="Stop").click()
    assert wait_done(lesson, "scratch", timeout=10) == "stopped"
    assert "KeyboardInterrupt" in output(lesson, "scratch")
    type_code(lesson, "scratch", "n > 0")  # interrupted, not restarted: the namespace survived
    lesson.keyboard.press("Shift+Enter")
    assert wait_done(lesson, "scratch") == "done"
    assert output(lesson, "scratch") == "True"


@pytest.fixture
def plain_host_url():
    """dist/ served without COOP/COEP, like most static hosts: no SharedArrayBuffer, no
    interrupts."""
    with served(isolated=False) as url:
        yield url


def test_without_isolation_stop_restarts_python_and_says_so(page, plain_host_url):
    page.goto(plain_host_url + PAGE_OF["heatmap"])
    assert wait_for_state(page) == "ready"
    assert page.evaluate("() => crossOriginIsolated") is False
    type_code(page, "added", "kept = 1\n")
    page.keyboard.press("Shift+Enter")
    assert wait_done(page, "added") == "done"
    type_code(page, "added", "while True: pass")
    page.keyboard.press("Shift+Enter")
    poll(
        page,
        "() => document.querySelector(`.cell[data-cell='added']`).dataset.status",
        lambda s: s == "running",
    )
    page.evaluate(COUNT_STARTS)
    cell(page, "added").get_by_role("button", name="Stop").click()
    assert wait_done(page, "added", timeout=10) == "stopped"
    assert (
        "restarted" in output(page, "added")
        and "run the cells you need again" in output(page, "added")
    )
    assert (
        "Restarting Python" in page.inner_text(".boot-message") or wait_for_state(page) == "ready"
    )
    assert wait_for_state(page, timeout=BOOT_TIMEOUT_S) == "ready"
    assert "Python was restarted" in page.inner_text(".boot-message")
    type_code(page, "added", "'kept' in globals(), 1 + 1")  # nothing re-ran silently
    page.keyboard.press("Shift+Enter")
    assert wait_done(page, "added") == "done"
    assert output(page, "added") == "(False, 2)"
    # The restart made exactly one new Python, through start-python.js's factory, and ended the old.
    starts = page.evaluate("() => window.__starts.filter(([entry]) => entry !== 'snapshot')")
    assert starts == [["python", "python"]]
    poll(
        page,
        "() => 0",
        lambda _: sum(w.url.endswith("/app/python/worker/main.js") for w in page.workers) == 1,
        timeout=10,
    )
    # The heatmap's canvas went with the old worker: the page paints a copy, which still reads
    # values.
    canvas = page.locator(".heatmap-canvas")
    assert canvas.count() == 1
    before = canvas.get_attribute("data-rendered")
    page.locator("#heatmap [name=base]").press("ArrowRight")
    poll(
        page,
        "() => document.querySelector('.heatmap-canvas').dataset.rendered",
        lambda v: v != before,
    )
    canvas.scroll_into_view_if_needed()
    box = canvas.bounding_box()
    page.mouse.move(box["x"] + box["width"] * 0.5, box["y"] + box["height"] * 0.5)
    poll(page, "() => document.querySelector('.heatmap-readout').dataset.pos", lambda v: v == "32")


# Notes each worker start-python.js's factory starts from now on: [entry, the new Worker's name].
COUNT_STARTS = """() => {
  window.__starts = [];
  const factory = window.pelabPython;
  const start = factory.start;
  const RealWorker = window.Worker;
  let entry = null;
  window.Worker = class extends RealWorker {
    constructor(url, options) {
      super(url, options);
      window.__starts.push([entry, options?.name ?? null]);
    }
  };
  factory.start = (name) => {
    entry = name;
    try { return start(name); } finally { entry = null; }
  };
}"""


def test_a_flood_of_output_is_truncated_and_the_page_stays_responsive(lesson):
    type_code(lesson, "scratch", "for i in range(1_000_000):\n    print(i)")
    lesson.keyboard.press("Shift+Enter")
    poll(
        lesson,
        "() => document.querySelector(`.cell[data-cell='scratch']`).dataset.status",
        lambda s: s == "running",
    )
    # The main thread runs a script while Python prints: the cell is still running when it does.
    status = "() => document.querySelector(`.cell[data-cell='scratch']`).dataset.status"
    assert lesson.evaluate(status) == "running"
    assert wait_done(lesson, "scratch", timeout=120) == "done"
    text = output(lesson, "scratch")
    assert "output truncated: 995,000 more lines were not shown" in text
    assert text.startswith("0\n1\n2\n") and "4999" in text and "5000\n" not in text


def test_edits_survive_a_reload_until_reset(lesson):
    type_code(lesson, "scratch", "# my own idea\n40 + 2")
    lesson.reload()
    assert wait_for_state(lesson) == "ready"
    assert code_of(lesson, "scratch") == "# my own idea\n40 + 2"
    cell(lesson, "scratch").get_by_role("button", name="Reset").click()
    assert code_of(lesson, "scratch").startswith("# A scratch cell.")
    lesson.reload()
    assert wait_for_state(lesson) == "ready"
    assert code_of(lesson, "scratch").startswith("# A scratch cell.")


def test_cells_work_when_storage_is_blocked(page, lesson_url):
    page.add_init_script(
        "Object.defineProperty(window, 'localStorage',"
        " {get() { throw new DOMException('blocked', 'SecurityError'); }})"
    )
    page.goto(lesson_url)
    assert wait_for_state(page) == "ready"
    assert page.locator(".cells-storage-note").first.is_visible()
    assert page.locator(".cells-storage-note:not([hidden])").count() == 1  # said once
    type_code(page, "scratch", "1 + 2")
    page.keyboard.press("Shift+Enter")
    assert wait_done(page, "scratch") == "done"
    assert output(page, "scratch") == "3"


def test_escape_then_tab_leaves_the_editor(lesson):
    code_editor(lesson, "scratch").click()
    poll(lesson, IN_EDITOR, bool, timeout=5)  # the click put the focus in the editor
    lesson.keyboard.press("Tab")  # Tab alone indents: the learner stays in the editor
    assert lesson.evaluate(IN_EDITOR)
    lesson.keyboard.press("Escape")
    lesson.keyboard.press("Tab")
    assert lesson.evaluate("() => document.activeElement.className") == "cell-run"


@pytest.mark.allow_foreign_requests  # micropip looks the unknown package up on the package index
def test_micropip_installs_a_same_origin_wheel_and_fails_fast_offline(lesson, site_url, page_log):
    wheel = f"{site_url}{PYODIDE}/six-1.16.0-py2.py3-none-any.whl"
    type_code(
        lesson,
        "scratch",
        f"import micropip\nawait micropip.install({wheel!r})\nimport six\nsix.__version__",
    )
    lesson.keyboard.press("Shift+Enter")
    assert wait_done(lesson, "scratch", timeout=60) == "done"
    assert output(lesson, "scratch") == "'1.16.0'"
    type_code(lesson, "scratch", "await micropip.install('surely-not-installed-pelab-test')")
    lesson.keyboard.press("Shift+Enter")
    # Offline, the install fails at once (the request is refused), not after a network timeout.
    assert wait_done(lesson, "scratch", timeout=30) == "failed"
    assert "surely-not-installed-pelab-test" in output(lesson, "scratch")
    assert page_log.blocked, (
        "micropip did not even try the package index: is the test still testing?"
    )


def test_run_all_runs_every_cell_of_the_chapter_in_order(first_chapter):
    lesson = first_chapter
    lesson.get_by_role("button", name="Run all cells of this chapter").click()
    poll(
        lesson, "() => document.documentElement.dataset.runAll", lambda v: v == "done", timeout=120
    )
    statuses = lesson.evaluate(
        "() => [...document.querySelectorAll('.cell')].map(c => [c.dataset.cell, c.dataset.status])"
    )
    # every cell of the page, in its order: each section's, its demo's then its exercise's
    sections = [name for name, page in PAGE_OF.items() if page == PAGE_OF["heatmap"]]
    names = [name for section in sections for name in COURSE.sections[section].cells]
    assert any(name.startswith("exercise-") for name in names)
    assert statuses == [[name, "done"] for name in names]
    assert len(statuses) > 1
    assert cell(lesson, "waves").locator("img.out-figure").count() == 1


ERRORS = {
    "SyntaxError": ("def f(:\n    pass", "SyntaxError"),
    "SystemExit": ("raise SystemExit(3)", "SystemExit: 3"),
    "KeyboardInterrupt": ("raise KeyboardInterrupt", "KeyboardInterrupt"),
    "RecursionError": (
        "def f(n):\n    return f(n + 1)\nf(0)",
        "RecursionError: maximum recursion depth exceeded",
    ),
    "MemoryError": ("hoard = [bytearray(2**28) for _ in range(40)]", "MemoryError"),
    "numpy too big": (
        "import numpy as np\nnp.ones(10**10)",
        "ValueError: Maximum allowed dimension exceeded",
    ),
}


def test_errors_in_a_cell_are_reported_and_python_keeps_its_variables(lesson):
    type_code(lesson, "scratch", "kept = 41")
    lesson.keyboard.press("Shift+Enter")
    assert wait_done(lesson, "scratch") == "done"
    for name, (code, message) in ERRORS.items():
        type_code(lesson, "scratch", code)
        lesson.keyboard.press("Shift+Enter")
        status = wait_done(lesson, "scratch")
        assert status in ("failed", "stopped"), (name, status)
        assert message in output(lesson, "scratch"), (name, output(lesson, "scratch")[-500:])
    type_code(lesson, "scratch", "kept + 1")  # no restart: the namespace survived every error
    lesson.keyboard.press("Shift+Enter")
    assert wait_done(lesson, "scratch") == "done"
    assert output(lesson, "scratch") == "42"
    assert lesson.evaluate("() => document.documentElement.dataset.state") == "ready"


CRASHES = {
    "abort": "import os\nos.abort()",
    "C stack overflow": (
        "import sys\nsys.setrecursionlimit(10**6)\nclass Loop:\n    def __repr__(self):\n"
        "        return repr(self)\nrepr(Loop())"
    ),
}


def test_when_the_runtime_dies_python_restarts_by_itself_and_keeps_the_edits(first_chapter):
    lesson = first_chapter
    for name, code in CRASHES.items():
        type_code(lesson, "added", code)
        lesson.keyboard.press("Shift+Enter")
        assert wait_done(lesson, "added") == "stopped", name
        said = output(lesson, "added")
        assert "Python was restarted: it stopped working" in said, (name, said[-500:])
        assert "run the cells you need again" in said
        assert code_of(lesson, "added") == code, name  # the learner's code is still there...
        stored = lesson.evaluate(
            "() => localStorage.getItem("
            "'pelab:cell:' + new URL('index.html', location).pathname + ':added')"
        )
        assert stored == code, name  # ...and kept for the next visit
        assert wait_for_state(lesson) == "ready", name
        assert "Python was restarted" in lesson.inner_text(".boot-message")
        type_code(lesson, "added", "1 + 1")
        lesson.keyboard.press("Shift+Enter")
        assert wait_done(lesson, "added") == "done", name
        assert output(lesson, "added") == "2"
    assert lesson.locator("#heatmap .heatmap-problem").is_hidden()  # the demos came back too


def test_a_demo_moved_while_a_cell_runs_says_it_is_waiting_then_catches_up(first_chapter):
    lesson = first_chapter
    type_code(
        lesson, "added", "import time\nend = time.time() + 4\nwhile time.time() < end:\n    pass"
    )
    lesson.keyboard.press("Shift+Enter")
    poll(
        lesson,
        "() => document.querySelector(`.cell[data-cell='added']`).dataset.status",
        lambda s: s == "running",
    )
    slider = lesson.locator("#heatmap [name=d_model]")
    slider.focus()
    slider.press("ArrowRight")
    note = lesson.locator("#heatmap .demo-waiting")
    note.wait_for(state="visible", timeout=3000)
    assert note.inner_text().startswith("Waiting for Python: a code cell is running.")
    assert note.get_attribute("role") == "status"
    assert (
        lesson.evaluate("() => document.querySelector('.heatmap-canvas').dataset.rendered")
        == "64x128@10000"
    )
    assert wait_done(lesson, "added") == "done"
    poll(
        lesson,
        "() => document.querySelector('.heatmap-canvas').dataset.rendered",
        lambda v: v == "64x130@10000",
    )
    assert note.is_hidden()


def test_edits_kept_by_the_one_page_lesson_are_still_found(page, site_url):
    """Before its chapters, the lesson was one page, index.html (or the folder itself): the
    edits kept under either address are found by the cells on their chapter pages."""
    page.goto(f"{site_url}index.html")
    page.evaluate(
        """() => {
             const folder = new URL("./", location).pathname;
             localStorage.setItem(
               `pelab:cell:${folder}index.html:scratch`, "kept = 2  # index.html");
             localStorage.setItem(`pelab:cell:${folder}:added`, "kept = 1  # the folder");
           }"""
    )
    boot(page, site_url, PAGE_OF["cell"])
    assert code_of(page, "scratch") == "kept = 2  # index.html"
    boot(page, site_url, PAGE_OF["added"])
    page.locator("#added .show-python summary").click()
    assert code_of(page, "added") == "kept = 1  # the folder"
