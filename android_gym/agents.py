"""Built-in policies: the task's oracle and a uniformly random policy (``android-gym run``), and on the RL view
(``make_rl_env``) a masked random policy and a stable-baselines3 model."""

from __future__ import annotations

from typing import Any, Protocol

import gymnasium as gym
import numpy as np

from android_gym.tasks.oracle import OraclePolicy


class Agent(Protocol):
    """Chooses an action from the latest observation and info."""

    def reset(self, env: gym.Env) -> None:
        """Prepare for a new episode of ``env`` (already reset)."""

    def act(self, observation: dict[str, Any], info: dict[str, Any]) -> Any:
        """The next action."""


class OracleAgent:
    """Replays the current task's oracle (``Task.oracle()``), one step per env step."""

    def __init__(self) -> None:
        self._policy: OraclePolicy | None = None

    def reset(self, env: gym.Env) -> None:
        """Take the oracle of the task just initialized."""
        self._policy = OraclePolicy(env.unwrapped.task.oracle())

    def act(self, observation: dict[str, Any], info: dict[str, Any]) -> Any:
        """The oracle's next action for the elements on screen."""
        assert self._policy is not None, "reset() first"
        return self._policy.act(info["ui_elements"])


class RandomAgent:
    """Samples the env's action space (seeded)."""

    def __init__(self, seed: int | None = None) -> None:
        self._seed = seed
        self._space: gym.Space | None = None

    def reset(self, env: gym.Env) -> None:
        """Seed the action space once."""
        if self._space is None:
            self._space = env.action_space
            self._space.seed(self._seed)

    def act(self, observation: dict[str, Any], info: dict[str, Any]) -> Any:
        """A uniformly random action."""
        assert self._space is not None, "reset() first"
        return self._space.sample()


class MaskedRandomAgent:
    """Uniform among the action ids ``ElementActions.action_masks()`` allows (on ``make_rl_env``'s stack; seeded)."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = np.random.default_rng(seed)
        self._masks: Any = None

    def reset(self, env: gym.Env) -> None:
        """Find the env's action mask."""
        self._masks = env.get_wrapper_attr("action_masks")

    def act(self, observation: dict[str, Any], info: dict[str, Any]) -> int:
        """A random allowed action id."""
        assert self._masks is not None, "reset() first"
        return int(self._rng.choice(np.flatnonzero(self._masks())))


class ModelAgent:
    """A stable-baselines3 model (PPO, MaskablePPO, ...) on ``make_rl_env``'s stack: its most likely action
    (``deterministic``) or a sample, among the allowed ids of the action mask for MaskablePPO."""

    def __init__(self, model: Any, deterministic: bool = True) -> None:
        from sb3_contrib import MaskablePPO

        self.model, self.deterministic = model, deterministic
        self._maskable = isinstance(model, MaskablePPO)
        self._masks: Any = None

    def reset(self, env: gym.Env) -> None:
        """Find the env's action mask (used for MaskablePPO)."""
        self._masks = env.get_wrapper_attr("action_masks") if self._maskable else None

    def act(self, observation: dict[str, Any], info: dict[str, Any]) -> int:
        """The model's action for ``observation``."""
        kwargs = {"action_masks": self._masks()} if self._masks is not None else {}
        action, _ = self.model.predict(observation, deterministic=self.deterministic, **kwargs)
        return int(action)


AGENTS = {"oracle": OracleAgent, "random": RandomAgent}
