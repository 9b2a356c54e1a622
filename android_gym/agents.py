"""Built-in policies: the task's oracle, a uniformly random policy and a random policy over the valid actions on
screen (``android-gym run``/``eval``), and on the RL view (``make_rl_env``) a masked random policy and a
stable-baselines3 model; ``load_agent`` makes any of them, or a user's agent, from its command-line name."""

from __future__ import annotations

import copy
import importlib
import inspect
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import gymnasium as gym
import numpy as np

from android_gym.actions import DIRECTIONS, Action, ActionType
from android_gym.errors import AgentSpecError
from android_gym.tasks.oracle import OraclePolicy, dismiss_distractor
from android_gym.ui import UIElement


class Agent(Protocol):
    """Chooses an action from the latest observation and info.

    An agent may also have ``explain() -> Mapping[str, Any]``, saying what its last ``act`` came from:
    ``"reasoning"`` (its text, shown in the eval report) and ``"prompt_tokens"``/``"completion_tokens"`` (counts,
    summed per episode by ``eval``). ``run_episode`` passes it to the recorder (``RecordTrajectory.annotate``).
    """

    def reset(self, env: gym.Env) -> None:
        """Prepare for a new episode of ``env`` (already reset)."""

    def act(self, observation: dict[str, Any], info: dict[str, Any]) -> Any:
        """The next action."""


def explain(agent: Agent) -> dict[str, Any]:
    """What ``agent`` says about its last action (its ``explain()``; empty for an agent without one)."""
    method = getattr(agent, "explain", None)
    return dict(method() or {}) if callable(method) else {}


class OracleAgent:
    """Replays the current task's oracle (``Task.oracle()``), one step per env step; a distractor in the way (a
    permission prompt, a low-battery warning: ``wrappers.Distractors``) is dismissed first."""

    def __init__(self) -> None:
        self._policy: OraclePolicy | None = None

    def reset(self, env: gym.Env) -> None:
        """Take the oracle of the task just initialized."""
        self._policy = OraclePolicy(env.unwrapped.task.oracle())

    def act(self, observation: dict[str, Any], info: dict[str, Any]) -> Any:
        """The oracle's next action for the elements on screen, or a tap that dismisses a distractor."""
        assert self._policy is not None, "reset() first"
        return dismiss_distractor(info["ui_elements"]) or self._policy.act(info["ui_elements"])


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


def episode_rng(env: gym.Env, seed: int | None) -> np.random.Generator:
    """A generator for one episode of a seeded agent: drawn from ``seed`` and a copy of the env's generator just
    after reset (the env's own stream is not touched), so the same episode seed gives the same actions whichever
    process plays it, and consecutive unseeded resets differ. ``seed=None``: not reproducible."""
    if seed is None:
        return np.random.default_rng()
    episode = int(copy.deepcopy(env.unwrapped.np_random).integers(2**63))
    return np.random.default_rng([seed, episode])


class RandomValidAgent:
    """Uniform among the valid actions on screen: a tap on each clickable or checkable element, a long press on
    each long-clickable one, typing a word of the goal into each text field, a scroll each way on each scrollable
    one, back, home, and opening each of the task's apps. Elements that are disabled or off screen are left out.
    Seeded per episode (``episode_rng``)."""

    def __init__(self, seed: int | None = None) -> None:
        self._seed = seed
        self._rng: np.random.Generator | None = None
        self._apps: tuple[str, ...] = ()
        self._screen: tuple[int, int] = (0, 0)

    def reset(self, env: gym.Env) -> None:
        """Draw this episode's generator; note the task's apps and the screen size."""
        self._rng = episode_rng(env, self._seed)
        self._apps = tuple(env.unwrapped.task_class.app_packages)
        self._screen = env.unwrapped.device.screen_size

    def act(self, observation: dict[str, Any], info: dict[str, Any]) -> Action:
        """A uniformly random valid action."""
        assert self._rng is not None, "reset() first"
        choices = valid_actions(info["ui_elements"], self._apps, self._screen)
        kind, index, detail = choices[int(self._rng.integers(len(choices)))]
        if kind is ActionType.INPUT_TEXT:
            words = str(observation.get("goal", "")).split() or ["text"]
            return Action(kind, index=index, text=words[int(self._rng.integers(len(words)))])
        if kind is ActionType.SCROLL:
            return Action(kind, index=index, direction=detail)
        if kind is ActionType.OPEN_APP:
            return Action(kind, app_name=detail)
        return Action(kind, index=index)


