r"""
# A diverging colour map for values in [-1, 1]

Every entry of a sinusoidal positional encoding is a sine or cosine, so it
lies in [-1, 1] and its *sign* matters as much as its size.  That calls for a
*diverging* map: one hue for negative values, another for positive ones, and
a neutral light colour at 0.

This is Kenneth Moreland's "cool-warm" map from "Diverging Color Maps for
Scientific Visualization" (ISVC 2009), rebuilt here with numpy alone:

* **Perceptually uniform.**  Colours are interpolated in *Msh*, a polar form
  of CIELAB.  CIELAB is built so that equal distances look like roughly equal
  colour differences, and along each half of this map the lightness $L^*$
  changes smoothly and monotonically (up from blue to the middle, down to
  red), so equal steps in value read as roughly equal steps in colour, with
  no bands or false edges such as a rainbow map invents.
* **Colour-blind safe.**  The two ends, blue (59, 76, 192) and red
  (180, 4, 38), differ along the blue-yellow axis that people with the common
  red-green deficiencies (protanopia, deuteranopia) still see, so negative and
  positive values stay distinguishable for them.
* **Sign at a glance.**  0 is a near-white light grey, the lightest colour of
  the map, so where an encoding crosses zero is obvious.

The map is a 256-entry lookup table, `COOL_WARM`, built once at import.
`to_rgba` colours arrays with it, and `legend_stops` gives CSS colours for a
gradient legend.

The pipeline from 8-bit sRGB to Msh, and back, is

    sRGB  <->  linear RGB  <->  CIE XYZ (D65)  <->  CIELAB  <->  Msh
"""

import math

import numpy as np

from .checks import as_real_array, check_size, describe, real_number

# Moreland's end points, in 8-bit sRGB.
BLUE = (59, 76, 192)
RED = (180, 4, 38)

# Number of entries in `COOL_WARM`.
LUT_SIZE = 256

# Colour of a NaN ("no value"): an opaque mid grey (CIELAB L* of about 54).
# No entry of the map is that colour: the map is grey only at its light
# middle (L* about 88), so a NaN cannot be read as a value.
NAN_RGBA = (128, 128, 128, 255)
_NAN_RGBA = np.array(NAN_RGBA, dtype=np.uint8)

# ---------------------------------------------------------------------------
# Colour conversions.  Colours are float arrays whose last axis holds the
# three components; any leading shape is allowed.
# ---------------------------------------------------------------------------

# Linear RGB -> XYZ for sRGB primaries and the D65 white point (IEC 61966-2-1):
# [X, Y, Z]^T = M [R, G, B]^T.
_RGB_TO_XYZ = np.array(
    [
        [0.4124564, 0.3575761, 0.1804375],
        [0.2126729, 0.7151522, 0.0721750],
        [0.0193339, 0.1191920, 0.9503041],
    ]
)
_XYZ_TO_RGB = np.linalg.inv(_RGB_TO_XYZ)
# Reference white (Xn, Yn, Zn) = XYZ of RGB (1, 1, 1) = (0.95047, 1.0, 1.08883),
# so that sRGB white maps to L* = 100, a* = b* = 0 exactly.
_WHITE = _RGB_TO_XYZ.sum(axis=1)

# CIELAB's cube-root function switches to a straight line below (6/29)^3.
_DELTA = 6.0 / 29.0


def _srgb_to_linear(c):
    """
    sRGB in [0, 1] -> linear light:
    C_lin = C / 12.92 if C <= 0.04045 else ((C + 0.055) / 1.055) ** 2.4.
    """
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def _linear_to_srgb(c):
    """
    Linear light in [0, 1] -> sRGB, the inverse of `_srgb_to_linear`:
    C = 12.92 C_lin if C_lin <= 0.0031308 else 1.055 C_lin ** (1/2.4) - 0.055.
    """
    return np.where(
        c <= 0.0031308, 12.92 * c, 1.055 * np.power(c, 1.0 / 2.4) - 0.055
    )


