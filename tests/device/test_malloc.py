"""Frame memory: glibc keeps freed 10 MB frame buffers in the heap for the next frame."""

from __future__ import annotations

import platform

from android_gym.device.malloc import keep_frames_in_the_heap


def test_frames_stay_in_the_heap_where_glibc_allows_it():
    on_glibc = platform.libc_ver()[0] == "glibc"
    assert keep_frames_in_the_heap() is on_glibc
    assert keep_frames_in_the_heap() is on_glibc  # asked once per process