def valid_actions(elements: Sequence[UIElement], apps: Sequence[str],
                  screen_size: tuple[int, int]) -> list[tuple[ActionType, int | None, str | None]]:
    """``RandomValidAgent``'s choices as ``(type, element index, direction or app)``."""
    width, height = screen_size
    choices: list[tuple[ActionType, int | None, str | None]] = []
    for element in elements:
        x, y = element.bbox_pixels.center
        if not element.is_enabled or element.bbox_pixels.area == 0 or not (0 <= x < width and 0 <= y < height):
            continue
        if element.is_clickable or element.is_checkable:
            choices.append((ActionType.CLICK, element.index, None))
        if element.is_long_clickable:
            choices.append((ActionType.LONG_PRESS, element.index, None))
        if element.is_editable:
            choices.append((ActionType.INPUT_TEXT, element.index, None))
        if element.is_scrollable:
            choices += [(ActionType.SCROLL, element.index, direction) for direction in DIRECTIONS]
    choices += [(ActionType.NAVIGATE_BACK, None, None), (ActionType.NAVIGATE_HOME, None, None)]
    return choices + [(ActionType.OPEN_APP, None, package) for package in apps]


#: The agents ``--agent`` names, each made from the run's seed.
BUILTIN_AGENTS: dict[str, Callable[[int | None], Agent]] = {
    "oracle": lambda seed: OracleAgent(),
    "random": RandomAgent,
    "random-valid": RandomValidAgent,
}


def load_agent(spec: str, seed: int | None = None) -> Agent:
    """The agent ``spec`` names: a built-in one (``BUILTIN_AGENTS``, seeded with ``seed``) or ``module:callable``,
    a callable of an importable module (``pkg.mod:make_agent``, ``pkg.mod:MyAgent``, ``pkg.mod:Class.factory``)
    that takes no argument and returns an ``Agent``. ``AgentSpecError`` says what to fix otherwise."""
    if spec in BUILTIN_AGENTS:
        return BUILTIN_AGENTS[spec](seed)
    factory = agent_factory(spec)
    agent = factory()
    missing = [name for name in ("reset", "act") if not callable(getattr(agent, name, None))]
    if missing:
        raise AgentSpecError(f"--agent {spec}: {spec}() returned a {type(agent).__name__}, which has no "
                             f"{' and no '.join(f'{name}()' for name in missing)}; an agent needs reset(env) and "
                             "act(observation, info) (android_gym.agents.Agent)")
    return agent


def agent_factory(spec: str) -> Callable[[], Agent]:
    """The callable ``module:callable`` names, checked to be importable and callable with no argument."""
    builtins = ", ".join(BUILTIN_AGENTS)
    module_name, colon, path = spec.partition(":")
    if not colon or not module_name or not path:
        raise AgentSpecError(f"--agent {spec!r}: not a built-in agent ({builtins}) nor module:callable, e.g. "
                             "my_agents:make_agent")
    try:
        target: Any = importlib.import_module(module_name)
    except ImportError as error:
        raise AgentSpecError(f"--agent {spec}: cannot import module {module_name!r} ({error}); install it or put "
                             "its folder on PYTHONPATH") from error
    where = f"module {module_name} ({getattr(target, '__file__', None) or 'built in'})"
    for part in path.split("."):
        if not hasattr(target, part):
            raise AgentSpecError(f"--agent {spec}: {where} has no attribute {part!r}")
        target, where = getattr(target, part), part
    if not callable(target):
        raise AgentSpecError(f"--agent {spec}: {path} is a {type(target).__name__}, not a callable that returns "
                             "an agent")
    try:
        inspect.signature(target).bind()
    except TypeError as error:
        raise AgentSpecError(f"--agent {spec}: {path} must be callable with no argument ({error}); wrap it in a "
                             "function that builds the agent") from None
    except ValueError:  # no signature to read (some builtins): try calling it
        pass
    return target
