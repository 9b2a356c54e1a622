"""The package manager: which apps are installed, and ``pm clear``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from android_gym.sim.apps.base import App
from android_gym.sim.system.fs import EXTERNAL_STORAGE

if TYPE_CHECKING:
    from android_gym.sim.phone import Phone


class PackageManager:
    """Installed packages in install order; each gets its ``/data/data/<package>`` directory."""

    def __init__(self, phone: Phone) -> None:
        self._phone = phone
        self._apps: dict[str, App] = {}

    def install(self, app_class: type[App]) -> App:
        """Install an app and create its data directory."""
        app = app_class(self._phone)
        self._phone.fs.makedirs(app.data_dir)
        self._apps[app.package] = app
        return app

    def get(self, package: str) -> App | None:
        """The installed app or ``None``."""
        return self._apps.get(package)

    def names(self) -> list[str]:
        """Installed package names."""
        return list(self._apps)

    def launchable(self) -> list[App]:
        """Apps with a launcher icon, sorted by label as the app drawer shows them."""
        return sorted((app for app in self._apps.values() if app.launchable and app.screens),
                      key=lambda app: app.label.lower())

    def clear(self, package: str) -> bool:
        """``pm clear``: stop the app and delete its data, including its folder in shared storage
        (``/storage/emulated/0/Android/data/<package>``, as ``PackageManagerService.clearApplicationUserData``
        does); whether the package exists."""
        app = self._apps.get(package)
        if app is None:
            return False
        self._phone.activities.force_stop(package)
        self._phone.fs.clear_dir(app.data_dir)
        self._phone.fs.remove_tree(f"{EXTERNAL_STORAGE}/Android/data/{package}")
        app.on_clear()
        return True
