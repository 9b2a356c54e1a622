"""``SharedFrame``: memory shared with an emulator on this machine, where it writes screenshots for us.

The emulator's ``getScreenshot`` takes an ``ImageTransport`` ``MMAP`` with a handle naming a region the client
made (``file:///path`` for a file mapped into memory): the pixels go there, and the reply carries none
(``EmulatorControllerImpl::getScreenshot``). A 1080×2400 frame then crosses no socket and is not parsed out of a
protobuf message; it is read here with one copy.

An emulator that sees another file system under that path (one in a container, its port forwarded to this
machine's loopback) writes elsewhere: a random marker put at the start of the region before each request and still
there after it says so, and the caller asks for the pixels in the reply instead.
"""

from __future__ import annotations

import mmap
import os

import numpy as np

from android_gym.tempdirs import OwnedDir

_MARKER_SIZE = 16


class SharedFrame:
    """A ``size``-byte region in a file of this process's own (in memory where the host has ``/dev/shm``), in an
    ``OwnedDir`` removed by ``close``."""

    def __init__(self, size: int) -> None:
        self._dir = OwnedDir("android-gym-frame-")  # removed with the region, or after this process dies
        self.path = str(self._dir.path / "frame")
        try:
            fd = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_RDWR, 0o600)
            try:
                os.ftruncate(fd, size)
                self._memory = mmap.mmap(fd, size)
            finally:
                os.close(fd)
        except OSError:
            self._dir.remove()
            raise
        self._marker = b""
        self._pid = os.getpid()

    @property
    def owned(self) -> bool:
        """Whether this process made the region (a forked child must make its own: the parent writes this one)."""
        return os.getpid() == self._pid

    @property
    def handle(self) -> str:
        """The region as ``ImageTransport.handle`` names it: a ``file://`` URL."""
        return "file://" + self.path

    @property
    def size(self) -> int:
        """How many bytes the region holds."""
        return len(self._memory)

    def arm(self) -> None:
        """Mark the region before a request, so that ``read`` can tell whether the emulator wrote it."""
        self._marker = os.urandom(_MARKER_SIZE)
        self._memory[:_MARKER_SIZE] = self._marker

    def read(self, width: int, height: int, channels: int) -> np.ndarray | None:
        """The ``(height, width, 3)`` image the emulator wrote (the caller's own copy), or ``None`` if it wrote
        nothing here since ``arm`` or the image does not fit."""
        size = width * height * channels
        if size > self.size or self._memory[:_MARKER_SIZE] == self._marker:
            return None
        pixels = np.frombuffer(self._memory, np.uint8, count=size).reshape(height, width, channels)
        return pixels[:, :, :3].copy()

    def close(self) -> None:
        """Unmap the region, and remove it if this process made it. Idempotent."""
        if not self._memory.closed:
            self._memory.close()
            self._dir.remove()  # only in the process that made it
