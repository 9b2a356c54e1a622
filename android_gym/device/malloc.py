"""Memory for screen frames: keep glibc from returning every 10 MB frame buffer to the kernel, and give the heap's
free pages back at resets once the process has grown."""

from __future__ import annotations

import ctypes
import functools
import os

#: glibc ``mallopt`` parameters (malloc.h) and the values ``keep_frames_in_the_heap`` sets: allocations up to
#: 32 MiB (the largest threshold glibc takes on 64-bit) come from the heap, and up to 64 MiB freed at its top stay.
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3
_MMAP_THRESHOLD, _TRIM_THRESHOLD = 32 << 20, 64 << 20


@functools.cache
def keep_frames_in_the_heap() -> bool:
    """Let this process reuse the memory of its 10 MB frames instead of getting fresh pages for each.

    By default glibc serves an allocation that large with its own ``mmap`` and unmaps it when freed, so every
    screenshot's buffers (the RGBA frame, the shell's output, the socket's) are faulted in page by page again: on
    this machine three 10 MB copies cost 19 ms of CPU that way and 2.4 ms from the heap. Returns whether it took
    (``False`` off glibc). Process-wide: a served phone calls it, so do the devices that receive its frames, and the
    simulated device in process, whose env copies a 7.8 MB frame per pixel observation.
    """
    try:
        mallopt = ctypes.CDLL(None).mallopt  # the C library this interpreter runs on
    except (OSError, AttributeError):
        return False
    return bool(mallopt(_M_MMAP_THRESHOLD, _MMAP_THRESHOLD)) and bool(mallopt(_M_TRIM_THRESHOLD, _TRIM_THRESHOLD))


#: Growth of the process's resident memory since the heap's free pages were last given back that has the next reset
#: give them back (``give_back_freed``): giving back costs the pages' faults when the heap reuses them.
_REGROWN = 8 << 20
_resident_after_trim = 0
_statm: tuple[int, int] | None = None  # (pid, descriptor): ``/proc/self/statm`` kept open by the process that opened it


def _resident() -> int:
    """The process's resident memory in bytes (Linux's ``/proc/self/statm``, kept open and read again at every call:
    an eighth of the cost of opening it each time; 0 elsewhere)."""
    global _statm
    try:
        if _statm is None or _statm[0] != os.getpid():  # a forked child's inherited descriptor tells of its parent
            _statm = os.getpid(), os.open("/proc/self/statm", os.O_RDONLY)
        return int(os.pread(_statm[1], 128, 0).split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        return 0


def give_back_freed() -> bool:
    """Give the pages of the heap's free memory back to the kernel (glibc's ``malloc_trim(0)``), once the process grew
    ``_REGROWN`` bytes since it last did: the memory the phones' frames, pictures and trees freed between blocks still
    in use, which the heap keeps resident for reuse (SendSms, 4 envs at 1080x2400 after 1,500 random-valid steps: 5 MB
    an env). A simulated device's reset calls it. Returns whether it gave back (``False`` off glibc)."""
    global _resident_after_trim
    if _resident() - _resident_after_trim < _REGROWN:
        return False
    try:
        malloc_trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return False
    malloc_trim(0)
    _resident_after_trim = _resident()
    return True
