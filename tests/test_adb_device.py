"""AdbDevice beyond the contract suite: device selection, clear errors, reconnecting, typing escapes."""

from __future__ import annotations

import hashlib
import re
import socket
import struct

import numpy as np
import pytest
from stalled_emulator import StalledEmulator, wait_listed

from android_gym.actions import Action, ActionType, execute
from android_gym.device import adb_services as services
from android_gym.device import open_device, state
from android_gym.device.adb import UI_DUMP_PATH, AdbDevice, raw_screencap_pixels, raw_screencap_start
from android_gym.device.stabilize import Stabilization
from android_gym.errors import (
    AdbServerError,
    DeviceError,
    DeviceNotFoundError,
    DeviceOfflineError,
    DeviceSpecError,
    InvalidActionError,
)
from android_gym.sim.adb_harness import free_port, free_port_pair
from android_gym.sim.grpc_server import SimGrpcServer
from android_gym.sim.phone import Phone
from android_gym.sim.server import SimServer
from android_gym.ui import parse_ui_dump


def test_adb_specs_open_an_adb_device(fresh_served_phone):
    device = open_device(f"adb:{fresh_served_phone.serial}")
    try:
        assert isinstance(device, AdbDevice)
        assert device.screen_size == (1080, 2400)
    finally:
        device.close()
    with pytest.raises(DeviceSpecError, match="adb:<serial>"):
        open_device("adb:")


def test_unknown_serial_names_the_devices_there_are(served_phone):
    with pytest.raises(DeviceNotFoundError, match=rf"'emulator-5998' not found .* {served_phone.serial} \(device\)"):
        AdbDevice("emulator-5998")


def test_nothing_listening_at_a_network_serial(adb_server_port):
    with pytest.raises(DeviceNotFoundError, match="adb connect 127.0.0.1:"):
        AdbDevice(f"127.0.0.1:{free_port()}")


def test_no_adb_server_is_a_clear_error():
    with pytest.raises(AdbServerError, match="no adb server answers on 192.0.2.1"):
        AdbDevice("emulator-5554", server=("192.0.2.1", 5037), timeout=1)


def test_a_dropped_transport_is_reconnected(adb_server_port):
    """The phone's adbd goes away and comes back on the same port: the next call reconnects and succeeds."""
    phone, port = Phone(), free_port_pair()
    try:
        with SimServer(phone, adb_port=port, announce=False):
            device = AdbDevice(f"127.0.0.1:{port}", timeout=20)
            device.push(b"kept", "/sdcard/Download/kept.txt")
        with SimServer(phone, adb_port=port, announce=False):
            assert device.pull("/sdcard/Download/kept.txt") == b"kept"
            assert device.shell("echo back").output == "back\n"
    finally:
        phone.close()


def served_once(adb_server_port: int, phone: Phone, port: int) -> str:
    """Serve ``phone`` on ``port`` to an ``AdbDevice`` at ``127.0.0.1:port``, then stop; returns the serial, which
    the adb server still lists as offline while it tries to reconnect."""
    serial = f"127.0.0.1:{port}"
    with SimServer(phone, adb_port=port, announce=False):
        AdbDevice(serial, timeout=20).close()
    wait_listed(adb_server_port, serial, "offline")
    return serial


def test_a_device_still_offline_after_a_restart_is_waited_for(adb_server_port):
    """What a fresh ``gym.make`` or a ``reset`` after a backend error meets once the served phone restarted: the
    adb server lists the old transport offline until it reconnects. Opening the device waits for that."""
    phone, port = Phone(), free_port_pair()
    try:
        serial = served_once(adb_server_port, phone, port)
        with SimServer(phone, adb_port=port, announce=False):
            device = AdbDevice(serial, timeout=20)
            assert device.shell("echo back").output == "back\n"
    finally:
        phone.close()


