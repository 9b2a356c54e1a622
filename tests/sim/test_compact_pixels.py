"""Pixels kept compact (a ground colour and the columns where something else shows, or one row per run of equal
rows) paste as they were, whole or a box of them."""

from __future__ import annotations

import numpy as np
import pytest

from android_gym.sim.ui.compact_pixels import compacted, rowed


def _bar(columns: list[int]) -> np.ndarray:
    """A 20 x 300 bar in one colour with a few pixels of others in ``columns``."""
    pixels = np.full((20, 300, 3), (30, 30, 90), np.uint8)
    for column in columns:
        pixels[1 + column % 19, column] = (column % 256, 255, 0)
    return pixels


@pytest.mark.parametrize("columns", [[], [0], [299], [0, 1, 2, 150, 151, 299], list(range(300))])
def test_compacted_pixels_paste_as_they_were_and_keep_only_the_columns_that_differ(columns) -> None:
    pixels = _bar(columns)
    compact = compacted(pixels)
    pixels[:] = 0  # the pixels it was made from may change afterwards
    out = np.zeros((30, 300, 3), np.uint8)
    compact.paste(out[5:25])
    assert np.array_equal(out[5:25], _bar(columns)) and not out[:5].any() and not out[25:].any()
    assert compact.nbytes == 3 + 3 * 20 * len(columns)


def test_pixels_whose_top_left_is_not_the_ground_paste_as_they_were() -> None:
    pixels = _bar([5])
    pixels[0, 0] = (1, 2, 3)
    out = np.zeros_like(pixels)
    compacted(pixels).paste(out)
    assert np.array_equal(out, pixels)


@pytest.mark.parametrize("columns", [[], [0, 150, 299], list(range(300))])
def test_compacted_pixels_paste_a_box_of_them(columns) -> None:
    pixels = _bar(columns)
    out = np.zeros((30, 300, 3), np.uint8)
    compacted(pixels).paste(out[2:14, 100:251], 5, 149)
    assert np.array_equal(out[2:14, 100:251], pixels[5:17, 149:300])
    assert not out[:2].any() and not out[14:].any() and not out[:, :100].any() and not out[:, 251:].any()


def _screen(width: int) -> np.ndarray:
    """A 60 px tall screen ``width`` wide: runs of blank rows between rows of text-like ink and a band of a colour."""
    pixels = np.full((60, width, 3), 250, np.uint8)
    for line in range(10, 13):  # three rows of ink, each unlike the others
        pixels[line, :width // 2] = (np.arange(3 * (width // 2)) + line).reshape(width // 2, 3) % 256
    pixels[20:40] = (30, 30, 90)
    pixels[45, -1] = (1, 2, 3)  # one pixel in the last column
    return pixels


@pytest.mark.parametrize("width", [1, 2, 4, 8, 300])  # rows of 3, 6, 12, 24 and 900 bytes: compared a word each
def test_rowed_pixels_keep_one_row_per_run_and_paste_as_they_were(width: int) -> None:
    pixels = _screen(width)
    rows = rowed(pixels)
    pixels[:] = 0  # the pixels it was made from may change afterwards
    runs = 9 if width > 1 else 5  # blank, ink x3, blank, band, blank, the pixel, blank (one pixel wide: no ink)
    assert rows.rows.shape == (runs, 3 * width) and rows.nbytes == runs * 3 * width + 2 * 60
    out = np.zeros((70, width, 3), np.uint8)
    rows.paste(out[5:65])
    assert np.array_equal(out[5:65], _screen(width)) and not out[:5].any() and not out[65:].any()


def test_rowed_pixels_paste_a_box_of_them_into_a_box_of_another_array() -> None:
    out = np.zeros((80, 400, 3), np.uint8)
    rowed(_screen(300)).paste(out[7:47, 50:250], 8, 100)
    assert np.array_equal(out[7:47, 50:250], _screen(300)[8:48, 100:300])
    out[7:47, 50:250] = 0
    assert not out.any()