def _lab_f(t):
    """CIELAB's f: t ** (1/3) if t > (6/29)^3 else t / (3 (6/29)^2) + 4/29."""
    return np.where(
        t > _DELTA**3, np.cbrt(t), t / (3.0 * _DELTA**2) + 4.0 / 29.0
    )


def _lab_f_inverse(u):
    """Inverse of `_lab_f`: u ** 3 if u > 6/29 else 3 (6/29)^2 (u - 4/29)."""
    return np.where(u > _DELTA, u**3, 3.0 * _DELTA**2 * (u - 4.0 / 29.0))


def _srgb_to_lab(srgb):
    """sRGB in [0, 1] -> CIELAB (L*, a*, b*)."""
    # [X, Y, Z] = M [R, G, B] for every colour, as a matrix product on the last axis.
    xyz = _srgb_to_linear(srgb) @ _RGB_TO_XYZ.T
    fx, fy, fz = np.moveaxis(_lab_f(xyz / _WHITE), -1, 0)
    # L* = 116 f(Y/Yn) - 16,  a* = 500 (f(X/Xn) - f(Y/Yn)),  b* = 200 (f(Y/Yn) - f(Z/Zn))
    return np.stack([116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz)], axis=-1)


def _lab_to_srgb(lab):
    """CIELAB -> sRGB in [0, 1]; colours outside the sRGB gamut are clipped."""
    lightness, a, b = np.moveaxis(lab, -1, 0)
    # Undo L* = 116 fy - 16, then a* and b*, to get f(X/Xn), f(Y/Yn), f(Z/Zn).
    fy = (lightness + 16.0) / 116.0
    f = np.stack([fy + a / 500.0, fy, fy - b / 200.0], axis=-1)
    xyz = _lab_f_inverse(f) * _WHITE
    linear = np.clip(xyz @ _XYZ_TO_RGB.T, 0.0, 1.0)
    return _linear_to_srgb(linear)


def _lab_to_msh(lab):
    """
    CIELAB -> Msh, Moreland's polar form of CIELAB:
    M = |(L*, a*, b*)|          magnitude, roughly how vivid or light,
    s = arccos(L* / M)          saturation, the angle away from the grey axis,
    h = atan2(b*, a*)           hue, in radians.
    """
    lightness, a, b = np.moveaxis(lab, -1, 0)
    magnitude = np.sqrt(lightness**2 + a**2 + b**2)
    saturation = np.arccos(lightness / magnitude)
    hue = np.arctan2(b, a)
    return np.stack([magnitude, saturation, hue], axis=-1)


def _msh_to_lab(msh):
    """Msh -> CIELAB: L* = M cos s,  a* = M sin s cos h,  b* = M sin s sin h."""
    magnitude, saturation, hue = np.moveaxis(msh, -1, 0)
    return np.stack(
        [
            magnitude * np.cos(saturation),
            magnitude * np.sin(saturation) * np.cos(hue),
            magnitude * np.sin(saturation) * np.sin(hue),
        ],
        axis=-1,
    )


# ---------------------------------------------------------------------------
# Moreland's interpolation
# ---------------------------------------------------------------------------

# The paper's thresholds: a colour with s below 0.05 counts as unsaturated,
# and end points whose hues differ by more than pi/3 get a white middle.
_UNSATURATED = 0.05
_FAR_HUES = np.pi / 3.0
# Smallest magnitude of the white middle, M_mid = max(M1, M2, 88).
_MIN_MID_MAGNITUDE = 88.0


def _spun_hue(saturated, unsaturated_magnitude):
    """
    Hue for an unsaturated colour of magnitude M_u next to a saturated colour
    (M, s, h), so that the path between them bends smoothly through the hues
    instead of keeping h all the way to grey (Moreland, "AdjustHue"):

        h_spin = s sqrt(M_u^2 - M^2) / (M sin s)
        h' = h + h_spin if h > -pi/3 else h - h_spin      (when M < M_u)
    """
    magnitude, saturation, hue = saturated
    if magnitude >= unsaturated_magnitude:
        return hue
    spin = (
        saturation
        * np.sqrt(unsaturated_magnitude**2 - magnitude**2)
        / (magnitude * np.sin(saturation))
    )
    return hue + spin if hue > -_FAR_HUES else hue - spin


