"""Pixels of a box kept small: its ground colour and only the runs of columns where something else shows (a system
bar's clock and icons, a navigation bar's buttons: a tenth of the bar's bytes), so a renderer keeps many looks of a
bar in the bytes one took whole."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class CompactPixels(NamedTuple):
    """An ``(H, W, 3)`` box of pixels: ``ground``, the colour of its top left pixel, but in the ``runs`` of columns
    (first column, their pixels) where any pixel differs from it."""

    shape: tuple[int, int, int]
    ground: np.ndarray
    runs: tuple[tuple[int, np.ndarray], ...]

    @property
    def nbytes(self) -> int:
        """The bytes its pixels take."""
        return self.ground.nbytes + sum(pixels.nbytes for _, pixels in self.runs)

    def paste(self, out: np.ndarray) -> None:
        """Write the pixels into ``out``, an array of ``shape`` (a box of a larger one)."""
        out[:] = np.full(out.shape[1:], self.ground, np.uint8)  # row by row: filling with a colour is 50x slower
        for left, pixels in self.runs:
            out[:, left:left + pixels.shape[1]] = pixels


def compacted(pixels: np.ndarray) -> CompactPixels:
    """``pixels``, ``(H, W, 3)`` uint8, kept as ``CompactPixels`` (copies: ``pixels`` may change afterwards)."""
    height, width, _ = pixels.shape
    ground = pixels[0, 0].copy()
    # compared as rows of bytes, then per column: reducing over the last two axes at once is 30x slower
    inked = (pixels.reshape(height, 3 * width) != np.tile(ground, width)).any(axis=0).reshape(width, 3).any(axis=1)
    differs = np.concatenate(([False], inked, [False]))
    edges = np.flatnonzero(np.diff(differs)).tolist()  # where runs of differing columns start and end
    runs = tuple((start, pixels[:, start:end].copy()) for start, end in zip(edges[::2], edges[1::2]))
    return CompactPixels(pixels.shape, ground, runs)
