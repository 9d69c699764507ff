"""
# The lesson's code cells: a small notebook

The engine behind the lesson's editable code cells.  Each page of the lesson has one `Notebook`.
Its cells share one namespace, so a variable set in the first cell can be used in the next, as
in Jupyter.  The worker (app/python/worker/main.js) drives it with plain Python callables and never
needs anything browser-specific here, so all of it runs, and is tested, under CPython:

    notebook = Notebook(display=post)          # post(kind, payload) sends a message to the page
    result = await notebook.run(code, cell)    # once per click on "Run"

`run` never raises.  It returns `{"ok": True, "repr": str | None}`, the repr of the cell's
last expression as the Python prompt would show it, or `{"ok": False, "error": {"type",
"message", "traceback"}}` with the traceback cut down to the learner's own lines.  Printed
text goes to `sys.stdout` as usual (Pyodide hands it to the worker line by line); pictures
go through `display` the moment they are made, so they land between the right lines:

    display("figure", {...})    a matplotlib figure, from `plt.show()` or left open at the end
                                of the cell (PNG bytes; see `pelab.browser.mpl_backend`)
    display("heatmap", {...})   a matrix drawn with the demos' colour map, from `pelab.show`

The worker wraps `display` to post these dicts to the page (numpy arrays become typed
arrays, as for the entry points of `pelab.browser.entry_points`).  Outside a running cell, for
instance in a plain Python session, `pelab.show` and `plt.show()` print a one-line summary
instead (`pelab.browser.display`).
"""

from __future__ import annotations

import ast
import inspect
import linecache
import os
import re
import sys
import traceback

import numpy as np

from ..checks import as_real_array, shape_of
from ..colormap import to_rgba
from ..positional_encoding import MAX_FLOAT
from .display import current_display, print_summary, running

# The matplotlib backend that hands figures to the page (see pelab.browser.mpl_backend).
MPL_BACKEND = "module://pelab.browser.mpl_backend"
# A cell's value is shown with at most this many characters of its repr...
MAX_REPR = 10_000
# ...followed by this mark when it was longer.
TRUNCATED = "… (truncated)"
# pelab.show draws at most this many cells (a 1000 x 1000 matrix).
MAX_CELLS = 1_000_000
# What a KeyboardInterrupt says when it says nothing: the worker interrupts a cell that the
# learner stopped.
STOPPED = "Stopped"

# Compile cells like the Python prompt of `python -m asyncio`: `await` works at the top level.
_FLAGS = ast.PyCF_ALLOW_TOP_LEVEL_AWAIT
# The file name of a cell: "<cell 1>", "<cell 2>", ...
_CELL_FILE = re.compile(r"<cell [^<>]*>")
# Only blank space and line continuations may stand between a statement and its ";".
_SEMICOLON_NEXT = re.compile(r"[ \t\f\n\\]*;")

# ---------------------------------------------------------------------------
# The notebook
# ---------------------------------------------------------------------------


class Notebook:
    """
    Cells that run one after another in one shared namespace.

    Args:
        display: `display(kind, payload)` hands rich output to the page as it is made
            (`kind` is "figure" or "heatmap"; see the module docstring).  By default it is
            `print_summary`, which prints one line such as `<figure 1 400x300 px>`.

    Attributes:
        namespace: the cells' globals: `np` and `numpy`, `pelab` and
            `__name__ == "__main__"` to begin with, then whatever the cells define.
        display: the callable given above.
    """

    def __init__(self, display=None):
        import pelab  # the package itself, for the learner (imported here: it imports us)

        self.display = print_summary if display is None else display
        self.namespace = {"__name__": "__main__", "np": np, "numpy": np, "pelab": pelab}
        _use_page_backend()

    async def run(self, code: str, cell: str = "1") -> dict:
        """
        Run `code` as the cell called `cell`, like a Jupyter cell.

        The code is compiled with the file name `<cell {cell}>`, so errors name the editor's
        lines; top-level `await` works; if the last statement is an expression not ended by
        ";", its value is the result.  Any figures still open afterwards are displayed and
        closed.

        Args:
            code: the cell's source.
            cell: the cell's name on the page, usually its number.

        Returns:
            `{"ok": True, "repr": repr of the last expression's value (at most MAX_REPR
            characters and TRUNCATED), or None if there is no value or it is None}`, or
            `{"ok": False, "error": {"type": str, "message": str, "traceback": str}}` for
            any exception, SyntaxError and SystemExit included; the notebook stays usable.
        """
        filename = f"<cell {cell}>"
        # Python reads "\r\n" and "\r" in source as "\n"; so do the line numbers below.
        code = code.replace("\r\n", "\n").replace("\r", "\n")
        _remember_source(filename, code)
        with running(self._send):
            return await self._run_cell(code, filename)

    async def _run_cell(self, code: str, filename: str) -> dict:
        """
        Run the cell and show its figures; return `run`'s result.

        The learner's exceptions are caught in this frame, the one that runs their code: had
        they left a coroutine first, a StopIteration would have become a RuntimeError (PEP 479).
        """
        try:
            value = None
            for compiled in _compile_cell(code, filename):
                value = eval(compiled, self.namespace)
                if compiled.co_flags & inspect.CO_COROUTINE:  # the cell awaits at the top level
                    value = await value
            result = {"ok": True, "repr": None if value is None else _short_repr(value)}
        except BaseException as error:  # the learner's error, even SystemExit: report it
            result = {"ok": False, "error": _describe_error(error)}
        try:
            self._show_open_figures()
        except BaseException as error:
            if result["ok"]:
                result = {"ok": False, "error": _describe_error(error)}
        return result

    def _send(self, kind: str, payload: dict) -> None:
        """Hand output to `display` after any text printed before it."""
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
        self.display(kind, payload)

    def _show_open_figures(self) -> None:
        """Display and close the figures the cell left open, if it used pyplot at all."""
        if "matplotlib.pyplot" in sys.modules:  # never import matplotlib just to look
            from .mpl_backend import show_figures

            show_figures(self._send)