def _interpolate_msh(start, end, t):
    """
    Straight line in Msh from `start` to `end` at fractions `t` (shape (n,)),
    after giving an unsaturated end the spun hue of the saturated one.
    """
    start, end = np.array(start, dtype=float), np.array(end, dtype=float)
    if start[1] < _UNSATURATED <= end[1]:
        start[2] = _spun_hue(end, start[0])
    elif end[1] < _UNSATURATED <= start[1]:
        end[2] = _spun_hue(start, end[0])
    # (1 - t) Msh_start + t Msh_end, one row per t.
    return (1.0 - t)[:, np.newaxis] * start + t[:, np.newaxis] * end


def _diverging_srgb(low, high, t):
    """
    Moreland's diverging map from the 8-bit sRGB colour `low` (t = 0) to
    `high` (t = 1), sampled at the fractions `t` in [0, 1].

    If both ends are saturated and their hues are far apart, the path goes
    through an unsaturated white middle point (M_mid, 0, 0) at t = 1/2,
    M_mid = max(M_low, M_high, 88), and each half is a straight Msh line.

    Returns:
        float sRGB in [0, 1], shape (len(t), 3).
    """
    t = np.asarray(t, dtype=float)
    msh_low, msh_high = _lab_to_msh(_srgb_to_lab(np.array([low, high]) / 255.0))
    hues_far = abs(msh_low[2] - msh_high[2]) > _FAR_HUES
    if min(msh_low[1], msh_high[1]) > _UNSATURATED and hues_far:
        middle = [max(msh_low[0], msh_high[0], _MIN_MID_MAGNITUDE), 0.0, 0.0]
        lower_half = _interpolate_msh(msh_low, middle, 2.0 * t)
        upper_half = _interpolate_msh(middle, msh_high, 2.0 * t - 1.0)
        msh = np.where((t < 0.5)[:, np.newaxis], lower_half, upper_half)
    else:
        msh = _interpolate_msh(msh_low, msh_high, t)
    return _lab_to_srgb(_msh_to_lab(msh))


def _build_lut(size):
    """The cool-warm map as a (size, 4) uint8 RGBA table; entry k is t = k/(size-1)."""
    srgb = _diverging_srgb(BLUE, RED, np.linspace(0.0, 1.0, size))
    lut = np.full((size, 4), 255, dtype=np.uint8)  # alpha 255: opaque
    lut[:, :3] = np.rint(srgb * 255.0).astype(np.uint8)
    return lut


# The colour map: entry k is the colour of t = k / 255, from BLUE (k = 0,
# value vmin) through light grey to RED (k = 255, value vmax).  Read-only.
# Rounding to 8 bits moves L* by up to about 0.2, so near the light middle,
# where L* changes slowly, neighbouring entries can be out of order by that
# much; the unrounded map is strictly monotonic in L* on each side.
COOL_WARM = _build_lut(LUT_SIZE)
COOL_WARM.flags.writeable = False
# COOL_WARM and then NAN_RGBA, each RGBA row read as one uint32 word (for to_rgba's look-up).
_WORDS = np.ascontiguousarray(np.vstack([COOL_WARM, _NAN_RGBA])).view(np.uint32).ravel()


# ---------------------------------------------------------------------------
# Public functions
# ---------------------------------------------------------------------------


