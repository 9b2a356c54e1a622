"""``ParseLLMActions``: an LLM's raw reply as the action, read in one of the action dialects."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
from gymnasium import spaces

from android_gym.actions import InvalidAction
from android_gym.errors import AndroidGymError, InvalidActionError
from android_gym.wrappers.dialects import DIALECTS, Dialect, InvalidFormatError, Screen


class ParseLLMActionsError(AndroidGymError):
    """A ``ParseLLMActions`` configuration that cannot work (unknown dialect, an env without a UI tree)."""


class ParseLLMActions(gym.Wrapper, gym.utils.RecordConstructorArgs):
    """Lets ``step`` take an LLM's whole reply and reads the action in it, in one of three dialects.

    ## Description
    An LLM agent loop becomes ``env.step(model(prompt))``: the reply (reasoning, code fences and all) is read by
    the dialect against the screen of the latest observation, the one the model saw. ``wrapper.prompt`` is the
    dialect's action syntax for the prompt; ``wrapper.screen`` the ``Screen`` replies are read against (for
    ``dialect.format`` of few-shot examples). A reply that cannot be read does not raise: the env gets an
    ``InvalidAction`` with the reason, so the step counts, nothing happens on the phone, and
    ``info["invalid_action"]`` says why.

    ## Action Space
    The wrapped env's. ``step`` also takes a ``str``, the model's reply; anything else (an ``Action``, a sample
    of the space) passes through unchanged.

    ## Info
    ``invalid_format``: why the reply could not be read (``None`` when it could, or when the action was not a
    reply); an unknown Arena ID is an invalid action, not a format error, as in AndroidArena.
    ``invalid_format_count``: replies of this episode that could not be read.
    ``invalid_action_count``: steps of this episode whose ``info["invalid_action"]`` is set (unreadable replies
    included).

    ## Arguments
    ``dialect``: ``"androidworld"`` (default, AndroidWorld's JSON actions), ``"androidarena"`` (``#click [id]#``
    on the IDs of ``CompressUITree``'s text) or ``"appagent"`` (``tap(5)`` on Set-of-Mark numbers), or a
    ``Dialect`` instance.
    """

    def __init__(self, env: gym.Env, dialect: str | Dialect = "androidworld") -> None:
        gym.utils.RecordConstructorArgs.__init__(self, dialect=dialect)
        super().__init__(env)
        if not isinstance(dialect, (str, Dialect)):
            raise ParseLLMActionsError(f"dialect must be a name or a Dialect, not {type(dialect).__name__}")
        if isinstance(dialect, str) and dialect not in DIALECTS:
            raise ParseLLMActionsError(f"unknown dialect {dialect!r}; use one of {sorted(DIALECTS)} or a Dialect")
        if not isinstance(env.observation_space, spaces.Dict) or "a11y_tree" not in env.observation_space.spaces:
            raise ParseLLMActionsError("ParseLLMActions needs an android_gym env whose observation has 'a11y_tree'")
        self.dialect: Dialect = DIALECTS[dialect]() if isinstance(dialect, str) else dialect
        self.screen = Screen(elements=[])
        self._format_count = 0
        self._invalid_count = 0

    @property
    def prompt(self) -> str:
        """The dialect's action syntax, to paste into the LLM's prompt."""
        return self.dialect.describe()

    def reset(self, **kwargs: Any):
        """Reset the env and the episode's counters."""
        observation, info = self.env.reset(**kwargs)
        self._format_count = self._invalid_count = 0
        self._observe(observation, info)
        return observation, self._annotate(info, None)

    def step(self, action: Any):
        """Read ``action`` if it is the model's reply, then step the env."""
        reason = None
        if isinstance(action, str):
            try:
                action = self.dialect.parse(action, self.screen)
            except InvalidFormatError as error:
                reason = str(error)
                action = InvalidAction(reason)
            except InvalidActionError as error:
                action = InvalidAction(str(error))
        observation, reward, terminated, truncated, info = self.env.step(action)
        self._format_count += reason is not None
        self._invalid_count += info.get("invalid_action") is not None
        self._observe(observation, info)
        return observation, reward, terminated, truncated, self._annotate(info, reason)

    def _observe(self, observation: dict[str, Any], info: dict[str, Any]) -> None:
        """Remember the screen the next reply will be read against (with the step's compression, when a wrapper
        below already made it)."""
        self.screen = Screen(elements=info.get("ui_elements", []), xml=observation.get("a11y_tree", ""),
                             screen_size=self.env.unwrapped.device.screen_size,
                             compressed=info.get("ui_compressed"))

    def _annotate(self, info: dict[str, Any], reason: str | None) -> dict[str, Any]:
        info["invalid_format"] = reason
        info["invalid_format_count"] = self._format_count
        info["invalid_action_count"] = self._invalid_count
        return info
