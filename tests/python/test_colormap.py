"""Tests for pelab.colormap: Moreland's cool-warm map and its use."""

import doctest
import re

import numpy as np
import pytest

import pelab
import pelab.colormap as colormap_module
from pelab.colormap import (
    BLUE,
    COOL_WARM,
    LUT_SIZE,
    NAN_RGBA,
    RED,
    legend_stops,
    to_rgba,
    to_rgba_in_range,
)

# Its code or checks go through BLAS or LAPACK: rerun under every kernel (test_blas_kernels.py).
pytestmark = pytest.mark.blas_numeric


def cielab_lightness(rgb_bytes):
    """CIE L* of 8-bit sRGB colours, computed here independently of pelab.

    sRGB decoding (IEC 61966-2-1), relative luminance Y of the sRGB primaries
    (Y of white = 1), then L* = 116 f(Y) - 16.
    """
    c = np.asarray(rgb_bytes, dtype=float) / 255.0
    linear = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    y = linear @ np.array([0.2126, 0.7152, 0.0722])
    f = np.where(y > (6 / 29) ** 3, np.cbrt(y), y / (3 * (6 / 29) ** 2) + 4 / 29)
    return 116.0 * f - 16.0


# Moreland's published 33-entry table for this map (t = k / 32), from
# "Diverging Color Maps for Scientific Visualization", 2009.
MORELAND_33 = [
    (59, 76, 192), (68, 90, 204), (77, 104, 215), (87, 117, 225), (98, 130, 234),
    (108, 142, 241), (119, 154, 247), (130, 165, 251), (141, 176, 254), (152, 185, 255),
    (163, 194, 255), (174, 201, 253), (184, 208, 249), (194, 213, 244), (204, 217, 238),
    (213, 219, 230), (221, 221, 221), (229, 216, 209), (236, 211, 197), (241, 204, 185),
    (245, 196, 173), (247, 187, 160), (247, 177, 148), (247, 166, 135), (244, 154, 123),
    (241, 141, 111), (236, 127, 99), (229, 112, 88), (222, 96, 77), (213, 80, 66),
    (203, 62, 56), (192, 40, 47), (180, 4, 38),
]


def test_lookup_table_layout():
    assert COOL_WARM.shape == (LUT_SIZE, 4) == (256, 4)
    assert COOL_WARM.dtype == np.uint8
    assert np.all(COOL_WARM[:, 3] == 255)
    assert not COOL_WARM.flags.writeable


def test_endpoints_are_morelands_blue_and_red():
    assert BLUE == (59, 76, 192) and RED == (180, 4, 38)
    assert np.abs(COOL_WARM[0, :3].astype(int) - BLUE).max() <= 1
    assert np.abs(COOL_WARM[-1, :3].astype(int) - RED).max() <= 1


def test_matches_morelands_published_table():
    # The construction, sampled at Moreland's 33 points, agrees within one unit.
    t = np.linspace(0.0, 1.0, 33)
    ours = np.rint(colormap_module._diverging_srgb(BLUE, RED, t) * 255).astype(int)
    assert np.abs(ours - np.array(MORELAND_33)).max() <= 1
    # t = 1/2 falls between entries 127 and 128 of the 256-entry table.
    assert np.abs(COOL_WARM[[127, 128], :3].astype(int) - 221).max() <= 3


def test_lightness_of_the_continuous_map_rises_then_falls():
    # Before rounding to bytes, L* is strictly monotonic on each side of 0.
    t = np.linspace(0.0, 1.0, 20001)
    lightness = cielab_lightness(colormap_module._diverging_srgb(BLUE, RED, t) * 255.0)
    lower = t < 0.5
    assert np.all(np.diff(lightness[lower]) > 0), "L* must increase from -1 to 0"
    assert np.all(np.diff(lightness[~lower]) < 0), "L* must decrease from 0 to +1"


# Rounding a channel to 8 bits moves L* by up to about 0.13 near the light
# middle, so neighbouring table entries, whose true L* may differ by only
# 0.05 there, can be out of order by less than this.
ROUNDING_L = 0.2


def test_lightness_of_the_table_rises_to_the_middle_then_falls():
    lightness = cielab_lightness(COOL_WARM[:, :3])
    half = LUT_SIZE // 2
    rising, falling = lightness[:half], lightness[half:]
    assert np.all(np.diff(rising) > -ROUNDING_L) and np.all(np.diff(falling) < ROUNDING_L)
    # Four entries apart, the trend beats the rounding: strictly monotonic.
    assert np.all(np.diff(rising[::-1][::4]) < 0), "L* must increase from -1 to 0"
    assert np.all(np.diff(falling[::4]) < 0), "L* must decrease from 0 to +1"
    assert rising[-1] - rising[0] > 50 and falling[0] - falling[-1] > 50
    # The middle is the lightest colour of the map.
    assert lightness.argmax() in range(half - 4, half + 4)


