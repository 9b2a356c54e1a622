"""Provisioning a real device for the tasks (``android-gym setup-device``): install the apps of ``apps.toml`` at
their pinned versions, grant their runtime permissions, fix the clock as AndroidWorld does, turn animations off,
and snapshot each app's data so that a reset restores it in one shell round trip.

Every step reads the device first and is skipped when the device is already right, so a second run does nothing.
Only the Device protocol is used (``shell``, ``push``): the simulated phone runs the same code in tests.

App data snapshots follow AndroidWorld's ``utils/app_snapshot.py`` (``cp -a /data/data/<pkg>/.`` to a snapshot
directory; restore: ``am force-stop``, empty the data directory, copy back, ``restorecon -RD``), with these
differences:

* Snapshots live in ``/data/local/tmp/android_gym/app_data/<pkg>`` (the folder readable by root only), not in
  AndroidWorld's ``/data/data/android_world/snapshots``: ``AppDataHelper.reconcileAppsDataLI`` destroys every
  directory of ``/data/user/0`` that is not an installed package when the system prepares app data at boot.
* Device-protected storage (``/data/user_de/0/<pkg>``, where Clock keeps its alarms) is saved and restored too.
* No ``chmod 777 -R``: ``cp -a`` run as root keeps every file's owner, group and mode (including the
  ``u0_aN_cache`` group of ``cache/``), and ``restorecon -RD`` gives each file back its SELinux label with the
  app's categories. Making the files world-writable would let any app read and change the others' databases.
  The copy is only right while the package keeps its uid, so a snapshot records which install it was taken
  from (uid, version, install times) and ``setup_device`` takes it again after the package was (re)installed.
* Each app is stopped before its data is copied, so no database is caught mid-write.
"""

from __future__ import annotations

import os
import re
import shlex
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from android_gym.device.app_snapshots import (
    DATA_DIR,
    DE_DATA_DIR,
    DEVICE_DIR,
    MISSING,
    NO_SNAPSHOT,
    SNAPSHOT_DIR,
    restore_command,
    snapshot_path,
)
from android_gym.device.base import Device
from android_gym.errors import ProvisionError
from android_gym.sim.system.apk import ApkError, read_apk
from android_gym.tasks.base import DEVICE_TIME, FIXED_TIME_SETTINGS, fixed_time_commands

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: the same parser, published as tomli
    import tomli as tomllib

if TYPE_CHECKING:
    from android_gym.device.emulator_grpc import EmulatorGrpc

MANIFEST_PATH = Path(__file__).with_name("apps.toml")
#: F-Droid's repository, then its archive, where a build goes once newer ones replace it.
FDROID_MIRRORS = ("https://f-droid.org/repo/", "https://f-droid.org/archive/")
#: The ``settings global`` scales that ``adb shell settings put global <name> 0`` sets to turn animations off.
#: The emulator snapshot ``setup_device`` saves over gRPC once the device is provisioned.
READY_SNAPSHOT = "android_gym_ready"
ANIMATION_SETTINGS = ("window_animation_scale", "transition_animation_scale", "animator_duration_scale")
DOWNLOAD_TIMEOUT_S = 60.0


@dataclass(frozen=True)
class AppSpec:
    """One app of the manifest. ``source`` is ``"f-droid"``, ``"system"`` (part of the emulator image, never
    installed, so not pinned: ``version_name``/``version_code`` are ``None``) or the APK's https URL."""

    package: str
    label: str
    version_name: str | None
    version_code: int | None
    source: str
    permissions: tuple[str, ...] = ()

    @property
    def is_system(self) -> bool:
        """Whether the app comes with the system image."""
        return self.source == "system"

    @property
    def apk_name(self) -> str:
        """F-Droid's file name of the pinned build: ``<package>_<versionCode>.apk``."""
        return f"{self.package}_{self.version_code}.apk"

    def apk_urls(self) -> tuple[str, ...]:
        """Where the pinned APK can be downloaded, in the order to try."""
        if self.source == "f-droid":
            return tuple(mirror + self.apk_name for mirror in FDROID_MIRRORS)
        return () if self.is_system else (self.source,)


