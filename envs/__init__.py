"""The task catalogue: one module per app (``specs`` for ``task_specs/*.textproto``); importing a module registers
its tasks.

Importing the package imports none of them: it registers every task name and Gymnasium id that they register, as
the generated ``index.json`` lists them, and a task's module is imported when the task is first needed
(``get_task``, ``gym.make``). ``python -m android_gym.envs.index`` regenerates the index from the modules."""

from __future__ import annotations

import json
from pathlib import Path

import gymnasium as gym

from android_gym.tasks.registry import set_catalogue

#: The index of the catalogue (written by ``android_gym.envs.index``).
INDEX_FILE = Path(__file__).with_name("index.json")


def _register_index() -> None:
    """Tell the task registry which module registers each task, and register every Gymnasium id."""
    index = json.loads(INDEX_FILE.read_text())
    set_catalogue({name: f"{__name__}.{module}" for name, module in index["tasks"].items()}, index["aliases"])
    for env_id, spec in index["envs"].items():
        if env_id not in gym.registry:  # registered by its module already (a reload of this package)
            gym.register(id=env_id, **spec)


_register_index()
