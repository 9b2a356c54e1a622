"""The simulated phone's emulator gRPC services, spoken to with the generated stubs over a real loopback server."""

from __future__ import annotations

import io
import re
import socket
import tempfile
from pathlib import Path

import grpc
import numpy as np
import pytest
from google.protobuf import empty_pb2
from PIL import Image

from android_gym.errors import ServerError
from android_gym.protos import emulator_controller_pb2 as pb
from android_gym.protos import emulator_controller_pb2_grpc as pb_grpc
from android_gym.protos import snapshot_pb2
from android_gym.protos import snapshot_service_pb2 as snap
from android_gym.protos import snapshot_service_pb2_grpc as snap_grpc
from android_gym.sim import frame_transport
from android_gym.sim.adb_harness import free_port, free_port_pair
from android_gym.sim.frame_transport import region_path
from android_gym.sim.grpc_server import SimGrpcServer, fit_size, is_local_peer
from android_gym.sim.host import PhoneHost
from android_gym.sim.phone import INPUT_EVENT_MS, Phone
from android_gym.sim.server import SimServer
from android_gym.tempdirs import TMPDIR_VAR


@pytest.fixture
def server(phone, tmp_path):
    """A gRPC server for ``phone`` on a free loopback port."""
    with SimGrpcServer(PhoneHost(phone), port=free_port(), snapshot_dir=tmp_path / "snapshots") as served:
        yield served


@pytest.fixture
def channel(server):
    with grpc.insecure_channel(f"127.0.0.1:{server.port}",
                               options=[("grpc.max_receive_message_length", -1)]) as opened:
        yield opened


@pytest.fixture
def controller(channel):
    return pb_grpc.EmulatorControllerStub(channel)


@pytest.fixture
def snapshots(channel):
    return snap_grpc.SnapshotServiceStub(channel)


def bounds_center(dump: str, text: str) -> tuple[int, int]:
    """The middle of the first node whose text is ``text``."""
    match = re.search(rf'text="{re.escape(text)}"[^>]*bounds="\[(\d+),(\d+)\]\[(\d+),(\d+)\]"', dump)
    assert match is not None, f"no node with text {text!r}"
    x1, y1, x2, y2 = map(int, match.groups())
    return (x1 + x2) // 2, (y1 + y2) // 2


def touch(controller, x: int, y: int, pressure: int, identifier: int = 0) -> None:
    controller.sendTouch(pb.TouchEvent(touches=[pb.Touch(x=x, y=y, identifier=identifier, pressure=pressure)]))


# ----- the wire format is the emulator's ---------------------------------------------------------------------
def test_methods_answer_on_the_emulators_paths(channel):
    get_status = channel.unary_unary("/android.emulation.control.EmulatorController/getStatus",
                                     request_serializer=empty_pb2.Empty.SerializeToString,
                                     response_deserializer=pb.EmulatorStatus.FromString)
    assert get_status(empty_pb2.Empty()).booted
    list_snapshots = channel.unary_unary("/android.emulation.control.SnapshotService/ListSnapshots",
                                         request_serializer=snap.SnapshotFilter.SerializeToString,
                                         response_deserializer=snap.SnapshotList.FromString)
    assert list(list_snapshots(snap.SnapshotFilter()).snapshots) == []


