"""The standard streams of running commands: shared input, output buffers and redirection sinks."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

from android_gym.sim.shell.errors import check_size


def append_bounded(buffer: bytearray, data: bytes | bytearray) -> None:
    """Add ``data`` to an output buffer; raises ``_OutOfMemory`` past ``MAX_BYTES`` (nothing is added then)."""
    check_size(len(buffer) + len(data))
    buffer += data


class _Input:
    """Standard input shared by the commands of one stream (``read`` takes a line, ``cat`` takes all).

    The data may be given as a callable, called on first use: adbd's remote standard input is only waited for
    when a command actually reads it.
    """

    __slots__ = ("_data", "_source", "pos")

    def __init__(self, data: bytes | Callable[[], bytes]) -> None:
        self._data = data if isinstance(data, bytes) else None
        self._source = None if isinstance(data, bytes) else data
        self.pos = 0

    @property
    def data(self) -> bytes:
        if self._data is None:
            self._data = self._source()
        return self._data

    def take_all(self) -> bytes:
        rest = self.data[self.pos:]
        self.pos = len(self.data)
        return rest

    def take_line(self) -> bytes | None:
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
    out: bytearray
    err: bytearray


class _NullSink:
    """``/dev/null``."""


@dataclass
class _FileSink:
    """An output redirection to a sandbox file (created or truncated when the redirection is set up)."""

    host: os.PathLike
    data: bytearray
