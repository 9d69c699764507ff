"""Where pelab.show's pictures go outside the page: a PNG in a Jupyter notebook (the take-home
notebook), one printed line anywhere else."""

from __future__ import annotations

import base64
import sys
import types
import zlib

import numpy as np

import pelab
from pelab.browser import display


def fake_jupyter(monkeypatch, shell_class: str) -> list:
    """An `IPython` module whose get_ipython() is a shell of class `shell_class`; returns the list
    each display() call appends its (bundle, raw) to."""
    shown = []
    shell = type(shell_class, (), {})()
    ipython = types.ModuleType("IPython")
    ipython.get_ipython = lambda: shell
    ipython_display = types.ModuleType("IPython.display")
    ipython_display.display = lambda bundle, raw=False: shown.append((bundle, raw))
    ipython.display = ipython_display
    monkeypatch.setitem(sys.modules, "IPython", ipython)
    monkeypatch.setitem(sys.modules, "IPython.display", ipython_display)
    return shown


def png_size(data: bytes) -> tuple[int, int]:
    """(width, height) from a PNG's IHDR chunk."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def test_in_plain_python_a_heatmap_is_one_printed_line(capsys, monkeypatch):
    monkeypatch.delitem(sys.modules, "IPython", raising=False)
    pelab.show(np.zeros((4, 6)), title="zeros")
    assert capsys.readouterr().out == "<heatmap 'zeros' 4x6>\n"


def test_in_a_notebook_a_heatmap_is_a_png_under_its_title(capsys, monkeypatch):
    shown = fake_jupyter(monkeypatch, "ZMQInteractiveShell")
    pe = pelab.sinusoidal(seq_len=64, d_model=128)
    pelab.show(pe, title="sinusoidal PE")
    assert capsys.readouterr().out == "sinusoidal PE\n"
    [(bundle, raw)] = shown
    assert raw and bundle["text/plain"] == "<heatmap 64x128>"
    picture = base64.b64decode(bundle["image/png"])
    assert png_size(picture) == (512, 256)  # 4 x 4 pixels a value


def test_the_picture_is_the_heatmaps_pixels_in_blocks():
    rgba = np.arange(2 * 3 * 4, dtype=np.uint8)
    payload = {"title": "", "width": 3, "height": 2, "rgba": rgba}
    picture = display.heatmap_png(payload, width=6, least_height=4)
    assert png_size(picture) == (6, 4)
    # The one IDAT chunk holds the rows, each after its filter byte (0): value (r, c) is the block
    # of rows 2r..2r+1 and columns 2c..2c+1.
    start = picture.index(b"IDAT") + 4
    rows = np.frombuffer(zlib.decompress(picture[start:]), dtype=np.uint8).reshape(4, 1 + 6 * 4)
    assert (rows[:, 0] == 0).all()
    pixels = rows[:, 1:].reshape(4, 6, 4)
    expected = rgba.reshape(2, 3, 4).repeat(2, axis=0).repeat(2, axis=1)
    assert (pixels == expected).all()


def test_a_single_row_is_tall_enough_to_see():
    payload = {"title": "", "width": 512, "height": 1, "rgba": np.zeros(512 * 4, np.uint8)}
    assert png_size(display.heatmap_png(payload)) == (512, 48)


def test_a_terminal_ipython_prints_the_line(capsys, monkeypatch):
    shown = fake_jupyter(monkeypatch, "TerminalInteractiveShell")
    pelab.show(np.ones((2, 2)))
    assert shown == []
    assert capsys.readouterr().out == "<heatmap 2x2>\n"


def test_figures_are_left_to_matplotlib_in_a_notebook(capsys, monkeypatch):
    shown = fake_jupyter(monkeypatch, "ZMQInteractiveShell")
    display.outside_the_page("figure", {"number": 1, "width": 400, "height": 300})
    assert shown == []
    assert capsys.readouterr().out == "<figure 1 400x300 px>\n"