def test_a_device_that_stays_offline_is_a_clear_error(adb_server_port):
    """An emulator still booting: the adb server lists it offline for as long as its adbd stays silent (one that
    exited, by contrast, is dropped within a second)."""
    emulator = StalledEmulator(ask_auth=False)
    try:
        wait_listed(adb_server_port, emulator.serial, "offline")
        with pytest.raises(DeviceOfflineError,
                           match=rf"{emulator.serial} is offline and did not come online within 1 s"):
            AdbDevice(emulator.serial, timeout=1)
    finally:
        emulator.close()


def test_an_adb_server_that_does_not_answer_is_a_clear_error():
    """Something takes the connection on the adb server's port but says nothing back."""
    with socket.create_server(("127.0.0.1", 0)) as silent:
        port = silent.getsockname()[1]
        with pytest.raises(AdbServerError, match=rf"the adb server on 127.0.0.1:{port} did not list its devices"):
            AdbDevice("emulator-5554", server=("127.0.0.1", port), timeout=0.1)


def test_sms_needs_an_emulator_console(adb_server_port):
    phone, port = Phone(), free_port_pair()
    try:
        with SimServer(phone, adb_port=port, announce=False):
            device = AdbDevice(f"127.0.0.1:{port}")
            with pytest.raises(DeviceError, match="not an emulator-N serial"):
                device.receive_sms("5551234", "hi")
    finally:
        phone.close()


def test_raw_screencap_reads_both_headers_and_declines_what_it_cannot_read():
    """``screencap`` without ``-p``: width, height, format (+ data space since Android 9), then the rows."""
    rgba = np.arange(2 * 3 * 4, dtype=np.uint8).reshape(2, 3, 4)
    for header in (struct.pack("<3I", 3, 2, 1), struct.pack("<4I", 3, 2, 1, 0)):
        assert np.array_equal(raw_screencap_pixels(header + rgba.tobytes()), rgba[:, :, :3])
    rgb = rgba[:, :, :3].copy()
    assert np.array_equal(raw_screencap_pixels(struct.pack("<4I", 3, 2, 3, 0) + rgb.tobytes()), rgb)
    assert raw_screencap_pixels(struct.pack("<4I", 3, 2, 4, 0) + bytes(12)) is None  # RGB_565: PNG instead
    assert raw_screencap_pixels(struct.pack("<4I", 3, 2, 1, 0) + bytes(5)) is None  # truncated
    assert raw_screencap_pixels(b"") is None


def test_raw_screencap_is_found_at_the_end_of_what_a_command_line_printed():
    """After the UI dump in an input's command line: its header names the screen's size (either way round)."""
    rows = bytes(range(24))  # 3x2 RGBA
    for header in (struct.pack("<4I", 3, 2, 1, 1), struct.pack("<3I", 3, 2, 1), struct.pack("<4I", 2, 3, 1, 1)):
        assert raw_screencap_start(b"<hierarchy/>" + header + rows, 3, 2) == len("<hierarchy/>")
    assert raw_screencap_start(struct.pack("<4I", 3, 2, 3, 1) + rows[:18], 3, 2) == 0  # RGB_888
    assert raw_screencap_start(b"<hierarchy/>" + struct.pack("<4I", 3, 2, 1, 1) + rows, 4, 2) is None
    assert raw_screencap_start(b"<hierarchy/>" + struct.pack("<4I", 3, 2, 4, 1) + rows[:12], 3, 2) is None  # RGB_565
    assert raw_screencap_start(b"<hierarchy/>", 3, 2) is None


def test_shell_v2_reads_standard_output_into_any_buffer(served_phone):
    """A command line's screenshot read straight into a buffer: one too small, exact, larger or none gives the same
    bytes, the standard error and the exit status apart."""
    device = AdbDevice(served_phone.serial)
    try:
        expected = b"a\n" + struct.pack("<4I", 1080, 2400, 1, 1) + served_phone.phone.screenshot_rgba()
        for buffer in (None, bytearray(100), bytearray(len(expected)), bytearray(len(expected) + 5)):
            output = services.shell_v2(device._client, served_phone.serial, "echo a; screencap; echo b >&2; exit 3",
                                       30, buffer)
            assert (output.stdout, output.stderr, output.exit_code) == (expected, b"b\n", 3)
    finally:
        device.close()