def load_manifest(path: Path = MANIFEST_PATH) -> list[AppSpec]:
    """The apps of ``apps.toml``; raises ``ProvisionError`` naming the entry that is malformed."""
    try:
        entries = tomllib.loads(path.read_text(encoding="utf-8")).get("app", [])
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise ProvisionError(f"cannot read the app manifest {path}: {error}") from error
    specs = []
    for index, entry in enumerate(entries, 1):
        where = f"{path}: app #{index} ({entry.get('package', '?')})"
        source = entry.get("source", "")
        if source not in ("f-droid", "system") and not source.startswith("https://"):
            raise ProvisionError(f"{where}: source must be 'f-droid', 'system' or an https:// URL, not {source!r}")
        pinned = source != "system"
        version_code, version_name = entry.get("version_code"), entry.get("version_name")
        if pinned and not (isinstance(version_code, int) and isinstance(version_name, str)):
            raise ProvisionError(f"{where}: an installable app needs version_code (int) and version_name (str)")
        if not isinstance(entry.get("package"), str) or not isinstance(entry.get("label"), str):
            raise ProvisionError(f"{where}: package and label must be strings")
        specs.append(AppSpec(entry["package"], entry["label"], version_name if pinned else None,
                             version_code if pinned else None, source, tuple(entry.get("permissions", ()))))
    return specs


# ----- reading the device ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class PackageState:
    """What ``dumpsys package`` says of an installed package."""

    version_code: int
    version_name: str
    #: The manifest's ``uses-permission`` names; ``None`` when the dump lists none.
    requested: frozenset[str] | None
    granted: frozenset[str]
    #: Names this install (uid, version, install times): a snapshot taken from another install is stale.
    install_stamp: str


def _package_block(dump: str, package: str) -> list[str]:
    """The lines of ``Package [<package>]`` in the ``Packages:`` section of a ``dumpsys package`` dump."""
    lines = dump.splitlines()
    start = next((i for i, line in enumerate(lines) if line.strip().startswith(f"Package [{package}]")), None)
    if start is None:
        return []
    block = []
    for line in lines[start + 1:]:
        if not line.startswith("    "):
            break
        block.append(line)
    return block


def _section(block: list[str], title: str) -> list[str] | None:
    """The item names under a ``<title>:`` line (the lines indented deeper), or ``None`` without that line."""
    for index, line in enumerate(block):
        if line.strip() == f"{title}:":
            depth = len(line) - len(line.lstrip())
            items = []
            for item in block[index + 1:]:
                if len(item) - len(item.lstrip()) <= depth:
                    break
                items.append(item.strip())
            return items
    return None


def package_state(device: Device, package: str) -> PackageState | None:
    """The installed package's version and permissions (``dumpsys package``), or ``None`` if not installed."""
    block = _package_block(device.shell(f"dumpsys package {shlex.quote(package)}").output, package)
    text = "\n".join(block)
    code = re.search(r"\bversionCode=(\d+)", text)
    if code is None:
        return None

    def line_value(key: str) -> str:
        found = re.search(rf"^\s+{key}=(.*)$", text, re.MULTILINE)
        return found.group(1).strip() if found else ""

    requested = _section(block, "requested permissions")
    runtime = _section(block, "runtime permissions") or []
    return PackageState(
        version_code=int(code.group(1)), version_name=line_value("versionName"),
        requested=None if requested is None else frozenset(item.split(":")[0] for item in requested),
        granted=frozenset(item.split(":")[0] for item in runtime if "granted=true" in item),
        install_stamp=" ".join([line_value("userId"), code.group(1), line_value("firstInstallTime"),
                                line_value("lastUpdateTime")]))


