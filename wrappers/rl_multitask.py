"""Several tasks behind one RL view: each episode is one of them, drawn with the env's own random generator, so a
single policy learns them all (``examples/train_ppo.py --task A,B,C``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium as gym
import numpy as np

from android_gym.errors import ConfigError, short_repr
from android_gym.wrappers.rl_actions import AdapterConfigError
from android_gym.wrappers.rl_env import make_rl_env


class MultiTaskRLEnv(gym.Env):
    """``make_rl_env`` of each of ``env_ids`` (one simulated phone each, or one ``device`` shared in turn), one
    per episode.

    ## Observation Space and Action Space
    Those of ``make_rl_env`` (the same for every task: the view's sizes do not depend on the task).

    ## Episodes
    ``reset(seed=s)`` seeds the draw; each reset picks a task uniformly (``options={"task": name}`` picks one) and
    resets it with a seed drawn from the same generator. ``info["task"]`` names it. ``action_masks()`` is the
    current task's.
    """

    metadata = {"render_modes": []}

    def __init__(self, env_ids: Sequence[str], device: str | None = None, **view_kwargs: Any) -> None:
        if not env_ids:
            raise AdapterConfigError("MultiTaskRLEnv needs at least one task id")
        self.env_ids = list(env_ids)
        self.envs = [make_rl_env(env_id, device=device, **view_kwargs) for env_id in self.env_ids]
        self.observation_space = self.envs[0].observation_space
        self.action_space = self.envs[0].action_space
        self._current = 0

    @property
    def current(self) -> gym.Env:
        """The env of the episode under way."""
        return self.envs[self._current]

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        """Draw a task (or take ``options["task"]``) and reset it."""
        super().reset(seed=seed)
        if options is not None and not isinstance(options, Mapping):
            raise ConfigError(f"reset(options={short_repr(options)}): options are None or a dict, such as "
                              "{'task': 'SendSms'} to choose the task and {'params': {name: value}} to pin its "
                              "parameters")
        options = dict(options or {})
        task = options.pop("task", None)
        if task is None:
            self._current = int(self.np_random.integers(len(self.envs)))
        else:
            matches = [i for i, env_id in enumerate(self.env_ids) if task in (env_id, env_id.split("/")[-1][:-3])]
            if not matches:
                raise AdapterConfigError(f"task {task!r} is not one of {self.env_ids}")
            self._current = matches[0]
        observation, info = self.current.reset(seed=int(self.np_random.integers(2**31)), options=options or None)
        return observation, {**info, "task": self.env_ids[self._current]}

    def step(self, action: Any):
        """Step the current task."""
        observation, reward, terminated, truncated, info = self.current.step(action)
        return observation, reward, terminated, truncated, {**info, "task": self.env_ids[self._current]}

    def action_masks(self) -> np.ndarray:
        """The current task's action mask."""
        return self.current.get_wrapper_attr("action_masks")()

    def close(self) -> None:
        """Close every task's env."""
        for env in self.envs:
            env.close()
