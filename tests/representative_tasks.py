"""Representative tasks, for the checks whose per-task variant proves nothing a task's app and kind do not."""

from __future__ import annotations

import android_gym


def one_task_per_app_and_module() -> frozenset[str]:
    """The first task of each app and of each catalogue module: every app's screens, and each kind of episode
    (single-app, cross-app, long-horizon, declarative), at least once."""
    chosen: dict[str, str] = {}
    for name in android_gym.task_names(include_aliases=False):
        task = android_gym.get_task(name)
        for key in (task.__module__, *task.app_packages):
            chosen.setdefault(key, name)
    return frozenset(chosen.values())
