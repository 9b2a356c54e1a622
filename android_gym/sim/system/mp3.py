"""MP3 files: silent MPEG-1 Layer III audio of an exact length with ID3v2 title and artist tags, and the reader the
media scanner uses (tags and duration from the file itself).

The audio is built here, frame by frame, as ISO/IEC 11172-3 (MPEG-1 Audio) §2.4.1.3 and §2.4.2.3 lay a frame out,
with the lower sampling frequencies of ISO/IEC 13818-3 (MPEG-2 Audio, §2.4.2.3), whose least bitrate, 8 kbit/s,
makes a song a quarter of the least MPEG-1 allows:

* a 4-byte header: syncword ``0xFFF``, ID 0 (MPEG-2 lower sampling frequencies), layer ``01`` (Layer III),
  protection bit 1 (no CRC) → ``FF F3``; bitrate index ``0001`` (8 kbit/s), sampling frequency ``01`` (24 kHz),
  padding 0, private 0 → ``14``; mode ``11`` (single channel), mode extension 0, copyright 0, original 1,
  emphasis 0 → ``C4``;
* the Layer III side information, 9 bytes for one channel and one granule (13818-3 §2.4.1.7), all zero:
  ``main_data_begin`` 0, ``part2_3_length`` 0 and ``big_values`` 0, so a decoder reconstructs zero spectral
  values — silence;
* main data filling the frame: 72 × 8000 / 24000 = 24 bytes a frame, each 576 samples = 24 ms long.

AndroidWorld's files (``user_data_generation.write_mp3_file_to_device``: pydub's silence exported by LAME) are silent
too. The first frame is a LAME "Info" frame, as LAME writes for constant bitrate files (the Xing/LAME tag,
gabriel.mp3-tech.org/mp3infotag.html), at 32 kbit/s (bitrate index ``0100`` → ``44``: 96 bytes, as a 24-byte frame
cannot hold the tag; a stream may change bitrate from frame to frame): ``Info`` at byte 13 (after the mono side
information), the flags
``0x0001 | 0x0002`` (frames and bytes fields), the number of audio frames after it and the file's audio bytes, then
the LAME extension with encoder delay 0 and the end padding (12 bits each). The padding is what makes the length
exact: the frames hold ``ceil(ms × 24 / 576)`` × 576 samples and the tag says how many of the last frame's samples
are padding, so a reader that honours the LAME tag (``mutagen`` does) gives ``ms`` exactly.

The ID3v2.4 tag in front (``TIT2`` title, ``TPE1`` artist) holds the bytes ``mutagen`` (a small, pure-Python,
well-kept tag library) writes for them, put together here in a few microseconds (``mutagen`` takes ~75). The scanner
reads files laid out as this module writes them (``_read_plain``: an ID3v2.4 tag of plain text frames, then the LAME
Info frame) with ``struct`` in a few microseconds, and gives them the numbers ``mutagen`` gives (the tests compare the
two); any other file (other frames, flags, encodings, an ID3v1 tag at the end, no Info frame) is read with
``mutagen``, a real MP3 parser, at ~0.25 ms a file.
"""

from __future__ import annotations

import io
import math
import struct
from dataclasses import dataclass
from typing import BinaryIO

from mutagen import MutagenError
from mutagen.id3 import ID3
from mutagen.mp3 import MP3, HeaderNotFoundError

SAMPLE_RATE = 24_000
SAMPLES_PER_FRAME = 576  # MPEG-2 Layer III: one granule
FRAME_BYTES = 24  # 72 * 8 kbit/s / 24 kHz, no padding slot
INFO_FRAME_BYTES = 96  # 72 * 32 kbit/s / 24 kHz
_HEADER = bytes((0xFF, 0xF3, 0x14, 0xC4))  # see the module docstring
_INFO_HEADER = bytes((0xFF, 0xF3, 0x44, 0xC4))  # the same at 32 kbit/s
_SIDE_INFO = 9  # one channel, one granule
_INFO_FLAGS = 0x0001 | 0x0002  # frames, bytes
_LAME_VERSION = b"LAME3.100"
MIME_TYPE = "audio/mpeg"


def _silent_frame() -> bytes:
    return _HEADER + bytes(FRAME_BYTES - len(_HEADER))