def test_exec_out_reads_the_whole_output_into_any_buffer(served_phone):
    """``screencap`` read straight into a buffer: one too small, exact, larger or none gives the same bytes."""
    device = AdbDevice(served_phone.serial)
    try:
        expected = struct.pack("<4I", 1080, 2400, 1, 1) + served_phone.phone.screenshot_rgba()
        for buffer in (None, bytearray(100), bytearray(len(expected)), bytearray(len(expected) + 5)):
            output = services.exec_out(device._client, served_phone.serial, "screencap", 30, buffer)
            assert output == expected
        assert np.array_equal(device.screenshot(), served_phone.phone.screenshot())
    finally:
        device.close()


def test_a_ui_dump_is_one_round_trip_and_a_failed_one_is_an_error(fresh_served_phone, monkeypatch):
    device = AdbDevice(fresh_served_phone.serial)
    try:
        monkeypatch.setattr(services, "pull", lambda *args: pytest.fail("the dump was pulled"))
        assert device.ui_dump() == fresh_served_phone.phone.ui_dump()
        device.shell(f"rm {UI_DUMP_PATH}; mkdir {UI_DUMP_PATH}")  # no file to write nor read
        with pytest.raises(DeviceError, match="uiautomator dump failed"):
            device.ui_dump()
    finally:
        device.close()


def test_the_focus_comes_with_the_dump_once_asked_and_only_while_nothing_ran(fresh_served_phone, monkeypatch):
    device = AdbDevice(fresh_served_phone.serial)
    try:
        device.ui_dump()
        assert device.known_focus() is None  # not asked for before this dump
        launcher = state.foreground_package(device)
        shell = device.shell
        monkeypatch.setattr(device, "shell", lambda *args: pytest.fail(f"a round trip of its own: {args}"))
        device.ui_dump()
        assert "mCurrentFocus=Window{" in device.known_focus()
        assert state.foreground_package(device) == launcher
        monkeypatch.setattr(device, "shell", shell)
        device.shell("am start -n com.android.settings/.Settings")
        assert device.known_focus() is None
        assert state.foreground_package(device) == "com.android.settings"
    finally:
        device.close()


@pytest.fixture
def commands(monkeypatch) -> list[str]:
    """The shell command lines devices send, in order."""
    sent: list[str] = []
    shell_v2 = services.shell_v2
    monkeypatch.setattr(services, "shell_v2", lambda *args: sent.append(args[2]) or shell_v2(*args))
    return sent


def test_inputs_bring_the_dump_along_once_the_caller_reads_one_after_each(fresh_served_phone, commands):
    phone, device = fresh_served_phone.phone, AdbDevice(fresh_served_phone.serial)
    try:
        device.key(4)  # BACK at home: nothing to show yet that the caller looks after its inputs
        assert device.ui_dump() == phone.ui_dump() and len(commands) == 2 + 2  # `id -u`, `wm size` at opening
        device.known_focus()  # from now on the dump prints the focused window too
        commands.clear()
        device.tap(*_center(device.ui_dump(), "Settings"))
        assert device.ui_dump() == phone.ui_dump()  # the one the tap brought
        assert "com.android.settings" in device.known_focus()
        device.input_text("a b")  # `input text a%sb`: one argument
        assert device.ui_dump() == phone.ui_dump()
        assert [command.split(" && ")[0] for command in commands] == [
            "{ uiautomator dump /data/local/tmp/window_dump.xml >&2", "input tap 675 1396", "input text a%sb"]
        assert all("uiautomator dump" in command and "mCurrentFocus" in command for command in commands)
    finally:
        device.close()