def to_rgba(values, vmin=-1.0, vmax=1.0):
    """
    Colour `values` with the cool-warm map.

    A value v is placed at t = (v - vmin) / (vmax - vmin) and drawn with the
    nearest entry of `COOL_WARM`, index round(255 t).  So vmin is BLUE, vmax
    is RED and the middle (0 for the default range) is the light grey
    centre: exactly halfway falls on entry 128, which differs from the true
    centre colour by at most one unit per channel.

    Values below vmin or above vmax (including -inf and +inf) are clipped to
    the end colours.  NaN is drawn as `NAN_RGBA`, an opaque mid grey that the
    map never uses.

    Args:
        values: a number or array-like of real numbers, of any shape S.
        vmin: the value drawn as the blue end (default -1), a real number.
        vmax: the value drawn as the red end (default +1), a real number;
            vmin < vmax, both finite, with a finite vmax - vmin.

    Returns:
        uint8 array of shape S + (4,): red, green, blue, alpha (255 for
        every value, NaN included).

    Raises:
        ValueError: if `values` is not real numbers (complex numbers, words
            and ragged lists are refused), or vmin and vmax are not as above.

    Example:
        >>> to_rgba([-1.0, 1.0]).tolist()
        [[59, 76, 192, 255], [180, 4, 38, 255]]
    """
    vmin, vmax = _check_range(vmin, vmax)
    array = _check_values(values)
    # Clipping the rounded index to [0, 255] gives the same entry as rounding the clipped t
    # (255 t >= 255 exactly when t >= 1, and <= 0 when t <= 0), and lets the common case, every
    # value in range, skip the clip and the search for NaN.
    with np.errstate(over="ignore", invalid="ignore"):
        index = _nearest_entry(array, vmin, vmax)
        # Both are NaN if any value is NaN.
        in_range = index.size == 0 or (index.min() >= 0.0 and index.max() <= LUT_SIZE - 1)
    if not in_range:
        np.clip(index, 0.0, LUT_SIZE - 1, out=index)
        # NaN came through every step as NaN: it takes the extra entry LUT_SIZE.
        index[np.isnan(index)] = LUT_SIZE
    return _look_up(index)


def to_rgba_in_range(values):
    """
    `to_rgba(values)` for a float64 array already known to hold no NaN and
    only values in [-1, 1], such as a sinusoidal table: the same colours,
    without the two passes over the values that check their range.  The
    heatmap demo colours 512 x 512 of them per frame while a slider moves.

    Values a rounding error past +-1 (a table of sums of products may hold
    1 + 2^-52) still get the end colours, as `to_rgba` gives them.  Values
    further outside [-1, 1] (beyond about +-1.0039) or NaN would give wrong
    colours: check first, or call `to_rgba`.
    """
    return _look_up(_nearest_entry(values, -1.0, 1.0))


def _nearest_entry(array, vmin, vmax):
    """
    round(255 t), t = (v - vmin) / (vmax - vmin), for every value v: a new float64 array,
    not yet clipped to the table.  Worked in place, one pass a step, since the heatmap demo
    colours 512 x 512 values per frame.
    """
    span = vmax - vmin
    scale = (LUT_SIZE - 1) / span  # inf for a span below about 2^-1016
    t = np.asarray(array - vmin, dtype=np.float64)
    if math.frexp(span)[0] == 0.5 and math.isfinite(scale):
        # A span that is a power of two, such as the default 2: dividing by it is exact, and so
        # is 255 / span, so one product rounds exactly as the quotient times 255 does.
        # (Where the quotient would underflow, both round to entry 0; overflow, both to inf.)
        t *= scale
    else:
        t /= span
        t *= LUT_SIZE - 1
    return np.rint(t, out=t)


def _look_up(index):
    """
    The colours of table entries `index` (float, whole numbers from 0 to LUT_SIZE, the last
    one NaN's), as uint8 RGBA of shape index.shape + (4,).
    """
    # One 4-byte word per value: a gather of uint32s is ~15x faster than one of (4,) rows in
    # Pyodide. Viewed back as bytes, each word is its R, G, B, A again.
    words = np.asarray(_WORDS[index.astype(np.intp)])[..., np.newaxis]
    return words.view(np.uint8)


def range_part(values):
    """
    Which part of a symmetric colour range [-limit, limit] `values` use, as the page's colour
    bar names it: "positive" if none is below 0, "negative" if none is above 0, else "both".

    Coloured over [-limit, limit], values that are all >= 0 take only the map's light-to-red
    half, from white at 0 to red at +limit: a *sequential* map, its lightness falling steadily
    with the value.  The bar then shows that half alone, 0 to +limit, with no blue for values
    that do not occur (the similarity demo's dot products are all positive at its first
    settings, and turn negative only for a small base).  NaN is ignored.

    Args:
        values: an array-like of real numbers.

    Returns:
        "positive", "negative" or "both" (an empty or all-NaN array: "both").

    Example:
        >>> range_part([0.0, 0.5, 1.0]), range_part([-1.0, 0.0]), range_part([-1.0, 2.0])
        ('positive', 'negative', 'both')
    """
    array = _check_values(values)
    finite = array[~np.isnan(array)]
    if finite.size == 0:
        return "both"
    if finite.min() >= 0.0:
        return "positive"
    if finite.max() <= 0.0:
        return "negative"
    return "both"