@pytest.mark.parametrize(("message", "field", "number"), [
    (pb.ImageFormat, "format", 1), (pb.ImageFormat, "rotation", 2), (pb.ImageFormat, "width", 3),
    (pb.ImageFormat, "height", 4), (pb.ImageFormat, "display", 5), (pb.ImageFormat, "transport", 6),
    (pb.Image, "format", 1), (pb.Image, "image", 4), (pb.Image, "seq", 5), (pb.Image, "timestampUs", 6),
    (pb.Touch, "x", 1), (pb.Touch, "y", 2), (pb.Touch, "identifier", 3), (pb.Touch, "pressure", 4),
    (pb.Touch, "expiration", 7), (pb.TouchEvent, "touches", 1), (pb.TouchEvent, "display", 2),
    (pb.KeyboardEvent, "codeType", 1), (pb.KeyboardEvent, "eventType", 2), (pb.KeyboardEvent, "keyCode", 3),
    (pb.KeyboardEvent, "key", 4), (pb.KeyboardEvent, "text", 5), (pb.EmulatorStatus, "version", 1),
    (pb.EmulatorStatus, "uptime", 2), (pb.EmulatorStatus, "booted", 3), (pb.EmulatorStatus, "vmConfig", 4),
    (pb.EmulatorStatus, "hardwareConfig", 5), (pb.VmConfiguration, "ramSizeBytes", 3), (pb.VmRunState, "state", 1),
    (snap.SnapshotPackage, "snapshot_id", 1), (snap.SnapshotPackage, "success", 3), (snap.SnapshotPackage, "err", 4),
    (snap.SnapshotPackage, "path", 6), (snap.SnapshotFilter, "statusFilter", 1), (snap.SnapshotDetails, "details", 2),
    (snap.SnapshotDetails, "status", 3), (snap.SnapshotDetails, "size", 4), (snapshot_pb2.Snapshot, "logical_name", 12),
])
def test_field_numbers_are_the_emulators(message, field, number):
    assert message.DESCRIPTOR.fields_by_name[field].number == number


def test_enum_values_are_the_emulators():
    assert (pb.ImageFormat.PNG, pb.ImageFormat.RGBA8888, pb.ImageFormat.RGB888) == (0, 1, 2)
    assert (pb.KeyboardEvent.keydown, pb.KeyboardEvent.keyup, pb.KeyboardEvent.keypress) == (0, 1, 2)
    assert [pb.VmRunState.RunState.Value(name) for name in ("RUNNING", "PAUSED", "SHUTDOWN", "TERMINATE", "RESET")] \
        == [1, 3, 5, 7, 9]
    assert (snap.SnapshotDetails.Compatible, snap.SnapshotDetails.Loaded, snap.SnapshotFilter.All) == (0, 2, 1)


# ----- status and screenshots --------------------------------------------------------------------------------
def test_status_reports_boot_uptime_and_hardware(controller, phone):
    status = controller.getStatus(empty_pb2.Empty())
    assert status.booted and status.version
    assert status.vmConfig.hypervisorType == pb.VmConfiguration.KVM and status.vmConfig.ramSizeBytes > 0
    hardware = {entry.key: entry.value for entry in status.hardwareConfig.entry}
    assert (hardware["hw.lcd.width"], hardware["hw.lcd.height"], hardware["hw.lcd.density"]) == ("1080", "2400", "420")
    phone.clock.advance(5000)
    assert controller.getStatus(empty_pb2.Empty()).uptime == status.uptime + 5000
    phone.props["sys.boot_completed"] = "0"
    assert not controller.getStatus(empty_pb2.Empty()).booted


def test_screenshot_formats_carry_the_phones_pixels(controller, phone):
    expected = phone.screenshot()
    rgb = controller.getScreenshot(pb.ImageFormat(format=pb.ImageFormat.RGB888))
    assert (rgb.format.format, rgb.format.width, rgb.format.height, rgb.seq) == (pb.ImageFormat.RGB888, 1080, 2400, 0)
    assert rgb.timestampUs == phone.clock.now_ms() * 1000
    assert np.array_equal(np.frombuffer(rgb.image, np.uint8).reshape(2400, 1080, 3), expected)
    rgba = np.frombuffer(controller.getScreenshot(pb.ImageFormat(format=pb.ImageFormat.RGBA8888)).image, np.uint8)
    rgba = rgba.reshape(2400, 1080, 4)
    assert np.array_equal(rgba[..., :3], expected) and (rgba[..., 3] == 255).all()
    png = controller.getScreenshot(pb.ImageFormat(format=pb.ImageFormat.PNG)).image
    assert png.startswith(b"\x89PNG")
    assert np.array_equal(np.asarray(Image.open(io.BytesIO(png)).convert("RGB")), expected)