def installed_version(device: Device, package: str) -> tuple[int, str] | None:
    """``(versionCode, versionName)`` of an installed package, or ``None`` if it is not installed."""
    state = package_state(device, package)
    return None if state is None else (state.version_code, state.version_name)


# ----- APKs -------------------------------------------------------------------------------------------------
def default_cache_dir() -> Path:
    """Where downloaded APKs are kept: ``$XDG_CACHE_HOME/android_gym/apks`` (``~/.cache`` by default)."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "android_gym" / "apks"


def _checked_apk(spec: AppSpec, data: bytes, origin: str) -> bytes:
    """``data`` if it is the pinned build of ``spec``; ``ProvisionError`` naming ``origin`` otherwise."""
    try:
        info = read_apk(data)
    except ApkError as error:
        raise ProvisionError(f"{origin} is not a readable APK ({error})") from error
    if (info.package, info.version_code) != (spec.package, spec.version_code):
        raise ProvisionError(f"{origin} is {info.package} versionCode {info.version_code}, but the manifest pins "
                             f"{spec.package} versionCode {spec.version_code} ({spec.version_name})")
    return data


def _download(spec: AppSpec, cache_dir: Path, log: Callable[[str], None]) -> bytes:
    """The pinned APK from the first of ``spec.apk_urls()`` that serves it, kept in ``cache_dir``."""
    failures = []
    for url in spec.apk_urls():
        log(f"[apps] downloading {url}")
        try:
            with urllib.request.urlopen(url, timeout=DOWNLOAD_TIMEOUT_S) as response:
                data = _checked_apk(spec, response.read(), url)
        except (urllib.error.URLError, OSError) as error:
            failures.append(f"{url}: {getattr(error, 'reason', error)}")
            continue
        except ProvisionError as error:  # a page instead of the APK (a captive portal), or another build
            failures.append(str(error))
            continue
        cache_dir.mkdir(parents=True, exist_ok=True)
        partial = cache_dir / f"{spec.apk_name}.part"
        partial.write_bytes(data)
        partial.replace(cache_dir / spec.apk_name)
        return data
    raise ProvisionError(f"could not download {spec.package} {spec.version_name} ({'; '.join(failures)}); "
                         f"download {spec.apk_name} on a machine that can and pass its folder with --apks DIR")


def _apk(spec: AppSpec, apks: Path | None, download: bool, cache_dir: Path, log: Callable[[str], None]) -> bytes:
    """The pinned APK of ``spec``: from ``apks`` (``<package>_<versionCode>.apk`` or ``<package>.apk``), the
    download cache, or downloaded."""
    local = [apks / spec.apk_name, apks / f"{spec.package}.apk"] if apks else []
    for path in [*local, cache_dir / spec.apk_name]:
        if path.is_file():
            log(f"[apps] using {path}")
            return _checked_apk(spec, path.read_bytes(), str(path))
    if not download:
        where = f"{apks}/{spec.apk_name}" if apks else f"a folder given with --apks DIR (as {spec.apk_name})"
        raise ProvisionError(f"no APK for {spec.package} {spec.version_name} (versionCode {spec.version_code}): "
                             f"put it in {where}, or allow downloads to fetch it from {spec.apk_urls()[0]}")
    return _download(spec, cache_dir, log)


def _install(device: Device, spec: AppSpec, data: bytes, downgrade: bool) -> None:
    """Push the APK, ``pm install -r -t -g`` it (``-d`` to go back to an older version), remove the copy."""
    remote = shlex.quote(f"{DEVICE_DIR}/{spec.apk_name}")
    device.push(data, f"{DEVICE_DIR}/{spec.apk_name}")
    flags = "-r -t -g -d" if downgrade else "-r -t -g"
    result = device.shell(f"pm install {flags} {remote}; status=$?; rm -f {remote}; exit $status")
    if not result.ok or "Success" not in result.output:
        raise ProvisionError(f"installing {spec.package} {spec.version_name} failed: {result.output.strip()}")


# ----- app data snapshots -------------------------------------------------------------------------------------
def has_app_snapshot(device: Device, package: str) -> bool:
    """Whether a complete snapshot of the package's data is on the device."""
    return device.shell(f"[ -f {shlex.quote(snapshot_path(package) + '/installed')} ]").ok


