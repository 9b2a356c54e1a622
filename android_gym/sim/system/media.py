"""Media files: what the simulated recorders write (an ISO base media file, MP4 / M4A, without samples, as small as
a valid container can be), videos whose frames show messages (Motion-JPEG in MP4), and readers for both.

The boxes follow what ``MediaRecorder`` writes for ``OutputFormat.MPEG_4`` (AOSP
``frameworks/av/media/libstagefright/MPEG4Writer.cpp``, ``writeFtypBox`` and ``writeMvhdBox``):

* ``ftyp``: major brand ``mp42``, minor version 0, compatible brands ``isom`` and ``mp42`` (24 bytes);
* ``moov`` holding only ``mvhd`` (version 0, creation and modification time in seconds since 1904-01-01,
  time scale 1000, the duration in milliseconds, rate 1.0, volume 1.0, the identity matrix, next track id 1)
  (8 + 108 bytes).

ISO/IEC 14496-12 requires ``ftyp`` first and one ``moov`` with its ``mvhd``; tracks (``trak``) and the sample
data box (``mdat``) are optional, so the file has none: 140 bytes that any MP4 parser opens as a movie of the
recorded duration with no tracks. There is no picture or sound in it.

Videos with pictures (``message_video``, AndroidWorld's ``user_data_generation._create_mpeg_with_messages``) are
MP4 files with one Motion-JPEG video track, laid out as ISO/IEC 14496-12 describes: ``ftyp``, ``mdat`` (the JPEG
frames back to back), then ``moov`` with ``mvhd`` and one ``trak``: ``tkhd``, ``mdia`` (``mdhd``, ``hdlr``
``vide``, ``minf`` with ``vmhd``, ``dinf``/``dref`` and ``stbl``: ``stsd`` with a QuickTime ``jpeg`` (Photo - JPEG)
visual sample entry of the frame size, ``stts`` (each frame's duration), ``stsc`` (all frames in one chunk),
``stsz`` and ``stco``). ``video_track`` reads those tables back; ``VideoTrack.sample_at`` and ``frame`` give the
picture shown at a time, so a player's pixels come from the file alone. AndroidWorld encodes MPEG-4 Part 2
(``mp4v``) at 30 fps; these files hold one frame per second (a message shown for 8 s is 8 frames, each with fresh
noise, as there), which keeps a task's 25 videos to about a megabyte. The noise is made once per process: eight
noise pictures encoded with a restart marker after every row of MCUs (``jpeg_rows``), and each 16-pixel row of a
frame is one of their 120 rows, drawn at random; only the rows the message covers are encoded per frame, so a task's
videos take a few milliseconds to make. A
``frame_s`` as long as the display time gives one frame held for all of it (an ``stts`` duration of that length),
as the noise videos of ``MarkorTranscribeVideo`` use: AndroidWorld's show their string for 20 to 180 s at 1 fps.
"""

from __future__ import annotations

import bisect
import datetime as dt
import functools
import io
import struct
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from PIL import Image

from android_gym.sim.system.jpeg_rows import MCU_ROW, JpegRows
from android_gym.sim.ui.glyph_masks import line_picture

#: Seconds from 1904-01-01 (the ISO base media file epoch) to 1970-01-01.
_EPOCH_1904 = (66 * 365 + 17) * 86400
_TIME_SCALE = 1000  # MPEG4Writer's default mvhd time scale: milliseconds
_IDENTITY_MATRIX = (0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000)  # writeCompositionMatrix(0)
#: ``_create_mpeg_with_messages``: 320x240 frames, the message from (50, height // 2) in (0, 255, 255) BGR.
VIDEO_SIZE = (320, 240)
_TEXT_COLOR = (255, 255, 0)
_FONT_SIZE = 32  # Pillow's bundled font at about the height of cv2's FONT_HERSHEY_SIMPLEX at scale 1
_JPEG_QUALITY = 30
_NOISE_PICTURES, _NOISE_SEED = 8, 0  # the noise pictures frames take their rows from (see message_frames)
_UND = (0x15 << 10) | (0x0E << 5) | 0x04  # ISO 639-2 "und" packed in three 5-bit letters


