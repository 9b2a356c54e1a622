"""Baseline JPEG pictures put together from rows of MCUs coded on their own.

With a restart interval of one MCU row (the ``DRI`` segment), each row's entropy-coded segment starts with fresh DC
predictions and ends byte-aligned before its ``RSTm`` marker (ITU-T T.81, F.1.2.3 and B.2.1; ``m`` counts 0 to 7
and wraps). A row coded in one picture is therefore the same bytes in any other picture of the same width, quality,
sampling and Huffman tables: ``JpegRows.assemble`` writes a picture from rows of several encodings, numbering the
markers anew, and it decodes exactly as the picture those rows' pixels make, encoded in one go.

Encodings here are Pillow's (libjpeg) at a given quality, 4:2:0 chroma sampling (16-pixel MCU rows) and the
standard Huffman tables (no ``optimize``), so every encoding of the same width shares its tables.
"""

from __future__ import annotations

import functools
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

MCU_ROW = 16  # 4:2:0 sampling: an MCU is 16 x 16 pixels
_SOF0, _SOS, _EOI = b"\xff\xc0", b"\xff\xda", b"\xff\xd9"
_RST = re.compile(rb"\xff[\xd0-\xd7]")  # 0xFF in entropy-coded data is stuffed with 0x00: markers are unambiguous


@dataclass(frozen=True)
class JpegRows:
    """A JPEG encoding split into its headers (``SOI`` up to and including ``SOS``) and each MCU row's
    entropy-coded segment (without its restart marker); ``rows`` may also pool the rows of several encodings."""

    header: bytes
    rows: tuple[bytes, ...]

    @classmethod
    def encode(cls, picture: Image.Image, quality: int) -> JpegRows:
        """``picture`` (RGB, its height a multiple of ``MCU_ROW``) encoded with a restart marker after every MCU
        row."""
        if picture.height % MCU_ROW:
            raise ValueError(f"the height {picture.height} is not a multiple of {MCU_ROW}")
        buffer = io.BytesIO()
        picture.save(buffer, "JPEG", quality=quality, subsampling="4:2:0", restart_marker_rows=1)
        data = buffer.getvalue()
        offset = 2  # after SOI: segments of marker, 16-bit length, payload up to the start of scan
        while data[offset:offset + 2] != _SOS:
            offset += 2 + int.from_bytes(data[offset + 2:offset + 4], "big")
        start = offset + 2 + int.from_bytes(data[offset + 2:offset + 4], "big")
        if not data.endswith(_EOI):
            raise ValueError("the encoding does not end with EOI")
        rows = tuple(_RST.split(data[start:-2]))
        if len(rows) != picture.height // MCU_ROW:
            raise ValueError("the scan does not hold one restart interval per MCU row")
        return cls(data[:start], rows)

    @functools.cached_property
    def height_rows(self) -> int:
        """How many MCU rows the picture the headers describe has (its height in the ``SOF0`` segment)."""
        start = self.header.index(_SOF0)
        return -(-int.from_bytes(self.header[start + 5:start + 7], "big") // MCU_ROW)

    def assemble(self, rows: Sequence[bytes]) -> bytes:
        """A JPEG file with these headers and ``rows`` (coded rows of any encoding of the same width and
        settings, as many as the headers' picture has)."""
        count = len(rows)
        if count != self.height_rows:
            raise ValueError(f"{count} rows for a picture of {self.height_rows}")
        parts = [self.header, *_between_rows(count), _EOI]
        parts[1:2 * count:2] = rows
        return b"".join(parts)


@functools.lru_cache(maxsize=8)
def _between_rows(count: int) -> tuple[bytes, ...]:
    """The restart markers between ``count`` rows (``RSTm``, ``m`` counting 0 to 7 and wrapping), each after an empty
    place for its row, and the last row's place."""
    return (*(part for m in range(count - 1) for part in (b"", bytes((0xFF, 0xD0 + m % 8)))), b"")
