"""
# Where a running cell's pictures go

A `pelab.browser.notebook.Notebook` running a cell makes its display the current one (`running`);
`pelab.show` and `plt.show()` (`pelab.browser.mpl_backend`) send their pictures to
`current_display()`, which outside a running cell is `print_summary`. Its own module so that the
notebook and the matplotlib backend both use it without importing each other.
"""

from __future__ import annotations

import contextlib

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
    """Where output goes now: the running notebook's display, else `print_summary`."""
    return _active if _active is not None else print_summary


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
