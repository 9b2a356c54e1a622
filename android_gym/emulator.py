"""Start, stop and list Android emulators with the SDK's ``emulator`` binary, waiting until they have booted.

Facts: the flags (``-avd``, ``-ports CONSOLE,ADB``, ``-grpc PORT``, ``-no-window``, ``-no-audio``,
``-no-boot-anim``, ``-no-snapshot-save``) are the emulator's own (``emulator -help``); an emulator has booted when
the adb server lists ``emulator-<console port>`` as ``device`` and ``getprop sys.boot_completed`` prints ``1``; its
console (``console.cpp``) answers ``avd name`` and quits on ``kill`` (reference notes: "Running the emulator in a
container", "Emulator console").
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import adbutils

from android_gym.device.adb import AdbDevice, ensure_server, server_address, server_answers
from android_gym.device.console import send_console_command
from android_gym.device.stabilize import Stabilization
from android_gym.errors import ConsoleError, EmulatorBootError, EmulatorError, EmulatorNotFoundError
from android_gym.sim.adb_harness import free_emulator_port, port_free

#: The console port of the first emulator (``emulator-5554``) and its gRPC port by convention.
FIRST_CONSOLE_PORT = 5554
FIRST_GRPC_PORT = 8554
LOG_TAIL_LINES = 20
_EMULATOR_SERIAL = re.compile(r"emulator-(\d+)")
_INSTALL_HINT = ("install it with `sdkmanager emulator` (then set ANDROID_SDK_ROOT, or ANDROID_EMULATOR to the "
                 "binary), run an emulator in a container (docker/README.md), or use device='sim'")


def find_emulator_binary() -> Path:
    """The SDK's ``emulator``: ``$ANDROID_EMULATOR``, ``$ANDROID_SDK_ROOT/emulator/emulator``,
    ``$ANDROID_HOME/emulator/emulator``, then ``emulator`` on ``PATH``."""
    explicit = os.environ.get("ANDROID_EMULATOR")
    if explicit:
        if not os.access(explicit, os.X_OK):
            raise EmulatorNotFoundError(f"ANDROID_EMULATOR={explicit!r} is not an executable file; point it at the "
                                        "SDK's emulator/emulator or unset it")
        return Path(explicit)
    for variable in ("ANDROID_SDK_ROOT", "ANDROID_HOME"):
        root = os.environ.get(variable)
        if root and os.access(Path(root, "emulator", "emulator"), os.X_OK):
            return Path(root, "emulator", "emulator")
    on_path = shutil.which("emulator")
    if on_path is None:
        raise EmulatorNotFoundError("the Android emulator is not installed (looked at ANDROID_EMULATOR, "
                                    "ANDROID_SDK_ROOT/emulator, ANDROID_HOME/emulator and PATH): " + _INSTALL_HINT)
    return Path(on_path)


@dataclass(frozen=True)
class RunningEmulator:
    """An emulator and its ports; ``pid``, ``log_path`` and ``process`` are known for the ones this process
    started, ``avd`` when its console answered, ``grpc_port`` when it was started with ``-grpc``."""

    avd: str | None
    serial: str
    console_port: int
    adb_port: int
    grpc_port: int | None = None
    pid: int | None = None
    log_path: Path | None = None
    process: subprocess.Popen | None = field(default=None, repr=False, compare=False)

    def stop(self, timeout: float = 60.0, *, poll_interval: float = 0.2, sleep: Callable[[float], None] = time.sleep,
             clock: Callable[[], float] = time.monotonic) -> None:
        """``stop_emulator`` on this emulator, killing its process if it does not quit in time."""
        stop_emulator(self.serial, timeout, process=self.process, poll_interval=poll_interval, sleep=sleep,
                      clock=clock)


def default_log_dir() -> Path:
    """``~/.cache/android_gym/emulators``: one ``<serial>.log`` per started emulator."""
    return Path.home() / ".cache" / "android_gym" / "emulators"


def _free_grpc_port(console_port: int) -> int:
    """``8554`` for ``emulator-5554``, ``8555`` for ``emulator-5556``, ...; the next free one above if taken."""
    first = FIRST_GRPC_PORT + max(0, (console_port - FIRST_CONSOLE_PORT) // 2)
    port = next((port for port in range(first, first + 100) if port_free(port)), None)
    if port is None:
        raise EmulatorError(f"no free gRPC port in {first}-{first + 99}; pass grpc_port=")
    return port


def _log_tail(path: Path) -> str:
    """The last lines of an emulator's log, indented for an error message."""
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()[-LOG_TAIL_LINES:]
    except OSError:
        lines = []
    return "\n".join("    " + line for line in lines) or "    (the log is empty)"


