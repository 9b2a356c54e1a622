"""``SharedFrames``: screenshots written into memory the gRPC client shares (``ImageTransport`` ``MMAP``).

A client on the same machine names a region in its request, and the emulator writes the image there instead of
into the reply, whose ``image`` stays empty (``EmulatorControllerImpl::getScreenshot``, ``SharedMemoryLibrary``):
a ``file:///path`` handle is a file mapped into memory, anything else a POSIX shared-memory name (``shm_open``,
``/dev/shm/<name>`` on Linux). A region smaller than the image is ``FAILED_PRECONDITION``, as there.

Unlike the emulator, the simulated phone never creates the region (the client does, before asking) and writes only
into a regular file that is no symbolic link, inside the shared-memory or a temporary directory
(``regions_allowed_in``): a request names the file, so without that rule any local client could have the phone
overwrite any file its user may write. Serve with a token (``--grpc-use-token``) where other users share the machine.
"""

from __future__ import annotations

import mmap
import os
import stat
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

from android_gym.errors import AndroidGymError
from android_gym.tempdirs import TMPDIR_VAR

#: Where Linux keeps POSIX shared-memory objects: ``shm_open("/name")`` opens ``/dev/shm/name``.
SHM_DIR = Path("/dev/shm")
FILE_URI = "file://"
#: How many regions stay mapped (one per client, each as large as a frame).
KEPT_MAPPINGS = 8


def regions_allowed_in() -> tuple[Path, ...]:
    """The directories a region may lie in: the shared-memory one, the system's temporary directory, and
    ``$ANDROID_GYM_TMPDIR`` when set (where android_gym's clients make theirs, ``tempdirs.fast_tmp_dir``)."""
    places = [SHM_DIR, Path(tempfile.gettempdir())]
    if os.environ.get(TMPDIR_VAR):
        places.append(Path(os.environ[TMPDIR_VAR]))
    return tuple(place.resolve() for place in places)


class RegionError(AndroidGymError):
    """The region a client named cannot take the image (the text says why)."""


def region_path(handle: str) -> Path:
    """The file behind an ``ImageTransport`` handle: a ``file://`` URL's path, else a shared-memory object's."""
    if handle.startswith(FILE_URI):
        return Path(handle[len(FILE_URI):])
    return SHM_DIR / handle.lstrip("/")


@dataclass
class _Mapping:
    inode: tuple[int, int]  # (device, inode) of the mapped file: a region replaced under its name is mapped again
    memory: mmap.mmap


class SharedFrames:
    """The regions clients named, each mapped once and kept (a fresh mapping would fault in a 10 MB frame page by
    page at every screenshot)."""

    def __init__(self) -> None:
        self._mappings: dict[str, _Mapping] = {}
        self._lock = threading.Lock()  # the gRPC server's threads answer screenshots side by side

    def write(self, handle: str, image: bytes | memoryview) -> None:
        """Put ``image`` at the start of the region ``handle`` names; ``RegionError`` if it cannot take it."""
        with self._lock:
            self._write(handle, image)

    def _write(self, handle: str, image: bytes | memoryview) -> None:
        path = region_path(handle)
        allowed = regions_allowed_in()
        if not any(path.parent.resolve().is_relative_to(place) for place in allowed):
            raise RegionError(f"the shared memory region {handle!r} is outside the shared-memory and temporary "
                              f"directories ({', '.join(map(str, allowed))}): make it there")
        try:
            fd = os.open(path, os.O_RDWR | os.O_NOFOLLOW)
        except OSError as error:
            raise RegionError(f"cannot open the shared memory region {handle!r}: {error.strerror}") from None
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                raise RegionError(f"the shared memory region {handle!r} is not a regular file")
            if info.st_size < len(image):
                raise RegionError(f"The shared memory region needs to have a size of at least: {len(image)}")
            mapping = self._mappings.pop(handle, None)
            if mapping is None or mapping.inode != (info.st_dev, info.st_ino) or len(mapping.memory) != info.st_size:
                if mapping is not None:
                    mapping.memory.close()
                mapping = _Mapping((info.st_dev, info.st_ino), mmap.mmap(fd, info.st_size))
            self._mappings[handle] = mapping  # the most recent last
            while len(self._mappings) > KEPT_MAPPINGS:  # regions of clients gone stay mapped only so long
                self._mappings.pop(next(iter(self._mappings))).memory.close()
        finally:
            os.close(fd)
        mapping.memory[:len(image)] = image

    def close(self) -> None:
        """Unmap every region (the clients' files stay theirs). Idempotent."""
        with self._lock:
            for mapping in self._mappings.values():
                mapping.memory.close()
            self._mappings.clear()
