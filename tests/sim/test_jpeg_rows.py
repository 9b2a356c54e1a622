"""JPEG pictures put together from MCU rows coded apart: they decode as the picture of those rows' pixels."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from android_gym.sim.system.jpeg_rows import MCU_ROW, JpegRows


def noise(seed: int, height: int = 64) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 256, (height, 48, 3), dtype=np.uint8)


def decoded(data: bytes) -> np.ndarray:
    with Image.open(io.BytesIO(data)) as picture:
        return np.asarray(picture.convert("RGB"))


def test_rows_of_two_encodings_make_the_picture_of_their_pixels():
    a, b = noise(1), noise(2)
    rows_a, rows_b = JpegRows.encode(Image.fromarray(a), 30), JpegRows.encode(Image.fromarray(b), 30)
    assert len(rows_a.rows) == 64 // MCU_ROW
    mixed = rows_a.assemble([rows_b.rows[0], rows_a.rows[1], rows_b.rows[2], rows_a.rows[3]])
    pixels = np.concatenate([b[:16], a[16:32], b[32:48], a[48:]])
    assert mixed == _pillow(pixels)  # byte for byte what encoding the mixed pixels in one go writes
    assert np.abs(decoded(mixed).astype(int) - pixels).mean() < 60  # and a picture of them, JPEG aside
    assert rows_a.assemble(rows_a.rows) == _pillow(a)


def test_a_band_encoded_alone_fits_a_taller_picture():
    tall, band = noise(3, 160), noise(4, 32)
    whole = JpegRows.encode(Image.fromarray(tall), 30)
    rows = list(whole.rows)
    rows[4:6] = JpegRows.encode(Image.fromarray(band), 30).rows  # rows 4 and 5: markers RST3, RST4 renumbered
    pixels = tall.copy()
    pixels[64:96] = band
    assert whole.assemble(rows) == _pillow(pixels)


def test_heights_and_row_counts_must_fit():
    with pytest.raises(ValueError, match="multiple of 16"):
        JpegRows.encode(Image.fromarray(noise(1, 40)), 30)
    rows = JpegRows.encode(Image.fromarray(noise(1)), 30)
    with pytest.raises(ValueError, match="3 rows for a picture of 4"):
        rows.assemble(rows.rows[:3])


def _pillow(pixels: np.ndarray) -> bytes:
    """Pillow's own encoding of ``pixels`` with the same settings."""
    buffer = io.BytesIO()
    Image.fromarray(pixels).save(buffer, "JPEG", quality=30, subsampling="4:2:0", restart_marker_rows=1)
    return buffer.getvalue()
