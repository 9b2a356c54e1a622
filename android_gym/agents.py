"""Built-in policies for ``android-gym run``: the task's oracle and a uniformly random policy."""

from __future__ import annotations

from typing import Any, Protocol

import gymnasium as gym

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


AGENTS = {"oracle": OracleAgent, "random": RandomAgent}
