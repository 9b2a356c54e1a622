"""The task registry: every Task class by AndroidWorld name, plus aliases (``SendSms``).

Registering a task also registers its Gymnasium id ``AndroidWorld/<Name>-v0``, so tasks added after import
(composites built with ``android_gym.compose``, a user's own tasks) are ``gym.make``-able at once. The catalogue's
tasks (``android_gym.envs``) are known before their modules are imported: ``set_catalogue`` says which module
registers each name, and ``get_task`` imports that module when the task is first needed.
"""

from __future__ import annotations

import difflib
import importlib
from collections.abc import Mapping
from typing import TYPE_CHECKING

import gymnasium as gym

from android_gym.errors import UnknownTaskError

if TYPE_CHECKING:
    from android_gym.tasks.base import Task

NAMESPACE = "AndroidWorld"
_TASKS: dict[str, type[Task]] = {}
_ALIASES: dict[str, str] = {}
#: The catalogue's tasks, imported or not: name → the module whose import registers it; and its aliases.
_CATALOGUE: dict[str, str] = {}
_CATALOGUE_ALIASES: dict[str, str] = {}


def env_id(task_name: str) -> str:
    """The Gymnasium id of a task: ``AndroidWorld/<TaskName>-v0``."""
    return f"{NAMESPACE}/{task_name}-v0"


def set_catalogue(modules: Mapping[str, str], aliases: Mapping[str, str]) -> None:
    """Know the catalogue's tasks before their modules are imported: ``modules`` maps a task name to the module
    whose import registers it, ``aliases`` an alias to its task's name (replacing what was set before)."""
    _CATALOGUE.clear()
    _CATALOGUE.update(modules)
    _CATALOGUE_ALIASES.clear()
    _CATALOGUE_ALIASES.update(aliases)


def register_task(task_class: type[Task], *aliases: str) -> type[Task]:
    """Add a task (and optional alias names) to the registry and to Gymnasium's; returns the class, so it works
    as a decorator. Registering a name again replaces the earlier task (a catalogue task is imported first, so
    that it is the one replaced)."""
    if not task_class.name:
        raise ValueError(f"{task_class.__qualname__} has no name")
    _import_catalogue_task(task_class.name)  # nothing to do when its module is the one registering it
    _TASKS[task_class.name] = task_class
    for alias in aliases:
        _ALIASES[alias] = task_class.name
    for name in (task_class.name, *aliases):
        gym.registry.pop(env_id(name), None)  # replaced silently, like the task itself
        gym.register(id=env_id(name), entry_point="android_gym.env:AndroidEnv", kwargs={"task": name},
                     max_episode_steps=task_class.max_steps())
    return task_class


def get_task(name: str) -> type[Task]:
    """The task class registered as ``name`` (or an alias), its module imported if it was not yet;
    ``UnknownTaskError`` with suggestions otherwise."""
    name = _ALIASES.get(name) or _CATALOGUE_ALIASES.get(name, name)
    _import_catalogue_task(name)
    if name not in _TASKS:
        close = difflib.get_close_matches(name, task_names(), n=3)
        hint = f" Did you mean {', '.join(close)}?" if close else ""
        raise UnknownTaskError(f"no task named {name!r}.{hint} `android-gym list` shows every task.")
    return _TASKS[name]


def task_names(include_aliases: bool = True) -> list[str]:
    """Registered task names (their modules imported or not), sorted, aliases included unless asked otherwise."""
    aliases = {*_ALIASES, *_CATALOGUE_ALIASES} if include_aliases else set()
    return sorted({*_TASKS, *_CATALOGUE, *aliases})


def _import_catalogue_task(name: str) -> None:
    """Import the catalogue module that registers ``name`` if the name is the catalogue's and not registered."""
    if name not in _TASKS and name in _CATALOGUE:
        importlib.import_module(_CATALOGUE[name])
