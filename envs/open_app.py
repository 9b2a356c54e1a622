"""AndroidWorld's ``OpenAppTaskEval``: open a named app (``task_evals/single/system.py``).

AndroidWorld draws from camera, clock, contacts, settings and dialer; the simulated phone has no Camera or
Phone (dialer) app yet, so this task draws from the apps it has. Success is the foreground package.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from android_gym.device import state
from android_gym.device.base import Device
from android_gym.tasks import Task, register_task
from android_gym.tasks.oracle import OracleStep, Selector, complete, tap

#: App name in the goal → (package, launcher label).
APPS = {
    "clock": ("com.google.android.deskclock", "Clock"),
    "contacts": ("com.google.android.contacts", "Contacts"),
    "settings": ("com.android.settings", "Settings"),
}


@register_task
class OpenAppTaskEval(Task):
    """Open an app from the home screen."""

    name = "OpenAppTaskEval"
    app_packages = tuple(package for package, _ in APPS.values())
    template = ("Open the {app_name} app. Clear any pop-ups that may appear by granting all permissions that are "
                "required.")

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """One of the apps, by its lower-case name."""
        return {"app_name": sorted(APPS)[int(rng.integers(len(APPS)))]}

    def is_successful(self, device: Device) -> float:
        """1.0 when the app's package is in the foreground."""
        return 1.0 if state.foreground_package(device) == APPS[self.params["app_name"]][0] else 0.0

    def oracle(self) -> Sequence[OracleStep]:
        """Tap the app's icon on the home screen."""
        return [tap(Selector(text=APPS[self.params["app_name"]][1])), complete()]