def test_a_dump_read_after_shell_commands_has_the_next_input_bring_it(fresh_served_phone, commands):
    """After a reset (shell commands, then the first observation's dump), the first step is one round trip."""
    phone, device = fresh_served_phone.phone, AdbDevice(fresh_served_phone.serial)
    try:
        device.shell("am start -n com.android.settings/.Settings")
        device.ui_dump()
        commands.clear()
        device.key(4)
        assert device.ui_dump() == phone.ui_dump()
        assert len(commands) == 1 and commands[0].startswith("input keyevent 4 && { uiautomator dump ")
    finally:
        device.close()


def test_an_unread_dump_stops_inputs_bringing_it(fresh_served_phone, commands):
    device = AdbDevice(fresh_served_phone.serial)
    try:
        device.key(4)
        device.ui_dump()
        device.key(4)  # brings a dump the caller never reads: a shell command comes first
        device.shell("true")
        commands.clear()
        device.key(4)
        assert commands == ["input keyevent 4"]
    finally:
        device.close()


def test_inputs_bring_the_screenshot_along_once_the_caller_takes_one_after_each(fresh_served_phone, commands,
                                                                               monkeypatch):
    phone, device = fresh_served_phone.phone, AdbDevice(fresh_served_phone.serial)
    exec_out = services.exec_out
    try:
        device.key(4)
        assert np.array_equal(device.screenshot(), phone.screenshot())  # a round trip of its own (exec:)
        commands.clear()
        monkeypatch.setattr(services, "exec_out", lambda *args: pytest.fail("a screencap of its own"))
        device.tap(*_center(phone.ui_dump(), "Settings"))
        assert commands == ["input tap 675 1396 && { screencap 2>/dev/null || true; }"]
        assert device.ui_dump() == phone.ui_dump()  # a round trip of its own: no dump read after an input yet
        shot = device.screenshot()
        assert np.array_equal(shot, phone.screenshot()) and shot.shape == (2400, 1080, 3)
        device.key(4)  # now the dump comes too, the screenshot last
        assert commands[-1].startswith("input keyevent 4 && { uiautomator dump ")
        assert commands[-1].endswith("; screencap 2>/dev/null || true; }")
        assert device.ui_dump() == phone.ui_dump() and np.array_equal(device.screenshot(), phone.screenshot())
        monkeypatch.setattr(services, "exec_out", exec_out)
        assert np.array_equal(device.screenshot(), phone.screenshot())  # taken again: the one brought was taken
        commands.clear()
        device.key(4)  # brings a screenshot the caller never takes: a shell command comes first
        device.shell("true")
        device.key(4)
        assert "screencap" in commands[0] and "screencap" not in commands[-1]
    finally:
        device.close()


def test_a_dump_after_shell_commands_brings_the_screenshot_too(fresh_served_phone, commands, monkeypatch):
    """After a reset's shell commands (or ``open_app``'s ``monkey``), the first observation and score are one round
    trip."""
    phone, device = fresh_served_phone.phone, AdbDevice(fresh_served_phone.serial)
    try:
        device.screenshot()  # the caller takes screenshots and checks a file's digest
        assert device.md5sums(["/data/local/tmp/none"]) == {}
        device.shell("am start -n com.android.settings/.Settings")
        commands.clear()
        monkeypatch.setattr(services, "exec_out", lambda *args: pytest.fail("a screencap of its own"))
        assert device.ui_dump() == phone.ui_dump()
        assert np.array_equal(device.screenshot(), phone.screenshot())
        assert device.md5sums(["/data/local/tmp/none"]) == {}
        assert len(commands) == 1 and commands[0].startswith("{ md5sum /data/local/tmp/none 2>/dev/null; ")
        assert commands[0].endswith("; screencap 2>/dev/null || true; }")
        assert device.ui_dump() == phone.ui_dump()  # nothing ran since the screenshot: a dump alone
        assert len(commands) == 2 and "screencap" not in commands[1]
    finally:
        device.close()


