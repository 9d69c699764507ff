"""Tests for pelab.browser.notebook and pelab.browser.mpl_backend: the engine behind the lesson's
code cells.

A Notebook runs cells in one shared namespace and never raises: it returns the cell's value or
its error, with a traceback cut down to the learner's lines. Figures and heatmaps go to the
page through ``display(kind, payload)`` the moment they are made. No pytest-asyncio here:
``run`` drives each cell with ``asyncio.run`` in a thread of its own, since the browser tests'
Playwright keeps an event loop running in the main thread.
"""

import asyncio
import concurrent.futures
import io
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import pelab
from pelab import Notebook
from pelab.browser import display as display_module
from pelab.browser.notebook import MAX_CELLS, MAX_REPR, MPL_BACKEND, TRUNCATED

ROOT = Path(__file__).resolve().parents[3]
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(autouse=True)
def isolated_matplotlib():
    """Every Notebook sets MPLBACKEND: start each test without it, put it back afterwards,
    and close any figure a test left open so that none leaks into the next test."""
    saved = os.environ.pop("MPLBACKEND", None)
    yield
    if saved is None:
        os.environ.pop("MPLBACKEND", None)
    else:
        os.environ["MPLBACKEND"] = saved
    if "matplotlib.pyplot" in sys.modules:
        sys.modules["matplotlib.pyplot"].close("all")


class Recorder:
    """A display that keeps every call as (kind, payload)."""

    def __init__(self):
        self.calls = []

    def __call__(self, kind, payload):
        self.calls.append((kind, payload))

    def kinds(self):
        return [kind for kind, _ in self.calls]


