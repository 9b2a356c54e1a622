"""Which tasks an evaluation runs (a suite name, a glob, a task list file, task names) and what is known of each:
the apps it uses, and AndroidWorld's difficulty, tags and human optimal step count."""

from __future__ import annotations

import difflib
import fnmatch
import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from android_gym.errors import SuiteError, UnknownTaskError
from android_gym.tasks import get_task, task_names
from android_gym.tasks.registry import NAMESPACE
from android_gym.tasks.subgoals import SubgoalTask

#: AndroidWorld's own metadata of its 116 tasks (source named in the file).
METADATA_PATH = Path(__file__).with_name("androidworld_tasks.json")
#: The suite name of the long-horizon cross-app tasks.
LONG_HORIZON = "long_horizon"


@dataclass(frozen=True)
class TaskInfo:
    """One task of a suite: its registered name, env id, the labels of its apps, and, for AndroidWorld's tasks,
    their difficulty, tags and human optimal step count (``None``/empty for our own tasks)."""

    name: str
    env_id: str
    apps: tuple[str, ...]
    difficulty: str | None
    tags: tuple[str, ...]
    optimal_steps: int | None


@cache
def androidworld_metadata() -> dict[str, dict]:
    """AndroidWorld's ``task_metadata.json``, by task name: ``difficulty``, ``tags``, ``optimal_steps``."""
    return json.loads(METADATA_PATH.read_text(encoding="utf-8"))["tasks"]


def _variants() -> dict:
    from android_gym.envs.constrained import CONSTRAINED_VARIANTS

    return CONSTRAINED_VARIANTS


def registered() -> list[str]:
    """Every registered task (aliases left out), then the constrained variants: what ``android-gym list`` shows."""
    return task_names(include_aliases=False) + sorted(_variants())


def long_horizon_tasks() -> list[str]:
    """The long-horizon cross-app suite: every registered ``SubgoalTask`` (partial credit per sub-goal)."""
    return [name for name in task_names(include_aliases=False) if issubclass(get_task(name), SubgoalTask)]


def canonical_name(name: str) -> str:
    """The registered name of a task given by name, alias or env id; ``SuiteError`` with suggestions otherwise."""
    name = name.strip().removeprefix(f"{NAMESPACE}/").removesuffix("-v0")
    if name in _variants():
        return name
    try:
        return get_task(name).name
    except UnknownTaskError as error:
        raise SuiteError(str(error)) from None


def resolve_suite(spec: str) -> list[str]:
    """The task names ``spec`` selects: comma-separated items, each ``androidworld`` (AndroidWorld's tasks that are
    registered here), ``long_horizon`` (the cross-app ``SubgoalTask``s), ``all`` (every registered task and
    constrained variant), a glob over those names (``Markor*``), the path of a file listing task names (one a
    line, ``#`` comments), or a task name. In the order given, without repeats; ``SuiteError`` for an item that
    selects nothing."""
    names: list[str] = []
    for item in (part.strip() for part in spec.split(",")):
        if not item:
            raise SuiteError(f"empty item in the suite {spec!r}; separate items with single commas")
        names += _resolve_item(item)
    return list(dict.fromkeys(names))


def _resolve_item(item: str) -> list[str]:
    if item == "androidworld":
        return [name for name in task_names(include_aliases=False) if name in androidworld_metadata()]
    if item == "all":
        return registered()
    if item == LONG_HORIZON:
        return long_horizon_tasks()
    if Path(item).is_file():
        return _read_task_file(Path(item))
    if any(char in item for char in "*?["):
        matches = fnmatch.filter(registered(), item)
        if not matches:
            close = difflib.get_close_matches(item.replace("*", ""), registered(), n=3)
            hint = f" (close names: {', '.join(close)})" if close else ""
            raise SuiteError(f"the glob {item!r} matches no registered task{hint}; `android-gym list` shows them")
        return matches
    if "/" in item.removeprefix(f"{NAMESPACE}/") or item.endswith((".txt", ".list")):
        raise SuiteError(f"no task list file {item!r}")
    return [canonical_name(item)]


def _read_task_file(path: Path) -> list[str]:
    names, unknown = [], []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        name = line.split("#", 1)[0].strip()
        if not name:
            continue
        try:
            names.append(canonical_name(name))
        except SuiteError as error:
            unknown.append(f"line {number}: {error}")
    if unknown:
        raise SuiteError(f"{path} names tasks that are not registered:\n  " + "\n  ".join(unknown))
    if not names:
        raise SuiteError(f"{path} lists no task (one task name a line; '#' starts a comment)")
    return names


@cache
def _app_labels() -> dict[str, str]:
    from android_gym.device.provision import load_manifest

    return {app.package: app.label for app in load_manifest()}


def task_info(name: str) -> TaskInfo:
    """What is known of the registered task ``name`` (a constrained variant takes its base task's apps)."""
    base = _variants()[name].task if name in _variants() else name
    labels = _app_labels()
    apps = tuple(labels.get(package, package) for package in get_task(base).app_packages)
    meta = androidworld_metadata().get(name, {})
    return TaskInfo(name, f"{NAMESPACE}/{name}-v0", apps, meta.get("difficulty"), tuple(meta.get("tags", ())),
                    meta.get("optimal_steps"))