def test_a_screenshot_goes_into_the_shared_memory_the_client_names(controller, phone, tmp_path):
    """ImageTransport MMAP: the pixels land at the start of the client's region, the reply carries none."""
    region = tmp_path / "frame"
    region.write_bytes(bytes(270 * 600 * 3 + 7))
    request = pb.ImageFormat(format=pb.ImageFormat.RGB888, width=270, height=600,
                             transport=pb.ImageTransport(channel=pb.ImageTransport.MMAP, handle=f"file://{region}"))
    for screen in ("home", "settings"):  # the second screen goes through the mapping kept from the first
        if screen == "settings":
            phone.run("am start -a android.settings.SETTINGS")
        reply = controller.getScreenshot(request)
        assert reply.image == b"" and reply.format.transport == request.transport
        assert (reply.format.width, reply.format.height) == (270, 600)
        plain = controller.getScreenshot(pb.ImageFormat(format=pb.ImageFormat.RGB888, width=270, height=600))
        assert region.read_bytes()[:270 * 600 * 3] == plain.image


def test_a_region_too_small_or_missing_is_a_failed_precondition(controller, tmp_path):
    small = tmp_path / "small"
    small.write_bytes(bytes(100))
    for handle, message in ((f"file://{small}", "needs to have a size of at least: 7776000"),
                            (f"file://{tmp_path}/missing", "cannot open"), (f"file://{tmp_path}", "cannot open")):
        request = pb.ImageFormat(format=pb.ImageFormat.RGB888,
                                 transport=pb.ImageTransport(channel=pb.ImageTransport.MMAP, handle=handle))
        with pytest.raises(grpc.RpcError) as error:
            controller.getScreenshot(request)
        assert error.value.code() == grpc.StatusCode.FAILED_PRECONDITION and message in error.value.details()
    assert not (tmp_path / "missing").exists()  # never created by the server


def test_a_region_outside_the_shared_memory_and_temporary_directories_is_refused(controller, tmp_path,
                                                                                 monkeypatch):
    """A request names the file: the phone writes into none outside the places clients make regions, so a local
    client cannot have it overwrite a user's files."""
    allowed = tmp_path / "temporary"
    allowed.mkdir()
    monkeypatch.setattr(frame_transport, "SHM_DIR", allowed)
    monkeypatch.setattr(tempfile, "tempdir", str(allowed))
    monkeypatch.delenv(TMPDIR_VAR, raising=False)
    outside, inside = tmp_path / "notes.txt", allowed / "frame"
    for region in (outside, inside):
        region.write_bytes(bytes(270 * 600 * 3))
    request = pb.ImageFormat(format=pb.ImageFormat.RGB888, width=270, height=600,
                             transport=pb.ImageTransport(channel=pb.ImageTransport.MMAP, handle=f"file://{outside}"))
    with pytest.raises(grpc.RpcError) as error:
        controller.getScreenshot(request)
    assert error.value.code() == grpc.StatusCode.FAILED_PRECONDITION and "outside" in error.value.details()
    assert outside.read_bytes() == bytes(270 * 600 * 3)
    request.transport.handle = f"file://{inside}"
    assert controller.getScreenshot(request).image == b"" and inside.read_bytes() != bytes(270 * 600 * 3)


@pytest.mark.parametrize(("peer", "local"), [
    ("ipv4:127.0.0.1:50000", True), ("ipv6:[::1]:50000", True), ("unix:/tmp/socket", True),
    ("ipv4:192.168.1.20:50000", False), ("ipv6:[2001:db8::1]:50000", False), ("ipv4:nonsense", False),
])
def test_only_peers_on_this_machine_share_memory(peer, local):
    assert is_local_peer(peer) is local


def test_a_shared_memory_name_is_a_file_under_dev_shm():
    assert region_path("/android-gym-frame") == Path("/dev/shm/android-gym-frame")
    assert region_path("file:///tmp/frame") == Path("/tmp/frame")


