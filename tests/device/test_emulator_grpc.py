"""``EmulatorGrpc`` end to end against the simulated phone's gRPC server on a loopback port."""

from __future__ import annotations

import os
import re

import grpc
import numpy as np
import pytest

from android_gym.device.emulator_grpc import EmulatorGrpc, EmulatorStatus, decode_image, is_loopback_address
from android_gym.device.shared_frame import SharedFrame
from android_gym.errors import DeviceError, EmulatorGrpcError
from android_gym.protos import emulator_controller_pb2 as pb
from android_gym.protos import emulator_controller_pb2_grpc as pb_grpc
from android_gym.sim import frame_transport
from android_gym.sim.adb_harness import free_port
from android_gym.sim.grpc_server import SimGrpcServer
from android_gym.sim.host import PhoneHost
from android_gym.tempdirs import TMPDIR_VAR

LAUNCHER = "com.google.android.apps.nexuslauncher"


@pytest.fixture
def server(phone, tmp_path):
    with SimGrpcServer(PhoneHost(phone), port=free_port(), snapshot_dir=tmp_path / "snapshots") as served:
        yield served


@pytest.fixture
def sleeps():
    """The pauses the client asked for (seconds), instead of sleeping."""
    return []


@pytest.fixture
def client(server, sleeps):
    with EmulatorGrpc(f"127.0.0.1:{server.port}", timeout=30, sleep=sleeps.append) as opened:
        yield opened


def center_of(dump: str, text: str) -> tuple[int, int]:
    """The middle of the first node whose text is ``text``, from its uiautomator bounds."""
    match = re.search(rf'text="{re.escape(text)}"[^>]*bounds="\[(\d+),(\d+)\]\[(\d+),(\d+)\]"', dump)
    assert match is not None, f"no node with text {text!r}"
    x1, y1, x2, y2 = map(int, match.groups())
    return (x1 + x2) // 2, (y1 + y2) // 2


def test_status(client, phone):
    status = client.status()
    assert isinstance(status, EmulatorStatus) and status.booted and "android_gym" in status.version
    phone.clock.advance(1234)
    assert client.status().uptime_ms == status.uptime_ms + 1234


def test_screenshot_is_the_phones_frame(client, phone):
    frame = client.screenshot()
    assert frame.shape == (2400, 1080, 3) and frame.dtype == np.uint8
    assert np.array_equal(frame, phone.screenshot())
    assert client.screenshot(540, 1200).shape == (1200, 540, 3)
    assert client.screenshot(540, 0).shape == (2400, 1080, 3)  # the emulator ignores a half-given size


def test_screenshots_come_through_shared_memory_after_the_first(client, server, phone, monkeypatch):
    sent = []
    write = server.shared_frames.write
    monkeypatch.setattr(server.shared_frames, "write", lambda handle, image: sent.append(handle) or write(handle,
                                                                                                           image))
    first = client.screenshot()  # in the reply: it tells how large a region the frames need
    phone.run("am start -a android.settings.SETTINGS")
    second = client.screenshot()
    assert len(sent) == 1 and sent[0].startswith("file:///")
    region = sent[0].removeprefix("file://")
    assert os.path.getsize(region) == 1080 * 2400 * 3
    assert np.array_equal(second, phone.screenshot()) and not np.array_equal(first, second)
    second[:] = 0  # the caller's own array, not a view of the region
    assert np.array_equal(client.screenshot(), phone.screenshot())
    client.close()
    assert not os.path.exists(region)


def test_a_region_the_emulator_does_not_write_is_given_up(client, server, phone, monkeypatch):
    """An emulator that writes another file under the name (one in a container) leaves the marker in place: the
    pixels are asked in the reply, then and from then on."""
    client.screenshot()
    monkeypatch.setattr(server.shared_frames, "write", lambda handle, image: None)
    assert np.array_equal(client.screenshot(), phone.screenshot())
    monkeypatch.undo()
    writes = []
    monkeypatch.setattr(server.shared_frames, "write", lambda handle, image: writes.append(handle))
    assert np.array_equal(client.screenshot(), phone.screenshot()) and writes == []


def test_a_region_refused_for_where_it_lies_is_not_asked_again(client, server, phone, tmp_path, monkeypatch):
    """A client whose ``ANDROID_GYM_TMPDIR`` lies outside the directories the served phone writes in is refused its
    region (though the image fits): it takes the pixels from the reply, then asks for them there from then on."""
    allowed, own = tmp_path / "allowed", tmp_path / "client"
    own.mkdir()
    monkeypatch.setenv(TMPDIR_VAR, str(own))
    monkeypatch.setattr(frame_transport, "regions_allowed_in", lambda: (allowed,))
    asked = []
    write = server.shared_frames.write
    monkeypatch.setattr(server.shared_frames, "write", lambda handle, image: asked.append(handle) or write(handle,
                                                                                                            image))
    for _ in range(4):
        assert np.array_equal(client.screenshot(), phone.screenshot())
    assert len(asked) == 1 and asked[0].startswith(f"file://{own}/")
    assert list(own.iterdir()) == []  # the refused region is gone, and no other was made


def test_a_screen_grown_past_the_region_is_read_from_the_reply(client, phone):
    phone.run("wm size 540x1200")
    client.screenshot()
    client.screenshot()
    phone.run("wm size reset")
    assert client.screenshot().shape == (2400, 1080, 3)
    assert np.array_equal(client.screenshot(), phone.screenshot())  # in a region of the new size


