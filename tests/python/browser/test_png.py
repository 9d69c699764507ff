"""pelab.browser.png: a PNG any decoder reads back to the same pixels (checked with Pillow, from
matplotlib)."""

import io
import struct
import zlib

import numpy as np
import pytest
from PIL import Image

import pelab
from pelab.browser.png import png_bytes


def test_a_png_decodes_to_the_same_pixels():
    rgba = pelab.to_rgba(pelab.sinusoidal(64, 128))
    data = png_bytes(rgba)
    image = Image.open(io.BytesIO(data))
    assert image.mode == "RGBA" and image.size == (128, 64)
    np.testing.assert_array_equal(np.asarray(image), rgba)


def test_every_chunk_has_a_correct_crc():
    data = png_bytes(np.full((3, 2, 4), 200, dtype=np.uint8))
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    offset, kinds = 8, []
    while offset < len(data):
        (length,) = struct.unpack(">I", data[offset : offset + 4])
        kind, body = data[offset + 4 : offset + 8], data[offset + 8 : offset + 8 + length]
        (crc,) = struct.unpack(">I", data[offset + 8 + length : offset + 12 + length])
        assert crc == zlib.crc32(kind + body)
        kinds.append(kind)
        offset += 12 + length
    assert kinds == [b"IHDR", b"IDAT", b"IEND"]


@pytest.mark.parametrize(
    "bad",
    [
        np.zeros((2, 2, 3), np.uint8),
        np.zeros((2, 2, 4), np.float64),
        np.zeros((0, 2, 4), np.uint8),
        [[1, 2]],
    ],
)
def test_anything_but_rgba_bytes_is_refused(bad):
    with pytest.raises(ValueError, match="rgba must be a uint8 array of shape"):
        png_bytes(bad)