@pytest.mark.parametrize(("wanted", "size"), [
    ((0, 0), (1080, 2400)), ((540, 0), (1080, 2400)), ((540, 2000), (540, 1200)), ((1000, 1000), (450, 1000)),
    ((333, 3000), (333, 740)), ((2160, 4800), (1080, 2400)), ((12000, 12000), (1080, 2400)),
    ((540, 12000), (540, 1200)),
])
def test_scaling_fits_the_wanted_box_keeping_the_aspect_ratio(controller, wanted, size):
    """Down only: a box larger than the screen gets the screen's own size, as from the emulator."""
    assert fit_size(1080, 2400, *wanted) == size
    image = controller.getScreenshot(pb.ImageFormat(format=pb.ImageFormat.RGB888, width=wanted[0], height=wanted[1]))
    assert (image.format.width, image.format.height) == size
    assert len(image.image) == size[0] * size[1] * 3


def test_a_scaled_screenshot_shows_the_same_screen(controller, phone):
    image = controller.getScreenshot(pb.ImageFormat(format=pb.ImageFormat.RGB888, width=540, height=1200))
    half = np.frombuffer(image.image, np.uint8).reshape(1200, 540, 3).astype(int)
    assert np.abs(half - phone.screenshot()[::2, ::2]).mean() < 8


@pytest.mark.parametrize("wanted", [(1, 1), (2000, 1)])
def test_a_box_too_thin_for_any_pixel_is_an_invalid_argument(controller, wanted):
    with pytest.raises(grpc.RpcError) as raised:
        controller.getScreenshot(pb.ImageFormat(width=wanted[0], height=wanted[1]))
    assert raised.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "ask for a larger" in raised.value.details()


def test_another_display_gives_an_empty_image(controller):
    image = controller.getScreenshot(pb.ImageFormat(format=pb.ImageFormat.RGB888, display=1))
    assert image.image == b"" and image.format.width == 0


# ----- touches and keys --------------------------------------------------------------------------------------
def test_a_touch_that_stays_within_the_slop_taps(controller, phone):
    x, y = bounds_center(phone.ui_dump(), "Settings")
    touch(controller, x, y, 1)
    touch(controller, x + 12, y + 12, 1)  # 17 px: within 8 dp (21 px at 420 dpi)
    touch(controller, x + 12, y + 12, 0)
    assert phone.activities.foreground()[0] == "com.android.settings"


def test_a_touch_that_moves_swipes_one_frame_per_position(controller, phone):
    phone.run("am start -a android.settings.SETTINGS")
    before, start_ms = phone.ui_dump(), phone.clock.now_ms()
    assert "Network &amp; internet" in before
    touch(controller, 540, 1800, 1)
    for step in range(1, 11):
        touch(controller, 540, 1800 - 120 * step, 1)
    touch(controller, 540, 600, 0)
    assert phone.clock.now_ms() - start_ms == INPUT_EVENT_MS + 10 * 16
    after = phone.ui_dump()
    assert "Network &amp; internet" not in after and "About phone" in after


def test_fingers_are_tracked_by_identifier(controller, phone):
    x, y = bounds_center(phone.ui_dump(), "Settings")
    touch(controller, 540, 2000, 1, identifier=7)
    touch(controller, x, y, 1, identifier=3)
    touch(controller, x, y, 0, identifier=3)
    assert phone.activities.foreground()[0] == "com.android.settings"
    touch(controller, 10, 10, 0, identifier=99)  # never went down: nothing happens
    assert phone.activities.foreground()[0] == "com.android.settings"


def test_a_finger_left_down_is_gone_when_another_phone_is_served(controller, server):
    """Fingers are on a phone's screen: one a client never lifted (an out-of-range contact a fuzzer sent, an
    episode ended mid-touch) is gone when another phone is served (``PhoneHost.replace``, as the tests' fresh
    phones are), so a tap on the new phone taps, not swipes from where the old finger was."""
    touch(controller, -1 << 31, 1 << 30, 1)
    fresh = Phone()
    server.host.replace(fresh)  # the fixture closes the phone served before
    try:
        x, y = bounds_center(fresh.ui_dump(), "Settings")
        touch(controller, x, y, 1)
        touch(controller, x, y, 0)
        assert fresh.activities.foreground()[0] == "com.android.settings"
    finally:
        fresh.close()