def _snapshot_stamps(device: Device, packages: Sequence[str]) -> dict[str, str]:
    """The install stamp each existing snapshot was taken from, by package (one round trip)."""
    script = "; ".join(f"printf '%s\\t' {shlex.quote(package)}; cat {shlex.quote(snapshot_path(package))}/installed"
                       " 2>/dev/null; echo" for package in packages)
    stamps = {}
    for line in device.shell(script).output.splitlines():
        package, _, stamp = line.partition("\t")
        if stamp:
            stamps[package] = stamp
    return stamps


def _snapshot_states(device: Device, states: dict[str, PackageState]) -> None:
    """Copy each package's data (and device-protected data) to its snapshot, stopped first; the snapshot is
    written beside the old one and moved in place at the end, so an interrupted copy never counts."""
    commands = [f"mkdir -p {SNAPSHOT_DIR}", f"chmod 700 {DEVICE_DIR}"]
    for package, state in states.items():
        target = snapshot_path(package)
        new, data, de = (shlex.quote(path) for path in (f"{target}.new", f"{DATA_DIR}/{package}",
                                                        f"{DE_DATA_DIR}/{package}"))
        commands += [f"am force-stop {shlex.quote(package)}", f"rm -rf {new}", f"mkdir {new}",
                     f"cp -a {data} {new}/ce", f"{{ [ ! -d {de} ] || cp -a {de} {new}/de; }}",
                     f"printf %s {shlex.quote(state.install_stamp)} > {new}/installed",
                     f"rm -rf {shlex.quote(target)}", f"mv {new} {shlex.quote(target)}"]
    result = device.shell(" && ".join(commands))
    if not result.ok:
        raise ProvisionError(f"saving app data snapshots failed (is adbd running as root?): {result.output.strip()}")


def snapshot_app_data(device: Device, packages: Sequence[str]) -> None:
    """Save the current data of installed ``packages`` as the state ``restore_app_data`` brings back."""
    states = {}
    for package in packages:
        state = package_state(device, package)
        if state is None:
            raise ProvisionError(f"cannot snapshot {package}: it is not installed; run `android-gym setup-device`")
        states[package] = state
    _snapshot_states(device, states)


def restore_app_data(device: Device, packages: Sequence[str], missing_ok: bool = False) -> None:
    """Bring the data of ``packages`` back to their snapshots, all in one shell round trip (``restore_command``).
    A package without a snapshot is an error, or skipped with ``missing_ok`` (on a device that has no snapshots at
    all, after one test of their folder)."""
    command = restore_command(packages, missing_ok)
    if not command:
        return
    result = device.shell(command)
    if result.exit_code == MISSING:
        missing_path = result.output.strip().removeprefix(NO_SNAPSHOT)
        raise ProvisionError(f"no app data snapshot at {missing_path}: run `android-gym setup-device` first")
    if not result.ok:
        raise ProvisionError(f"restoring app data failed: {result.output.strip()}")


# ----- setup ----------------------------------------------------------------------------------------------------
@dataclass
class SetupReport:
    """What ``setup_device`` changed; an empty report means the device was already set up."""

    installed: list[str] = field(default_factory=list)
    granted: list[str] = field(default_factory=list)
    time_fixed: bool = False
    animations_disabled: bool = False
    snapshots: list[str] = field(default_factory=list)
    emulator_snapshot: str | None = None

    @property
    def changed(self) -> bool:
        """Whether any step did something."""
        return bool(self.installed or self.granted or self.time_fixed or self.animations_disabled
                    or self.snapshots or self.emulator_snapshot)