def run(notebook, code, cell="1"):
    """Run one cell to completion and return its result."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, notebook.run(code, cell)).result()


def error_of(notebook, code, cell="1"):
    """Run a cell that must fail; return its error dict."""
    result = run(notebook, code, cell)
    assert result["ok"] is False, result
    assert set(result) == {"ok", "error"}
    assert set(result["error"]) == {"type", "message", "traceback"}
    assert all(isinstance(value, str) for value in result["error"].values())
    return result["error"]


@pytest.fixture
def display():
    return Recorder()


@pytest.fixture
def notebook(display):
    return Notebook(display)


# ---------------------------------------------------------------------------
# Namespace and values
# ---------------------------------------------------------------------------


def test_namespace_starts_with_numpy_and_pelab(notebook):
    assert notebook.namespace["np"] is np and notebook.namespace["numpy"] is np
    assert notebook.namespace["pelab"] is pelab
    assert notebook.namespace["__name__"] == "__main__"
    assert run(notebook, "pelab.sinusoidal(4, 8).shape") == {"ok": True, "repr": "(4, 8)"}


def test_cells_share_one_namespace(notebook):
    assert run(notebook, "x = 20", cell="1") == {"ok": True, "repr": None}
    assert run(notebook, "def double(v):\n    return 2 * v", cell="2")["ok"]
    assert run(notebook, "double(x) + 2", cell="3") == {"ok": True, "repr": "42"}
    assert notebook.namespace["x"] == 20


def test_notebooks_do_not_share_namespaces(display):
    first, second = Notebook(display), Notebook(display)
    run(first, "secret = 1")
    assert error_of(second, "secret")["type"] == "NameError"


@pytest.mark.parametrize(
    "code, shown",
    [
        ("1 + 1", "2"),
        ("x = 3\nx * 2", "6"),
        ("'text'", "'text'"),
        ("np.arange(3)", "array([0, 1, 2])"),
        ("None", None),
        ("print", "<built-in function print>"),
        ("x = 5", None),  # a statement has no value
        ("", None),
        ("# only a comment\n", None),
        ("for i in range(3):\n    i", None),  # only the last top-level statement counts
        ("1; 2", "2"),
        ("'a;'", "'a;'"),  # a semicolon inside a string hides nothing
        ("2  # a comment; with a semicolon", "2"),
    ],
)
def test_the_last_expression_is_the_value(notebook, code, shown):
    assert run(notebook, code) == {"ok": True, "repr": shown}


@pytest.mark.parametrize(
    "code",
    ["1 + 1;", "1 + 1 ;  ", "x = 3\nx * 2;", "(1 +\n 1);  # hidden", "'é' * 3;", "1;\n\n"],
)
def test_a_trailing_semicolon_hides_the_value(notebook, code):
    result = run(notebook, code)
    assert result == {"ok": True, "repr": None}


def test_a_hidden_expression_still_runs(notebook):
    assert run(notebook, "seen = []\nseen.append(1);")["repr"] is None
    assert notebook.namespace["seen"] == [1]


def test_top_level_await(notebook):
    assert run(notebook, "import asyncio\nawait asyncio.sleep(0)\n1+1") == {"ok": True, "repr": "2"}
    code = "async def answer():\n    await asyncio.sleep(0)\n    return 42\nawait answer()"
    assert run(notebook, code) == {"ok": True, "repr": "42"}
    assert run(notebook, "await asyncio.sleep(0, 'done')") == {"ok": True, "repr": "'done'"}
    # A coroutine that is only made, not awaited at the top level, is a value like any other.
    code = "async def later():\n    return 1\nc = later()\nshown = repr(c)\nc.close()\nshown[:10]"
    assert run(notebook, code) == {"ok": True, "repr": "'<coroutine'"}


def test_print_goes_to_stdout_not_to_the_result(notebook, capsys):
    result = run(notebook, "print('hello')\nprint('world')")
    assert result == {"ok": True, "repr": None}
    assert capsys.readouterr().out == "hello\nworld\n"
    assert run(notebook, "print('side effect')\n7") == {"ok": True, "repr": "7"}
    assert capsys.readouterr().out == "side effect\n"


def test_a_long_repr_is_truncated(notebook):
    result = run(notebook, "'x' * 20_000")
    assert result["ok"]
    assert len(result["repr"]) == MAX_REPR + len(TRUNCATED) == 10_000 + len("… (truncated)")
    assert result["repr"].startswith("'xxx") and result["repr"].endswith("… (truncated)")
    exactly = run(notebook, "'y' * (10_000 - 2)")["repr"]  # with its quotes: 10,000 characters
    assert len(exactly) == MAX_REPR and not exactly.endswith(TRUNCATED)


def test_a_failing_repr_is_an_error_in_the_cell(notebook):
    code = "class Odd:\n    def __repr__(self):\n        raise ValueError('no repr')\nOdd()"
    error = error_of(notebook, code)
    assert error["type"] == "ValueError" and error["message"] == "no repr"
    assert 'File "<cell 1>", line 3, in __repr__' in error["traceback"]


def test_windows_line_endings_keep_line_numbers(notebook):
    error = error_of(notebook, "x = 1\r\ny = 2\r\nx / 0\r\n")
    assert 'File "<cell 1>", line 3, in <module>\n    x / 0' in error["traceback"]


# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------

FAILING_CELLS = {
    "ValueError": ("int('seven')", "invalid literal for int() with base 10: 'seven'"),
    "ZeroDivisionError": ("1 / 0", "division by zero"),
    "NameError": ("undefined_name", "name 'undefined_name' is not defined"),
    "SyntaxError": ("1 +", None),
    "IndentationError": ("if True:\nprint(1)", None),
    "SystemExit": ("import sys\nsys.exit(3)", "3"),
    "KeyboardInterrupt": ("raise KeyboardInterrupt", "Stopped"),
    "RecursionError": ("def down(n):\n    return down(n + 1)\ndown(0)", None),
    "MemoryError": ("raise MemoryError('too big')", "too big"),
    "StopIteration": ("next(iter([]))", ""),  # not turned into RuntimeError on its way out
    "CancelledError": ("import asyncio\nraise asyncio.CancelledError()", ""),
}


@pytest.mark.parametrize("kind", sorted(FAILING_CELLS))
def test_every_exception_is_reported_and_the_notebook_survives(notebook, kind):
    code, message = FAILING_CELLS[kind]
    run(notebook, "kept = 'still here'")
    error = error_of(notebook, code, cell="2")
    assert error["type"] == kind
    if message is not None:
        assert error["message"] == message
    # The last line is "Type: message", the type with its module unless built in.
    assert error["traceback"].splitlines()[-1].split(":")[0].split(".")[-1] == kind
    # Nothing was lost and the next cell runs.
    assert run(notebook, "kept", cell="3") == {"ok": True, "repr": "'still here'"}
    assert run(notebook, "1 + 1", cell="4") == {"ok": True, "repr": "2"}


def test_system_exit_does_not_exit(notebook):
    for code in ("raise SystemExit", "import sys\nsys.exit('bye')", "exit()"):
        assert error_of(notebook, code)["type"] == "SystemExit"
    assert run(notebook, "'alive'")["repr"] == "'alive'"


def test_keyboard_interrupt_says_stopped(notebook):
    error = error_of(notebook, "x = 1\nraise KeyboardInterrupt")
    assert error == {
        "type": "KeyboardInterrupt",
        "message": "Stopped",
        "traceback": 'Traceback (most recent call last):\n  File "<cell 1>", line 2, in <module>\n'
        "    raise KeyboardInterrupt\nKeyboardInterrupt: Stopped",
    }
    # A message of the learner's own is kept.
    assert error_of(notebook, "raise KeyboardInterrupt('my own')")["message"] == "my own"


def test_an_exception_whose_str_fails(notebook):
    code = (
        "class Broken(Exception):\n"
        "    def __str__(self):\n"
        "        raise RuntimeError('str failed too')\n"
        "raise Broken()"
    )
    error = error_of(notebook, code)
    assert error["type"] == "Broken"
    assert error["message"] == "<exception str() failed>"
    assert error["traceback"].endswith("Broken: <exception str() failed>")
    assert 'File "<cell 1>", line 4, in <module>' in error["traceback"]


def test_recursion_error_traceback_is_collapsed(notebook):
    error = error_of(notebook, "def down(n):\n    return down(n + 1)\ndown(0)")
    trace = error["traceback"]
    assert "Previous line repeated" in trace
    assert len(trace.splitlines()) < 30
    assert trace.splitlines()[-1].startswith("RecursionError: maximum recursion depth exceeded")


# ---------------------------------------------------------------------------
# Tracebacks: only the learner's lines
# ---------------------------------------------------------------------------


def test_traceback_names_the_cell_line_and_source(notebook):
    error = error_of(notebook, "a = 1\nb = 0\nc = a / b\nprint(c)", cell="2")
    trace = error["traceback"]
    lines = trace.splitlines()
    assert lines[0] == "Traceback (most recent call last):"
    assert lines[1] == '  File "<cell 2>", line 3, in <module>'
    assert lines[2] == "    c = a / b"
    assert lines[-1] == "ZeroDivisionError: division by zero"
    # Nothing but this cell's frame (and Python's caret line under the failing part).
    assert trace.count('File "') == 1
    assert all(line.strip(" ~^") == "" for line in lines[3:-1])


def test_traceback_spans_cells(notebook):
    helper = "def inverse(v):\n    # the learner's helper\n    return 1 / v"
    assert run(notebook, helper, cell="1")["ok"]
    error = error_of(notebook, "values = [2, 0]\n[inverse(v) for v in values]", cell="2")
    trace = error["traceback"]
    files = [line.strip() for line in trace.splitlines() if line.startswith("  File ")]
    assert files[0] == 'File "<cell 2>", line 2, in <module>'
    assert files[-1] == 'File "<cell 1>", line 3, in inverse'
    assert "    return 1 / v" in trace
    assert "[inverse(v) for v in values]" in trace


def test_traceback_leaves_out_the_notebook_and_libraries(notebook):
    cells = [
        "np.linalg.inv(np.zeros((2, 2)))",  # raised deep inside numpy's Python code
        "import asyncio\nawait asyncio.sleep(0)\nawait asyncio.wait_for(asyncio.sleep(10), 0)",
        "import json\njson.loads('{')",
    ]
    for code in cells:
        trace = error_of(notebook, code, cell="5")["traceback"]
        assert trace.startswith('Traceback (most recent call last):\n  File "<cell 5>"')
        assert "notebook.py" not in trace and "pelab" not in trace
        assert "asyncio" + os.sep not in trace and "numpy" + os.sep not in trace
        assert "json" + os.sep not in trace
        files = [line for line in trace.splitlines() if line.startswith("  File ")]
        assert all(line.startswith('  File "<cell 5>"') for line in files)


def test_chained_exceptions_show_only_the_last(notebook):
    code = "try:\n    1 / 0\nexcept ZeroDivisionError as e:\n    raise ValueError('bad') from e"
    error = error_of(notebook, code)
    assert error["type"] == "ValueError" and error["message"] == "bad"
    assert "ZeroDivisionError" not in error["traceback"]
    assert '  File "<cell 1>", line 4, in <module>' in error["traceback"]


def test_syntax_error_shows_the_line_and_a_caret(notebook):
    error = error_of(notebook, "x = 1\ny = (x +\nprint(y)", cell="2")
    lines = error["traceback"].splitlines()
    assert error["type"] == "SyntaxError"
    assert not error["traceback"].startswith("Traceback")  # nothing ran
    assert lines[0].startswith('  File "<cell 2>", line 2')
    assert lines[1] == "    y = (x +"
    assert set(lines[2].strip()) <= {"^"} and lines[2].strip()
    assert lines[-1] == f"SyntaxError: {error['message']}"
    assert "<cell" not in error["message"]  # the bare message, not "msg (<cell 2>, line 2)"


def test_syntax_error_at_a_later_line():
    notebook = Notebook(Recorder())
    error = error_of(notebook, "a = 1\nb = 2\nc = 3 3\n", cell="7")
    lines = error["traceback"].splitlines()
    assert lines[0] == '  File "<cell 7>", line 3'
    assert lines[1] == "    c = 3 3"
    assert lines[2].strip().startswith("^")
    assert lines[-1].startswith("SyntaxError: ")


def test_syntax_error_found_after_parsing_shows_the_line(notebook):
    # 'return' outside a function is caught by the compiler, which reads lines from files.
    error = error_of(notebook, "x = 1\nreturn x", cell="3")
    assert error == {
        "type": "SyntaxError",
        "message": "'return' outside function",
        "traceback": error["traceback"],
    }
    lines = error["traceback"].splitlines()
    assert lines[:2] == ['  File "<cell 3>", line 2', "    return x"]
    assert lines[2].strip() == "^^^^^^^^"
    assert lines[-1] == "SyntaxError: 'return' outside function"


def test_a_syntax_error_runs_nothing(notebook, capsys):
    error_of(notebook, "print('first')\nx = = 1")
    assert capsys.readouterr().out == ""


def test_cells_code_is_registered_for_tracebacks(notebook):
    import linecache

    run(notebook, "first = 1\nsecond = 2", cell="9")
    assert linecache.getline("<cell 9>", 2) == "second = 2\n"


# ---------------------------------------------------------------------------
# matplotlib: plt.show() sends figures to the page
# ---------------------------------------------------------------------------


def png_size(png):
    """(width, height) of a PNG, decoded by matplotlib (Pillow), independently of pelab."""
    import matplotlib.pyplot as plt

    image = plt.imread(io.BytesIO(png.tobytes()), format="png")
    return image.shape[1], image.shape[0]


def test_plt_show_sends_figures_in_order_between_printed_lines(capsys):
    events = []

    def display(kind, payload):
        # What was printed before this figure, then the figure itself.
        events.append(("text", capsys.readouterr().out))
        events.append((kind, payload["number"]))

    notebook = Notebook(display)
    code = (
        "import matplotlib.pyplot as plt\n"
        "plt.figure(2); plt.plot([2, 1])\n"
        "plt.figure(1); plt.plot([1, 2])\n"
        "print('before')\n"
        "plt.show()\n"
        "print('between')\n"
        "plt.figure(); plt.plot([0, 1])\n"
        "plt.show()\n"
        "print('after')\n"
    )
    assert run(notebook, code) == {"ok": True, "repr": None}
    events.append(("text", capsys.readouterr().out))
    assert events == [
        ("text", "before\n"),
        ("figure", 1),  # by figure number, not creation order
        ("text", ""),
        ("figure", 2),
        ("text", "between\n"),
        ("figure", 1),  # shown figures were closed, so numbering starts again
        ("text", "after\n"),
    ]
    assert sys.modules["matplotlib.pyplot"].get_fignums() == []


def test_figure_payload_is_a_png_of_the_figure(notebook, display):
    code = (
        "import matplotlib.pyplot as plt\n"
        "fig = plt.figure(figsize=(4, 3))\n"
        "plt.plot([0, 1], [1, 0])\n"
        "plt.show()"
    )
    assert run(notebook, code)["ok"]
    assert display.kinds() == ["figure"]
    payload = display.calls[0][1]
    assert set(payload) == {"png", "width", "height", "number"}
    assert payload["png"].dtype == np.uint8 and payload["png"].ndim == 1
    assert payload["png"].flags.c_contiguous
    assert payload["png"].tobytes().startswith(PNG_SIGNATURE)
    assert all(type(payload[key]) is int for key in ("width", "height", "number"))
    assert payload["number"] == 1
    # 4 x 3 inches at 100 dpi, cropped tight to what is drawn: about 400 x 300 pixels.
    assert 250 < payload["width"] <= 420 and 180 < payload["height"] <= 320
    assert (payload["width"], payload["height"]) == png_size(payload["png"])


def test_figures_left_open_are_sent_and_closed_at_the_end(notebook, display):
    code = "import matplotlib.pyplot as plt\nfor n in (3, 1, 2):\n    plt.figure(n).gca()"
    assert run(notebook, code)["ok"]
    assert [(kind, payload["number"]) for kind, payload in display.calls] == [
        ("figure", 1),
        ("figure", 2),
        ("figure", 3),
    ]
    assert sys.modules["matplotlib.pyplot"].get_fignums() == []


def test_figures_are_sent_even_when_the_cell_fails(notebook, display):
    code = "import matplotlib.pyplot as plt\nplt.plot([1, 2])\n1 / 0"
    assert error_of(notebook, code)["type"] == "ZeroDivisionError"
    assert display.kinds() == ["figure"]
    assert sys.modules["matplotlib.pyplot"].get_fignums() == []


def test_a_figure_that_cannot_be_drawn_is_an_error(notebook, display):
    code = (
        "import matplotlib.pyplot as plt\n"
        "from matplotlib.artist import Artist\n"
        "class Broken(Artist):\n"
        "    def draw(self, renderer):\n"
        "        raise ValueError('cannot draw')\n"
        "plt.gca().add_artist(Broken())\n"
        "plt.show()\n"
    )
    error = error_of(notebook, code)
    assert (error["type"], error["message"]) == ("ValueError", "cannot draw")
    files = [line.strip() for line in error["traceback"].splitlines() if line.startswith("  File ")]
    assert files == ['File "<cell 1>", line 7, in <module>', 'File "<cell 1>", line 5, in draw']
    assert sys.modules["matplotlib.pyplot"].get_fignums() == []  # not drawn again and again
    assert run(notebook, "1")["ok"]


def test_cells_without_pyplot_do_not_import_matplotlib():
    code = (
        "import asyncio, sys\n"
        "from pelab import Notebook\n"
        "assert 'matplotlib' not in sys.modules\n"
        "notebook = Notebook()\n"
        "result = asyncio.run(notebook.run('pelab.show([[1, 2]])\\nnp.ones(2).sum()'))\n"
        "assert result == {'ok': True, 'repr': 'np.float64(2.0)'}, result\n"
        "assert 'matplotlib' not in sys.modules\n"
        "print('ok')\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT / "py")}
    env.pop("MPLBACKEND", None)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "<heatmap 1x2>\nok\n"


def test_notebook_selects_its_backend_even_after_pyplot_was_imported(display):
    import matplotlib
    import matplotlib.pyplot as plt

    plt.switch_backend("agg")
    notebook = Notebook(display)
    assert os.environ["MPLBACKEND"] == MPL_BACKEND
    assert matplotlib.get_backend() == MPL_BACKEND
    code = "import matplotlib.pyplot as plt\nplt.plot([1])\nplt.show()\nlen(plt.get_fignums())"
    assert run(notebook, code) == {"ok": True, "repr": "0"}
    assert display.kinds() == ["figure"]


def test_an_explicit_mplbackend_is_respected(display):
    import matplotlib
    import matplotlib.pyplot as plt

    plt.switch_backend("agg")
    os.environ["MPLBACKEND"] = "agg"
    notebook = Notebook(display)
    assert matplotlib.get_backend() == "agg"
    # plt.show() does nothing on Agg, but what is left open is still sent at the end.
    assert run(notebook, "import matplotlib.pyplot as plt\nplt.plot([1])\nplt.show()")["ok"]
    assert display.kinds() == ["figure"]


def test_plt_show_outside_a_cell_prints_a_summary(capsys):
    Notebook()
    import matplotlib.pyplot as plt

    plt.switch_backend(MPL_BACKEND)  # as the notebook would, had pyplot been imported first
    plt.figure(figsize=(2, 2))
    plt.plot([1, 2])
    plt.show()
    out = capsys.readouterr().out
    assert out.startswith("<figure 1 ") and out.endswith(" px>\n")
    assert plt.get_fignums() == []


# ---------------------------------------------------------------------------
# pelab.show: a matrix as a heatmap
# ---------------------------------------------------------------------------


def heatmap_of(notebook, display, code):
    """Run ``code`` and return the one heatmap payload it displayed."""
    result = run(notebook, code)
    assert result == {"ok": True, "repr": None}, result
    assert display.kinds() == ["heatmap"]
    return display.calls[0][1]


def test_show_payload(notebook, display):
    code = "m = np.array([[0.5, -2.0, 1.0], [0.0, 1.5, -0.25]])\npelab.show(m, title='mine')"
    payload = heatmap_of(notebook, display, code)
    assert set(payload) == {"title", "width", "height", "rgba", "values", "vmin", "vmax"}
    assert payload["title"] == "mine"
    assert (payload["height"], payload["width"]) == (2, 3)
    assert type(payload["width"]) is int and type(payload["height"]) is int
    assert payload["rgba"].dtype == np.uint8 and payload["rgba"].shape == (2 * 3 * 4,)
    assert payload["values"].dtype == np.float64 and payload["values"].shape == (6,)
    assert payload["rgba"].flags.c_contiguous and payload["values"].flags.c_contiguous
    matrix = notebook.namespace["m"]
    np.testing.assert_array_equal(payload["values"], matrix.reshape(-1))
    # Symmetric about 0: the largest |value| sets both ends.
    assert (payload["vmin"], payload["vmax"]) == (-2.0, 2.0)
    assert type(payload["vmin"]) is float and type(payload["vmax"]) is float
    np.testing.assert_array_equal(payload["rgba"], pelab.to_rgba(matrix, -2.0, 2.0).reshape(-1))
    assert payload["rgba"][4:8].tolist() == pelab.COOL_WARM[0].tolist()  # -2.0 is the blue end


def test_show_with_an_explicit_range(notebook, display):
    payload = heatmap_of(notebook, display, "pelab.show([[0, 5, 10]], vmin=0, vmax=10)")
    assert (payload["vmin"], payload["vmax"]) == (0.0, 10.0)
    assert payload["title"] == ""
    np.testing.assert_array_equal(payload["rgba"], pelab.to_rgba([[-1.0, 0.0, 1.0]]).reshape(-1))


def test_show_with_one_end_given(notebook, display):
    payload = heatmap_of(notebook, display, "pelab.show([[1.0, 3.0]], vmax=6)")
    assert (payload["vmin"], payload["vmax"]) == (-3.0, 6.0)


def test_show_a_1d_array_as_one_row(notebook, display):
    payload = heatmap_of(notebook, display, "pelab.show(range(5), title=7)")
    assert (payload["height"], payload["width"]) == (1, 5)
    assert payload["title"] == "7"
    assert (payload["vmin"], payload["vmax"]) == (-4.0, 4.0)


def test_show_nan_and_infinities(notebook, display):
    payload = heatmap_of(notebook, display, "pelab.show([[np.nan, 0.5], [-np.inf, np.inf]])")
    assert (payload["vmin"], payload["vmax"]) == (-0.5, 0.5)  # from the finite values only
    rgba = payload["rgba"].reshape(2, 2, 4)
    assert rgba[0, 0].tolist() == [128, 128, 128, 255]  # NaN is the mid grey
    assert rgba[1, 0].tolist() == pelab.COOL_WARM[0].tolist()
    assert rgba[1, 1].tolist() == pelab.COOL_WARM[-1].tolist()
    assert np.isnan(payload["values"][0])


@pytest.mark.parametrize("matrix", ["np.zeros((2, 2))", "np.full((1, 3), np.nan)", "[[np.inf]]"])
def test_show_falls_back_to_plus_minus_one(notebook, display, matrix):
    payload = heatmap_of(notebook, display, f"pelab.show({matrix})")
    assert (payload["vmin"], payload["vmax"]) == (-1.0, 1.0)


@pytest.mark.parametrize(
    "matrix",
    [
        np.zeros((2, 2, 2)),
        np.zeros((0, 3)),
        [],
        np.float64(3.0),
        np.zeros((1001, 1000)),
        "abc",
        [[1, 2], [3]],
        None,
        np.array([[1 + 2j]]),
        [{"a": 1}],
    ],
    ids=["3-D", "empty", "[]", "scalar", "too big", "str", "ragged", "None", "complex", "dicts"],
)
def test_show_rejects_what_is_not_a_matrix(matrix):
    expected = r"^matrix must be a 1-D or 2-D array of real numbers with 1 to 1,000,000 entries, "
    with pytest.raises(ValueError, match=expected):
        pelab.show(matrix)


def test_show_accepts_the_largest_matrix(capsys):
    pelab.show(np.zeros((1000, MAX_CELLS // 1000)))
    assert capsys.readouterr().out == "<heatmap 1000x1000>\n"


@pytest.mark.parametrize("vmin, vmax", [(1, 0), (0, 0), ("a", 1), (0, np.inf)])
def test_show_rejects_a_bad_range(vmin, vmax):
    with pytest.raises(ValueError, match=r"vmin and vmax"):
        pelab.show([[0.0, 1.0]], vmin=vmin, vmax=vmax)


def test_show_errors_in_a_cell_are_reported(notebook, display):
    error = error_of(notebook, "pelab.show(np.zeros((2, 2, 2)))", cell="4")
    assert error["type"] == "ValueError" and error["message"].startswith("matrix must be")
    assert error["traceback"].startswith("Traceback (most recent call last):\n")
    assert '  File "<cell 4>", line 1, in <module>' in error["traceback"]
    assert "notebook.py" not in error["traceback"]
    assert display.calls == []


def test_show_outside_a_notebook_prints_a_summary(capsys):
    assert pelab.show(np.zeros((64, 128)), title="title") is None
    pelab.show([1.0, 2.0])
    assert capsys.readouterr().out == "<heatmap 'title' 64x128>\n<heatmap 1x2>\n"


def test_the_default_display_prints_summaries(capsys):
    notebook = Notebook()
    assert run(notebook, "pelab.show(np.ones((3, 4)), 'pe')\nprint('done')")["ok"]
    assert capsys.readouterr().out == "<heatmap 'pe' 3x4>\ndone\n"


def test_the_active_display_is_only_set_during_a_run(notebook, display):
    assert display_module._active is None
    code = "from pelab.browser import display\ndisplay._active is not None"
    assert run(notebook, code) == {"ok": True, "repr": "True"}
    assert display_module._active is None
    error_of(notebook, "raise SystemExit")
    assert display_module._active is None
