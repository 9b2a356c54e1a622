"""``android_gym.emulator`` and ``android-gym emulator``: start, list, drive, stop, and the ways a boot fails.

The SDK's ``emulator`` binary is played by tests/emulator_standin.py, which serves the simulated phone on the
ports the real flags name; Debian's adb server and the real console and gRPC clients talk to it.
"""

from __future__ import annotations

import contextlib
import re
import shlex
import socket
import sys
import time
from pathlib import Path

import adbutils
import gymnasium as gym
import pytest

from android_gym.agents import OracleAgent
from android_gym.cli import main
from android_gym.device import open_device
from android_gym.device.adb import AdbDevice
from android_gym.emulator import (
    EmulatorDevice,
    find_emulator_binary,
    list_emulators,
    start_emulator,
    stop_emulator,
)
from android_gym.errors import DeviceSpecError, EmulatorBootError, EmulatorError, EmulatorNotFoundError
from android_gym.sim.adb_harness import free_port, free_port_pair, private_adb_server
from android_gym.testing import run_episode

STANDIN = Path(__file__).with_name("emulator_standin.py")
FAST_POLL = 0.02


@pytest.fixture(scope="module")
def adb_port(tmp_path_factory) -> int:
    """A private adb server that does not scan ports 5555-5585 (``ADB_EMU=0``): it knows only the emulators that
    announce themselves to it, the stand-ins these tests start."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ADB_EMU", "0")
        with private_adb_server(tmp_path_factory.mktemp("emulator-home")) as port:
            yield port


@pytest.fixture
def standin(tmp_path, monkeypatch, adb_port) -> Path:
    """``$ANDROID_EMULATOR`` → a wrapper running the stand-in; one AVD, ``Pixel6``, in ``$ANDROID_AVD_HOME``.
    Emulators still running after the test are stopped."""
    wrapper = tmp_path / "emulator"
    wrapper.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} {shlex.quote(str(STANDIN))} "$@"\n')
    wrapper.chmod(0o755)
    avd_home = tmp_path / "avd"
    avd_home.mkdir()
    (avd_home / "Pixel6.ini").write_text(f"path={avd_home / 'Pixel6.avd'}\ntarget=android-33\n")
    monkeypatch.setenv("ANDROID_EMULATOR", str(wrapper))
    monkeypatch.setenv("ANDROID_AVD_HOME", str(avd_home))
    yield wrapper
    for emulator in list_emulators():
        with contextlib.suppress(EmulatorError):  # one the test left offline in the adb server's list
            stop_emulator(emulator.serial, timeout=30)


def _listed(serial: str) -> bool:
    return any(emulator.serial == serial for emulator in list_emulators())


def _gone(process) -> bool:
    """Whether the emulator's process has exited and been reaped (its pid is free)."""
    return process.poll() is not None and not Path(f"/proc/{process.pid}").exists()


class BootClock:
    """Virtual time for a boot wait that starts once adb lists ``serial`` as a device: a hung boot then times out
    after the same number of polls however slow the machine is to start the stand-in."""

    def __init__(self, serial: str, adb_port: int) -> None:
        self.now = 0.0
        self._serial = serial
        self._client = adbutils.AdbClient("127.0.0.1", adb_port)
        self._waits = 0

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        if any(info.serial == self._serial and info.state == "device" for info in self._client.list()):
            self.now += seconds
            return
        self._waits += 1
        assert self._waits < 1500, f"adb never listed {self._serial}"
        time.sleep(FAST_POLL)


def test_the_binary_is_found_in_the_documented_order(tmp_path, monkeypatch):
    def executable(path: Path) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("#!/bin/sh\n")
        path.chmod(0o755)
        return path

    on_path = executable(tmp_path / "bin" / "emulator")
    home = executable(tmp_path / "home-sdk" / "emulator" / "emulator")
    root = executable(tmp_path / "root-sdk" / "emulator" / "emulator")
    explicit = executable(tmp_path / "custom" / "my-emulator")
    monkeypatch.setenv("PATH", str(on_path.parent))
    for variable in ("ANDROID_EMULATOR", "ANDROID_SDK_ROOT", "ANDROID_HOME"):
        monkeypatch.delenv(variable, raising=False)
    assert find_emulator_binary() == on_path
    monkeypatch.setenv("ANDROID_HOME", str(tmp_path / "home-sdk"))
    assert find_emulator_binary() == home
    monkeypatch.setenv("ANDROID_SDK_ROOT", str(tmp_path / "root-sdk"))
    assert find_emulator_binary() == root
    monkeypatch.setenv("ANDROID_EMULATOR", str(explicit))
    assert find_emulator_binary() == explicit