@pytest.mark.parametrize(("address", "loopback"), [
    ("localhost:8554", True), ("127.0.0.1:8554", True), ("[::1]:8554", True), ("10.0.2.2:8554", False),
    ("emulator.example:8554", False),
])
def test_memory_is_shared_only_with_an_emulator_on_this_machine(address, loopback):
    assert is_loopback_address(address) is loopback


@pytest.mark.parametrize("image_format", [pb.ImageFormat.RGBA8888, pb.ImageFormat.PNG])
def test_other_formats_decode_to_the_same_pixels(server, image_format):
    with grpc.insecure_channel(f"127.0.0.1:{server.port}") as channel:
        stub = pb_grpc.EmulatorControllerStub(channel)
        reply = stub.getScreenshot(pb.ImageFormat(format=image_format, width=270, height=600))
        expected = stub.getScreenshot(pb.ImageFormat(format=pb.ImageFormat.RGB888, width=270, height=600))
    assert decode_image(reply).shape == (600, 270, 3)
    assert np.array_equal(decode_image(reply), decode_image(expected))


def test_a_truncated_frame_is_an_error():
    image = pb.Image(format=pb.ImageFormat(format=pb.ImageFormat.RGB888, width=10, height=10), image=bytes(299))
    with pytest.raises(EmulatorGrpcError, match="299 bytes for a 10x10 RGB888"):
        decode_image(image)


def test_tap_opens_an_app_from_the_home_screen(client, phone):
    before = phone.ui_dump()
    client.tap(*center_of(before, "Settings"))
    after = phone.ui_dump()
    assert after != before and 'package="com.android.settings"' in after
    assert phone.activities.foreground()[0] == "com.android.settings"


def test_swipe_scrolls_paced_over_its_duration(client, phone, sleeps):
    phone.run("am start -a android.settings.SETTINGS")
    assert "Network &amp; internet" in phone.ui_dump()
    client.swipe(540, 1800, 540, 600, duration_ms=320)
    assert len(sleeps) == 20 and sum(sleeps) == pytest.approx(0.32)
    dump = phone.ui_dump()
    assert "Network &amp; internet" not in dump and "About phone" in dump


def test_keys(client, phone):
    phone.run("am start -a android.settings.SETTINGS")
    client.send_key("GoBack")
    assert phone.activities.foreground()[0] == LAUNCHER
    phone.run("am start -a android.intent.action.SENDTO -d sms:5551234")
    for key in "ok":
        client.send_key(key)
    client.send_key("Backspace")
    assert 'text="o"' in phone.ui_dump()
    client.send_key("GoHome")
    assert phone.activities.foreground()[0] == LAUNCHER


def test_an_unknown_key_is_refused_with_the_servers_reason(client):
    with pytest.raises(EmulatorGrpcError, match="INVALID_ARGUMENT: unknown key 'Hyper'"):
        client.send_key("Hyper")


def test_snapshots_round_trip(client, phone):
    client.save_snapshot("clean")
    phone.run("echo x > /sdcard/a; settings put global bluetooth_on 0")
    client.save_snapshot("dirty")
    assert client.list_snapshots() == ["clean", "dirty"]
    client.load_snapshot("clean")
    assert not phone.fs.exists("/sdcard/a") and phone.settings.get("global", "bluetooth_on") == "1"
    client.load_snapshot("dirty")
    assert phone.fs.read_bytes("/sdcard/a") == b"x\n"
    client.delete_snapshot("dirty")
    assert client.list_snapshots() == ["clean"]


def test_loading_an_unknown_snapshot_says_which_exist(client):
    client.save_snapshot("clean")
    with pytest.raises(EmulatorGrpcError, match=r"could not load snapshot 'nope': no snapshot named 'nope' "
                                                 r"\(saved: clean\)"):
        client.load_snapshot("nope")


def test_vm_states(client, server, phone):
    client.set_vm_state("PAUSED")
    client.tap(*center_of(phone.ui_dump(), "Settings"))
    assert phone.activities.foreground()[0] == LAUNCHER  # queued while paused
    client.set_vm_state("RUNNING")
    assert phone.activities.foreground()[0] == "com.android.settings"
    client.set_vm_state("RESET")
    assert server.host.phone is not phone and server.host.phone.activities.foreground()[0] == LAUNCHER
    with pytest.raises(EmulatorGrpcError, match="unknown VM state 'ASLEEP'"):
        client.set_vm_state("ASLEEP")
    client.set_vm_state("SHUTDOWN")
    assert server.wait_stopped(timeout=30)
    with pytest.raises(EmulatorGrpcError, match="no emulator gRPC"):
        client.status()
    server.host.phone.close()


def test_an_address_without_an_emulator_says_how_to_start_one():
    port = free_port()
    with EmulatorGrpc(f"127.0.0.1:{port}", timeout=5) as client, pytest.raises(DeviceError) as raised:
        client.screenshot()
    assert isinstance(raised.value, EmulatorGrpcError)
    assert str(raised.value) == (f"no emulator gRPC on 127.0.0.1:{port}: start the emulator with -grpc {port} "
                                 f"(or `android-gym sim serve --grpc-port {port}`)")



def test_a_forked_child_leaves_its_parents_region_alone():
    """A forked child that inherited a client must make a region of its own (``EmulatorGrpc`` drops an inherited
    one): the parent keeps writing its own."""
    frame = SharedFrame(64)
    try:
        child = os.fork()
        if child == 0:
            code = 1
            try:
                owned = frame.owned
                frame.close()
                code = 0 if not owned and os.path.exists(frame.path) else 2
            finally:
                os._exit(code)
        _, status = os.waitpid(child, 0)
        assert os.waitstatus_to_exitcode(status) == 0 and frame.owned and os.path.exists(frame.path)
    finally:
        frame.close()
    assert not os.path.exists(frame.path)
