"""Task framework: the Task base class, oracles, parameter generators, validators and the registry."""

from android_gym.tasks.base import Task
from android_gym.tasks.compose import CompositeTask, compose
from android_gym.tasks.registry import get_task, register_task, task_names
from android_gym.tasks.subgoals import Subgoal, SubgoalTask

__all__ = ["CompositeTask", "Subgoal", "SubgoalTask", "Task", "compose", "get_task", "register_task", "task_names"]