def test_the_inputs_leading_to_an_actions_last_bring_nothing(fresh_served_phone, commands):
    """Typing into an element (tap, type, ENTER) brings what the caller reads once, with the ENTER."""
    phone, device = fresh_served_phone.phone, AdbDevice(fresh_served_phone.serial)
    try:
        device.key(4)
        device.ui_dump()
        device.screenshot()  # the caller reads both after each input
        elements = parse_ui_dump(phone.ui_dump())
        commands.clear()
        execute(Action(ActionType.INPUT_TEXT, text="a", index=0), device, elements)
        x, y = elements[0].bbox_pixels.center
        assert commands[:2] == [f"input tap {x} {y}", "input text a"] and len(commands) == 3
        assert commands[2].startswith("input keyevent 66 && { uiautomator dump ")
        assert commands[2].endswith("; screencap 2>/dev/null || true; }")
        assert device.ui_dump() == phone.ui_dump() and np.array_equal(device.screenshot(), phone.screenshot())
        assert len(commands) == 3
    finally:
        device.close()


def test_a_screenshot_an_input_could_not_bring_is_taken_on_its_own(fresh_served_phone, commands):
    """One of another size than the device knows (another client resized the display) is not found at the end of
    the input's output, so neither is the dump before it: both are taken again on their own."""
    phone, device = fresh_served_phone.phone, AdbDevice(fresh_served_phone.serial)
    other = AdbDevice(fresh_served_phone.serial)
    try:
        device.key(4)
        device.ui_dump()
        device.screenshot()
        other.shell("wm size 540x1200")
        device.key(4)
        assert commands[-1].startswith("input keyevent 4 && { uiautomator dump ") and "screencap" in commands[-1]
        assert device.ui_dump() == phone.ui_dump()
        assert commands[-1].startswith("{ uiautomator dump ") and "screencap" not in commands[-1]
        assert np.array_equal(device.screenshot(), phone.screenshot()) and phone.screenshot().shape == (1200, 540, 3)
        commands.clear()
        device.key(4)  # that screenshot's size had the device read the display's again: the next input brings both
        assert device.ui_dump() == phone.ui_dump() and np.array_equal(device.screenshot(), phone.screenshot())
        assert commands[0] == "wm size" and len(commands) == 2 and "screencap" in commands[1]
    finally:
        device.close()
        other.close()


def test_each_screenshot_is_the_callers_own_array(fresh_served_phone):
    """A view of the RGBA rows as they came (no copy), writable, and untouched by the screenshots after it."""
    phone, device = fresh_served_phone.phone, AdbDevice(fresh_served_phone.serial)
    try:
        device.key(4)
        first = device.screenshot()
        kept = np.array(first)
        device.tap(*_center(phone.ui_dump(), "Settings"))
        second = device.screenshot()
        assert np.array_equal(second, phone.screenshot()) and not np.array_equal(second, kept)
        assert np.array_equal(first, kept) and first.flags.writeable and not np.shares_memory(first, second)
        assert first.strides == (1080 * 4, 4, 1)
    finally:
        device.close()


def test_digests_asked_come_with_the_next_input_and_serve_while_nothing_ran(fresh_served_phone, commands):
    device, files = AdbDevice(fresh_served_phone.serial), ["/data/local/tmp/a", "/data/local/tmp/missing"]
    try:
        device.push(b"one", files[0])
        device.key(4)
        assert device.md5sums(files) == {files[0]: hashlib.md5(b"one").hexdigest()}  # a round trip of its own
        commands.clear()
        device.key(4)
        assert commands == [f"input keyevent 4 && {{ md5sum {' '.join(files)} 2>/dev/null; true; }}"]
        assert device.md5sums(files) == {files[0]: hashlib.md5(b"one").hexdigest()}
        assert device.md5sums(files[:1]) == {files[0]: hashlib.md5(b"one").hexdigest()} and len(commands) == 1
        device.push(b"two", files[0])  # a write: the digests brought are no longer current
        assert device.md5sums(files) == {files[0]: hashlib.md5(b"two").hexdigest()} and len(commands) == 2
        device.shell(f"echo three > {files[0]}")  # what a reset runs: digests asked after it come too
        assert device.md5sums(files) == {files[0]: hashlib.md5(b"three\n").hexdigest()}
        commands.clear()
        device.key(4)
        device.key(4)  # nothing was asked after the last input: nothing comes along
        assert commands == [f"input keyevent 4 && {{ md5sum {' '.join(files)} 2>/dev/null; true; }}",
                            "input keyevent 4"]
    finally:
        device.close()


