"""android_gym: Gymnasium environments for Android app tasks, on a simulated phone or a real device.

Importing the package registers every task as ``AndroidWorld/<TaskName>-v0``::

    import gymnasium as gym, android_gym
    env = gym.make("AndroidWorld/SendSms-v0")
"""

from __future__ import annotations

import gymnasium as gym

from android_gym.actions import Action, ActionType
from android_gym.env import AndroidEnv
from android_gym.errors import AndroidGymError
from android_gym.tasks import Task, get_task, register_task, task_names

__all__ = ["Action", "ActionType", "AndroidEnv", "AndroidGymError", "Task", "get_task", "register_task",
           "task_names", "env_id"]
__version__ = "0.1.0"

NAMESPACE = "AndroidWorld"


def env_id(task_name: str) -> str:
    """The Gymnasium id of a task: ``AndroidWorld/<TaskName>-v0``."""
    return f"{NAMESPACE}/{task_name}-v0"


def _register_all() -> None:
    for name in task_names():
        if env_id(name) not in gym.registry:
            gym.register(id=env_id(name), entry_point="android_gym.env:AndroidEnv", kwargs={"task": name},
                         max_episode_steps=get_task(name).max_steps())


_register_all()