def _box_header(kind: bytes, payload_size: int) -> bytes:
    """A box's header: 32-bit size, four-character type."""
    return struct.pack(">I4s", 8 + payload_size, kind)


def _box(kind: bytes, payload: bytes) -> bytes:
    """One box: its header, then the payload."""
    return _box_header(kind, len(payload)) + payload


@functools.cache
def _ftyp() -> bytes:
    return _box(b"ftyp", b"mp42" + struct.pack(">I", 0) + b"isom" + b"mp42")


def _full_box(kind: bytes, flags: int, payload: bytes) -> bytes:
    """A full box: version 0 and 24-bit flags before the payload."""
    return _box(kind, struct.pack(">I", flags) + payload)


def _seconds_1904(created: dt.datetime) -> int:
    return int(created.timestamp()) + _EPOCH_1904


def _mvhd(duration_ms: int, created: dt.datetime, next_track: int = 1) -> bytes:
    seconds = _seconds_1904(created)
    payload = struct.pack(">I4I", 0, seconds, seconds, _TIME_SCALE, max(duration_ms, 0))
    payload += struct.pack(">IH10x", 0x10000, 0x100)  # rate 1.0, volume 1.0, reserved
    payload += struct.pack(">9I", *_IDENTITY_MATRIX) + bytes(24)  # matrix, pre_defined
    payload += struct.pack(">I", next_track)  # next_track_ID
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


# ----- Motion-JPEG videos -------------------------------------------------------------------------------------
@functools.lru_cache(maxsize=8)
def _stsd(width: int, height: int) -> bytes:
    """``stsd`` with one visual sample entry ``jpeg``: data reference 1, the frame size, 72 dpi, one frame per
    sample, the compressor name "Photo - JPEG", 24-bit colour (kept: every video of a size has the same)."""
    name = b"Photo - JPEG"
    payload = bytes(6) + struct.pack(">H", 1) + bytes(16) + struct.pack(">HHII", width, height, 0x480000, 0x480000)
    payload += bytes(4) + struct.pack(">H", 1) + (bytes([len(name)]) + name).ljust(32, b"\0")
    payload += struct.pack(">Hh", 0x18, -1)
    return _full_box(b"stsd", 0, struct.pack(">I", 1) + _box(b"jpeg", payload))


@functools.cache
def _video_handler() -> tuple[bytes, bytes]:
    """What every video track's ``mdia`` holds but its times and tables: the ``hdlr`` box (``vide``) and the start
    of ``minf``'s payload, ``vmhd`` and ``dinf`` (one ``dref`` entry: the data is in this file)."""
    hdlr = _full_box(b"hdlr", 0, struct.pack(">I4s12x", 0, b"vide") + b"VideoHandler\0")
    dinf = _box(b"dinf", _full_box(b"dref", 0, struct.pack(">I", 1) + _full_box(b"url ", 1, b"")))
    return hdlr, _full_box(b"vmhd", 1, bytes(8)) + dinf


def _stbl(size: tuple[int, int], durations: Sequence[int], sizes: Sequence[int], offset: int) -> bytes:
    """The sample tables: equal durations run-length coded in ``stts``, one chunk at ``offset``."""
    runs: list[list[int]] = []
    for duration in durations:
        if runs and runs[-1][1] == duration:
            runs[-1][0] += 1
        else:
            runs.append([1, duration])
    stts = struct.pack(f">I{2 * len(runs)}I", len(runs), *(value for run in runs for value in run))
    return _box(b"stbl", b"".join((
        _stsd(*size),
        _full_box(b"stts", 0, stts),
        _full_box(b"stsc", 0, struct.pack(">4I", 1, 1, len(sizes), 1)),
        _full_box(b"stsz", 0, struct.pack(f">II{len(sizes)}I", 0, len(sizes), *sizes)),
        _full_box(b"stco", 0, struct.pack(">II", 1, offset)))))


