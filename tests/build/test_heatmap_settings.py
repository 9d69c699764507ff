"""The first heatmap's settings have one owner, index.html's heatmap sliders: the build reads
them (tools/heatmap_settings.py) and stops when the picture's size disagrees with them."""

from __future__ import annotations

import struct

import pytest

from site_server import DIST
from tools.heatmap_settings import heatmap_settings, parse_heatmap_settings

SECTION = """
<section id="other"><input name="d_model" value="8"></section>
<section id="heatmap" class="demo">
  <input id="heatmap-d-model" name="d_model" type="range" min="2" max="512" step="2" value="{d_model}">
  <section><input id="heatmap-seq-len" name="seq_len" type="range" value="{seq_len}"></section>
  <input id="heatmap-base" name="base" type="range" {scale} value="{base}">
  <img class="heatmap-placeholder" src="py/first-heatmap.png" alt="" width="{width}" height="{height}">
  <canvas class="heatmap-canvas" width="{width}" height="{height}"></canvas>
</section>
<img class="heatmap-placeholder" width="1" height="1">
"""  # noqa: E501 (a slider and an image as the page writes them)


def page(
    d_model=16, seq_len=8, base="4", scale='data-scale="log10"', width=None, height=None
) -> str:
    return SECTION.format(
        d_model=d_model,
        seq_len=seq_len,
        base=base,
        scale=scale,
        width=width or d_model,
        height=height or seq_len,
    )


def test_the_build_takes_the_first_heatmap_from_index_html_and_draws_it_at_that_size():
    settings = heatmap_settings()
    assert settings == {"seq_len": 64, "d_model": 128, "base": 10000.0}
    width, height = struct.unpack(
        ">II", (DIST / "py" / "first-heatmap.png").read_bytes()[16:24]
    )  # IHDR
    assert (width, height) == (settings["d_model"], settings["seq_len"])


def test_only_the_heatmap_section_counts_and_the_base_slider_is_read_as_the_page_reads_it():
    assert parse_heatmap_settings(page()) == {"seq_len": 8, "d_model": 16, "base": 10000.0}
    # log10 slider: 10 ** 3.55 is 3548.13..., which the page rounds to 3 significant figures
    assert parse_heatmap_settings(page(base="3.55"))["base"] == 3550.0
    assert parse_heatmap_settings(page(base="500", scale=""))["base"] == 500.0


@pytest.mark.parametrize(("width", "height"), [(32, 8), (16, 9)])
def test_a_picture_whose_size_disagrees_with_the_sliders_stops_the_build(width, height):
    with pytest.raises(
        SystemExit, match=r"index\.html.*set its width to d_model and its height to seq_len"
    ) as error:
        parse_heatmap_settings(page(width=width, height=height), "index.html")
    assert f'width="{width}" height="{height}"' in str(
        error.value
    ) and "d_model=16, seq_len=8" in str(error.value)


def test_a_missing_or_unreadable_slider_is_named():
    with pytest.raises(
        SystemExit, match=r'demo\.html, <section id="heatmap"> needs an <input name="seq_len"'
    ):
        parse_heatmap_settings(page().replace('name="seq_len"', 'name="length"'), "demo.html")
    with pytest.raises(SystemExit, match="d_model slider's value must be a whole number"):
        parse_heatmap_settings(page(d_model="12.5", width=12, height=8))