def _selected(specs: list[AppSpec], packages: Sequence[str] | None) -> list[AppSpec]:
    if packages is None:
        return specs
    known = {spec.package: spec for spec in specs}
    unknown = [package for package in packages if package not in known]
    if unknown:
        raise ProvisionError(f"not in the app manifest: {', '.join(unknown)}; choose from {', '.join(known)}")
    return [known[package] for package in dict.fromkeys(packages)]


def _install_apps(device: Device, specs: list[AppSpec], states: dict[str, PackageState | None],
                  apks: Path | None, download: bool, cache_dir: Path, log: Callable[[str], None]) -> list[str]:
    """Install every installable app that is missing or at another version; the packages installed."""
    missing = [spec for spec in specs if spec.is_system and states[spec.package] is None]
    if missing:
        names = ", ".join(f"{spec.package} ({spec.label})" for spec in missing)
        raise ProvisionError(f"the device lacks the system app(s) {names}: run an API 33 google_apis emulator "
                             "image (system-images;android-33;google_apis;x86_64), as AndroidWorld does; an app "
                             "removed with `pm uninstall --user 0` comes back with `pm install-existing <package>`")
    installed = []
    for spec in specs:
        state = states[spec.package]
        if spec.is_system or (state is not None and state.version_code == spec.version_code):
            continue
        data = _apk(spec, apks, download, cache_dir, log)
        _install(device, spec, data, downgrade=state is not None and state.version_code > (spec.version_code or 0))
        states[spec.package] = state = package_state(device, spec.package)
        if state is None or state.version_code != spec.version_code:
            raise ProvisionError(f"{spec.package} installed, but the device reports "
                                 f"{'no such package' if state is None else f'versionCode {state.version_code}'}")
        log(f"[apps] installed {spec.package} {spec.version_name} ({spec.version_code})")
        installed.append(spec.package)
    if not installed:
        log(f"[apps] all {len(specs)} apps present at the manifest versions")
    return installed


def _grant_permissions(device: Device, specs: list[AppSpec], states: dict[str, PackageState | None],
                       log: Callable[[str], None]) -> list[str]:
    """``pm grant`` the manifest permissions not granted yet (one round trip); ``"<package> <permission>"``s."""
    grants = []
    for spec in specs:
        state = states[spec.package]
        assert state is not None  # every app is installed by now
        for permission in spec.permissions:
            if permission in state.granted:
                continue
            if state.requested is not None and permission not in state.requested:
                log(f"[permissions] {spec.package} does not request {permission} on this device: not granted")
                continue
            grants.append((spec.package, permission))
    if grants:
        result = device.shell(" && ".join(f"pm grant {shlex.quote(p)} {shlex.quote(name)}" for p, name in grants))
        if not result.ok:
            raise ProvisionError(f"granting runtime permissions failed: {result.output.strip()}")
        for package, permission in grants:
            log(f"[permissions] granted {permission} to {package}")
    else:
        log("[permissions] all granted")
    return [f"{package} {permission}" for package, permission in grants]


def _fix_time(device: Device, log: Callable[[str], None]) -> bool:
    """AndroidWorld's clock (``fixed_time_commands``) unless the settings hold and the clock reads less than a
    day past ``DEVICE_TIME``; whether it was set."""
    probe = [f"settings get {namespace} {key}" for namespace, key, _ in FIXED_TIME_SETTINGS] + ["date +%s"]
    *values, now = device.shell("; ".join(probe)).output.split() or [""]
    wanted = [value for _, _, value in FIXED_TIME_SETTINGS]
    start = int(DEVICE_TIME.timestamp())
    if values == wanted and now.isdigit() and start <= int(now) < start + 86400:
        log(f"[time] already fixed at {DEVICE_TIME:%Y-%m-%d %H:%M} UTC")
        return False
    result = device.shell(" && ".join(fixed_time_commands()))
    if not result.ok:
        raise ProvisionError(f"fixing the device time failed (setting the date needs root: `adb root`): "
                             f"{result.output.strip()}")
    log(f"[time] automatic time and zone off, 24-hour clock, date set to {DEVICE_TIME:%Y-%m-%d %H:%M} UTC")
    return True


