"""
# PNG images without Pillow

The smallest correct PNG writer: an 8-bit RGBA image is a signature, an IHDR chunk with the
size, an IDAT chunk holding the zlib-compressed rows (each prefixed by filter type 0, "none")
and an IEND chunk; every chunk is length, type, data and a CRC-32 of type + data.
build.py uses it to pre-render the lesson's first heatmap, so readers see a figure before
Python has started in their browser (and readers without JavaScript see one at all).
"""

import struct
import zlib

import numpy as np

_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _chunk(kind, data):
    """length (4 bytes, big-endian) + type + data + CRC-32 of type and data."""
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_bytes(rgba):
    """
    Encode an RGBA image as PNG.

    Args:
        rgba: uint8 array of shape (height, width, 4), as `to_rgba` returns.

    Returns:
        bytes of a PNG file, 8 bits per channel, colour type 6 (RGBA).

    Raises:
        ValueError: if `rgba` is not a non-empty uint8 array of shape (height, width, 4).

    Example:
        >>> png_bytes(np.zeros((1, 2, 4), dtype=np.uint8))[:8] == _SIGNATURE
        True
    """
    image = _check_rgba(rgba)
    height, width, _ = image.shape
    # Each row: filter byte 0, then width * 4 bytes of RGBA.
    filters = np.zeros((height, 1), dtype=np.uint8)
    rows = np.concatenate([filters, image.reshape(height, width * 4)], axis=1)
    # Width, height, then 8 bits per channel, colour type 6 (RGBA), deflate, no filter, no
    # interlace.
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (
        _SIGNATURE
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(rows.tobytes(), 9))
        + _chunk(b"IEND", b"")
    )

# ---------------------------------------------------------------------------
# Argument checks used only here
# ---------------------------------------------------------------------------


def _check_rgba(rgba):
    """
    Check an image: a non-empty uint8 array of shape `(height, width, 4)`.

    Returns:
        `rgba` as a numpy array (not copied if it already is one).

    Raises:
        ValueError: "rgba must be a uint8 array of shape (height, width, 4),
            got <dtype> <shape>" (or "got not an array").
    """
    try:
        image = np.asarray(rgba)
    except (TypeError, ValueError, OverflowError):  # a ragged list, for one
        image = None
    if (
        image is None
        or image.dtype != np.uint8
        or image.ndim != 3
        or image.shape[2] != 4
        or 0 in image.shape
    ):
        got = "not an array" if image is None else f"{image.dtype} {image.shape}"
        raise ValueError(f"rgba must be a uint8 array of shape (height, width, 4), got {got}")
    return image