def _info_frame(frames: int, padding: int) -> bytes:
    """The LAME "Info" frame: the Xing fields (frames after it, audio bytes including it), then the LAME extension
    (version string, revision/VBR method 1 = CBR, lowpass, peak, gains, flags, bitrate, delay/padding, ...)."""
    xing = b"Info" + struct.pack(">III", _INFO_FLAGS, frames, INFO_FRAME_BYTES + frames * FRAME_BYTES)
    delay_padding = (0 << 12 | padding).to_bytes(3, "big")
    lame = (_LAME_VERSION + bytes([0x01, 0]) + bytes(4) + bytes(4) + bytes([0, 32]) + delay_padding
            + bytes(12))
    body = _INFO_HEADER + bytes(_SIDE_INFO) + xing + lame
    return body + bytes(INFO_FRAME_BYTES - len(body))


def _audio_parts(duration_ms: int) -> tuple[bytes, memoryview]:
    """The Info frame and the silent frames of ``duration_ms`` (a view, not a copy, of ``_silent_run``)."""
    samples = max(duration_ms, 0) * SAMPLE_RATE // 1000
    frames = max(math.ceil(samples / SAMPLES_PER_FRAME), 1)
    return _info_frame(frames, frames * SAMPLES_PER_FRAME - samples), _silent_run(frames)


_silence = b""  # the longest run of silent frames made so far (at least 6 minutes' worth)


def _silent_run(frames: int) -> memoryview:
    """``frames`` silent frames, as a view of one run kept in memory: making a song copies its audio once, into
    the file."""
    global _silence
    size = frames * FRAME_BYTES
    if len(_silence) < size:
        _silence = _silent_frame() * max(frames, 15_000)
    return memoryview(_silence)[:size]


def audio_frames(duration_ms: int) -> bytes:
    """The MPEG audio of ``duration_ms`` of silence (at least one frame): the Info frame, then the frames."""
    return b"".join(_audio_parts(duration_ms))


def id3_tag(title: str, artist: str) -> bytes:
    """The ID3v2.4 tag ``mutagen`` writes for ``TIT2`` ``title`` and ``TPE1`` artist in UTF-8 without padding (the tests
    compare the bytes), put together here: the header (``ID3``, version 4.0, no flags, the syncsafe size of what
    follows; ID3v2.4 §3.1), then each frame's id, syncsafe size and no flags (§4.1), and its text: encoding $03
    (UTF-8) and the text with its NUL terminator (§4.2); an empty text has no frame, as ``mutagen`` leaves it out."""
    frames = b"".join(_text_frame(frame_id, text) for frame_id, text in ((b"TIT2", title), (b"TPE1", artist)) if text)
    return b"ID3\x04\0\0" + _syncsafe(len(frames)) + frames


def _text_frame(frame_id: bytes, text: str) -> bytes:
    data = b"\x03" + text.encode("utf-8") + b"\0"
    return frame_id + _syncsafe(len(data)) + b"\0\0" + data


def _syncsafe(size: int) -> bytes:
    """``size`` in four bytes of seven bits (ID3v2.4 §6.2): each byte's top bit clear, the bits above moved up."""
    spread = (size & 0xFE00000) << 3 | (size & 0x1FC000) << 2 | (size & 0x3F80) << 1 | size & 0x7F
    return spread.to_bytes(4, "big")


def mp3_file(duration_ms: int, title: str, artist: str) -> bytes:
    """A silent MP3 of exactly ``duration_ms`` with an ID3v2.4 tag holding ``title`` and ``artist``."""
    return b"".join(mp3_parts(duration_ms, title, artist))


def mp3_parts(duration_ms: int, title: str, artist: str) -> tuple[bytes, bytes, memoryview]:
    """``mp3_file`` in its three parts: the tag, the Info frame and the silent frames (a view of the run kept in
    memory, which a writer of the parts copies once, into the file)."""
    return (id3_tag(title, artist), *_audio_parts(duration_ms))


@dataclass(frozen=True)
class AudioInfo:
    """What the media scanner reads from an audio file: its tags (empty when absent) and length in ms."""

    title: str
    artist: str
    album: str
    duration_ms: int


def _text(tags: ID3 | None, frame: str) -> str:
    found = tags.get(frame) if tags is not None else None
    return str(found.text[0]) if found is not None and found.text else ""


def read_mp3(source: bytes | BinaryIO) -> AudioInfo | None:
    """The tags and duration of an MP3 file (its bytes, or a seekable binary file, of which only the head and the tail
    are read); ``None`` when it holds no MPEG audio frame."""
    file = io.BytesIO(source) if isinstance(source, bytes) else source
    plain = _read_plain(file)
    if plain is not None:
        return plain
    file.seek(0)
    return _read_mutagen(file)


