"""Frame memory: glibc keeps freed 10 MB frame buffers in the heap for the next frame, in the simulated device too."""

from __future__ import annotations

import os
import platform
import subprocess
import sys

from android_gym.device import malloc
from android_gym.device.malloc import keep_frames_in_the_heap


def test_frames_stay_in_the_heap_where_glibc_allows_it():
    on_glibc = platform.libc_ver()[0] == "glibc"
    assert keep_frames_in_the_heap() is on_glibc
    assert keep_frames_in_the_heap() is on_glibc  # asked once per process


_COPIES_FAULTED = """
import resource
import numpy as np
from android_gym.device.sim import SimDevice

SimDevice(270, 600)
frame = np.ones((2400, 1080, 3), np.uint8)
for _ in range(3):  # the heap grows to hold three frames at once
    copies = [frame.copy() for _ in range(3)]
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(10):
    copies = [frame.copy() for _ in range(3)]  # an observation, and frames a step makes and drops
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def test_the_simulated_device_copies_frames_without_new_pages():
    """In a fresh interpreter (the setting is process-wide), an in-process phone has 7.8 MB copies reuse freed heap
    memory, where glibc's defaults give the heap's freed top back and fault it in again (about 3,900 faults for
    these thirty copies on glibc 2.36)."""
    run = subprocess.run([sys.executable, "-c", _COPIES_FAULTED], capture_output=True, text=True, check=True)
    assert int(run.stdout) < 100



_GIVEN_BACK = """
from android_gym.device import malloc

first = malloc.give_back_freed()
again = malloc.give_back_freed()
grown = b"x" * (2 * malloc._REGROWN)  # written: resident
print(first, again, malloc.give_back_freed())
"""


def test_the_heap_s_free_pages_are_given_back_once_the_process_grew():
    """In a fresh interpreter: the first call gives the heap's free pages back, the next gives nothing until the
    process's resident memory grew ``_REGROWN`` bytes (a reset after every step pays no trims or faults again)."""
    run = subprocess.run([sys.executable, "-c", _GIVEN_BACK], capture_output=True, text=True, check=True)
    on_glibc = str(platform.libc_ver()[0] == "glibc")
    assert run.stdout.split() == [on_glibc, "False", on_glibc]


def _statm_resident() -> int:
    with open("/proc/self/statm", "rb") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def test_resident_memory_is_the_asking_process_s_own():
    """The kept ``/proc/self/statm`` tells this process's resident memory, and a forked child's its own once it grew
    (an inherited descriptor would tell of the parent, which did not)."""
    if platform.system() != "Linux":
        assert malloc._resident() == 0
        return
    assert abs(malloc._resident() - _statm_resident()) < malloc._REGROWN
    read, write = os.pipe()
    child = os.fork()
    if child == 0:
        grown = b"x" * (4 * malloc._REGROWN)  # written: resident
        os.write(write, f"{malloc._resident()} {_statm_resident()} {len(grown)}".encode())
        os._exit(0)
    os.waitpid(child, 0)
    kept, fresh, _ = map(int, os.read(read, 128).split())
    assert abs(kept - fresh) < malloc._REGROWN