def _kill(process: subprocess.Popen, grace: float = 10.0) -> None:
    """End the emulator's process group (the launcher and its qemu): SIGTERM, then SIGKILL after ``grace``."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            pass
        try:
            process.wait(grace)
            return
        except subprocess.TimeoutExpired:
            continue


def _boot_stage(client: adbutils.AdbClient, serial: str) -> str | None:
    """What the boot still waits for, or ``None`` once ``serial`` is a device with ``sys.boot_completed=1``."""
    try:
        state = next((info.state for info in client.list() if info.serial == serial), None)
        if state != "device":
            return f"the adb server to list {serial} as a device (it is {state or 'not listed'})"
        booted = client.device(serial).shell("getprop sys.boot_completed", timeout=10)
    except (adbutils.AdbError, OSError) as error:
        return f"adb to answer ({error})"
    return None if str(booted).strip() == "1" else f"{serial} to report sys.boot_completed=1"


def start_emulator(avd: str, console_port: int | None = None, grpc_port: int | None = None, headless: bool = True,
                   extra_args: Sequence[str] = (), boot_timeout: float = 300.0, *, poll_interval: float = 0.5,
                   sleep: Callable[[float], None] = time.sleep,
                   clock: Callable[[], float] = time.monotonic) -> RunningEmulator:
    """Launch ``emulator -avd AVD`` detached (its own session, output in ``<serial>.log`` under
    ``default_log_dir()``) and wait until it has booted.

    ``console_port``: default the first free emulator port pair from 5554 (adb on console + 1).
    ``grpc_port``: default ``8554`` + the emulator's index, or the next free port. Raises
    ``EmulatorNotFoundError`` without the binary, ``EmulatorBootError`` (with the log's tail) when the emulator
    exits early or has not booted within ``boot_timeout`` seconds (it is killed then).
    """
    binary = find_emulator_binary()
    console_port = free_emulator_port() - 1 if console_port is None else console_port
    adb_port = console_port + 1
    grpc_port = _free_grpc_port(console_port) if grpc_port is None else grpc_port
    serial = f"emulator-{console_port}"
    ensure_server(*server_address())  # running before the emulator starts, so the emulator announces itself to it
    command = [str(binary), "-avd", avd, "-ports", f"{console_port},{adb_port}", "-grpc", str(grpc_port),
               *(["-no-window"] if headless else []), "-no-audio", "-no-boot-anim", "-no-snapshot-save",
               *extra_args]
    log_path = default_log_dir() / f"{serial}.log"
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with log_path.open("wb") as log:
        try:
            process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                       start_new_session=True)
        except OSError as error:
            raise EmulatorNotFoundError(f"cannot run {binary}: {error.strerror}; " + _INSTALL_HINT) from error
    emulator = RunningEmulator(avd, serial, console_port, adb_port, grpc_port, process.pid, log_path, process)
    try:
        _wait_for_boot(emulator, boot_timeout, poll_interval, sleep, clock)
    except BaseException:  # timed out, exited early (its qemu may linger), or interrupted: leave nothing running
        _kill(process)
        raise
    return emulator


def _wait_for_boot(emulator: RunningEmulator, timeout: float, poll_interval: float,
                   sleep: Callable[[float], None], clock: Callable[[], float]) -> None:
    """Poll adb until the emulator has booted; raise ``EmulatorBootError`` if it exits or ``timeout`` passes."""
    process, log_path = emulator.process, emulator.log_path
    client = adbutils.AdbClient(*server_address(), socket_timeout=10)
    deadline = clock() + timeout
    while (waiting_for := _boot_stage(client, emulator.serial)) is not None:
        if process.poll() is not None:
            raise EmulatorBootError(f"the emulator for AVD {emulator.avd!r} exited with status {process.returncode} "
                                    f"before it booted; the end of {log_path}:\n{_log_tail(log_path)}")
        if clock() >= deadline:
            raise EmulatorBootError(f"{emulator.serial} (AVD {emulator.avd!r}) did not boot within {timeout:g} s: "
                                    f"still waiting for {waiting_for}. It was killed; raise the boot timeout for a "
                                    f"cold boot. The end of {log_path}:\n{_log_tail(log_path)}")
        sleep(poll_interval)


def stop_emulator(serial: str, timeout: float = 60.0, *, process: subprocess.Popen | None = None,
                  poll_interval: float = 0.2, sleep: Callable[[float], None] = time.sleep,
                  clock: Callable[[], float] = time.monotonic) -> None:
    """Send the console's ``kill`` to ``emulator-N`` and wait until it is gone: its console port closed, the adb
    server no longer listing it and, when ``process`` (the emulator this process started) is given, that process
    ended. That process is killed when its console does not answer or it outlives ``timeout``; an emulator
    started elsewhere that still listens then raises ``EmulatorError``."""
    match = _EMULATOR_SERIAL.fullmatch(serial)
    if match is None:
        raise EmulatorError(f"{serial!r} is not an emulator serial like 'emulator-5554' (see `android-gym emulator "
                            "list`)")
    console_port = int(match.group(1))
    host = server_address()[0]
    try:
        send_console_command(console_port, "kill", host=host, timeout=10.0)
    except ConsoleError as error:
        if process is None:
            raise EmulatorError(f"cannot stop {serial}: {error}") from error
        _kill(process)  # no console to ask (or it is gone already): end the process we started
        return
    deadline = clock() + timeout
    while True:
        running = server_answers(host, console_port) or (process is not None and process.poll() is None)
        if not running and not _adb_lists(serial):
            return
        if clock() >= deadline:
            if running and process is None:
                raise EmulatorError(f"{serial} still listens on port {console_port} {timeout:g} s after the "
                                    "console's kill; end its process yourself")
            if running:
                _kill(process)
            return  # gone, though the adb server may list it as offline a while longer
        sleep(poll_interval)


def _adb_lists(serial: str) -> bool:
    """Whether the adb server still lists ``serial`` (it drops an emulator soon after its adb port closes)."""
    try:
        return any(info.serial == serial for info in adbutils.AdbClient(*server_address(), socket_timeout=5).list())
    except (adbutils.AdbError, OSError):
        return False


def _avd_name(console_port: int, host: str) -> str | None:
    """The console's ``avd name`` reply, or ``None`` when the console does not answer."""
    try:
        return send_console_command(console_port, "avd name", host=host, timeout=5.0).strip() or None
    except ConsoleError:
        return None


def list_emulators() -> list[RunningEmulator]:
    """The emulators the adb server lists (``emulator-N`` serials, any state), with their AVD names."""
    host, port = server_address()
    if not server_answers(host, port):
        return []
    try:
        devices = adbutils.AdbClient(host, port, socket_timeout=10).list()
    except adbutils.AdbError as error:
        raise EmulatorError(f"the adb server on {host}:{port} failed to list devices: {error}") from error
    emulators = []
    for info in devices:
        match = _EMULATOR_SERIAL.fullmatch(info.serial)
        if match:
            console_port = int(match.group(1))
            emulators.append(RunningEmulator(_avd_name(console_port, host), info.serial, console_port,
                                             console_port + 1))
    return emulators


class EmulatorDevice(AdbDevice):
    """An ``AdbDevice`` on an emulator this process started, with gRPC; ``close`` also stops the emulator."""

    def __init__(self, emulator: RunningEmulator, timeout: float = 30.0,
                 stabilize: Stabilization | None = None) -> None:
        self.emulator = emulator
        super().__init__(emulator.serial, timeout, grpc=f"localhost:{emulator.grpc_port}", stabilize=stabilize)

    def close(self) -> None:
        """Close the adb device, then stop the emulator. Idempotent."""
        super().close()
        self.emulator.stop()


def open_emulator_device(avd: str, stabilize: Stabilization | None = None) -> EmulatorDevice:
    """Start an emulator for ``avd`` and drive it; the device's ``close`` stops it (``device="emulator:<AVD>"``)."""
    emulator = start_emulator(avd)
    try:
        return EmulatorDevice(emulator, stabilize=stabilize)
    except BaseException:
        emulator.stop()
        raise
