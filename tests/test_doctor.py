"""``android-gym doctor``: every problem it detects, produced on a simulated phone (or Debian's adb) put into that
state, and a provisioned phone that passes every check."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import adbutils
import pytest
from apk_builder import build_apk
from stalled_emulator import StalledEmulator, wait_listed

from android_gym.cli import main
from android_gym.device.adb import AdbDevice, server_answers
from android_gym.device.provision import ANIMATION_SETTINGS, load_manifest, setup_device
from android_gym.device.sim import SimDevice
from android_gym.doctor import Check, run_doctor
from android_gym.sim.adb_harness import free_port, private_adb_server
from android_gym.sim.phone import Phone
from android_gym.sim.server import SimServer

DEVICE_CHECKS = ["root", "boot", "Android version", "screen", "apps", "snapshots", "time", "animations"]
ADB_CHECKS = ["adb", "adb server", "device"]


def _quiet(_line: str) -> None:
    """setup_device's log, unused."""


def _named(checks: list[Check]) -> dict[str, Check]:
    return {check.name: check for check in checks}


def _only_problem(checks: list[Check], name: str) -> Check:
    """The check ``name``, after making sure every other check passed."""
    assert [c.name for c in checks if not c.ok] == [name], [c.line() for c in checks]
    return _named(checks)[name]


@pytest.fixture
def ready() -> Iterator[SimDevice]:
    """A simulated phone after ``setup_device`` (apps, permissions, time, animations, snapshots)."""
    device = SimDevice()
    setup_device(device, download=False, log=_quiet)
    yield device
    device.close()


# ----- device-level checks on the in-process phone --------------------------------------------------------------
def test_a_provisioned_phone_passes_every_check(ready):
    checks = run_doctor(ready)
    assert [c.name for c in checks] == DEVICE_CHECKS
    assert all(c.ok and c.status == "ok" for c in checks), [c.line() for c in checks]
    assert _named(checks)["apps"].detail == f"all {len(load_manifest())} apps at the manifest's versions"
    assert all(c.line().startswith("✓ ") and "fix" not in c.line() for c in checks)


def _reinstall_older(device: SimDevice) -> None:
    """Replace Markor with a build of another versionCode, as a user's own install would."""
    device.push(build_apk("net.gsantner.markor", 3, "old"), "/data/local/tmp/markor.apk")
    assert device.shell("pm install -r -d -t /data/local/tmp/markor.apk").ok


BROKEN: dict[str, tuple[Callable[[SimDevice], object], str, str, str]] = {
    # state: (how to get there, failing check, words of its detail, words of its fix)
    "auto time on": (lambda d: d.shell("settings put global auto_time 1"), "time", "auto_time on",
                     "android-gym setup-device --device SPEC"),
    "auto time zone on": (lambda d: d.shell("settings put global auto_time_zone 1"), "time", "auto_time_zone on",
                          "settings put global auto_time 0"),
    "window animations on": (lambda d: d.shell("settings put global window_animation_scale 0.5"), "animations",
                             "window_animation_scale=0.5", "setup-device"),
    "animator scale deleted": (lambda d: d.shell("settings delete global animator_duration_scale"), "animations",
                               "animator_duration_scale=None", "setup-device"),
    "app uninstalled": (lambda d: d.shell("pm uninstall org.tasks"), "apps", "org.tasks missing", "setup-device"),
    "system app removed for the user": (lambda d: d.shell("pm uninstall --user 0 com.android.settings"), "apps",
                                        "com.android.settings (part of the system image) missing",
                                        "`adb shell pm install-existing com.android.settings`"),
    "another app version": (_reinstall_older, "apps", "net.gsantner.markor is old (versionCode 3), the tasks need",
                            "setup-device"),
    "snapshot deleted": (lambda d: d.shell("rm -rf /data/local/tmp/android_gym/app_data/org.tasks"), "snapshots",
                         "no app-data snapshot of org.tasks", "setup-device"),
}


@pytest.mark.parametrize("state", list(BROKEN))
def test_each_problem_is_the_one_failed_check_with_its_fix(ready, state):
    arrange, name, detail, fix = BROKEN[state]
    arrange(ready)
    check = _only_problem(run_doctor(ready), name)
    assert check.status == "failed"
    assert detail in check.detail and fix in check.fix
    assert check.line().startswith(f"✗ {name}: ") and f"→ fix: {check.fix}" in check.line()


def test_a_fresh_phone_lacks_what_setup_device_does():
    device = SimDevice()
    checks = _named(run_doctor(device))
    assert [name for name, c in checks.items() if not c.ok] == ["snapshots", "time", "animations"]
    assert checks["time"].detail.startswith("auto_time, auto_time_zone on")  # a fresh emulator's defaults
    assert all(f"{name}=1.0" in checks["animations"].detail for name in ANIMATION_SETTINGS)
    device.close()


