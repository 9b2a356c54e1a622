"""The standard streams of running commands: shared input, output buffers and redirection sinks."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from android_gym.sim.shell.errors import check_size

#: A standard input that arrives over time (adbd's stream): ``source(size)`` returns all the input received so far
#: once it holds at least ``size`` bytes or has ended; ``source(None)`` once it has ended.
StdinSource = Callable[[int | None], bytes]


#: Immutable writes at least this large are kept as they are, not copied into an output's buffer.
SHARED_MIN_BYTES = 64 * 1024


class Output:
    """What was written to one output stream (a command's, a pipe's, a script's), in order.

    Small writes are gathered in a buffer; a large immutable write (``bytes``, or a read-only view whose owner
    keeps it unchanged while it is held: a screenshot's frame, a file's contents) is kept as it is, and so is it
    when one output is written to another (a command's to its shell's). Output handed from ``screencap`` to the
    shell and on to adbd is therefore never copied: a 1080x2400 frame is 10 MB.
    """

    __slots__ = ("_parts", "_size")

    def __init__(self) -> None:
        self._parts: list[bytes | bytearray | memoryview] = []  # the bytearrays are this output's own
        self._size = 0

    def __len__(self) -> int:
        return self._size

    @property
    def parts(self) -> tuple[bytes | bytearray | memoryview, ...]:
        """The pieces that make up the output, in order (not to be changed)."""
        return tuple(self._parts)

    def write(self, data: bytes | bytearray | memoryview | Output) -> None:
        """Append ``data``; raises ``_OutOfMemory`` past ``MAX_BYTES`` (nothing is added then)."""
        size = len(data)
        if not size:  # most commands write nothing to one of their streams
            return
        check_size(self._size + size)
        for part in data._parts if isinstance(data, Output) else (data,):
            if _immutable(part) and len(part) >= SHARED_MIN_BYTES:
                self._parts.append(part)
            elif part:
                if not self._parts or not isinstance(self._parts[-1], bytearray):
                    self._parts.append(bytearray())
                self._parts[-1] += part
        self._size += size

    def getvalue(self) -> bytes:
        """All of the output in one ``bytes`` (a single large piece is returned as it is)."""
        return b"".join(self._parts)

    def clear(self) -> None:
        """Forget what was written (pieces handed out before stay as they were)."""
        self._parts, self._size = [], 0


def _immutable(data: bytes | bytearray | memoryview) -> bool:
    """Whether ``data`` may be kept instead of copied: ``bytes``, or a read-only view of bytes."""
    return isinstance(data, bytes) or (isinstance(data, memoryview) and data.readonly and data.itemsize == 1)


class _Input:
    """Standard input shared by the commands of one stream (``read`` takes a line, ``cat`` takes all).

    The data may be given as a ``StdinSource``, asked on first use: adbd's remote standard input is only waited
    for when a command actually reads it, and only as far as it reads (``take``).
    """

    __slots__ = ("_data", "_source", "pos")

    def __init__(self, data: bytes | StdinSource) -> None:
        self._data = data if isinstance(data, bytes) else None
        self._source = None if isinstance(data, bytes) else data
        self.pos = 0

    @property
    def data(self) -> bytes:
        """All of the input (waiting for its end)."""
        if self._data is None:
            self._data = self._source(None)
        return self._data

    def take(self, size: int) -> bytes:
        """The next ``size`` bytes (fewer at the end), waiting only until they have arrived."""
        data = self._data if self._data is not None else self._source(self.pos + size)
        chunk = data[self.pos:self.pos + size]
        self.pos += len(chunk)
        return chunk

    def take_all(self) -> bytes:
        """The rest of the input."""
        rest = self.data[self.pos:]
        self.pos = len(self.data)
        return rest

    def take_line(self) -> bytes | None:
        """The next line, newline included; ``None`` at the end."""
        if self.pos >= len(self.data):
            return None
        end = self.data.find(b"\n", self.pos)
        end = len(self.data) if end < 0 else end + 1
        line = self.data[self.pos:end]
        self.pos = end
        return line


@dataclass
class _IO:
    inp: _Input
    out: Output
    err: Output


class _NullSink:
    """``/dev/null``."""


@dataclass
class _FileSink:
    """An output redirection to a sandbox file (created or truncated when the redirection is set up)."""

    host: os.PathLike
    data: Output


class LiveOutput(Protocol):
    """Where a command line's output goes while it runs, for a reader that takes it as it comes (adbd's stream).

    A command that runs until its reader goes away (``logcat`` without ``-d``) hands over its output with
    ``write`` and blocks in ``wait`` for more to do; the shell itself buffers everything else until the line ends.
    """

    def write(self, stdout: bytes, stderr: bytes) -> bool:
        """Deliver output now; ``False`` once the reader has gone."""
        ...

    def wait(self, event: threading.Event) -> bool:
        """Block until ``event`` is set (``True``) or the reader has gone (``False``), letting the phone serve
        others meanwhile."""
        ...