def test_lightness_along_values_is_monotonic():
    # 0 itself is drawn with entry 128, the first of the falling half.
    negative = cielab_lightness(to_rgba(np.linspace(-1.0, 0.0, 1001)[:-1])[:, :3])
    positive = cielab_lightness(to_rgba(np.linspace(0.0, 1.0, 1001))[:, :3])
    assert np.all(np.diff(negative) > -ROUNDING_L)
    assert np.all(np.diff(positive) < ROUNDING_L)
    assert negative[-1] - negative[0] > 50 and positive[0] - positive[-1] > 50


def test_both_ends_have_the_same_lightness():
    # Moreland chose blue and red of equal L*, so neither sign looks heavier.
    low, high = cielab_lightness([BLUE, RED])
    assert abs(low - high) < 0.5


@pytest.mark.parametrize("shape", [(), (0,), (5,), (3, 4), (2, 3, 4)])
def test_to_rgba_shape_and_dtype(shape):
    values = np.random.default_rng(0).uniform(-1, 1, size=shape)
    rgba = to_rgba(values)
    assert rgba.shape == shape + (4,)
    assert rgba.dtype == np.uint8
    assert np.all(rgba[..., 3] == 255)


def test_to_rgba_accepts_lists_and_scalars():
    assert to_rgba([[-1.0, 1.0]]).shape == (1, 2, 4)
    assert to_rgba(-1).tolist() == COOL_WARM[0].tolist()


def test_ends_and_middle():
    rgba = to_rgba(np.array([-1.0, 0.0, 1.0]))
    assert rgba[0].tolist() == COOL_WARM[0].tolist()
    assert rgba[2].tolist() == COOL_WARM[-1].tolist()
    assert np.all(rgba[1, :3] > 215), "0 must be near-white"


def test_values_beyond_the_range_are_clipped():
    rgba = to_rgba(np.array([-1e9, -1.5, -np.inf, 1.5, 1e9, np.inf]))
    for row in rgba[:3]:
        assert row.tolist() == COOL_WARM[0].tolist()
    for row in rgba[3:]:
        assert row.tolist() == COOL_WARM[-1].tolist()


def test_nan_is_the_documented_grey():
    rgba = to_rgba(np.array([[np.nan, 0.5], [-0.5, np.nan]]))
    assert NAN_RGBA == (128, 128, 128, 255)
    assert rgba[0, 0].tolist() == list(NAN_RGBA)
    assert rgba[1, 1].tolist() == list(NAN_RGBA)
    assert rgba[0, 1].tolist() == to_rgba(0.5).tolist()
    # No entry of the map can be confused with "no value".
    assert not np.any(np.all(COOL_WARM == NAN_RGBA, axis=1))


def test_custom_range():
    rgba = to_rgba(np.array([10.0, 15.0, 20.0]), vmin=10, vmax=20)
    np.testing.assert_array_equal(rgba, to_rgba(np.array([-1.0, 0.0, 1.0])))


def test_nearest_entry_is_used():
    values = np.linspace(-1.0, 1.0, LUT_SIZE)  # exactly the table's sample points
    np.testing.assert_array_equal(to_rgba(values), COOL_WARM)


def entries_as_documented(values, vmin, vmax):
    """Entry round(255 t), t = (v - vmin) / (vmax - vmin) clipped to [0, 1], step by step."""
    t = np.clip((np.asarray(values, dtype=np.float64) - vmin) / (vmax - vmin), 0.0, 1.0)
    return COOL_WARM[np.rint(t * (LUT_SIZE - 1)).astype(int)]


@pytest.mark.parametrize(
    "vmin, vmax",
    [(-1.0, 1.0), (0.0, 1.0), (-4.0, 4.0), (3.0, 3.5), (-1e-300, 1e-300), (-2.0**-1000, 0.0),
     (-1.0, 2.0), (10.0, 20.0), (-0.3, 0.7), (-1e300, 1e300), (0.0, 5e-324), (0.0, 2.0**-1020)],
)
def test_colours_are_round_255_t_exactly(vmin, vmax):
    """Spans that are powers of two take one product instead of a quotient and a product: the
    same entries, ties and values a hair from a tie included."""
    rng = np.random.default_rng(7)
    span = vmax - vmin
    # every tie k + 1/2 and its neighbours one ulp away, then random values over and past the range
    ties = vmin + (np.arange(LUT_SIZE) + 0.5) / (LUT_SIZE - 1) * span
    values = np.concatenate([
        ties, np.nextafter(ties, np.inf), np.nextafter(ties, -np.inf),
        vmin + rng.uniform(-0.1, 1.1, 100_000) * span,
    ])
    np.testing.assert_array_equal(
        to_rgba(values, vmin, vmax)[:, :3], entries_as_documented(values, vmin, vmax)[:, :3]
    )