def _trak(size: tuple[int, int], durations: Sequence[int], sizes: Sequence[int], offset: int,
          created: dt.datetime) -> bytes:
    """Track 1: ``tkhd`` (enabled, in the movie), ``mdia`` with a millisecond ``mdhd``, the ``vide`` handler and
    ``minf``."""
    seconds, duration, (width, height) = _seconds_1904(created), sum(durations), size
    tkhd = struct.pack(">5I8x4H", seconds, seconds, 1, 0, duration, 0, 0, 0, 0)  # layer, group, volume 0
    tkhd += struct.pack(">9I", *_IDENTITY_MATRIX) + struct.pack(">II", width << 16, height << 16)
    mdhd = struct.pack(">4IHH", seconds, seconds, _TIME_SCALE, duration, _UND, 0)
    hdlr, media_information = _video_handler()
    minf = _box(b"minf", media_information + _stbl(size, durations, sizes, offset))
    mdia = _box(b"mdia", _full_box(b"mdhd", 0, mdhd) + hdlr + minf)
    return _box(b"trak", _full_box(b"tkhd", 3, tkhd) + mdia)


def mjpeg_mp4(frames: Sequence[tuple[bytes, int]], size: tuple[int, int], created: dt.datetime) -> bytes:
    """An MP4 of one Motion-JPEG track: ``frames`` are ``(JPEG bytes, duration in ms)`` of pictures ``size``
    (width, height) big (see the module)."""
    if not frames:
        raise ValueError("a video needs at least one frame")
    head = _ftyp()
    durations, sizes = [duration for _, duration in frames], [len(jpeg) for jpeg, _ in frames]
    moov = _box(b"moov", _mvhd(sum(durations), created, next_track=2)
                + _trak(size, durations, sizes, len(head) + 8, created))
    # One join, the frames copied once: each copy of a file this big is a new allocation, paid in page faults
    return b"".join((head, _box_header(b"mdat", sum(sizes)), *(jpeg for jpeg, _ in frames), moov))


@dataclass(frozen=True)
class _Text:
    """Where ``_create_mpeg_with_messages`` draws a message (``_text``): its mask cropped to its ink, a picture of
    that size all in the message's colour (pasting it through the mask is Pillow's faster blend, the same pixels
    as pasting the colour), and the box they cover in the frame."""

    mask: Image.Image
    ink: Image.Image
    box: tuple[int, int, int, int]