def legend_stops(n):
    """
    `n` CSS colours "#rrggbb" evenly spaced along the map, from the colour
    of vmin (first) to that of vmax (last), for a legend such as
    `linear-gradient(to right, <stops joined by ", ">)`.

    The colours do not depend on the actual vmin and vmax: stop j shows the
    value vmin + j (vmax - vmin) / (n - 1), whatever the range.

    Args:
        n: number of stops, an integer from 2 to 256.

    Returns:
        list of `n` lower-case strings such as "#3b4cc0".

    Example:
        >>> legend_stops(2)
        ['#3b4cc0', '#b40426']
    """
    n = check_size("n", n, LUT_SIZE, minimum=2)
    # Evenly spaced t_j = j / (n - 1), each drawn with its nearest entry.
    index = np.rint(np.linspace(0.0, LUT_SIZE - 1, n)).astype(np.intp)
    return ["#{:02x}{:02x}{:02x}".format(*COOL_WARM[k, :3].tolist()) for k in index]


def js_module():
    """
    `COOL_WARM` as the JavaScript module the page draws its tables and legend
    with (`app/figures/colormap.js`), so that the page needs no Python for a
    colour and shows exactly pelab's colours.

    Returns:
        the module's source: one exported `Uint8Array` of 256 RGBA entries.

    Example:
        >>> js_module().splitlines()[3]
        'export const COOL_WARM = new Uint8Array(['
    """
    rows = [
        "  " + " ".join(f"{r}, {g}, {b}, {a}," for r, g, b, a in COOL_WARM[k : k + 4].tolist())
        for k in range(0, LUT_SIZE, 4)
    ]
    return "\n".join(
        [
            "// Generated from pelab.colormap.COOL_WARM by pelab.colormap.js_module(): do not edit.",  # noqa: E501
            "// tests/python/test_colormap.py checks it. Entry k is the colour of t = k / 255, from",  # noqa: E501
            "// -1 (blue, k = 0) through light grey to +1 (red, k = 255), as RGBA bytes.",
            "export const COOL_WARM = new Uint8Array([",
            *rows,
            "]);",
            "",
        ]
    )

# ---------------------------------------------------------------------------
# Argument checks used only here
# ---------------------------------------------------------------------------


def _check_range(vmin, vmax):
    """
    Check a colour range: `vmin` and `vmax` finite real numbers (scalars, not
    arrays) with `vmin < vmax` and a finite `vmax - vmin`.

    Returns:
        `(vmin, vmax)` as Python floats.

    Raises:
        ValueError: "vmin and vmax must be finite real numbers with vmin < vmax
            and a finite vmax - vmin, got vmin=<vmin>, vmax=<vmax>".
    """
    low, high = real_number(vmin), real_number(vmax)
    # high - low is inf (not an error) for Python floats whose difference overflows.
    if low is None or high is None or not (low < high and math.isfinite(high - low)):
        raise ValueError(
            "vmin and vmax must be finite real numbers with vmin < vmax "
            "and a finite vmax - vmin, "
            f"got vmin={describe(vmin)}, vmax={describe(vmax)}"
        )
    return low, high


def _check_values(value):
    """
    Check that `value` is a real number or an array-like of real numbers, of
    any shape (NaN and infinities allowed).

    Returns:
        `value` as a float64 numpy array.

    Raises:
        ValueError: "values must be a real number or an array-like of real
            numbers, got not an array of real numbers".
    """
    array = as_real_array(value)
    if array is None:
        raise ValueError(
            "values must be a real number or an array-like of real numbers, "
            "got not an array of real numbers"
        )
    return array