def _use_page_backend() -> None:
    """
    Make pyplot draw with pelab.browser.mpl_backend, unless MPLBACKEND already names another.

    matplotlib reads MPLBACKEND when it is first imported; if the learner's code (or anything
    else) imported it already, switch it over now.
    """
    if os.environ.setdefault("MPLBACKEND", MPL_BACKEND) != MPL_BACKEND:
        return
    if "matplotlib.pyplot" in sys.modules:
        sys.modules["matplotlib.pyplot"].switch_backend(MPL_BACKEND)
    elif "matplotlib" in sys.modules:
        sys.modules["matplotlib"].rcParams["backend"] = MPL_BACKEND


# ---------------------------------------------------------------------------
# Running a cell
# ---------------------------------------------------------------------------


def _remember_source(filename: str, code: str) -> None:
    """
    Register `code` as the text of `filename` so that tracebacks can quote its lines.

    There is no such file, so linecache would find nothing; IPython does the same.  An mtime
    of None tells `linecache.checkcache` to keep the entry.
    """
    lines = [line + "\n" for line in code.split("\n")]
    linecache.cache[filename] = (len(code), None, lines, filename)


def _compile_cell(code: str, filename: str) -> list:
    """
    The cell's code objects, to run in order: its statements, then, if the cell ends with an
    expression not followed by ";", that expression (compiled to `eval`, so that it gives the
    cell's value).

    A code object whose flags include CO_COROUTINE awaits at the top level: running it makes a
    coroutine to await.  A cell whose value merely is a coroutine object, such as
    `asyncio.sleep(1)`, is not awaited but shown.  Everything is compiled before anything
    runs, as Python does, so a SyntaxError anywhere runs nothing.
    """
    # dont_inherit: this module's `from __future__` imports must not apply to the cell.
    module = compile(code, filename, "exec", _FLAGS | ast.PyCF_ONLY_AST, dont_inherit=True)
    body = module.body
    shows_value = bool(body) and isinstance(body[-1], ast.Expr)
    last = body.pop() if shows_value and not _ends_with_semicolon(code, body[-1]) else None
    compiled = [compile(module, filename, "exec", _FLAGS, dont_inherit=True)]
    if last is not None:
        expression = ast.Expression(last.value)
        compiled.append(compile(expression, filename, "eval", _FLAGS, dont_inherit=True))
    return compiled


def _ends_with_semicolon(code: str, statement: ast.stmt) -> bool:
    """Whether `statement` is followed by ";" in `code`, which hides its value (IPython)."""
    lines = code.split("\n")
    # end_col_offset counts UTF-8 bytes, not characters.
    rest_of_line = lines[statement.end_lineno - 1].encode()[statement.end_col_offset :].decode()
    after = "\n".join([rest_of_line, *lines[statement.end_lineno :]])
    return _SEMICOLON_NEXT.match(after) is not None


def _short_repr(value) -> str:
    """`repr(value)`, cut to MAX_REPR characters with TRUNCATED after if it was longer."""
    text = repr(value)
    return text if len(text) <= MAX_REPR else text[:MAX_REPR] + TRUNCATED


# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------


