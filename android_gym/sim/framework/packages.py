"""The package manager: installed packages with their uid, version and runtime permissions; ``pm install`` of an
APK file, ``pm uninstall``, ``pm clear``, ``pm grant``/``revoke``. Part of the app framework (``sim/framework``);
the phone installs the apps of ``apps/index.json`` through it at boot.

A package installed from its ``AppInfo`` is listed, has its uid, record and data directory and shows on the home
screen from boot, but its app starts (its module is imported, its ``App`` made, which may create its databases and
preferences) only when first needed: asked for by ``get`` (launched, sent an intent or a broadcast, cleared,
stopped), or its data directories, or a directory above them, are first used (``FileSystem.before_first_use``).
It starts at its install time (``VirtualClock.at``), so what it creates is what it would have created at boot.

An APK whose package is one of the simulated apps (installed at boot, or only known to the phone, such as
AndroidEnv's accessibility forwarder) installs that app at the APK's version; any other package installs as a
package without activities (it is listed and has a data directory, but nothing to launch). The
simulated apps' own manifests are not modelled: until an APK of theirs is installed, any runtime permission may
be granted to them and ``dumpsys`` lists only the permissions granted or revoked so far.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from android_gym.sim.framework.app import App, AppInfo, Context, Screen, make_app_data
from android_gym.sim.framework.intent import Intent
from android_gym.sim.framework.platform import system_package
from android_gym.sim.system.apk import ApkInfo
from android_gym.sim.system.fs import EXTERNAL_STORAGE

#: First application uid (``android.os.Process.FIRST_APPLICATION_UID``); app N is ``u0_a{N - 10000}``.
FIRST_APPLICATION_UID = 10000

#: Permissions with ``protectionLevel="dangerous"`` on Android 13 (frameworks/base ``core/res/AndroidManifest.xml``):
#: the runtime permissions ``pm grant`` and ``pm install -g`` grant.
RUNTIME_PERMISSIONS = frozenset({
    "android.permission.READ_CALENDAR", "android.permission.WRITE_CALENDAR", "android.permission.CAMERA",
    "android.permission.READ_CONTACTS", "android.permission.WRITE_CONTACTS", "android.permission.GET_ACCOUNTS",
    "android.permission.ACCESS_FINE_LOCATION", "android.permission.ACCESS_COARSE_LOCATION",
    "android.permission.ACCESS_BACKGROUND_LOCATION", "android.permission.RECORD_AUDIO",
    "android.permission.READ_PHONE_STATE", "android.permission.READ_PHONE_NUMBERS", "android.permission.CALL_PHONE",
    "android.permission.ANSWER_PHONE_CALLS", "android.permission.READ_CALL_LOG", "android.permission.WRITE_CALL_LOG",
    "com.android.voicemail.permission.ADD_VOICEMAIL", "android.permission.USE_SIP",
    "android.permission.PROCESS_OUTGOING_CALLS", "android.permission.ACCEPT_HANDOVER",
    "android.permission.BODY_SENSORS", "android.permission.BODY_SENSORS_BACKGROUND", "android.permission.SEND_SMS",
    "android.permission.RECEIVE_SMS", "android.permission.READ_SMS", "android.permission.RECEIVE_WAP_PUSH",
    "android.permission.RECEIVE_MMS", "android.permission.READ_CELL_BROADCASTS",
    "android.permission.READ_EXTERNAL_STORAGE", "android.permission.WRITE_EXTERNAL_STORAGE",
    "android.permission.ACCESS_MEDIA_LOCATION", "android.permission.READ_MEDIA_AUDIO",
    "android.permission.READ_MEDIA_VIDEO", "android.permission.READ_MEDIA_IMAGES",
    "android.permission.ACTIVITY_RECOGNITION", "android.permission.BLUETOOTH_SCAN",
    "android.permission.BLUETOOTH_CONNECT", "android.permission.BLUETOOTH_ADVERTISE", "android.permission.UWB_RANGING",
    "android.permission.NEARBY_WIFI_DEVICES", "android.permission.POST_NOTIFICATIONS",
})


class InstallError(Exception):
    """An install the package manager refused: ``code`` is the ``INSTALL_FAILED_*`` constant ``pm`` prints."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code, self.message = code, message


class GrantError(Exception):
    """``pm grant``/``revoke`` refused; the message is the Java exception line the shell prints
    (``PermissionManagerServiceImpl.grantRuntimePermissionInternal``)."""


