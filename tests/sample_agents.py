"""Agents the tests load by name (``--agent sample_agents:...``), as a user's own module would provide them."""

from __future__ import annotations

from typing import Any

from android_gym.actions import Action, ActionType
from android_gym.agents import OracleAgent

#: ``Interrupting`` raises KeyboardInterrupt when asked to start this episode (counted from 0 in each process).
INTERRUPT_AT = 2


class Idle:
    """Waits twice, then declares itself done: a do-nothing policy."""

    def reset(self, env) -> None:
        self.plan = [Action(ActionType.WAIT), Action(ActionType.WAIT),
                     Action(ActionType.STATUS, goal_status="complete")]

    def act(self, observation: dict[str, Any], info: dict[str, Any]) -> Action:
        return self.plan.pop(0)


class Chatty(OracleAgent):
    """The oracle, saying why it acts and how many tokens that took."""

    def __init__(self) -> None:
        super().__init__()
        self.steps = 0

    def act(self, observation: dict[str, Any], info: dict[str, Any]) -> Any:
        self.steps += 1
        return super().act(observation, info)

    def explain(self) -> dict[str, Any]:
        return {"reasoning": f"Step {self.steps}: <the oracle> knows & acts.", "prompt_tokens": 100,
                "completion_tokens": 7}


class Interrupting(OracleAgent):
    """The oracle, until the user presses Ctrl-C as episode ``INTERRUPT_AT`` starts."""

    def __init__(self) -> None:
        super().__init__()
        self.episodes = 0

    def reset(self, env) -> None:
        if self.episodes == INTERRUPT_AT:
            raise KeyboardInterrupt
        self.episodes += 1
        super().reset(env)


class Crashing(OracleAgent):
    """The oracle, whose second action raises (a bug in the agent)."""

    def act(self, observation: dict[str, Any], info: dict[str, Any]) -> Any:
        if self.acted:
            raise RuntimeError("the model's reply was empty")
        self.acted = True
        return super().act(observation, info)

    def reset(self, env) -> None:
        self.acted = False
        super().reset(env)


def make_idle() -> Idle:
    """A factory function, as ``--agent sample_agents:make_idle`` calls it."""
    return Idle()


def needs_a_model(model: str) -> Idle:
    """A factory that cannot be called without an argument."""
    return Idle()


def not_an_agent() -> dict:
    """Returns something without ``reset``/``act``."""
    return {}


NOT_CALLABLE = 42