def test_to_rgba_in_range_is_to_rgba():
    rng = np.random.default_rng(11)
    pe = pelab.sinusoidal(64, 33, 100.0)
    ties = (np.arange(LUT_SIZE - 1) + 0.5) / (
        LUT_SIZE - 1
    ) * 2.0 - 1.0  # the 255 ties inside [-1, 1]
    values = np.concatenate([
        [-1.0, -0.0, 0.0, 1.0], ties, np.nextafter(ties, 2.0), np.nextafter(ties, -2.0),
        rng.uniform(-1.0, 1.0, 100_000),
    ])
    for array in (
        pe,
        values,
        values[:100_000].reshape(-1, 4)[:, 1:3],
    ):  # the last is not contiguous
        rgba = to_rgba_in_range(array)
        assert (
            rgba.dtype == np.uint8 and rgba.shape == array.shape + (4,) and rgba.flags.c_contiguous
        )
        np.testing.assert_array_equal(rgba, to_rgba(array))


def test_to_rgba_in_range_gives_the_end_colours_a_rounding_error_past_the_range():
    """pelab.browser.demos.heatmap colours an unclipped table, which may hold 1 + 2^-52."""
    past = np.array([1.0 + k * 2.0**-52 for k in range(1, 9)] + [1.0038])
    for values in (past, -past):
        np.testing.assert_array_equal(to_rgba_in_range(values), to_rgba(values))
        assert len({tuple(colour) for colour in to_rgba_in_range(values)}) == 1


def test_sign_symmetry_of_the_lightness():
    values = np.linspace(0.05, 1.0, 20)
    np.testing.assert_allclose(
        cielab_lightness(to_rgba(values)[:, :3]),
        cielab_lightness(to_rgba(-values)[:, :3]),
        atol=1.0,
    )


@pytest.mark.parametrize(
    "vmin, vmax", [(0, 0), (1, -1), (None, 1), ("a", 1), (np.nan, 1), (0, np.inf), (-1e308, 1e308)]
)
def test_bad_range_is_rejected(vmin, vmax):
    with pytest.raises(ValueError, match=r"vmin and vmax"):
        to_rgba(np.zeros(3), vmin, vmax)


@pytest.mark.parametrize("n", [2, 3, 9, 256])
def test_legend_stops(n):
    stops = legend_stops(n)
    assert isinstance(stops, list) and len(stops) == n
    assert all(re.fullmatch(r"#[0-9a-f]{6}", stop) for stop in stops)
    assert stops[0] == "#3b4cc0" and stops[-1] == "#b40426"
    parsed = [tuple(int(stop[k : k + 2], 16) for k in (1, 3, 5)) for stop in stops]
    # Evenly spaced values from vmin to vmax.
    expected = to_rgba(np.linspace(-1.0, 1.0, n))[:, :3]
    np.testing.assert_array_equal(np.array(parsed), expected)


def test_legend_stops_middle_is_light():
    middle = legend_stops(3)[1]
    assert all(int(middle[k : k + 2], 16) > 215 for k in (1, 3, 5))


@pytest.mark.parametrize("n", [0, 1, 257, 2.0, True, "3", None])
def test_legend_stops_rejects_bad_n(n):
    with pytest.raises(ValueError, match=r"^n must be an integer from 2 to 256, got "):
        legend_stops(n)


def test_docstring_examples_hold():
    assert doctest.testmod(colormap_module).failed == 0


def test_the_page_draws_with_pelabs_colour_map():
    """app/figures/colormap.js is pelab's COOL_WARM, written out for the page's tables and legend.

    The map's bytes are the same on any machine: the unrounded map's nearest value to a rounding
    tie (k + 0.5) / 255 is 7.8e-5 away, far beyond what another BLAS kernel changes (1e-15).
    """
    from pathlib import Path

    import pelab.colormap

    page_copy = Path(__file__).resolve().parents[2] / "app" / "figures" / "colormap.js"
    regenerate = (
        "PYTHONPATH=py .venv/bin/python -c \"import pelab.colormap as c; "
        "open('app/figures/colormap.js', 'w').write(c.js_module())\""
    )
    assert page_copy.read_text() == pelab.colormap.js_module(), f"out of date: run {regenerate}"
    numbers = [
        int(n)
        for n in page_copy.read_text().split("[", 1)[1].split("]")[0].replace(",", " ").split()
    ]
    assert numbers == pelab.colormap.COOL_WARM.reshape(-1).tolist()


def test_no_entry_of_the_map_is_near_a_rounding_tie():
    """Why the bytes are the same on every machine: rounding to 8 bits is far from any tie."""
    import pelab.colormap as cm

    scaled = cm._diverging_srgb(cm.BLUE, cm.RED, np.linspace(0.0, 1.0, cm.LUT_SIZE)) * 255.0
    assert np.min(np.abs(scaled % 1.0 - 0.5)) > 1e-6
