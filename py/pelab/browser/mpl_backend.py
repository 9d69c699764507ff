"""
# A matplotlib backend for the lesson page

It hands figures to the lesson page as PNG images.  `pelab.Notebook` selects it
(`MPLBACKEND=module://pelab.browser.mpl_backend`) before the learner imports pyplot.  It draws
exactly like Agg; only `plt.show()` differs: it sends every open figure, in figure-number order,
to the running notebook's display (`pelab.browser.display`) as

    display("figure", {"png": uint8 (n,) PNG file bytes, "width": int px, "height": int px,
                       "number": int, the figure's number})

and closes them, so each figure appears where `plt.show()` was called, between the lines
printed before and after it.  Outside a running cell it prints `<figure 1 400x300 px>`.

This module imports matplotlib, so only import it once matplotlib is in use.
"""

import io

import numpy as np
from matplotlib._pylab_helpers import Gcf
from matplotlib.backend_bases import _Backend
from matplotlib.backends.backend_agg import _BackendAgg

from .display import current_display

# Figures are drawn at 100 dots per inch: figsize=(4, 3) is about 400 x 300 pixels.
DPI = 100


def figure_payload(figure, number: int) -> dict:
    """
    `figure` as a PNG, cropped to what is drawn (`bbox_inches="tight"`).

    Returns:
        png: uint8, shape (n,), the PNG file's bytes,
        width, height: int, the image's size in pixels,
        number: int, `number`, the figure's number in pyplot.
    """
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=DPI, bbox_inches="tight")
    png = buffer.getvalue()
    # A PNG opens with an 8-byte signature, then the IHDR chunk: its length (4 bytes) and type
    # (4 bytes), then width and height as 4-byte big-endian integers at bytes 16 to 24.
    return {
        "png": np.frombuffer(png, dtype=np.uint8).copy(),
        "width": int.from_bytes(png[16:20], "big"),
        "height": int.from_bytes(png[20:24], "big"),
        "number": int(number),
    }


def show_figures(display) -> None:
    """
    Send every open pyplot figure to `display("figure", payload)`, by number, closing each.

    If drawing or sending one fails, the figures not yet sent are closed too and the error is
    raised, so that a broken figure is not drawn again at the next `plt.show()`.
    """
    managers = sorted(Gcf.get_all_fig_managers(), key=lambda manager: manager.num)
    try:
        for manager in managers:
            figure = manager.canvas.figure
            payload = figure_payload(figure, manager.num)
            Gcf.destroy_fig(figure)
            display("figure", payload)
    finally:
        for manager in managers:
            Gcf.destroy_fig(manager.canvas.figure)


@_Backend.export
class _BackendPelab(_BackendAgg):
    """
    Agg, with a `show` that sends the figures to the page (exported as this module's
    `show`, `FigureCanvas` and the rest, as matplotlib expects of a backend module).
    """

    @classmethod
    def show(cls, *, block=None):
        """`plt.show()`: display and close every open figure now (`block` is ignored)."""
        show_figures(current_display())
