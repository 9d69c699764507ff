"""
# Where a running cell's pictures go

A `pelab.browser.notebook.Notebook` running a cell makes its display the current one (`running`);
`pelab.show` and `plt.show()` (`pelab.browser.mpl_backend`) send their pictures to
`current_display()`. Outside a running cell that is `outside_the_page`: in Jupyter (the lesson's
take-home notebook) a heatmap is shown as a picture, elsewhere as one printed line
(`print_summary`). Its own module so that the notebook and the matplotlib backend both use it
without importing each other.
"""

from __future__ import annotations

import base64
import contextlib
import sys

import numpy as np

from .png import png_bytes

# Where pictures go now: the running notebook's display, if a cell is running.
_active = None


@contextlib.contextmanager
def running(display):
    """Send pictures to `display(kind, payload)` while the block runs (cells may nest)."""
    global _active
    previous, _active = _active, display
    try:
        yield
    finally:
        _active = previous


def current_display():
    """Where output goes now: the running notebook's display, else `outside_the_page`."""
    return _active if _active is not None else outside_the_page


def outside_the_page(kind: str, payload: dict) -> None:
    """
    Show a picture outside the page: in a Jupyter notebook (Jupyter, JupyterLite, Colab), a
    heatmap as a PNG picture under its title; anywhere else, or any other kind, as
    `print_summary` does.
    """
    show = _jupyter_display()
    if kind != "heatmap" or show is None:
        print_summary(kind, payload)
        return
    if payload["title"]:
        print(payload["title"])
    picture = heatmap_png(payload)
    show(
        {
            "image/png": base64.b64encode(picture).decode("ascii"),
            "text/plain": f"<heatmap {payload['height']}x{payload['width']}>",
        },
        raw=True,
    )


def heatmap_png(payload: dict, width: int = 512, least_height: int = 48) -> bytes:
    """A heatmap's pixels (`payload["rgba"]`, a pixel per value) as a PNG about `width` pixels
    wide: each value a block of whole pixels, and at least `least_height` pixels tall."""
    rows, columns = payload["height"], payload["width"]
    pixels = np.asarray(payload["rgba"], dtype=np.uint8).reshape(rows, columns, 4)
    across = max(1, width // columns)
    down = max(across, -(-least_height // rows))
    return png_bytes(np.repeat(np.repeat(pixels, down, axis=0), across, axis=1))


def _jupyter_display():
    """IPython's `display` when a notebook kernel runs this Python, else None (a terminal
    IPython, or plain Python, shows no pictures)."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    if shell is None or "Terminal" in type(shell).__name__:
        return None
    from IPython.display import display

    return display


def print_summary(kind: str, payload: dict) -> None:
    """
    The default display: print one line, `<heatmap 'title' 64x128>` (rows x columns) or
    `<figure 1 400x300 px>` (width x height).
    """
    if kind == "heatmap":
        title = f"{payload['title']!r} " if payload["title"] else ""
        print(f"<heatmap {title}{payload['height']}x{payload['width']}>")
    elif kind == "figure":
        print(f"<figure {payload['number']} {payload['width']}x{payload['height']} px>")
    else:
        print(f"<{kind}>")
