"""``SimDevice.noting``: what a task's check read of the simulated phone, read again to tell whether the phone
would give the same (the env's short cut for a check after a step that changed nothing it read)."""

from __future__ import annotations

import pytest

from android_gym.device import state
from android_gym.device.reads import shell_read
from android_gym.device.sim import SimDevice
from android_gym.sim import keycodes


@pytest.fixture
def device():
    made = SimDevice()
    yield made
    made.close()


def test_what_was_read_reads_the_same_until_it_changes(device: SimDevice) -> None:
    device.push(b"a", "/sdcard/a.txt")
    with device.noting() as reads:
        assert device.pull("/sdcard/a.txt") == b"a"
        device.file_versions(["/sdcard/b.txt"])  # missing
        device.focused_activity()
        assert device.screen_size == (1080, 2400)
    assert reads.complete and reads.unchanged()
    device.push(b"a", "/sdcard/other.txt")  # nothing it read
    device.key(keycodes.HOME)  # at home already
    assert reads.unchanged()
    for change in (lambda: device.push(b"b", "/sdcard/b.txt"), lambda: device.push(b"c", "/sdcard/a.txt"),
                   lambda: device.shell("monkey -p com.android.settings -c android.intent.category.LAUNCHER 1"),
                   lambda: device.shell("wm size 720x1600")):
        with device.noting() as reads:
            device.pull("/sdcard/a.txt")
            device.file_versions(["/sdcard/b.txt"])
            device.focused_activity()
            _ = device.screen_size
        change()
        assert not reads.unchanged()


@pytest.mark.parametrize("ask", [lambda device: device.shell("true"), lambda device: device.ui_dump(),
                                 lambda device: device.screenshot(), lambda device: device.key(keycodes.HOME)])
def test_a_command_a_look_at_the_screen_or_input_leaves_what_was_read_unnoted(device: SimDevice, ask) -> None:
    with device.noting() as reads:
        device.focused_activity()
        ask(device)
    assert not reads.complete and not reads.unchanged()
    with device.noting() as reads:  # noted afresh each time
        device.focused_activity()
    assert reads.complete and reads.unchanged()


def test_settings_and_a_command_reading_one_folder_tree_are_noted(device: SimDevice) -> None:
    """``SimDevice.setting`` (``state.settings_get``) and ``SimDevice.tree_read`` (``reads.shell_read`` of a command
    that reads only a folder tree: ``find``, ``[ -d ]``, ``md5sum`` of its files) are noted, not counted as changes,
    and print what the shell prints."""
    device.push(b"a", "/sdcard/Notes/a.txt")
    find = "find /sdcard/Notes -type f -exec md5sum {} +"
    changes = device.changes
    with device.noting() as reads:
        assert state.settings_get(device, "global", "wifi_on") == "1"
        assert device.tree_read(find, "/sdcard/Notes") == device.shell(find)
    assert not reads.complete  # the shell command
    with device.noting() as reads:
        assert device.setting("global", "wifi_on") == "1"
        assert shell_read(device, "[ -d /sdcard/Notes ]", tree="/sdcard/Notes").ok
        assert "a.txt" in device.tree_read(find, "/sdcard/Notes").output
    assert reads.complete and reads.unchanged() and device.changes == changes + 1
    device.push(b"x", "/sdcard/Other/x.txt")
    device.shell("settings put global wifi_on 1")  # the value it has
    assert reads.unchanged()
    for change in ("settings put global wifi_on 0", "touch -d 2023-10-20T10:00:00 /sdcard/Notes/a.txt",
                   "echo b > /sdcard/Notes/b.txt", "rm -r /sdcard/Notes"):
        with device.noting() as reads:
            device.setting("global", "wifi_on")
            device.tree_read(find, "/sdcard/Notes")
        device.shell(change)
        assert not reads.unchanged()


def test_a_tree_read_asked_again_of_the_same_tree_is_answered_without_running(device: SimDevice,
                                                                                monkeypatch) -> None:
    """``tree_read`` runs its command again only when the tree's version moved: what it printed then is what the
    shell would print now, and every change to the tree is seen."""
    device.push(b"a", "/sdcard/Notes/a.txt")
    find = "find /sdcard/Notes -type f -exec md5sum {} +"
    ran = []
    run = device.phone.run
    monkeypatch.setattr(device.phone, "run", lambda command: ran.append(command) or run(command))
    first = device.tree_read(find, "/sdcard/Notes")
    device.push(b"x", "/sdcard/Other/x.txt")  # outside the tree
    assert device.tree_read(find, "/sdcard/Notes") == first and ran == [find]
    for change in ("touch -d 2023-10-20T10:00:00 /sdcard/Notes/a.txt", "echo b > /sdcard/Notes/a.txt",
                   "echo c > /sdcard/Notes/c.txt", "rm -r /sdcard/Notes"):
        device.shell(change)
        ran.clear()
        assert device.tree_read(find, "/sdcard/Notes") == device.shell(find) and ran == [find, find]
