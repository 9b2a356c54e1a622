"""Every wrapper on every registered task: the agent-facing stack keeps each task solvable and its outputs valid.
This is also where every task's oracle is replayed on a drawn screen at seed 1 (``tests/test_env.py``'s task
checks leave it here): the stack draws the pixels at 270×600, and Set-of-Mark, which reads only the screen (its
elements and pixels), marks the episodes of one task per app and per catalogue module (``MARKED``); the RL
adapters' spaces and masks on every task's screens are checked with the RL view's replay of the task at seed 0
(``test_rl_catalogue.py``)."""

from __future__ import annotations

import gymnasium as gym
import pytest
from representative_tasks import one_task_per_app_and_module

import android_gym
from android_gym.agents import OracleAgent
from android_gym.envs.constrained import CONSTRAINED_VARIANTS
from android_gym.testing import assert_oracle_solved, run_episode
from android_gym.wrappers import (
    ApplyConstraints,
    CompressUITree,
    ForbiddenApp,
    ParseLLMActions,
    SetOfMark,
    VisitCountHints,
)
from android_gym.wrappers.dialects import AndroidArenaDialect, AndroidWorldJSON, AppAgentDialect

TASKS = android_gym.task_names(include_aliases=False) + sorted(CONSTRAINED_VARIANTS)
JSON = AndroidWorldJSON()
DIALECTS = (JSON, AndroidArenaDialect(), AppAgentDialect())
#: Apps to forbid, the first one a task does not use: forbidding it must change nothing but the goal.
FORBIDDEN_CANDIDATES = (ForbiddenApp("com.android.chrome", "Chrome"), ForbiddenApp("com.android.camera2", "Camera"))


#: The tasks whose stack draws Set-of-Mark on the pixels.
MARKED = one_task_per_app_and_module()


def unused_app(task: str) -> ForbiddenApp:
    """The first candidate app that ``task`` does not use."""
    base = CONSTRAINED_VARIANTS[task].task if task in CONSTRAINED_VARIANTS else task
    used = set(android_gym.get_task(base).app_packages)
    return next(app for app in FORBIDDEN_CANDIDATES if app.package not in used)


class _Checked(gym.Wrapper):
    """Asserts, at every reset and step, what the stack below promises (``forbidden``: the app's label)."""

    def __init__(self, env: gym.Env, forbidden: str, marked: bool) -> None:
        super().__init__(env)
        self.forbidden, self.marked = forbidden, marked

    def reset(self, **kwargs):
        observation, info = self.env.reset(**kwargs)
        self._check(observation, info)
        return observation, info

    def step(self, action):
        observation, reward, terminated, truncated, info = self.env.step(action)
        self._check(observation, info)
        return observation, reward, terminated, truncated, info

    def _check(self, observation, info):
        assert self.observation_space.contains(observation)
        elements = info["ui_elements"]
        kept = {element.index for element in info["ui_nodes"].values()}
        actionable = {element.index for element in elements if element.is_actionable and element.bbox_pixels.area
                      and element.package_name != "com.android.systemui"}
        if all(element.package_name == "com.android.systemui" for element in elements if element.depth == 0):
            actionable = {element.index for element in elements if element.is_actionable
                          and element.bbox_pixels.area}
        assert actionable <= kept, f"compression lost actionable elements {sorted(actionable - kept)}"
        assert set(info["som_marks"]) <= set(range(len(elements))) if self.marked else "som_marks" not in info
        assert observation["exploration_hint"].startswith("You have already been in the current state")
        assert info["constraint_violations"] == []
        assert observation["goal"].endswith(f"Do not open the {self.forbidden} app.")


def _agent_stack(task: str) -> gym.Env:
    marked = task in MARKED
    env = gym.make(android_gym.env_id(task), device="sim:270x600")  # natively small: cheap pixels
    forbidden = unused_app(task)
    env = CompressUITree(ApplyConstraints(env, [forbidden]))
    if marked:
        env = SetOfMark(env)
    env = VisitCountHints(env, per_candidate=True)
    return ParseLLMActions(_Checked(env, forbidden.app_name, marked), dialect="androidworld")


class JsonOracle:
    """The oracle replying in AndroidWorld JSON; at every step it also checks that each dialect's ``parse`` reads
    back exactly the oracle action from that dialect's ``format`` of it (when the dialect can write it)."""

    def __init__(self, env: ParseLLMActions) -> None:
        self.env, self.oracle = env, OracleAgent()

    def reset(self, env):
        self.oracle.reset(env)

    def act(self, observation, info):
        action, screen = self.oracle.act(observation, info), self.env.screen
        for dialect in DIALECTS:
            written = dialect.format(action, screen)
            assert written is not None or dialect is not JSON, action  # JSON writes every action
            assert written is None or dialect.parse(written, screen) == action, (dialect.name, written)
        return f"Reason: the oracle's step.\nAction: {JSON.format(action, screen)}"


@pytest.mark.parametrize("task", TASKS)
def test_the_llm_agent_stack_keeps_every_task_solvable(task):
    """Compression, hints, constraints (Set-of-Mark on the ``MARKED`` tasks) and the JSON dialect over the
    oracle's own JSON text, at seed 1: the oracle solves the task (score 1.0, rewards summing to 1, no invalid
    action); every oracle action round-trips through every dialect that can write it."""
    env = _agent_stack(task)
    try:
        result = run_episode(env, JsonOracle(env), seed=1)
        assert_oracle_solved(env, 1, result)
        assert result.info["invalid_format_count"] == 0
    finally:
        env.close()