def animations_on(device: Device) -> dict[str, str | None]:
    """The animation scales that are not 0, with their values (``None`` where unset, which Android reads as
    1.0); one round trip."""
    lines = device.shell("; ".join(f"settings get global {name}" for name in ANIMATION_SETTINGS)).output.splitlines()
    values = {name: (line.strip() if line.strip() != "null" else None)
              for name, line in zip(ANIMATION_SETTINGS, lines + [""] * len(ANIMATION_SETTINGS))}
    return {name: value for name, value in values.items() if not _is_zero(value)}


def _disable_animations(device: Device, log: Callable[[str], None]) -> bool:
    """Set the three animation scales to 0 unless they are; whether they were set."""
    if not animations_on(device):
        log("[animations] already off")
        return False
    result = device.shell(" && ".join(f"settings put global {name} 0" for name in ANIMATION_SETTINGS))
    if not result.ok:
        raise ProvisionError(f"turning animations off failed: {result.output.strip()}")
    log("[animations] " + ", ".join(ANIMATION_SETTINGS) + " set to 0")
    return True


def _is_zero(value: str | None) -> bool:
    try:
        return value is not None and float(value) == 0
    except ValueError:
        return False


def _snapshot_apps(device: Device, specs: list[AppSpec], states: dict[str, PackageState | None],
                   log: Callable[[str], None]) -> list[str]:
    """Snapshot every app whose snapshot is missing or was taken from another install; the packages saved."""
    stamps = _snapshot_stamps(device, [spec.package for spec in specs])
    stale = {spec.package: state for spec in specs
             if (state := states[spec.package]) is not None and stamps.get(spec.package) != state.install_stamp}
    if not stale:
        log("[snapshots] every app's data snapshot is up to date")
        return []
    _snapshot_states(device, stale)
    log(f"[snapshots] saved the data of {', '.join(stale)} in {SNAPSHOT_DIR}")
    return list(stale)


def setup_device(device: Device, apks: Path | None = None, download: bool = True,
                 packages: Sequence[str] | None = None, log: Callable[[str], None] = print,
                 cache_dir: Path | None = None, grpc: EmulatorGrpc | None = None) -> SetupReport:
    """Provision ``device`` for the tasks: apps at the manifest versions (APKs from ``apks``, the download cache
    ``cache_dir`` or, if ``download``, F-Droid), their runtime permissions, AndroidWorld's fixed clock, no
    animations, and app data snapshots. ``packages`` limits the apps to some of the manifest's. Each step that
    finds the device already right does nothing; ``log`` gets one line per step. With the emulator's ``grpc``
    service, the provisioned emulator is also saved as snapshot ``READY_SNAPSHOT`` (a whole-device restore)."""
    specs = _selected(load_manifest(), packages)
    states = {spec.package: package_state(device, spec.package) for spec in specs}
    report = SetupReport()
    report.installed = _install_apps(device, specs, states, apks, download, cache_dir or default_cache_dir(), log)
    report.granted = _grant_permissions(device, specs, states, log)
    report.time_fixed = _fix_time(device, log)
    report.animations_disabled = _disable_animations(device, log)
    report.snapshots = _snapshot_apps(device, specs, states, log)
    if grpc is not None and (report.changed or READY_SNAPSHOT not in grpc.list_snapshots()):
        grpc.save_snapshot(READY_SNAPSHOT)
        report.emulator_snapshot = READY_SNAPSHOT
        log(f"[emulator] saved the whole device as snapshot {READY_SNAPSHOT!r} (load it over gRPC to reset)")
    return report
