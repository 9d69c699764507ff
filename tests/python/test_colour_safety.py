"""The lesson's colours stay readable for people with colour-vision deficiencies.

Each deficiency is simulated with Machado, Oliveira and Fernandes (2009), "A physiologically-
based model for simulation of color vision deficiency", at severity 1.0 (dichromacy): one 3 x 3
matrix applied to linear RGB. Colour differences are CIEDE2000 in CIELAB under D65.

Two sets of colours are checked: the heatmap's cool-warm map (pelab.colormap.COOL_WARM), whose
sign must stay readable, and the eight --pair-N colours of static/lab.css, which the clock and
waves demo shows all at once (one per clock hand, dot and wave), in both themes.
"""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest

from pelab.colormap import COOL_WARM
from site_server import ROOT

MACHADO = {
    "protanopia": [
        [0.152286, 1.052583, -0.204868],
        [0.114503, 0.786281, 0.099216],
        [-0.003882, -0.048116, 1.051998],
    ],
    "deuteranopia": [
        [0.367322, 0.860646, -0.227968],
        [0.280085, 0.672501, 0.047413],
        [-0.011820, 0.042940, 0.968881],
    ],
    "tritanopia": [
        [1.255528, -0.076749, -0.178779],
        [-0.078411, 0.930809, 0.147602],
        [0.004733, 0.691367, 0.303900],
    ],
}
VISIONS = {"normal vision": np.eye(3), **{name: np.array(m) for name, m in MACHADO.items()}}

# sRGB primaries, D65 white (IEC 61966-2-1).
RGB_TO_XYZ = np.array(
    [
        [0.4124564, 0.3575761, 0.1804375],
        [0.2126729, 0.7151522, 0.0721750],
        [0.0193339, 0.1191920, 0.9503041],
    ]
)
WHITE = RGB_TO_XYZ.sum(axis=1)

# Smallest CIEDE2000 between any two pair colours: the Okabe-Ito palette's own worst pair under
# a simulated dichromacy (orange and reddish purple under tritanopia) is 10.9.
PAIRS_APART = 10.0


def linear_light(srgb8) -> np.ndarray:
    """8-bit sRGB components -> linear light in [0, 1] (IEC 61966-2-1)."""
    c = np.asarray(srgb8, dtype=float) / 255
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def contrast(a, b) -> float:
    """WCAG 2 contrast ratio of two 8-bit sRGB colours (three components each)."""
    high, low = sorted(
        (float(linear_light(c) @ [0.2126, 0.7152, 0.0722]) for c in (a, b)), reverse=True
    )
    return (high + 0.05) / (low + 0.05)


def lab(srgb8, vision: str = "normal vision") -> np.ndarray:
    """CIELAB of 8-bit sRGB colours (..., 3) as seen with `vision`."""
    linear = np.clip(
        linear_light(srgb8) @ VISIONS[vision].T, 0, 1
    )  # the simulation works on linear light
    t = linear @ RGB_TO_XYZ.T / WHITE
    f = np.where(t > (6 / 29) ** 3, np.cbrt(t), t / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.stack(
        [116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2])],
        axis=-1,
    )


def ciede2000(lab1, lab2) -> float:
    """CIEDE2000 colour difference (Sharma, Wu and Dalal 2005), kL = kC = kH = 1."""
    (l1, a1, b1), (l2, a2, b2) = lab1, lab2
    c_mean = (np.hypot(a1, b1) + np.hypot(a2, b2)) / 2
    g = 0.5 * (1 - np.sqrt(c_mean**7 / (c_mean**7 + 25**7)))
    a1, a2 = a1 * (1 + g), a2 * (1 + g)
    c1, c2 = np.hypot(a1, b1), np.hypot(a2, b2)
    h1, h2 = np.degrees(np.arctan2(b1, a1)) % 360, np.degrees(np.arctan2(b2, a2)) % 360
    dh = 0.0 if c1 * c2 == 0 else (h2 - h1 + 180) % 360 - 180
    d_l, d_c = l2 - l1, c2 - c1
    d_h = 2 * np.sqrt(c1 * c2) * np.sin(np.radians(dh / 2))
    l_mean, c_mean = (l1 + l2) / 2, (c1 + c2) / 2
    if c1 * c2 == 0:
        h_mean = h1 + h2
    elif abs(h1 - h2) <= 180:
        h_mean = (h1 + h2) / 2
    else:
        h_mean = (h1 + h2 + 360) / 2 if h1 + h2 < 360 else (h1 + h2 - 360) / 2
    t = (1 - 0.17 * np.cos(np.radians(h_mean - 30)) + 0.24 * np.cos(np.radians(2 * h_mean))
         + 0.32 * np.cos(np.radians(3 * h_mean + 6)) - 0.20 * np.cos(np.radians(4 * h_mean - 63)))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / np.sqrt(20 + (l_mean - 50) ** 2)
    s_c = 1 + 0.045 * c_mean
    s_h = 1 + 0.015 * c_mean * t
    r_t = (
        -2
        * np.sqrt(c_mean**7 / (c_mean**7 + 25**7))
        * np.sin(np.radians(60 * np.exp(-(((h_mean - 275) / 25) ** 2))))
    )
    return float(
        np.sqrt(
            (d_l / s_l) ** 2 + (d_c / s_c) ** 2 + (d_h / s_h) ** 2 + r_t * (d_c / s_c) * (d_h / s_h)
        )
    )


