"""The simulated apps, one module per app, built on the app framework (``sim.framework``) and the view toolkit.

``installed.py`` lists the apps a new phone has (``INSTALLED_APPS``, in install order) and those it runs once their
APK is installed (``INSTALLABLE_APPS``); adding an app is one module here plus one line there, then
``python -m android_gym.sim.apps.index`` to list it in ``index.json``. A phone installs the apps from that index
(``indexed_apps``: each one's ``AppInfo``) without importing their modules; an app's module is imported when the
app is first needed (``framework.packages``).
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import TYPE_CHECKING

from android_gym.lazy_names import lazy_names
from android_gym.sim.framework.app import AppInfo
from android_gym.sim.framework.intent import IntentFilter

if TYPE_CHECKING:
    from android_gym.sim.apps.installed import INSTALLABLE_APPS, INSTALLED_APPS

#: The index of the apps (written by ``android_gym.sim.apps.index``).
INDEX_FILE = Path(__file__).with_name("index.json")
#: The index as read. Its strings are constants of this module, as the apps' manifest resources (their labels) are
#: literals of theirs: a window puts them into the system language as it does those (``framework.locale``).
INDEX: dict[str, list[dict]] = json.loads(INDEX_FILE.read_text())


@functools.cache
def indexed_apps() -> dict[str, tuple[AppInfo, ...]]:
    """The index: ``installed`` and ``installable`` apps, as ``INSTALLED_APPS`` and ``INSTALLABLE_APPS`` list
    them."""
    return {kind: tuple(app_info(entry) for entry in entries) for kind, entries in INDEX.items()}


def app_info(entry: dict) -> AppInfo:
    """An ``AppInfo`` from its entry in the index (JSON's lists back to tuples)."""
    return AppInfo(**{**entry, "icon_color": tuple(entry["icon_color"]),
                      "receivers": {name: tuple(actions) for name, actions in entry["receivers"].items()},
                      "receiver_schemes": {name: tuple(schemes)
                                           for name, schemes in entry["receiver_schemes"].items()},
                      "intent_filters": tuple(IntentFilter(**{part: tuple(names) for part, names in found.items()})
                                              for found in entry["intent_filters"])})


__all__ = ["INDEX", "INDEX_FILE", "INSTALLABLE_APPS", "INSTALLED_APPS", "app_info", "indexed_apps"]
__getattr__, __dir__ = lazy_names(__name__)
