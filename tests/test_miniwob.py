"""MiniWoB/<task>-v0: MiniWoB++'s pages in the phone's Chrome, seeded by MiniWoB's seed, scored by MiniWoB's own
reward line. One simulated phone (one Chromium) serves the module's envs."""

from __future__ import annotations

import gymnasium as gym
import pytest

import android_gym.envs  # noqa: F401  (registers the MiniWoB ids)
from android_gym.actions import Action, ActionType
from android_gym.device import open_device
from android_gym.envs import miniwob
from android_gym.envs.miniwob_oracles import ORACLES
from android_gym.errors import AndroidGymError
from android_gym.tasks.oracle import OraclePolicy


@pytest.fixture(scope="module")
def device():
    device = open_device("sim")
    yield device
    device.close()


def test_every_androidworld_miniwob_task_has_an_env_and_at_least_15_have_oracles():
    assert len(miniwob.TASKS) == 92
    assert all(miniwob.env_id(task) in gym.registry for task in miniwob.TASKS)
    assert miniwob.MINIWOB_TASKS["click-button"].name == "MiniWobClickButton"
    assert len(ORACLES) >= 15 and set(ORACLES) <= set(miniwob.TASKS)


def test_the_page_gets_miniwobs_seed_and_the_start_hook():
    html = '<html><head><script src="../core/core.js"></script></head><body></body></html>'
    page = miniwob.seeded_page(html, 7)
    assert page.index("core.js") < page.index("Math.seedrandom('7')") < page.index("core.startEpisodeReal")
    assert '<meta name="viewport" content="width=160">' in page


def test_the_reward_is_the_raw_reward_of_the_last_console_line():
    line = 'I chromium: [INFO:CONSOLE(132)] "reward: {} (raw: {})", source: file:///core.js (132)\n'
    assert miniwob.last_reward("") is None
    assert miniwob.last_reward(line.format("0.8", "1")) == 1.0
    assert miniwob.last_reward(line.format("0.8", "1") + line.format("-1", "-1")) == -1.0
    assert miniwob.last_reward(line.format("0.3", "0.42")) == 0.42


def play(env, seed: int) -> float:
    obs, info = env.reset(seed=seed)
    policy, total = OraclePolicy(env.unwrapped.task.oracle()), 0.0
    for _ in range(10):
        obs, reward, terminated, truncated, info = env.step(policy.act(info["ui_elements"]))
        total += reward
        if terminated or truncated:
            break
    return total


@pytest.mark.parametrize("task", ["click-button", "enter-text", "click-checkboxes"])
def test_oracles_score_one_doing_nothing_scores_zero_and_the_seed_fixes_the_problem(device, task):
    env = gym.make(miniwob.env_id(task), device=device)
    try:
        assert play(env, 0) == 1.0
        obs, info = env.reset(seed=3)
        goal = obs["goal"]
        assert goal.startswith("Follow the instructions shown on the top of the screen: ")
        assert env.step(Action(ActionType.WAIT))[1] == 0.0
        assert env.reset(seed=3)[0]["goal"] == goal
    finally:
        env.close()


def test_a_task_the_miniwob_package_lacks_raises_a_clear_error(device):
    env = gym.make(miniwob.env_id("drag-item"), device=device)
    try:
        with pytest.raises(AndroidGymError, match="no page drag-item.html"):
            env.reset(seed=0)
    finally:
        env.close()