def test_a_phone_still_booting_skips_what_needs_a_booted_system(ready):
    ready.shell("setprop sys.boot_completed 0")
    checks = run_doctor(ready)
    assert [c.name for c in checks] == ["root", "boot", "skipped"]
    assert checks[1].status == "failed" and "getprop sys.boot_completed" in checks[1].fix
    assert checks[2].status == "warning"
    assert checks[2].detail == "Android version, screen, apps, snapshots, time, animations not checked: boot failed"


def test_another_android_version_is_a_warning(ready):
    ready.phone.props["ro.build.version.sdk"], ready.phone.props["ro.build.version.release"] = "34", "14"
    check = _only_problem(run_doctor(ready), "Android version")
    assert check.status == "warning" and check.line().startswith("! Android version: API 34 (Android 14)")
    assert "system-images;android-33;google_apis;x86_64" in check.fix


def test_another_screen_size_is_a_warning():
    device = SimDevice(540, 1200)
    setup_device(device, download=False, log=_quiet)
    check = _only_problem(run_doctor(device), "screen")
    assert check.status == "warning" and check.detail.startswith("540x1200; AndroidWorld's Pixel 6 is 1080x2400")
    assert "wm size 1080x2400" in check.fix
    device.close()


@pytest.mark.parametrize(("spec", "detail", "fix"), [
    ("tablet", "unknown device 'tablet'", "give --device adb:SERIAL"),
    ("emulator:Pixel_6_API_33", "doctor checks a running device", "`android-gym emulator start Pixel_6_API_33`"),
    ("adb:emulator-5554?speed=fast", "unknown option(s) speed", "give --device adb:SERIAL[?grpc=HOST:PORT]"),
])
def test_a_device_spec_doctor_cannot_check_is_a_failed_check(spec, detail, fix):
    checks = run_doctor(spec)
    assert [(c.name, c.status) for c in checks] == [("device", "failed"), ("skipped", "warning")]
    assert detail in checks[0].detail and fix in checks[0].fix
    assert checks[1].detail.startswith("root, boot, ")


# ----- gRPC ------------------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def grpc_server(adb_server_port) -> Iterator[SimServer]:
    """A simulated phone served like an emulator started with ``-grpc``, listed by the private adb server."""
    with SimServer(grpc_port=0) as server:
        adbutils.AdbClient("127.0.0.1", adb_server_port).wait_for(server.serial, timeout=60)
        yield server


def test_an_unreachable_grpc_port_says_how_to_start_the_emulator(ready):
    address = f"127.0.0.1:{free_port()}"
    check = _only_problem(run_doctor(ready, grpc=address, timeout=5), "gRPC")
    assert check.detail.startswith(address) and "-grpc 8554" in check.fix


def test_grpc_of_an_emulator_still_booting(ready, grpc_server):
    grpc_server.phone_host.replace(Phone()).close()
    grpc_server.phone_host.phone.run("setprop sys.boot_completed 0")
    check = _only_problem(run_doctor(ready, grpc=f"127.0.0.1:{grpc_server.grpc.port}"), "gRPC")
    assert "has not booted" in check.detail