def test_without_the_binary_start_says_how_to_get_one(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setenv("ANDROID_SDK_ROOT", str(tmp_path / "no-sdk"))
    monkeypatch.delenv("ANDROID_EMULATOR", raising=False)
    monkeypatch.delenv("ANDROID_HOME", raising=False)
    with pytest.raises(EmulatorNotFoundError, match=r"sdkmanager emulator.*docker/README\.md.*device='sim'"):
        start_emulator("Pixel6")
    assert main(["emulator", "start", "Pixel6"]) == 2
    assert "the Android emulator is not installed" in capsys.readouterr().err


def test_an_android_emulator_that_is_not_executable_is_named(tmp_path, monkeypatch):
    monkeypatch.setenv("ANDROID_EMULATOR", str(tmp_path / "missing"))
    with pytest.raises(EmulatorNotFoundError, match="ANDROID_EMULATOR=.*missing.* is not an executable file"):
        find_emulator_binary()


def test_start_list_drive_and_stop(standin):
    emulator = start_emulator("Pixel6", poll_interval=FAST_POLL)
    assert emulator.serial == f"emulator-{emulator.console_port}"
    assert emulator.adb_port == emulator.console_port + 1
    assert emulator.grpc_port >= 8554 + (emulator.console_port - 5554) // 2
    assert emulator.pid == emulator.process.pid and emulator.process.poll() is None
    log = emulator.log_path.read_text()
    assert emulator.log_path == Path.home() / ".cache/android_gym/emulators" / f"{emulator.serial}.log"
    assert f"AVD Pixel6 with no window on console {emulator.console_port}, adb {emulator.adb_port}" in log
    listed = [found for found in list_emulators() if found.serial == emulator.serial]
    assert [(found.avd, found.console_port, found.adb_port) for found in listed] == [
        ("Pixel6", emulator.console_port, emulator.adb_port)]

    device = AdbDevice(emulator.serial, grpc=f"localhost:{emulator.grpc_port}")
    try:
        assert device.shell("getprop sys.boot_completed").output.strip() == "1"
        assert "<hierarchy" in device.ui_dump()
        assert device.screenshot().shape == (2400, 1080, 3)
    finally:
        device.close()

    emulator.stop(poll_interval=FAST_POLL)
    assert emulator.process.returncode == 0 and _gone(emulator.process)
    assert "killed through the console" in emulator.log_path.read_text()
    assert not _listed(emulator.serial)


def test_a_boot_that_hangs_times_out_kills_the_emulator_and_shows_its_log(standin, monkeypatch, adb_port):
    monkeypatch.setenv("ANDROID_GYM_STANDIN_BOOT", "never")
    console_port = free_port_pair() - 1
    serial = f"emulator-{console_port}"
    boot = BootClock(serial, adb_port)
    with pytest.raises(EmulatorBootError) as caught:
        start_emulator("Pixel6", console_port=console_port, grpc_port=free_port(), boot_timeout=5,
                       poll_interval=1, sleep=boot.sleep, clock=boot.clock)
    message = str(caught.value)
    assert f"{serial} (AVD 'Pixel6') did not boot within 5 s" in message
    assert f"waiting for {serial} to report sys.boot_completed=1" in message
    assert f"AVD Pixel6 with no window on console {console_port}" in message  # the log's tail
    pid = int(re.search(r"pid (\d+)", message).group(1))
    assert not Path(f"/proc/{pid}").exists()
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", console_port), timeout=5).close()


@pytest.mark.parametrize(("avd", "extra_args", "logged"), [
    ("Pixel9", (), "Unknown AVD name [Pixel9], use -list-avds"),
    ("Pixel6", ("-no-such-flag",), "unrecognized arguments: -no-such-flag"),
])
def test_an_emulator_that_exits_before_booting_raises_with_its_log(standin, avd, extra_args, logged):
    console_port = free_port_pair() - 1
    with pytest.raises(EmulatorBootError) as caught:
        start_emulator(avd, console_port=console_port, grpc_port=free_port(), extra_args=extra_args,
                       poll_interval=FAST_POLL)
    message = str(caught.value)
    assert f"the emulator for AVD {avd!r} exited with status" in message
    assert logged in message
    assert f"emulator-{console_port}.log" in message


def test_the_cli_starts_lists_and_stops_emulators(standin, capsys):
    console_port, grpc_port = free_port_pair() - 1, free_port()
    serial = f"emulator-{console_port}"
    assert main(["emulator", "start", "Pixel6", "--console-port", str(console_port), "--grpc-port", str(grpc_port),
                 "--timeout", "60", "--window"]) == 0
    started = capsys.readouterr().out
    assert f"{serial} booted (AVD Pixel6" in started
    assert f"device='adb:{serial}?grpc=localhost:{grpc_port}'" in started
    log = Path.home() / ".cache/android_gym/emulators" / f"{serial}.log"
    assert f"AVD Pixel6 with a window on console {console_port}, adb {console_port + 1}, gRPC {grpc_port}" \
        in log.read_text()

    assert main(["emulator", "list"]) == 0
    assert f"{serial}\tPixel6\tconsole {console_port}\tadb {console_port + 1}" in capsys.readouterr().out
    assert main(["emulator", "stop", "--all"]) == 0
    assert f"{serial} stopped" in capsys.readouterr().out
    assert not _listed(serial)
    assert main(["emulator", "list"]) == 0
    assert capsys.readouterr().out == ""


def test_stopping_what_is_not_a_running_emulator_is_an_error(standin, capsys):
    with pytest.raises(EmulatorError, match="not an emulator serial like 'emulator-5554'"):
        stop_emulator("localhost:5555")
    assert main(["emulator", "stop", f"emulator-{free_port()}"]) == 2
    assert "cannot stop emulator-" in capsys.readouterr().err


def test_an_env_owns_the_emulator_it_starts(standin):
    env = gym.make("AndroidWorld/SendSms-v0", device="emulator:Pixel6")
    device = env.unwrapped.device
    assert isinstance(device, EmulatorDevice) and device.stabilize is not None
    emulator = device.emulator
    result = run_episode(env, OracleAgent(), seed=0)
    assert result.score == 1.0 and not result.invalid_actions
    env.close()
    assert _gone(emulator.process)
    assert not _listed(emulator.serial)


def test_an_emulator_spec_picks_its_own_grpc_port():
    with pytest.raises(DeviceSpecError, match="gRPC port is picked when it starts"):
        open_device("emulator:Pixel6?grpc=localhost:8554")