@dataclass
class PackageRecord:
    """What the package manager keeps of an installed package (``PackageSetting``)."""

    uid: int
    version_code: int
    version_name: str
    installed_ms: int
    min_sdk: int = 21
    target_sdk: int = 33
    #: Installed by ``pm install`` (installer ``com.android.shell``) rather than present at boot.
    from_apk: bool = False
    #: ``uses-permission`` names of the installed APK; ``None`` while the app's manifest is not modelled.
    requested: tuple[str, ...] | None = None
    #: Runtime permission → granted.
    runtime: dict[str, bool] = field(default_factory=dict)
    updated_ms: int = 0

    def __post_init__(self) -> None:
        self.updated_ms = self.updated_ms or self.installed_ms


def app_class(info: AppInfo) -> type[App]:
    """The ``App`` class of a package (its module imported)."""
    if info.code is None:
        return system_package(info.package)
    module, name = info.code.split(":")
    return getattr(importlib.import_module(module), name)


#: Where an app keeps its data (``Context.getDataDir``, device-protected storage and its folder in shared storage).
DATA_DIRS = ("/data/data/{}", "/data/user_de/0/{}", f"{EXTERNAL_STORAGE}/Android/data/{{}}")
#: Those an app writes when it starts: it starts before any of them is first used. No app writes shared storage
#: when it starts (a test checks), so a look at ``/sdcard`` starts none.
STARTUP_DIRS = DATA_DIRS[:2]


