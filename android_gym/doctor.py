"""``android-gym doctor``: check that a real device is ready for the tasks and say how to fix what is not.

Checks run in order (adb, the adb server, the device, root, boot, Android version, screen size, apps, app-data
snapshots, time, animations, and the emulator's gRPC service when asked); a problem becomes a failed check with
the command that fixes it, never an exception. When a check fails that later ones depend on (no adb, no device,
no root, still booting), the rest are reported as skipped. Given a ``Device`` instead of a spec, only the
device-level checks run. Doctor leaves the machine as it found it: with no device named it checks the one device
a running adb server lists (and asks for ``--device`` otherwise); an adb server it starts for a named device is
stopped again.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass

import adbutils

from android_gym.device import Device, open_device, parse_device_spec
from android_gym.device.adb import AdbDevice, ensure_server, server_address, server_answers, stop_server
from android_gym.device.emulator_grpc import EmulatorGrpc
from android_gym.device.provision import animations_on, has_app_snapshot, installed_version, load_manifest
from android_gym.device.state import settings_get
from android_gym.errors import (
    AdbServerError,
    AndroidGymError,
    DeviceNotFoundError,
    DeviceOfflineError,
    NotRootedError,
)

EXPECTED_SDK = "33"  # AndroidWorld's emulator: Pixel 6, API 33 (Android 13)
EXPECTED_SCREEN = (1080, 2400)
TIME_SETTINGS = ("auto_time", "auto_time_zone")  # Settings.Global: off, so the task's fixed device time holds
_MARKS = {"ok": "✓", "warning": "!", "failed": "✗"}


@dataclass(frozen=True)
class Check:
    """One check: whether it passed, what was found, and the command that fixes it. A failed ``warning`` is
    advice (the tasks may still run) and does not fail the run."""

    name: str
    ok: bool
    detail: str
    fix: str = ""
    warning: bool = False

    @property
    def status(self) -> str:
        """``ok``, ``warning`` or ``failed``."""
        return "ok" if self.ok else "warning" if self.warning else "failed"

    def line(self) -> str:
        """``✓ name: detail``, with ``→ fix: ...`` when it did not pass."""
        fix = f"  → fix: {self.fix}" if self.fix and not self.ok else ""
        return f"{_MARKS[self.status]} {self.name}: {self.detail}{fix}"


def _skipped(reason: str, first: str = "root", before: str = "") -> Check:
    """A note that the device checks from ``first`` on (after ``before``, if given) did not run."""
    names = [name for name, _, _ in _STEPS]
    listed = ", ".join([before] * bool(before) + names[names.index(first):])
    return Check("skipped", False, f"{listed} not checked: {reason}", warning=True)


def run_doctor(device_spec: str | Device | None = None, grpc: str | None = None,
               timeout: float = 10.0) -> list[Check]:
    """Check ``device_spec`` (an ``adb:`` spec, another ``device=`` spec, or an open ``Device``) and, with
    ``grpc`` (or a spec's ``?grpc=``), the emulator's gRPC service at that address.

    Without ``device_spec`` the device is the only one the running adb server lists; with none or several listed,
    or no server running, that is a failed check asking for ``--device`` (doctor starts no server to guess one).
    An adb server doctor starts for a named device is stopped before it returns."""
    checks: list[Check] = []
    started: int | None = None
    if device_spec is None or isinstance(device_spec, str):
        device_spec, device, grpc, started = _open(device_spec, grpc, timeout, checks)
        setup_spec = (device_spec or "adb:SERIAL").partition("?")[0]
    else:
        setup_spec = f"adb:{device_spec.serial}" if isinstance(device_spec, AdbDevice) else "SPEC"
        device = device_spec
    try:
        if device is not None:
            try:
                checks += _device_checks(device, setup_spec)
            finally:
                if device is not device_spec:
                    device.close()
    finally:
        if started is not None:
            stop_server(started)
    if grpc:
        checks.append(_grpc_check(grpc, timeout))
    return checks


# ----- adb and the device ------------------------------------------------------------------------------------
def _open(spec: str | None, grpc: str | None, timeout: float,
          checks: list[Check]) -> tuple[str | None, Device | None, str | None, int | None]:
    """Open the device ``spec`` names (``None``: the one the running adb server lists), appending the adb checks.
    Returns ``(spec, device or None when that failed, grpc, port of an adb server started for it or None)``."""
    if spec is not None and spec.startswith("emulator:"):
        checks += [Check("device", False, f"{spec}: doctor checks a running device, it starts none",
                         f"`android-gym emulator start {spec.removeprefix('emulator:')}`, then doctor "
                         "--device adb:emulator-N"), _skipped("no device")]
        return spec, None, grpc, None
    if spec is not None and not spec.startswith("adb:"):
        try:
            return spec, open_device(spec), grpc, None
        except AndroidGymError as error:
            checks += [Check("device", False, str(error), "give --device adb:SERIAL (see `adb devices`)"),
                       _skipped("no device")]
            return spec, None, grpc, None
    serial = None
    if spec is not None:
        try:
            parsed = parse_device_spec(spec)
        except AndroidGymError as error:
            checks += [Check("device", False, str(error), "give --device adb:SERIAL[?grpc=HOST:PORT]"),
                       _skipped("no device")]
            return spec, None, grpc, None
        serial, grpc = parsed.target, grpc or parsed.options["grpc"]
    adb = shutil.which("adb")
    if adb is None:
        checks += [Check("adb", False, "no `adb` command on PATH",
                         "`apt-get install -y adb`, or put the Android SDK's platform-tools on PATH"),
                   _skipped("they need adb", before="the adb server")]
        return spec, None, grpc, None
    checks.append(Check("adb", True, adb))
    try:
        host, port = server_address()
        if serial is None and not server_answers(host, port):
            raise AdbServerError(f"no adb server answers on {host}:{port} and no device was named; doctor starts "
                                 "no server to guess which device is meant")
        started = ensure_server(host, port)
    except AndroidGymError as error:
        checks += [Check("adb server", False, str(error),
                         "`adb start-server` (or `adb -P PORT start-server` for ANDROID_ADB_SERVER_PORT=PORT), and "
                         "check ANDROID_ADB_SERVER_ADDRESS / ANDROID_ADB_SERVER_PORT; or name the device: "
                         "--device adb:SERIAL"),
                   _skipped("no adb server")]
        return spec, None, grpc, None
    checks.append(Check("adb server", True, f"answers on {host}:{port}" + (
        " (started for this check, stopped afterwards)" if started else "")))
    if serial is None:
        serial = _only_device(host, port, checks)
        if serial is None:
            return spec, None, grpc, None
        spec = f"adb:{serial}"
    try:
        device = AdbDevice(serial, timeout=timeout, server=(host, port))
    except NotRootedError as error:
        checks += [Check("device", True, f"{serial} is online"),
                   Check("root", False, str(error), f"`adb -s {serial} root` works on debuggable images only: run a "
                         "google_apis system image (not google_apis_playstore), as AndroidWorld does"),
                   _skipped("they read /data as root", first="boot")]
        device = None
    except AndroidGymError as error:
        checks += [Check("device", False, str(error), _device_fix(serial, error)),
                   _skipped("no usable device")]
        device = None
    else:
        checks.append(Check("device", True, f"{serial} is online"))
    return spec, device, grpc, port if started else None


def _only_device(host: str, port: int, checks: list[Check]) -> str | None:
    """The serial of the one device the adb server lists; with none or several, a failed check asking for one."""
    try:
        serials = [info.serial for info in adbutils.AdbClient(host, port).list()]
    except (adbutils.AdbError, OSError) as error:
        serials, problem = [], f"the adb server on {host}:{port} did not list its devices: {error}"
    else:
        problem = (f"the adb server on {host}:{port} lists no device" if not serials else
                   f"the adb server on {host}:{port} lists {len(serials)} devices ({', '.join(serials)}): "
                   "doctor will not guess which one is meant")
    if len(serials) == 1:
        return serials[0]
    fix = ("name the device: `android-gym doctor --device adb:SERIAL`" if serials else
           "start the emulator (`android-gym emulator start AVD`) or plug the phone in, or name the device: "
           "`android-gym doctor --device adb:SERIAL`")
    checks += [Check("device", False, problem, fix), _skipped("no device named")]
    return None


def _device_fix(serial: str, error: AndroidGymError) -> str:
    """What to do about a device adb cannot use."""
    if isinstance(error, DeviceOfflineError) and "unauthorized" in str(error):
        return ("accept the 'Allow USB debugging?' prompt on the device (an emulator started with -skip-adb-auth "
                "never asks)")
    if isinstance(error, DeviceOfflineError):
        return f"wait for the emulator to boot, or `adb reconnect offline`; `adb -s {serial} get-state` says device"
    if isinstance(error, DeviceNotFoundError) and ":" in serial:
        return f"start the emulator or `android-gym sim serve` listening on {serial}, then `adb connect {serial}`"
    if isinstance(error, DeviceNotFoundError):
        return "start the emulator (`android-gym emulator start AVD`) or plug the phone in; `adb devices` lists them"
    return "restart the emulator (`android-gym emulator stop`, then `start`) and run doctor again"


def _device_checks(device: Device, spec: str) -> list[Check]:
    """The checks that only need the Device protocol, stopping after one that later checks depend on."""
    setup = f"`android-gym setup-device --device {spec}`"
    checks: list[Check] = []
    for index, (name, step, needed) in enumerate(_STEPS):
        try:
            check = step(device, setup)
        except AndroidGymError as error:  # the device went away or refused a command
            check, needed = Check(name, False, str(error), "check the device, then run doctor again"), True
        checks.append(check)
        if not check.ok and needed and index + 1 < len(_STEPS):
            checks.append(_skipped(f"{name} failed", first=_STEPS[index + 1][0]))
            break
    return checks


def _getprop(device: Device, name: str) -> str:
    return device.shell(f"getprop {name}").output.strip()


def _root(device: Device, setup: str) -> Check:
    uid = device.shell("id -u").output.strip()
    if uid == "0":
        return Check("root", True, "the shell runs as root")
    return Check("root", False, f"the shell runs as uid {uid or '?'}, but tasks read app data under /data",
                 "`adb root` (google_apis images allow it; Google Play images do not)")


def _boot(device: Device, setup: str) -> Check:
    if _getprop(device, "sys.boot_completed") == "1":
        return Check("boot", True, "sys.boot_completed=1")
    return Check("boot", False, "still booting (sys.boot_completed is not 1)",
                 "wait: `adb wait-for-device shell 'while [ \"$(getprop sys.boot_completed)\" != 1 ]; do sleep 1; "
                 "done'`")


def _sdk(device: Device, setup: str) -> Check:
    sdk, release = _getprop(device, "ro.build.version.sdk"), _getprop(device, "ro.build.version.release")
    detail = f"API {sdk or '?'} (Android {release or '?'})"
    if sdk == EXPECTED_SDK:
        return Check("Android version", True, detail)
    return Check("Android version", False, f"{detail}; the tasks are made for API {EXPECTED_SDK} (Android 13)",
                 f"create the AVD from system-images;android-{EXPECTED_SDK};google_apis;x86_64", warning=True)


def _screen(device: Device, setup: str) -> Check:
    width, height = device.screen_size
    if (width, height) == EXPECTED_SCREEN:
        return Check("screen", True, f"{width}x{height}")
    want = "x".join(map(str, EXPECTED_SCREEN))
    return Check("screen", False, f"{width}x{height}; AndroidWorld's Pixel 6 is {want}",
                 f"a Pixel 6 AVD, or `adb shell wm size {want}`", warning=True)


def _apps(device: Device, setup: str) -> Check:
    manifest = load_manifest()
    problems, fixes = [], []
    for app in manifest:
        installed = installed_version(device, app.package)
        if installed is None and app.is_system:
            problems.append(f"{app.package} (part of the system image) missing")
            fixes.append(f"`adb shell pm install-existing {app.package}`")
        elif installed is None:
            problems.append(f"{app.package} missing")
        elif not app.is_system and installed[0] != app.version_code:
            problems.append(f"{app.package} is {installed[1]} (versionCode {installed[0]}), the tasks need "
                            f"{app.version_name} ({app.version_code})")
    if not problems:
        return Check("apps", True, f"all {len(manifest)} apps at the manifest's versions")
    if len(fixes) < len(problems):
        fixes.append(setup)
    return Check("apps", False, "; ".join(problems), " and ".join(fixes))


def _snapshots(device: Device, setup: str) -> Check:
    packages = [app.package for app in load_manifest()]
    missing = [package for package in packages if not has_app_snapshot(device, package)]
    if not missing:
        return Check("snapshots", True, f"app-data snapshots of all {len(packages)} apps")
    which = "any app" if len(missing) == len(packages) else ", ".join(missing)
    return Check("snapshots", False, f"no app-data snapshot of {which} to reset app data from", setup)


def _time(device: Device, setup: str) -> Check:
    on = [name for name in TIME_SETTINGS if settings_get(device, "global", name) != "0"]
    if not on:
        return Check("time", True, "automatic time and time zone are off")
    return Check("time", False, f"{', '.join(on)} on: the network would move the task's fixed device time",
                 setup + " (or `adb shell settings put global auto_time 0` and `... auto_time_zone 0`)")


def _animations(device: Device, setup: str) -> Check:
    on = [f"{name}={value}" for name, value in animations_on(device).items()]
    if not on:
        return Check("animations", True, "the three animation scales are 0")
    return Check("animations", False, f"{', '.join(on)}: every screen change animates", setup)


#: The device checks in order: name, function, and whether the later ones need it to pass.
_STEPS: list[tuple[str, Callable[[Device, str], Check], bool]] = [
    ("root", _root, True), ("boot", _boot, True), ("Android version", _sdk, False), ("screen", _screen, False),
    ("apps", _apps, False), ("snapshots", _snapshots, False), ("time", _time, False),
    ("animations", _animations, False)]


# ----- gRPC --------------------------------------------------------------------------------------------------
def _grpc_check(address: str, timeout: float) -> Check:
    fix = "start the emulator with `-grpc 8554` (`android-gym emulator start` does) and pass that port"
    try:
        client = EmulatorGrpc(address, timeout=timeout)
        try:
            status = client.status()
        finally:
            client.close()
    except AndroidGymError as error:
        return Check("gRPC", False, f"{address}: {error}", fix)
    if not status.booted:
        return Check("gRPC", False, f"{address} answers but the emulator has not booted", "wait for the boot")
    return Check("gRPC", True, f"{address}: emulator {status.version} booted, up {status.uptime_ms // 1000} s")