def test_digests_asked_after_a_grpc_touch_come_with_the_dump(fresh_served_phone, commands):
    server = fresh_served_phone
    with SimGrpcServer(server.phone_host, port=free_port()) as grpc_server:
        device = AdbDevice(server.serial, grpc=f"127.0.0.1:{grpc_server.port}")
        try:
            device.tap(5, 5)
            device.ui_dump()
            device.md5sums(["/data/local/tmp/none"])
            device.tap(5, 5)
            commands.clear()
            assert device.ui_dump() == server.phone.ui_dump() and device.md5sums(["/data/local/tmp/none"]) == {}
            assert len(commands) == 1 and commands[0].startswith("{ md5sum /data/local/tmp/none 2>/dev/null; ")
        finally:
            device.close()


def test_a_failed_input_or_dump_in_one_command_line_says_which(fresh_served_phone):
    device = AdbDevice(fresh_served_phone.serial)
    try:
        device.key(4)
        device.ui_dump()
        with pytest.raises(InvalidActionError, match="no key for some of these characters"):
            device.input_text("café")
        device.shell(f"rm {UI_DUMP_PATH}; mkdir {UI_DUMP_PATH}")  # no file to write nor read
        with pytest.raises(DeviceError, match="uiautomator dump failed"):
            device.key(4)
    finally:
        device.close()


def _center(dump: str, text: str) -> tuple[int, int]:
    """The middle of the first node whose text is ``text``."""
    match = re.search(rf'text="{re.escape(text)}"[^>]*bounds="\[(\d+),(\d+)\]\[(\d+),(\d+)\]"', dump)
    assert match is not None, f"no node with text {text!r}"
    x1, y1, x2, y2 = map(int, match.groups())
    return (x1 + x2) // 2, (y1 + y2) // 2


@pytest.mark.parametrize("shell_v2", [True, False], ids=["shell-v2", "legacy-shell"])
def test_md5sums_names_the_files_there_are(fresh_served_phone, shell_v2):
    device = AdbDevice(fresh_served_phone.serial)
    device._shell_v2 = shell_v2  # a device without the shell protocol reads them through adbutils' shell2
    try:
        device.push(b"some bytes", "/data/local/tmp/a file.txt")
        assert device.md5sums(["/data/local/tmp/a file.txt", "/data/local/tmp/none"]) == {
            "/data/local/tmp/a file.txt": hashlib.md5(b"some bytes").hexdigest()}
    finally:
        device.close()


def test_the_dumps_stabilize_polls_leave_the_focus_out(fresh_served_phone, monkeypatch):
    device = AdbDevice(fresh_served_phone.serial, stabilize=Stabilization(interval_s=0.0))
    commands = []
    shell_v2 = services.shell_v2
    monkeypatch.setattr(services, "shell_v2", lambda *args: commands.append(args[2]) or shell_v2(*args))
    try:
        assert device.known_focus() is None
        device.key(3)  # HOME, then dumps until two agree
        assert device.ui_dump() and device.known_focus() is None  # the settled dump
        assert not [command for command in commands if "dumpsys" in command]
        device.ui_dump()
        assert "mCurrentFocus=" in device.known_focus() and "dumpsys" in commands[-1]
    finally:
        device.close()
