"""Pixels of a box kept small: its ground colour and only the runs of columns where something else shows (a system
bar's clock and icons, a navigation bar's buttons: a tenth of the bar's bytes), so a renderer keeps many looks of a
bar in the bytes one took whole; or one row per run of equal rows (an app's screen: its blank rows between lines of
text and list rows, a fifth of its bytes), pasted back a row at a time by their numbers."""

from __future__ import annotations

import math
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

    def paste(self, out: np.ndarray, top: int = 0, left: int = 0) -> None:
        """Write the pixels of the box ``top`` rows down and ``left`` columns in that is ``out``'s size into ``out``
        (a box of a larger array)."""
        height, width, _ = out.shape
        out[:] = np.full((width, 3), self.ground, np.uint8)  # row by row: filling with a colour is 50x slower
        for start, pixels in self.runs:
            first, end = max(start, left), min(start + pixels.shape[1], left + width)
            if first < end:
                out[:, first - left:end - left] = pixels[top:top + height, first - start:end - start]


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


class RowPixels(NamedTuple):
    """An ``(H, W, 3)`` box of pixels kept as its runs of equal rows: ``rows``, each run's row (``(R, 3 W)``), and
    ``runs``, the number of each row's run."""

    shape: tuple[int, int, int]
    rows: np.ndarray
    runs: np.ndarray

    @property
    def nbytes(self) -> int:
        """The bytes its pixels take."""
        return self.rows.nbytes + self.runs.nbytes

    def paste(self, out: np.ndarray, top: int = 0, left: int = 0) -> None:
        """Write the pixels of the box ``top`` rows down and ``left`` columns in that is ``out``'s size into ``out``
        (a box of a larger array): whole rows taken straight into it when it is rows of a C-contiguous array (twice
        as fast as indexing the rows and copying what that makes)."""
        height, width, _ = out.shape
        runs = self.runs[top:top + height]
        if left == 0 and width == self.shape[1] and out.flags.c_contiguous:
            np.take(self.rows, runs, axis=0, out=out.reshape(height, 3 * width), mode="clip")
        else:
            out[:] = self.rows[runs, 3 * left:3 * (left + width)].reshape(height, width, 3)


def rowed(pixels: np.ndarray) -> RowPixels:
    """``pixels``, ``(H, W, 3)`` uint8, kept as ``RowPixels`` (copies: ``pixels`` may change afterwards)."""
    height, width, _ = pixels.shape
    flat = np.ascontiguousarray(pixels).reshape(height, 3 * width)
    words = flat.view(f"u{math.gcd(3 * width, 8)}")  # rows compared a word at a time: twice as fast as by bytes
    starts = np.ones(height, bool)  # the rows that start a run
    starts[1:] = (words[1:] != words[:-1]).any(axis=1)
    return RowPixels(pixels.shape, flat[starts], (np.cumsum(starts) - 1).astype(np.uint16))
