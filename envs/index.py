"""Writes the catalogue's index, ``index.json``: which module of ``android_gym.envs`` registers each task name,
the aliases, and every Gymnasium id the modules register (entry point, kwargs, step budget), so that importing the
package registers them all without importing a module.

``python -m android_gym.envs.index`` rewrites it; ``--check`` exits 1 when it is out of date. Either must run in a
process of its own: it imports every module of the catalogue for the first time, each after the modules it
imports, and records what that import registered.
"""

from __future__ import annotations

import ast
import graphlib
import importlib
import json
import pkgutil
import sys
from pathlib import Path
from typing import Any

import gymnasium as gym

import android_gym.envs as catalogue
from android_gym import index_files
from android_gym.tasks.registry import get_task, set_catalogue, task_names


def catalogue_modules() -> list[str]:
    """The catalogue's modules (short names), each after the catalogue modules it imports at module level."""
    folder = Path(catalogue.__file__).parent
    names = {module.name for module in pkgutil.iter_modules([str(folder)])} - {Path(__file__).stem}  # not this one
    order = graphlib.TopologicalSorter({name: _sibling_imports(folder / f"{name}.py", names) for name in names})
    return list(order.static_order())


def _sibling_imports(path: Path, names: set[str]) -> set[str]:
    """The modules among ``names`` that the module at ``path`` imports at its top level."""
    package = catalogue.__name__
    found = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = ".".join(filter(None, (package if node.level == 1 else "", node.module)))  # from .sms import x
            modules = [f"{base}.{alias.name}" for alias in node.names] if base == package else [base]
        else:
            continue
        found.update(module.removeprefix(f"{package}.").split(".")[0] for module in modules
                     if module.startswith(f"{package}."))
    return found & names


def build_index() -> dict[str, Any]:
    """Import every catalogue module (none imported before) and record what each one registers."""
    modules = catalogue_modules()
    if imported := [name for name in modules if f"{catalogue.__name__}.{name}" in sys.modules]:
        raise RuntimeError(f"catalogue modules imported already ({', '.join(imported)}): run in a fresh process")
    set_catalogue({}, {})  # forget the index being rebuilt: only the modules' own registrations count
    for env_id in json.loads(catalogue.INDEX_FILE.read_text())["envs"]:
        gym.registry.pop(env_id)
    tasks: dict[str, str] = {}
    envs: dict[str, dict[str, Any]] = {}
    for position, module in enumerate(modules):
        names, env_ids = set(task_names(include_aliases=False)), set(gym.registry)
        importlib.import_module(f"{catalogue.__name__}.{module}")
        if early := [name for name in modules[position + 1:] if f"{catalogue.__name__}.{name}" in sys.modules]:
            raise RuntimeError(f"importing {module} imported {', '.join(early)}, which its top-level imports do not "
                               "name: its registrations could not be told apart")
        tasks.update(dict.fromkeys(set(task_names(include_aliases=False)) - names, module))
        envs.update({env_id: {"entry_point": spec.entry_point, "kwargs": spec.kwargs,
                              "max_episode_steps": spec.max_episode_steps}
                     for env_id, spec in gym.registry.items() if env_id not in env_ids})
    aliases = {name: get_task(name).name for name in set(task_names()) - set(task_names(include_aliases=False))}
    return {"tasks": tasks, "aliases": aliases, "envs": envs}


def main(argv: list[str] | None = None) -> int:
    """Rewrite ``index.json`` (or with ``--check`` only compare it); the exit status."""
    return index_files.main(argv, __doc__.split("\n\n")[0], catalogue.INDEX_FILE, build_index,
                            f"{catalogue.__name__}.index")


if __name__ == "__main__":
    sys.exit(main())