def test_keys_by_w3c_name(controller, phone):
    phone.run("am start -a android.settings.SETTINGS")
    controller.sendKey(pb.KeyboardEvent(key="GoBack", eventType=pb.KeyboardEvent.keyup))
    assert phone.activities.foreground()[0] == "com.android.settings"  # a key up alone does nothing
    controller.sendKey(pb.KeyboardEvent(key="GoBack", eventType=pb.KeyboardEvent.keypress))
    assert phone.activities.foreground()[0] == "com.google.android.apps.nexuslauncher"
    phone.run("am start -a android.settings.SETTINGS")
    controller.sendKey(pb.KeyboardEvent(key="GoHome"))  # eventType defaults to keydown
    assert phone.activities.foreground()[0] == "com.google.android.apps.nexuslauncher"


def test_text_and_printable_keys_type_into_the_focused_field(controller, phone):
    phone.run("am start -a android.intent.action.SENDTO -d sms:5551234")
    controller.sendKey(pb.KeyboardEvent(text="Hi there"))
    controller.sendKey(pb.KeyboardEvent(key="!", eventType=pb.KeyboardEvent.keypress))
    controller.sendKey(pb.KeyboardEvent(key="Backspace", eventType=pb.KeyboardEvent.keypress))
    controller.sendKey(pb.KeyboardEvent(key="?", eventType=pb.KeyboardEvent.keypress))
    assert 'text="Hi there?"' in phone.ui_dump()


@pytest.mark.parametrize(("event", "message"), [
    (pb.KeyboardEvent(key="Hyper"), "unknown key 'Hyper'"),
    (pb.KeyboardEvent(keyCode=30), "key codes are not supported"),
    (pb.KeyboardEvent(codeType=99, keyCode=30), "99 key codes are not supported"),
])
def test_keys_the_phone_cannot_press_are_invalid_arguments(controller, event, message):
    with pytest.raises(grpc.RpcError) as raised:
        controller.sendKey(event)
    assert raised.value.code() == grpc.StatusCode.INVALID_ARGUMENT and message in raised.value.details()


# ----- VM state ----------------------------------------------------------------------------------------------
def test_input_waits_while_the_vm_is_paused(controller, phone):
    x, y = bounds_center(phone.ui_dump(), "Settings")
    controller.setVmState(pb.VmRunState(state=pb.VmRunState.PAUSED))
    assert controller.getVmState(empty_pb2.Empty()).state == pb.VmRunState.PAUSED
    touch(controller, x, y, 1)
    touch(controller, x, y, 0)
    assert phone.activities.foreground()[0] == "com.google.android.apps.nexuslauncher"
    controller.setVmState(pb.VmRunState(state=pb.VmRunState.RUNNING))
    assert controller.getVmState(empty_pb2.Empty()).state == pb.VmRunState.RUNNING
    assert phone.activities.foreground()[0] == "com.android.settings"


def test_reset_boots_a_fresh_phone(controller, server, phone):
    phone.run("echo x > /sdcard/a")
    controller.setVmState(pb.VmRunState(state=pb.VmRunState.RESET))
    fresh = server.host.phone
    assert fresh is not phone and fresh.screen_size == (1080, 2400) and not fresh.window.animations
    assert not fresh.fs.exists("/sdcard/a") and not phone.fs.root.exists()  # the old phone was shut down
    assert controller.getStatus(empty_pb2.Empty()).booted


def test_a_phone_served_after_a_reset_gets_none_of_the_paused_vm_s_input(controller, server, phone):
    """What the tests' fresh served phones do (``fresh_served_phone``): the VM a test left paused, with input
    queued, runs again, and that input never reaches the phone served next."""
    x, y = bounds_center(phone.ui_dump(), "Settings")
    controller.setVmState(pb.VmRunState(state=pb.VmRunState.PAUSED))
    touch(controller, x, y, 1)
    touch(controller, x, y, 0)
    fresh = Phone()
    server.reset(fresh)
    assert server.host.phone is fresh and not phone.fs.root.exists()  # the phone before was shut down
    assert controller.getVmState(empty_pb2.Empty()).state == pb.VmRunState.RUNNING
    controller.setVmState(pb.VmRunState(state=pb.VmRunState.RUNNING))
    assert fresh.activities.foreground()[0] == "com.google.android.apps.nexuslauncher"
    touch(controller, x, y, 1)
    touch(controller, x, y, 0)
    assert fresh.activities.foreground()[0] == "com.android.settings"  # input goes straight to it
    fresh.close()