def test_the_difference_formulas_match_published_values():
    # Sharma, Wu and Dalal (2005), table 1, pairs 1, 7 and 17.
    assert ciede2000((50, 2.6772, -79.7751), (50, 0, -82.7485)) == pytest.approx(2.0425, abs=1e-4)
    assert ciede2000((50, 0, 0), (50, -1, 2)) == pytest.approx(2.3669, abs=1e-4)
    assert ciede2000((50, 2.5, 0), (73, 25, -18)) == pytest.approx(27.1492, abs=1e-4)
    assert lab([255, 255, 255]) == pytest.approx([100, 0, 0], abs=1e-6)
    # Every simulation keeps grey grey: each matrix row sums to 1 (up to the published rounding).
    for matrix in MACHADO.values():
        assert np.sum(matrix, axis=1) == pytest.approx([1, 1, 1], abs=2e-6)


# ---- the heatmap's cool-warm map


@pytest.mark.parametrize("vision", VISIONS)
def test_the_two_ends_of_the_map_stay_far_apart(vision):
    ends = lab(COOL_WARM[[0, -1], :3], vision)
    assert ciede2000(*ends) > 35, f"-1 and +1 look alike with {vision}"


@pytest.mark.parametrize("vision", VISIONS)
def test_the_sign_of_a_value_stays_readable(vision):
    """v and -v differ in colour clearly for |v| >= 0.2: the sign is seen, not guessed."""
    colours = lab(COOL_WARM[:, :3], vision)
    n = len(colours)
    for k in range(n // 2):
        if abs((k + 0.5) / n - 0.5) * 2 >= 0.2:
            assert ciede2000(colours[k], colours[n - 1 - k]) > 20, (vision, k)


@pytest.mark.parametrize("vision", VISIONS)
def test_lightness_peaks_at_a_light_centre_and_falls_towards_both_ends(vision):
    lightness = lab(COOL_WARM[:, :3], vision)[:, 0]
    centre = len(lightness) // 2
    assert lightness.argmax() in (centre - 1, centre) and lightness.max() > 80
    # Each half is monotonic, up to the 8-bit rounding of the map's colours.
    assert np.diff(lightness[:centre]).min() > -0.5 and np.diff(lightness[centre:]).max() < 0.5
    assert lightness[0] < 50 and lightness[-1] < 50


def test_lightness_is_symmetric_around_the_centre():
    """With normal vision -v and +v are equally light: neither sign looks more important."""
    lightness = lab(COOL_WARM[:, :3])[:, 0]
    assert np.abs(lightness - lightness[::-1]).max() < 1.0


# ---- the eight pair colours


def pair_colours() -> dict[str, list[str]]:
    """{"light": [8 hex colours], "dark": [...]} from the --pair-N: light-dark(A, B) of lab.css."""
    css = (ROOT / "static" / "lab.css").read_text()
    pattern = r"--pair-(\d): light-dark\((#[0-9a-f]{6}), (#[0-9a-f]{6})\)"
    found = {n: (light, dark) for n, light, dark in re.findall(pattern, css, re.I)}
    assert sorted(found) == [str(n) for n in range(8)], "lab.css should define --pair-0 to --pair-7"
    return {
        theme: [found[str(n)][k] for n in range(8)] for k, theme in enumerate(("light", "dark"))
    }


def rgb(hex_colour: str) -> list[int]:
    return [int(hex_colour[k : k + 2], 16) for k in (1, 3, 5)]


@pytest.mark.parametrize("vision", VISIONS)
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_every_two_pair_colours_stay_apart(theme, vision):
    colours = pair_colours()[theme]
    seen = lab([rgb(c) for c in colours], vision)
    close = [
        f"--pair-{i} {colours[i]} and --pair-{j} {colours[j]}: {ciede2000(seen[i], seen[j]):.1f}"
        for i, j in itertools.combinations(range(8), 2)
        if ciede2000(seen[i], seen[j]) < PAIRS_APART
    ]
    assert not close, (
        f"{theme} theme, {vision}: too alike (CIEDE2000 < {PAIRS_APART}): " + "; ".join(close)
    )


WHITE_PAGE = (255, 255, 255)  # the light theme's --surface, where the charts are drawn


def test_every_pair_mark_stands_out_from_the_page_by_3_to_1():
    """WCAG 1.4.11 for the lines, dots and hands of the pairs: a colour below 3:1 against the
    light surface (white) must have a --pair-N-edge that reaches it, drawn around its marks."""
    css = (ROOT / "static" / "lab.css").read_text()
    edges = dict(
        re.findall(r"--pair-(\d)-edge: light-dark\((#[0-9a-f]{6}), transparent\)", css, re.I)
    )
    faint = []
    for n, colour in enumerate(pair_colours()["light"]):
        if contrast(rgb(colour), WHITE_PAGE) >= 3.0:
            continue
        edge = edges.get(str(n))
        if edge is None or contrast(rgb(edge), WHITE_PAGE) < 3.0:
            faint.append(
                f"--pair-{n} {colour}: {contrast(rgb(colour), WHITE_PAGE):.2f}:1 and no edge of 3:1"
            )
            continue
        for mark in ("wave", "dot", "dial-hand"):
            assert re.search(rf"\.{mark}\.pair-{n}\b[^{{]*{{\s*filter: drop-shadow", css), (
                f"--pair-{n}: .{mark} has no edge"
            )
        assert f".swatch.pair-{n} {{ box-shadow: inset 0 0 0 1px var(--pair-{n}-edge); }}" in css
    assert not faint, "; ".join(faint)
    for colour in pair_colours()["dark"]:  # the dark theme needs no edges
        assert contrast(rgb(colour), rgb("#1d2026")) >= 3.0, colour