def _describe_error(error: BaseException) -> dict:
    """
    An exception as the page shows it, with only the learner's lines in the traceback.

    Returns:
        type: the exception's class name, such as "ZeroDivisionError",
        message: its text ("Stopped" for a bare KeyboardInterrupt, the bare message for a
            SyntaxError, "<exception str() failed>" if str() itself fails),
        traceback: Python's format of the frames from cells only, then the "Type: message"
            line; for a SyntaxError in the cell, its line with a caret under the error.
    """
    if isinstance(error, KeyboardInterrupt) and not error.args:
        error = KeyboardInterrupt(STOPPED).with_traceback(error.__traceback__)
    if isinstance(error, SyntaxError) and error.text is None and error.lineno:
        # Errors found after parsing ("'return' outside function") read the line from the
        # file, which does not exist: give them the cell's line.
        error.text = linecache.getline(error.filename or "", error.lineno) or None
    if isinstance(error, SyntaxError) and error.msg:
        message = str(error.msg)
    else:
        message = _safe_str(error)
    try:
        trace = _cell_traceback(error)
    except Exception:  # an exception too strange to format: fall back to one line
        trace = f"{type(error).__name__}: {message}"
    return {"type": type(error).__name__, "message": message, "traceback": trace}


def _cell_traceback(error: BaseException) -> str:
    """
    Python's traceback of `error`, keeping only frames that run code from a cell.

    The notebook's own frames and library frames (numpy, matplotlib, asyncio) go; a function
    defined in one cell and called from another keeps both cells' frames.  Chained exceptions
    ("During handling of the above exception...") are left out.
    """
    summary = traceback.TracebackException(type(error), error, error.__traceback__)
    frames = [frame for frame in summary.stack if _CELL_FILE.fullmatch(frame.filename)]
    lines = []
    if frames:
        lines.append("Traceback (most recent call last):\n")
        lines.extend(traceback.StackSummary.from_list(frames).format())
    lines.extend(summary.format_exception_only())
    return "".join(lines).rstrip("\n")


def _safe_str(error: BaseException) -> str:
    """`str(error)`, or the placeholder Python's own tracebacks print if that fails."""
    try:
        return str(error)
    except BaseException:
        return "<exception str() failed>"


# ---------------------------------------------------------------------------
# pelab.show: a matrix drawn like the demos' heatmaps
# ---------------------------------------------------------------------------


def show(matrix, title=None, vmin=None, vmax=None) -> None:
    """
    Draw a matrix on the page as a heatmap with the demos' cool-warm colours.

    Blue is vmin, light grey-white the middle, red vmax; NaN is a mid grey.  Rows are drawn
    top to bottom, so a positional encoding appears as in the first demo.

    Args:
        matrix: a 2-D array-like of real numbers (a 1-D one is drawn as one row), with
            between 1 and MAX_CELLS entries; NaN and infinities are allowed.
        title: a caption (any object, shown with str()).
        vmin, vmax: the values drawn blue and red.  Each one not given is -m or +m, where m is
            the largest finite |value| (1 if that is 0 or there are none), so 0 is the middle;
            m is at most half the largest float (about 9e307), so that vmax - vmin stays
            finite, and values beyond are drawn in the end colours.

    Returns:
        None.  Sends `display("heatmap", {"title": str, "width": columns, "height": rows,
        "rgba": uint8 (rows * columns * 4,) row-major RGBA, "values": float64
        (rows * columns,), "vmin": float, "vmax": float})`; outside a running cell, prints
        `<heatmap 'title' rowsxcolumns>`.

    Raises:
        ValueError: if `matrix` is not such an array, or vmin < vmax does not hold.
    """
    values = _check_heatmap_matrix(matrix, MAX_CELLS)
    finite = np.abs(values[np.isfinite(values)])
    limit = float(finite.max()) if finite.size and finite.max() > 0 else 1.0
    # -limit to +limit must have a finite width, 2 * limit, for to_rgba.
    limit = min(limit, MAX_FLOAT / 2)
    vmin = -limit if vmin is None else vmin
    vmax = limit if vmax is None else vmax
    rgba = to_rgba(values, vmin, vmax)  # checks vmin and vmax
    current_display()(
        "heatmap",
        {
            "title": "" if title is None else str(title),
            "width": values.shape[1],
            "height": values.shape[0],
            "rgba": np.ascontiguousarray(rgba).reshape(-1),
            "values": np.ascontiguousarray(values).reshape(-1),
            "vmin": float(vmin),
            "vmax": float(vmax),
        },
    )

# ---------------------------------------------------------------------------
# Argument checks used only here
# ---------------------------------------------------------------------------


def _check_heatmap_matrix(matrix, max_cells):
    """
    Check a matrix to draw: a 1-D or 2-D array of real numbers with 1 to
    `max_cells` entries (NaN and infinities allowed).

    Returns:
        `matrix` as a 2-D float64 array; a 1-D one becomes one row.

    Raises:
        ValueError: "matrix must be a 1-D or 2-D array of real numbers with 1
            to <max_cells> entries, got ...".
    """
    array = as_real_array(matrix)  # None for complex numbers, strings, ragged lists...
    if array is not None and array.ndim == 1:
        array = array[np.newaxis, :]
    if array is not None and array.ndim == 2 and 0 < array.size <= max_cells:
        return array
    raise ValueError(
        f"matrix must be a 1-D or 2-D array of real numbers with 1 to {max_cells:,} entries, "
        f"got {shape_of(array)}"
    )
