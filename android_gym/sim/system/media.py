"""Media files the simulated recorders write: an ISO base media file (MP4 / M4A) without samples, as small as a
valid container can be, and a reader for its top-level boxes.

The boxes follow what ``MediaRecorder`` writes for ``OutputFormat.MPEG_4`` (AOSP
``frameworks/av/media/libstagefright/MPEG4Writer.cpp``, ``writeFtypBox`` and ``writeMvhdBox``):

* ``ftyp``: major brand ``mp42``, minor version 0, compatible brands ``isom`` and ``mp42`` (24 bytes);
* ``moov`` holding only ``mvhd`` (version 0, creation and modification time in seconds since 1904-01-01,
  time scale 1000, the duration in milliseconds, rate 1.0, volume 1.0, the identity matrix, next track id 1)
  (8 + 108 bytes).

ISO/IEC 14496-12 requires ``ftyp`` first and one ``moov`` with its ``mvhd``; tracks (``trak``) and the sample
data box (``mdat``) are optional, so the file has none: 140 bytes that any MP4 parser opens as a movie of the
recorded duration with no tracks. There is no picture or sound in it.
"""

from __future__ import annotations

import datetime as dt
import struct

#: Seconds from 1904-01-01 (the ISO base media file epoch) to 1970-01-01.
_EPOCH_1904 = (66 * 365 + 17) * 86400
_TIME_SCALE = 1000  # MPEG4Writer's default mvhd time scale: milliseconds
_IDENTITY_MATRIX = (0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000)  # writeCompositionMatrix(0)


def _box(kind: bytes, payload: bytes) -> bytes:
    """One box: 32-bit size, four-character type, payload."""
    return struct.pack(">I4s", 8 + len(payload), kind) + payload


def _ftyp() -> bytes:
    return _box(b"ftyp", b"mp42" + struct.pack(">I", 0) + b"isom" + b"mp42")


def _mvhd(duration_ms: int, created: dt.datetime) -> bytes:
    seconds = int(created.timestamp()) + _EPOCH_1904
    payload = struct.pack(">I4I", 0, seconds, seconds, _TIME_SCALE, max(duration_ms, 0))
    payload += struct.pack(">IH10x", 0x10000, 0x100)  # rate 1.0, volume 1.0, reserved
    payload += struct.pack(">9I", *_IDENTITY_MATRIX) + bytes(24)  # matrix, pre_defined
    payload += struct.pack(">I", 1)  # next_track_ID: no tracks yet
    return _box(b"mvhd", payload)


def mp4_file(duration_ms: int, created: dt.datetime) -> bytes:
    """An MP4/M4A file of ``duration_ms`` made at ``created``: ``ftyp`` + ``moov``/``mvhd`` (see the module)."""
    return _ftyp() + _box(b"moov", _mvhd(duration_ms, created))


def boxes(data: bytes) -> list[tuple[str, bytes]]:
    """The top-level boxes of an ISO base media file as ``(type, payload)``; ``ValueError`` if the sizes do not
    tile the data exactly (a truncated or foreign file)."""
    found, offset = [], 0
    while offset < len(data):
        if len(data) - offset < 8:
            raise ValueError("truncated box header")
        size, kind = struct.unpack_from(">I4s", data, offset)
        header = 8
        if size == 1:  # 64-bit largesize
            if len(data) - offset < 16:
                raise ValueError("truncated box header")
            size, header = struct.unpack_from(">Q", data, offset + 8)[0], 16
        elif size == 0:  # the box runs to the end of the file
            size = len(data) - offset
        if size < header or offset + size > len(data):
            raise ValueError(f"bad size {size} of box {kind!r}")
        found.append((kind.decode("latin-1"), data[offset + header:offset + size]))
        offset += size
    return found


def mp4_duration_ms(data: bytes) -> int | None:
    """The movie duration in milliseconds of an ISO base media file that starts with ``ftyp`` and has a ``moov``
    whose first box is ``mvhd``; ``None`` for anything else."""
    try:
        top = boxes(data)
        moov = next(payload for kind, payload in top if kind == "moov")
        kind, mvhd = boxes(moov)[0]
    except (ValueError, StopIteration, IndexError):
        return None
    if not top or top[0][0] != "ftyp" or kind != "mvhd" or len(mvhd) < 20:
        return None
    if mvhd[0] == 1:  # version 1: 64-bit times and duration
        if len(mvhd) < 32:
            return None
        scale, duration = struct.unpack_from(">IQ", mvhd, 20)
    else:
        scale, duration = struct.unpack_from(">II", mvhd, 12)
    return duration * 1000 // scale if scale else None


def is_mp4(data: bytes) -> bool:
    """Whether ``data`` is an ISO base media file (``ftyp`` first) whose movie header gives a positive duration:
    a recording that was stopped, not one cut short before its ``moov`` was written."""
    duration = mp4_duration_ms(data)
    return duration is not None and duration > 0
