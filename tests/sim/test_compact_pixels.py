"""Pixels kept compact (a ground colour and the columns where something else shows) paste as they were."""

from __future__ import annotations

import numpy as np
import pytest

from android_gym.sim.ui.compact_pixels import compacted


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