@functools.lru_cache(maxsize=64)
def _text(message: str) -> _Text:
    """Where ``_create_mpeg_with_messages`` draws the message, from (50, height // 2) (its baseline), two pixels
    thick, antialiased (see ``_Text``)."""
    mask, (left, top) = line_picture(message, _FONT_SIZE, stroke=1)
    (x, y), (width, height) = (50 + left, VIDEO_SIZE[1] // 2 + top), VIDEO_SIZE  # x, y: the mask's top left
    inside = (max(0, -x), max(0, -y), min(mask.width, width - x), min(mask.height, height - y))  # in the picture
    ink = mask.crop(inside).getbbox() if inside[0] < inside[2] and inside[1] < inside[3] else None
    if ink is None:
        return _Text(Image.new("L", (1, 1), 0), Image.new("RGB", (1, 1), _TEXT_COLOR), (0, 0, 1, 1))
    box = (inside[0] + ink[0], inside[1] + ink[1], inside[0] + ink[2], inside[1] + ink[3])  # in the mask
    cut = mask.crop(box)
    return _Text(cut, Image.new("RGB", cut.size, _TEXT_COLOR), (x + box[0], y + box[1], x + box[2], y + box[3]))


@functools.cache
def _noise_rows() -> tuple[np.ndarray, JpegRows]:
    """The 16-pixel rows of ``_NOISE_PICTURES`` pictures of uniform random bytes (what ``rng.integers(0, 256,
    (height, width, 3), dtype=np.uint8)`` gives, drawn from ``_NOISE_SEED``), made and JPEG-encoded once per process:
    their pixels, shape ``(rows, 16, width, 3)``, and their encodings (a row's coded bytes fit any row of a frame)."""
    (width, height), rng = VIDEO_SIZE, np.random.default_rng(_NOISE_SEED)
    pixels = np.frombuffer(rng.bytes(_NOISE_PICTURES * height * width * 3), dtype=np.uint8)
    pixels = pixels.reshape(_NOISE_PICTURES, height, width, 3)
    encodings = [JpegRows.encode(Image.fromarray(picture), _JPEG_QUALITY) for picture in pixels]
    rows = JpegRows(encodings[0].header, tuple(row for encoding in encodings for row in encoding.rows))
    return pixels.reshape(-1, MCU_ROW, width, 3), rows


@functools.cache
def _noise_row_pictures() -> tuple[Image.Image, ...]:
    """Each 16-pixel row of ``_noise_rows``' pixels as a picture of its own, made once per process: pasted into the
    picture of the rows a message covers, which costs a fraction of gathering them in NumPy and converting that."""
    return tuple(Image.fromarray(row) for row in _noise_rows()[0])


@dataclass(frozen=True)
class _Frame:
    """One frame of a message video: the noise row (of ``_noise_rows``) in each of its MCU rows, the message and
    how long the frame shows."""

    sources: tuple[int, ...]
    message: str
    duration_ms: int

    def noise(self) -> np.ndarray:
        """The frame's noise, as pixels."""
        pixels = _noise_rows()[0]
        return np.concatenate([pixels[source] for source in self.sources])


def _frames(messages: Sequence[str], display_s: int, seed: int | Sequence[int], frame_s: int) -> list[_Frame]:
    """The frames of a message video (see ``message_frames``); each draws the noise row of each of its MCU rows
    from ``np.random.default_rng(seed)``, frame after frame (in one draw: the same numbers as one a frame)."""
    if display_s < 1 or frame_s < 1:
        raise ValueError("messages show for at least a second, frames last at least a second")
    rows, count = VIDEO_SIZE[1] // MCU_ROW, -(-display_s // frame_s)
    durations = [frame_s * 1000] * (count - 1) + [(display_s - (count - 1) * frame_s) * 1000]
    timed = [(message, duration) for message in messages for duration in durations]
    sources = np.random.default_rng(seed).integers(_NOISE_PICTURES * rows, size=(len(timed), rows)).tolist()
    return [_Frame(tuple(row), message, duration) for row, (message, duration) in zip(sources, timed)]


def _stamp(picture: Image.Image, message: str, top: int) -> None:
    """Paste the message in yellow into ``picture`` (a picture of its own, pasted into at its core, without
    ``Image.paste``'s checks), whose first row is the frame's row ``top``."""
    text = _text(message)
    left, upper, right, lower = text.box
    picture.im.paste(text.ink.im, (left, upper - top, right, lower - top), text.mask.im)


def _stamped(noise: np.ndarray, message: str) -> Image.Image:
    """``noise`` (a whole frame's pixels) with the message pasted in yellow."""
    picture = Image.fromarray(noise).copy()  # its own pixels, not the array's
    _stamp(picture, message, 0)
    return picture


def message_frames(messages: Sequence[str], display_s: int, seed: int | Sequence[int],
                   frame_s: int = 1) -> list[tuple[Image.Image, int]]:
    """The frames of a video showing each message in yellow on uniform random noise for ``display_s`` seconds, a
    new frame (fresh noise) every ``frame_s`` seconds, as ``(picture, duration in ms)``. A frame's noise is made of
    16-pixel rows, each one of the rows of ``_NOISE_PICTURES`` noise pictures made once per process, chosen with
    ``np.random.default_rng(seed)``."""
    return [(_stamped(frame.noise(), frame.message), frame.duration_ms)
            for frame in _frames(messages, display_s, seed, frame_s)]


def _frame_jpegs(frames: Sequence[_Frame]) -> list[bytes]:
    """The frames as JPEGs (quality 30): the MCU rows a frame's message covers encoded, the others copied from the
    noise pictures' encodings. The message rows of all the frames are encoded as one picture, one frame's below the
    other's: each row is coded on its own (``jpeg_rows``), so it is the same bytes as in the frame's own encoding,
    and one encoding costs a fraction of one per frame."""
    if not frames:
        return []
    noise = _noise_rows()[1]
    spans = []
    for frame in frames:
        _, upper, _, lower = _text(frame.message).box
        spans.append((upper // MCU_ROW, -(-lower // MCU_ROW)))
    rows, width = _noise_row_pictures(), VIDEO_SIZE[0]
    picture = Image.new("RGB", (width, sum(last - first for first, last in spans) * MCU_ROW))
    canvas, at = picture.im, 0  # at: where the frame's rows start in the picture
    for frame, (first, last) in zip(frames, spans):
        for y, source in zip(range(at, at + (last - first) * MCU_ROW, MCU_ROW), frame.sources[first:last]):
            canvas.paste(rows[source].im, (0, y, width, y + MCU_ROW))
        _stamp(picture, frame.message, first * MCU_ROW - at)
        at += (last - first) * MCU_ROW
    coded = iter(JpegRows.encode(picture, _JPEG_QUALITY).rows)
    jpegs = []
    for frame, (first, last) in zip(frames, spans):
        band = [next(coded) for _ in range(first, last)]
        jpegs.append(noise.assemble([band[row - first] if first <= row < last else noise.rows[source]
                                     for row, source in enumerate(frame.sources)]))
    return jpegs


@dataclass(frozen=True)
class MessageVideo:
    """What ``message_video`` takes to make a video: its messages, how long each shows, the seed of its noise and
    how long a frame lasts."""

    messages: Sequence[str]
    display_s: int
    seed: int | Sequence[int]
    frame_s: int = 1


def message_video(messages: Sequence[str], display_s: int, seed: int | Sequence[int], created: dt.datetime,
                  frame_s: int = 1) -> bytes:
    """``message_frames`` as an MP4 file (JPEG quality 30)."""
    return message_videos([MessageVideo(messages, display_s, seed, frame_s)], created)[0]


def message_videos(videos: Sequence[MessageVideo], created: dt.datetime) -> list[bytes]:
    """``message_video`` of each of ``videos``, their frames' JPEGs made together (``_frame_jpegs``)."""
    frames = [_frames(video.messages, video.display_s, video.seed, video.frame_s) for video in videos]
    jpegs = iter(_frame_jpegs([frame for video_frames in frames for frame in video_frames]))
    return [mjpeg_mp4([(next(jpegs), frame.duration_ms) for frame in video_frames], VIDEO_SIZE, created)
            for video_frames in frames]


@dataclass(frozen=True)
class VideoTrack:
    """A video track as its sample tables describe it: sample entry type, frame size, duration, and each
    sample's start time (ms), file offset and size."""

    codec: str
    width: int
    height: int
    duration_ms: int
    starts_ms: tuple[int, ...]
    offsets: tuple[int, ...]
    sizes: tuple[int, ...]

    def sample_at(self, time_ms: int) -> int:
        """The index of the sample shown at ``time_ms`` (the last one that started by then)."""
        return max(bisect.bisect_right(self.starts_ms, time_ms) - 1, 0)

    def frame(self, data: bytes, index: int) -> Image.Image | None:
        """Sample ``index`` of the file ``data`` decoded as a picture; ``None`` if it is not one Pillow reads."""
        start, end = self.offsets[index], self.offsets[index] + self.sizes[index]
        if end > len(data):
            return None
        try:
            with Image.open(io.BytesIO(data[start:end])) as image:
                return image.convert("RGB")
        except (OSError, ValueError):
            return None


def _child(payload: bytes, kind: str) -> bytes:
    """The payload of the first child box ``kind``; ``KeyError`` if there is none."""
    for child, body in boxes(payload):
        if child == kind:
            return body
    raise KeyError(kind)


def _table(body: bytes, fields: int) -> list[tuple[int, ...]]:
    """A full box's ``entry_count`` entries of ``fields`` 32-bit numbers each."""
    (count,) = struct.unpack_from(">I", body, 4)
    values = struct.unpack_from(f">{count * fields}I", body, 8)
    return [values[i:i + fields] for i in range(0, len(values), fields)]


def _sample_offsets(stbl: bytes, sizes: Sequence[int]) -> list[int]:
    """Each sample's file offset from ``stsc`` (samples per chunk) and ``stco``/``co64`` (chunk offsets)."""
    kinds = dict(boxes(stbl))
    if "co64" in kinds:
        (count,) = struct.unpack_from(">I", kinds["co64"], 4)
        chunks = list(struct.unpack_from(f">{count}Q", kinds["co64"], 8))
    else:
        chunks = [offset for (offset,) in _table(kinds["stco"], 1)]
    runs = _table(kinds["stsc"], 3)
    offsets: list[int] = []
    for chunk, offset in enumerate(chunks, start=1):
        per_chunk = next(samples for first, samples, _ in reversed(runs) if first <= chunk)
        for _ in range(per_chunk):
            if len(offsets) == len(sizes):
                return offsets
            offsets.append(offset)
            offset += sizes[len(offsets) - 1]
    if len(offsets) != len(sizes):
        raise ValueError("the chunks hold fewer samples than stsz lists")
    return offsets


def _parse_track(trak: bytes) -> VideoTrack | None:
    """The track's tables, or ``None`` for a track that is not video."""
    mdia = _child(trak, "mdia")
    if _child(mdia, "hdlr")[8:12] != b"vide":
        return None
    mdhd = _child(mdia, "mdhd")
    scale, duration = struct.unpack_from(">IQ" if mdhd[0] == 1 else ">II", mdhd, 20 if mdhd[0] == 1 else 12)
    stbl = _child(_child(mdia, "minf"), "stbl")
    codec, entry = boxes(_child(stbl, "stsd")[8:])[0]
    width, height = struct.unpack_from(">HH", entry, 24)
    fixed, count = struct.unpack_from(">II", _child(stbl, "stsz"), 4)
    sizes = [fixed] * count if fixed else list(struct.unpack_from(f">{count}I", _child(stbl, "stsz"), 12))
    starts, time = [], 0
    for samples, delta in _table(_child(stbl, "stts"), 2):
        for _ in range(samples):
            starts.append(time * 1000 // scale)
            time += delta
    if not scale or len(starts) != count:
        raise ValueError("stts and stsz disagree")
    return VideoTrack(codec, width, height, duration * 1000 // scale, tuple(starts),
                      tuple(_sample_offsets(stbl, sizes)), tuple(sizes))


def video_track(data: bytes) -> VideoTrack | None:
    """The first video track (handler ``vide``) of an ISO base media file, read from its ``moov``; ``None`` when
    the file has none or its tables are broken."""
    try:
        moov = next(body for kind, body in boxes(data) if kind == "moov")
        for kind, trak in boxes(moov):
            track = _parse_track(trak) if kind == "trak" else None
            if track is not None:
                return track
    except (ValueError, KeyError, IndexError, StopIteration, struct.error):
        return None
    return None