_TAG_TEXTS = {"TIT2": 0, "TPE1": 1, "TALB": 2}  # title, artist, album: AudioInfo's fields in order
_TEXT_ENCODINGS = {0: "latin-1", 3: "utf-8"}  # ID3v2.4 §4.2's text encodings $00 and $03 (one byte a character)
_LAME_REVISION_0_CBR = 0x01  # the LAME tag's revision (high nibble, 0) and VBR method (1: constant bitrate)


def _read_plain(file: BinaryIO) -> AudioInfo | None:
    """The file's ``AudioInfo`` read with ``struct`` when it is laid out as ``mp3_file`` writes it, ``None`` when it is
    not (then ``_read_mutagen`` reads it): an ID3v2.4 tag without flags (ID3v2.4 §3.1) whose frames are ``TIT2``,
    ``TPE1`` or ``TALB``, none twice, without flags, each under 128 bytes (a v2.4 size then reads the same as a
    syncsafe or a plain integer, the two ``mutagen`` chooses between), one value (with or without its NUL) in
    encoding $00 or $03, then padding; right after it the LAME Info frame this module writes (``_info_frame``:
    frames and bytes fields, LAME 3.100, revision 0); and no ``TAG`` (ID3v1) in the last 131 bytes, where
    ``mutagen`` looks for one. The length is ``mutagen``'s: the frames' samples less the LAME tag's encoder delay
    and end padding, over the sampling rate, in ms."""
    header = file.read(10)
    if header[:6] != b"ID3\x04\0\0" or len(header) < 10 or int.from_bytes(header[6:], "big") & 0x80808080:
        return None
    size = header[6] << 21 | header[7] << 14 | header[8] << 7 | header[9]  # syncsafe: 7 bits a byte
    head = file.read(size + INFO_FRAME_BYTES)
    if len(head) < size + INFO_FRAME_BYTES:
        return None
    texts = ["", "", ""]
    seen: set[str] = set()
    offset = 0
    while offset + 10 <= size and head[offset] != 0:  # a NUL where a frame would start: padding
        name, frame_size, flags = struct.unpack_from(">4sLH", head, offset)
        frame_id = name.decode("latin-1")
        end = offset + 10 + frame_size
        if frame_id not in _TAG_TEXTS or frame_id in seen or flags or not 1 < frame_size < 0x80 or end > size:
            return None
        encoding, text = head[offset + 10], head[offset + 11:end].removesuffix(b"\0")  # its terminator
        if encoding not in _TEXT_ENCODINGS or not text or b"\0" in text:
            return None
        try:
            texts[_TAG_TEXTS[frame_id]] = text.decode(_TEXT_ENCODINGS[encoding])
        except UnicodeDecodeError:
            return None
        seen.add(frame_id)
        offset = end
    if not seen or any(head[offset:size]):
        return None
    frame = head[size:]
    xing = 4 + _SIDE_INFO
    if frame[:4] != _INFO_HEADER or frame[xing:xing + 4] != b"Info" \
            or struct.unpack_from(">I", frame, xing + 4)[0] != _INFO_FLAGS:
        return None
    frames = struct.unpack_from(">I", frame, xing + 8)[0]
    lame = xing + 16
    if frame[lame:lame + 9] != _LAME_VERSION or frame[lame + 9] != _LAME_REVISION_0_CBR:
        return None
    delay_padding = int.from_bytes(frame[lame + 21:lame + 24], "big")
    end = file.seek(0, io.SEEK_END)  # the file's size
    if end < 10 + size + 131:
        return None
    file.seek(end - 131)
    if b"TAG" in file.read(131):
        return None
    samples = max(frames * SAMPLES_PER_FRAME - (delay_padding >> 12) - (delay_padding & 0xFFF), 0)
    return AudioInfo(*texts, round(samples / SAMPLE_RATE * 1000))


def _read_mutagen(file: BinaryIO) -> AudioInfo | None:
    """The file's ``AudioInfo`` as ``mutagen`` reads it."""
    try:
        # The ID3 tag too (None when there is none), not translated to ID3v2.4 (a third of the read): title, artist
        # and album are TIT2, TPE1 and TALB in every version as mutagen loads it (an ID3v2.2 tag's TT2, TP1, TAL too).
        audio = MP3(file, translate=False)
    except (HeaderNotFoundError, MutagenError, ValueError, struct.error):
        return None
    tags = audio.tags
    return AudioInfo(_text(tags, "TIT2"), _text(tags, "TPE1"), _text(tags, "TALB"),
                     round(audio.info.length * 1000))
