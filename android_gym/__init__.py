"""android_gym: Gymnasium environments for Android app tasks, on a simulated phone or a real device.

Importing the package registers every task as ``AndroidWorld/<TaskName>-v0``::

    import gymnasium as gym, android_gym
    env = gym.make("AndroidWorld/SendSms-v0")

The tasks' modules (and the simulated phone they use) are imported when a task is first needed.
"""

from __future__ import annotations

import android_gym.envs  # noqa: F401  (registers every task's name and Gymnasium id, importing no task)
from android_gym.actions import Action, ActionType, InvalidAction
from android_gym.env import AndroidEnv
from android_gym.errors import AndroidGymError
from android_gym.tasks import Task, compose, get_task, register_task, task_names
from android_gym.tasks.registry import NAMESPACE, env_id

__all__ = ["Action", "ActionType", "InvalidAction", "AndroidEnv", "AndroidGymError", "Task", "compose", "get_task",
           "register_task", "task_names", "env_id", "NAMESPACE"]
__version__ = "0.1.0"