# ----- adb -------------------------------------------------------------------------------------------------------
def test_without_adb_on_path_nothing_else_can_be_checked(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("PATH", str(tmp_path))
    checks = run_doctor("adb:emulator-5554")
    assert [(c.name, c.status) for c in checks] == [("adb", "failed"), ("skipped", "warning")]
    assert "apt-get install -y adb" in checks[0].fix
    assert checks[1].detail == ("the adb server, root, boot, Android version, screen, apps, snapshots, time, "
                                "animations not checked: they need adb")
    assert main(["doctor"]) == 1
    assert capsys.readouterr().out.splitlines()[0].startswith("✗ adb: no `adb` command on PATH  → fix: ")


@pytest.mark.parametrize(("address", "port", "words"), [
    ("127.0.0.2", None, "no adb server answers on 127.0.0.2:"),  # not local: nothing may start one there
    (None, "adb", "ANDROID_ADB_SERVER_PORT='adb' is not a port number"),
])
def test_no_adb_server_to_talk_to(monkeypatch, address, port, words):
    if address:
        monkeypatch.setenv("ANDROID_ADB_SERVER_ADDRESS", address)
    monkeypatch.setenv("ANDROID_ADB_SERVER_PORT", port or str(free_port()))
    checks = run_doctor("adb:emulator-5554")
    assert [(c.name, c.status) for c in checks] == [("adb", "ok"), ("adb server", "failed"), ("skipped", "warning")]
    assert words in checks[1].detail and "start-server" in checks[1].fix


@pytest.mark.parametrize(("serial", "fix"), [
    ("emulator-5598", "android-gym emulator start AVD"),
    ("127.0.0.1:{port}", "then `adb connect 127.0.0.1:{port}`"),
])
def test_a_device_the_server_does_not_know(adb_server_port, serial, fix):
    port = free_port()
    serial, fix = serial.format(port=port), fix.format(port=port)
    checks = run_doctor(f"adb:{serial}", timeout=5)
    assert [(c.name, c.status) for c in checks] == [("adb", "ok"), ("adb server", "ok"), ("device", "failed"),
                                                    ("skipped", "warning")]
    assert serial in checks[2].detail and fix in checks[2].fix


@pytest.mark.parametrize(("ask_auth", "state", "fix"), [
    (False, "offline", "`adb reconnect offline`"),
    (True, "unauthorized", "accept the 'Allow USB debugging?' prompt"),
])
def test_a_device_adb_cannot_use_yet(adb_server_port, ask_auth, state, fix):
    emulator = StalledEmulator(ask_auth)
    try:
        wait_listed(adb_server_port, emulator.serial, state)
        checks = run_doctor(f"adb:{emulator.serial}", timeout=0.5)
    finally:
        emulator.close()
    assert [(c.name, c.status) for c in checks] == [("adb", "ok"), ("adb server", "ok"), ("device", "failed"),
                                                    ("skipped", "warning")]
    assert f"{emulator.serial} is {state}" in checks[2].detail and fix in checks[2].fix


def test_a_provisioned_phone_over_adb_and_grpc_passes_every_check(grpc_server, capsys):
    grpc_server.phone_host.replace(Phone()).close()
    device = AdbDevice(grpc_server.serial)
    setup_device(device, download=False, log=_quiet)
    device.close()
    spec = f"adb:{grpc_server.serial}?grpc=127.0.0.1:{grpc_server.grpc.port}"
    checks = run_doctor(spec)
    assert [c.name for c in checks] == ADB_CHECKS + DEVICE_CHECKS + ["gRPC"]
    assert all(c.ok for c in checks), [c.line() for c in checks]
    assert main(["doctor", "--device", spec]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == len(checks) and all(line.startswith("✓ ") for line in out)
    grpc_server.phone_host.phone.run("settings put global auto_time 1")
    assert main(["doctor", "--device", f"adb:{grpc_server.serial}"]) == 1
    assert "✗ time: auto_time on" in capsys.readouterr().out


# ----- which device, and which adb server ------------------------------------------------------------------------
def test_without_a_device_named_or_a_server_running_doctor_starts_none(monkeypatch, capsys):
    port = free_port()
    monkeypatch.setenv("ANDROID_ADB_SERVER_PORT", str(port))
    checks = run_doctor()
    assert [(c.name, c.status) for c in checks] == [("adb", "ok"), ("adb server", "failed"), ("skipped", "warning")]
    assert "no device was named" in checks[1].detail and "--device adb:SERIAL" in checks[1].fix
    assert main(["doctor"]) == 1 and "✗ adb server: no adb server answers" in capsys.readouterr().out
    assert not server_answers("127.0.0.1", port)


def test_a_server_started_for_a_named_device_is_stopped_afterwards(monkeypatch):
    port = free_port()
    monkeypatch.setenv("ANDROID_ADB_SERVER_PORT", str(port))
    checks = run_doctor("adb:emulator-5598", timeout=5)
    assert [(c.name, c.status) for c in checks] == [("adb", "ok"), ("adb server", "ok"), ("device", "failed"),
                                                    ("skipped", "warning")]
    assert checks[1].detail == f"answers on 127.0.0.1:{port} (started for this check, stopped afterwards)"
    assert not server_answers("127.0.0.1", port)


def test_without_a_device_named_the_only_listed_one_is_checked_and_several_are_not_guessed(monkeypatch, tmp_path):
    """On a fresh private adb server; a phone another test serves on an emulator port may be listed too, so what
    doctor does is compared with what the server lists."""
    monkeypatch.setenv("ADB_LOCAL_TRANSPORT_MAX_PORT", "5554")  # the server scans no emulator port
    with private_adb_server(tmp_path / "home") as port:
        client = adbutils.AdbClient("127.0.0.1", port)
        emulators = []
        try:
            for _ in range(2):
                emulators.append(StalledEmulator(ask_auth=False))
                wait_listed(port, emulators[-1].serial, "offline")
                serials = [info.serial for info in client.list()]
                check = _named(run_doctor(timeout=0.5))["device"]
                if len(serials) == 1:
                    assert f"{emulators[0].serial} is offline" in check.detail  # the one there is
                else:
                    assert check.detail.startswith(f"the adb server on 127.0.0.1:{port} lists {len(serials)} "
                                                   "devices (")
                    assert all(serial in check.detail for serial in serials)
                    assert check.fix == "name the device: `android-gym doctor --device adb:SERIAL`"
        finally:
            for emulator in emulators:
                emulator.close()
        assert len(serials) >= 2 and server_answers("127.0.0.1", port)  # a server doctor did not start keeps running
