"""The task registry: every Task class by AndroidWorld name, plus aliases (``SendSms``).

Registering a task also registers its Gymnasium id ``AndroidWorld/<Name>-v0``, so tasks added after import
(composites built with ``android_gym.compose``, a user's own tasks) are ``gym.make``-able at once.
"""

from __future__ import annotations

import difflib

import gymnasium as gym

from android_gym.errors import UnknownTaskError
from android_gym.tasks.base import Task

NAMESPACE = "AndroidWorld"
_TASKS: dict[str, type[Task]] = {}
_ALIASES: dict[str, str] = {}


def env_id(task_name: str) -> str:
    """The Gymnasium id of a task: ``AndroidWorld/<TaskName>-v0``."""
    return f"{NAMESPACE}/{task_name}-v0"


def register_task(task_class: type[Task], *aliases: str) -> type[Task]:
    """Add a task (and optional alias names) to the registry and to Gymnasium's; returns the class, so it works
    as a decorator. Registering a name again replaces the earlier task."""
    if not task_class.name:
        raise ValueError(f"{task_class.__qualname__} has no name")
    _TASKS[task_class.name] = task_class
    for alias in aliases:
        _ALIASES[alias] = task_class.name
    for name in (task_class.name, *aliases):
        gym.registry.pop(env_id(name), None)  # replaced silently, like the task itself
        gym.register(id=env_id(name), entry_point="android_gym.env:AndroidEnv", kwargs={"task": name},
                     max_episode_steps=task_class.max_steps())
    return task_class


def get_task(name: str) -> type[Task]:
    """The task class registered as ``name`` (or an alias); ``UnknownTaskError`` with suggestions otherwise."""
    _load_catalogue()
    name = _ALIASES.get(name, name)
    if name not in _TASKS:
        close = difflib.get_close_matches(name, list(_TASKS) + list(_ALIASES), n=3)
        hint = f" Did you mean {', '.join(close)}?" if close else ""
        raise UnknownTaskError(f"no task named {name!r}.{hint} `android-gym list` shows every task.")
    return _TASKS[name]


def task_names(include_aliases: bool = True) -> list[str]:
    """Registered task names, sorted, aliases included unless asked otherwise."""
    _load_catalogue()
    return sorted(list(_TASKS) + (list(_ALIASES) if include_aliases else []))


def _load_catalogue() -> None:
    """Import the task catalogue (``android_gym.envs``), whose modules register themselves."""
    import android_gym.envs  # noqa: F401