def test_reset_keeps_the_screen_and_animation_setting():
    host = PhoneHost(Phone(720, 1280, animations=True))
    with SimGrpcServer(host) as served, grpc.insecure_channel(f"127.0.0.1:{served.port}") as channel:
        pb_grpc.EmulatorControllerStub(channel).setVmState(pb.VmRunState(state=pb.VmRunState.RESET))
    assert host.phone.screen_size == (720, 1280) and host.phone.window.animations
    host.phone.close()


@pytest.mark.parametrize(("state", "name"), [(pb.VmRunState.SAVE_VM, "SAVE_VM"), (99, "99")])
def test_states_one_cannot_move_to_are_invalid_arguments(controller, state, name):
    with pytest.raises(grpc.RpcError) as raised:
        controller.setVmState(pb.VmRunState(state=state))
    assert raised.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert f"cannot move the VM to {name}:" in raised.value.details()


def test_a_taken_port_is_a_server_error(server, phone):
    with pytest.raises(ServerError, match=f"cannot serve gRPC on 127.0.0.1:{server.port} .*--grpc-port"):
        SimGrpcServer(PhoneHost(phone), port=server.port).start()


def test_shutdown_stops_the_whole_simulated_emulator():
    adb_port = free_port_pair()
    server = SimServer(adb_port=adb_port, announce=False, grpc_port=free_port()).start()
    with grpc.insecure_channel(f"127.0.0.1:{server.grpc.port}") as channel:
        stub = pb_grpc.EmulatorControllerStub(channel)
        assert stub.getStatus(empty_pb2.Empty()).booted
        stub.setVmState(pb.VmRunState(state=pb.VmRunState.SHUTDOWN))
        assert server.grpc.wait_stopped(timeout=30)
    for port in (adb_port, adb_port - 1, server.grpc.port):
        with pytest.raises(ConnectionRefusedError), socket.create_connection(("127.0.0.1", port), timeout=5):
            pass
    server.phone.close()


# ----- snapshots ---------------------------------------------------------------------------------------------
def package(name: str) -> snap.SnapshotPackage:
    return snap.SnapshotPackage(snapshot_id=name)


def test_snapshots_save_list_load_delete(snapshots, phone):
    assert snapshots.SaveSnapshot(package("clean")).success
    phone.run("echo x > /sdcard/a; settings put global wifi_on 0")
    assert snapshots.LoadSnapshot(package("clean")).success
    assert not phone.fs.exists("/sdcard/a") and phone.settings.get("global", "wifi_on") == "1"
    [details] = snapshots.ListSnapshots(snap.SnapshotFilter(statusFilter=snap.SnapshotFilter.All)).snapshots
    assert (details.snapshot_id, details.status, details.details.logical_name) == \
        ("clean", snap.SnapshotDetails.Loaded, "clean")
    assert details.size > 100_000 and details.details.creation_time == phone.clock.now_ms() // 1000
    assert snapshots.DeleteSnapshot(package("clean")).success
    assert list(snapshots.ListSnapshots(snap.SnapshotFilter()).snapshots) == []


@pytest.mark.parametrize(("call", "name", "message"), [
    ("LoadSnapshot", "missing", b"no snapshot named 'missing'"),
    ("DeleteSnapshot", "missing", b"no snapshot named 'missing'"),
    ("SaveSnapshot", "../escape", b"invalid snapshot name '../escape'"),
])
def test_snapshot_failures_answer_success_false_with_the_reason(snapshots, call, name, message):
    reply = getattr(snapshots, call)(package(name))
    assert not reply.success and message in reply.err
