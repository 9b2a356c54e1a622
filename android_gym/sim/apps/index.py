"""Writes the apps' index, ``index.json``: each app's ``AppInfo`` (package, label, launcher icon, receivers,
intent filters, version and where its class is), for the apps of ``installed.INSTALLED_APPS`` and
``INSTALLABLE_APPS`` in their order, so that a phone installs them without importing their modules.

``python -m android_gym.sim.apps.index`` rewrites it; ``--check`` exits 1 when it is out of date.
"""

from __future__ import annotations

import dataclasses
import importlib
import sys
from typing import Any

from android_gym import index_files
from android_gym.sim import apps
from android_gym.sim.apps.installed import INSTALLABLE_APPS, INSTALLED_APPS
from android_gym.sim.framework.app import App


def entry(app: type[App]) -> dict[str, Any]:
    """The app's entry in the index: its ``AppInfo``, whose ``code`` is ``None`` for a class its module does not
    name (a system package ``framework.platform.system_package`` makes)."""
    info = dataclasses.asdict(app.info())
    module, name = info["code"].split(":")
    if getattr(importlib.import_module(module), name, None) is not app:
        info["code"] = None
    return info


def build_index() -> dict[str, Any]:
    """The index of ``INSTALLED_APPS`` and ``INSTALLABLE_APPS``."""
    return {"installed": [entry(app) for app in INSTALLED_APPS],
            "installable": [entry(app) for app in INSTALLABLE_APPS]}


def main(argv: list[str] | None = None) -> int:
    """Rewrite ``index.json`` (or with ``--check`` only compare it); the exit status."""
    return index_files.main(argv, __doc__.split("\n\n")[0], apps.INDEX_FILE, build_index, f"{apps.__name__}.index")


if __name__ == "__main__":
    sys.exit(main())
