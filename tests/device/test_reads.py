"""``one_look``: within it, a read asked again is answered from the first answer; outside, every read asks."""

from __future__ import annotations

import pytest

from android_gym.device.reads import one_look, pull_read, shell_read
from android_gym.errors import RemoteFileNotFoundError


def test_a_look_reads_each_command_and_file_once(device):
    device.push(b"one", "/sdcard/a.txt")
    with one_look():
        listed = shell_read(device, "ls /sdcard")
        assert pull_read(device, "/sdcard/a.txt") == b"one"
        changes = device.changes
        device.push(b"two", "/sdcard/b.txt")
        device.push(b"changed", "/sdcard/a.txt")
        assert shell_read(device, "ls /sdcard") == listed and pull_read(device, "/sdcard/a.txt") == b"one"
        with one_look():  # a look inside another is part of it
            assert shell_read(device, "ls /sdcard") == listed
        assert device.changes == changes + 2  # only the pushes reached the phone
        with pytest.raises(RemoteFileNotFoundError):
            pull_read(device, "/sdcard/c.txt")
        device.push(b"late", "/sdcard/c.txt")
        with pytest.raises(RemoteFileNotFoundError):
            pull_read(device, "/sdcard/c.txt")
    assert "b.txt" in shell_read(device, "ls /sdcard").output
    assert pull_read(device, "/sdcard/a.txt") == b"changed" and pull_read(device, "/sdcard/c.txt") == b"late"
