"""Opaque RGBA8888 copies of the screen's RGB frames: what ``screencap`` and the emulator's gRPC screenshots send."""

from __future__ import annotations

import sys

import numpy as np
from PIL import Image

#: References to a kept buffer while nothing outside holds it: the list of buffers, the loop's name for it, and
#: ``sys.getrefcount``'s argument.
_UNHELD = 3


class RgbaFrames:
    """Widens RGB frames to opaque RGBA in one pass: Pillow's raw decoder unpacks the RGB rows (``RGB`` to
    ``RGBX``: the fourth byte 255) straight into a buffer this keeps, mapped as an image; a buffer nobody else
    holds any more (no view of it is being sent) is written again, so a 10 MB frame is neither allocated nor
    faulted in anew. At 1080x2400 1.3 ms of CPU, against 3.4 ms for a Pillow image of the frame packed as
    ``RGBX`` (two passes) and 14 ms for NumPy's strided copy."""

    def __init__(self) -> None:
        self._buffers: list[bytearray] = []

    def widened(self, rgb: np.ndarray) -> memoryview:
        """``rgb`` (``(H, W, 3)`` uint8, C-contiguous) as RGBA bytes, rows from the top: a read-only view that stays
        as it is for as long as anything holds it."""
        height, width, _ = rgb.shape
        buffer = self._free_buffer(width * height * 4)
        target = Image.frombuffer("RGBX", (width, height), buffer, "raw", "RGBX", 0, 1)  # maps it, no copy
        decoder = Image._getdecoder("RGBX", "raw", ("RGB",))  # what ``frombytes`` uses, into the mapped buffer
        try:
            decoder.setimage(target.im, (0, 0, width, height))
            consumed, error = decoder.decode(rgb)
        finally:
            decoder.cleanup()
        if consumed >= 0 or error:  # a negative count: the image is complete
            raise ValueError(f"widening a {width}x{height} frame to RGBA failed (decoder status {consumed}, {error})")
        return memoryview(buffer).toreadonly()

    def _free_buffer(self, size: int) -> bytearray:
        """A kept buffer of ``size`` bytes nothing else holds, or a new one (kept too; at most two are)."""
        for buffer in self._buffers:
            if len(buffer) == size and sys.getrefcount(buffer) == _UNHELD:
                return buffer
        buffer = bytearray(size)
        self._buffers = [*self._buffers[-1:], buffer]
        return buffer