class PackageManager:
    """Installed packages in install order; each gets a uid and its ``/data/data/<package>`` directory."""

    def __init__(self, phone: Context, installable: Sequence[type[App] | AppInfo] = ()) -> None:
        self._phone = phone
        self._infos: dict[str, AppInfo] = {}
        self._apps: dict[str, App] = {}  # the installed packages whose app has started
        self._records: dict[str, PackageRecord] = {}
        #: The simulated apps by package, so an APK of one that is not installed (any more) installs it.
        self._catalogue: dict[str, type[App] | AppInfo] = {app.package: app for app in installable}
        self._next_uid = FIRST_APPLICATION_UID
        self._launchable: tuple[AppInfo, ...] | None = None  # ``launchable``, until a package is added or removed

    def install(self, app: type[App] | AppInfo) -> None:
        """Install a simulated app at its own version and create its data directory: from its class, started at
        once, or from its ``AppInfo``, started when first needed."""
        self._catalogue.setdefault(app.package, app)
        self._add(app, app.version_code or 1, app.version_name or "1.0")

    def _add(self, app: type[App] | AppInfo, version_code: int, version_name: str) -> None:
        info = app if isinstance(app, AppInfo) else app.info()
        self._infos[info.package] = info
        self._launchable = None
        self._records[info.package] = PackageRecord(self._next_uid, version_code, version_name,
                                                    self._phone.clock.now_ms())
        self._next_uid += 1
        if isinstance(app, AppInfo):
            make_app_data(self._phone.fs, info.package)  # (an app's start finds its folders there)
            for directory in STARTUP_DIRS:
                self._phone.fs.before_first_use(directory.format(info.package),
                                                functools.partial(self.get, info.package))
        else:
            self._start(app)
            make_app_data(self._phone.fs, info.package)

    def _start(self, app_class: type[App]) -> App:
        """Make the package's ``App``, at its install time."""
        package = app_class.package
        for directory in STARTUP_DIRS:
            self._phone.fs.before_first_use(directory.format(package), None)
        with self._phone.clock.at(self._records[package].installed_ms):
            app = self._apps[package] = app_class(self._phone)
        # What it wrote is what it writes at boot: a rewind of the phone keeps it (``FileSystem.add_to_baseline``).
        self._phone.fs.add_to_baseline([directory.format(package) for directory in STARTUP_DIRS])
        return app

    def install_apk(self, info: ApkInfo, allow_downgrade: bool = False, grant_runtime: bool = False) -> App:
        """``pm install``: a new package, or an update of an installed one (its process is stopped, its data
        and uid kept); raises ``InstallError`` for a version downgrade without ``allow_downgrade``."""
        record = self._records.get(info.package)
        if record is not None and info.version_code < record.version_code and not allow_downgrade:
            raise InstallError("INSTALL_FAILED_VERSION_DOWNGRADE",  # PackageManagerServiceUtils.checkDowngrade
                               f"Downgrade detected: Update version code {info.version_code} is older than "
                               f"current {record.version_code}")
        version_name = info.version_name or ""
        if record is None:
            self._add(self._catalogue.get(info.package) or system_package(info.package), info.version_code,
                      version_name)
            record = self._records[info.package]
        else:
            self._phone.activities.force_stop(info.package)
            record.version_code, record.version_name = info.version_code, version_name
            record.updated_ms = self._phone.clock.now_ms()
        record.from_apk, record.requested = True, info.permissions
        record.min_sdk, record.target_sdk = info.min_sdk or 1, info.target_sdk or info.min_sdk or 1
        record.runtime = {name: grant_runtime or record.runtime.get(name, False)
                          for name in info.permissions if name in RUNTIME_PERMISSIONS}
        app = self.get(info.package)
        assert app is not None
        return app

    def uninstall(self, package: str) -> bool:
        """``pm uninstall``: stop the app, forget it and delete its data (``/data/data``, device-protected
        storage and its folder in shared storage); whether it was installed."""
        if self.get(package) is None:
            return False
        self._phone.activities.force_stop(package)
        del self._apps[package], self._infos[package], self._records[package]
        self._launchable = None
        for directory in DATA_DIRS:
            self._phone.fs.remove_tree(directory.format(package))
        return True

    def get(self, package: str) -> App | None:
        """The installed app (started now if it has not yet) or ``None``."""
        app = self._apps.get(package)
        if app is None and package in self._infos:
            app = self._start(app_class(self._infos[package]))
        return app

    def handlers(self, intent: Intent, packages: Sequence[str] | None = None) -> Iterator[tuple[App, type[Screen]]]:
        """The apps (of ``packages``, default all, in install order) that take the implicit ``intent``, each with
        the activity it starts: only an app one of whose intent filters (its manifest's, in the index) takes the
        intent is started to name it (``App.resolve``)."""
        for name in self.names() if packages is None else packages:
            info = self._infos.get(name)
            if info is None or not any(found.takes(intent) for found in info.intent_filters):
                continue
            app = self.get(name)
            screen = app.resolve(intent) if app is not None else None
            if screen is not None:
                yield app, screen

    def info(self, package: str) -> AppInfo | None:
        """What the package manager knows of an installed package without starting its app, or ``None``."""
        return self._infos.get(package)

    def record(self, package: str) -> PackageRecord | None:
        """The package manager's entry for an installed package, or ``None``."""
        return self._records.get(package)

    def uid(self, package: str) -> int:
        """The package's uid (``FIRST_APPLICATION_UID`` for an unknown package)."""
        record = self._records.get(package)
        return record.uid if record else FIRST_APPLICATION_UID

    def names(self) -> list[str]:
        """Installed package names."""
        return list(self._infos)

    def started(self) -> list[str]:
        """The installed packages whose app has started (``get``)."""
        return list(self._apps)

    def launchable(self) -> tuple[AppInfo, ...]:
        """Apps with a launcher icon, sorted by label as the app drawer shows them (the same tuple until a package is
        added or removed: the home screen asks at every frame it shows)."""
        if self._launchable is None:
            self._launchable = tuple(sorted((info for info in self._infos.values() if info.launchable),
                                            key=lambda info: info.label.lower()))
        return self._launchable

    def revoked(self, package: str, permission: str) -> bool:
        """Whether the runtime ``permission`` of ``package`` was revoked (and not granted since)."""
        record = self._records.get(package)
        return record is not None and record.runtime.get(permission) is False

    def set_permission(self, package: str, permission: str, granted: bool) -> None:
        """``pm grant``/``pm revoke`` of a runtime permission; raises ``GrantError`` as the platform refuses."""
        record = self._records.get(package)
        if record is None:
            raise GrantError(f"java.lang.IllegalArgumentException: Unknown package: {package}")
        known = (permission in RUNTIME_PERMISSIONS or permission.startswith("android.permission.")
                 or any(permission in (other.requested or ()) for other in self._records.values()))
        if not known:
            raise GrantError(f"java.lang.IllegalArgumentException: Unknown permission: {permission}")
        if record.requested is not None and permission not in record.requested:
            raise GrantError(f"java.lang.SecurityException: Package {package} has not requested permission "
                             f"{permission}")
        if permission not in RUNTIME_PERMISSIONS:
            raise GrantError(f"java.lang.SecurityException: Permission {permission} requested by {package} is not "
                             "a changeable permission type")
        record.runtime[permission] = granted

    def clear(self, package: str) -> bool:
        """``pm clear``: stop the app and delete its data, including its folder in shared storage
        (``/storage/emulated/0/Android/data/<package>``, as ``PackageManagerService.clearApplicationUserData``
        does); whether the package exists."""
        app = self.get(package)
        if app is None:
            return False
        self._phone.activities.force_stop(package)
        self._phone.fs.clear_dir(app.data_dir)
        self._phone.fs.remove_tree(f"{EXTERNAL_STORAGE}/Android/data/{package}")
        app.on_clear()
        return True
