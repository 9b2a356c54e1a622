"""Several tasks behind one RL view."""

from __future__ import annotations

import numpy as np
import pytest

from android_gym.errors import ConfigError
from android_gym.wrappers.rl_actions import AdapterConfigError
from android_gym.wrappers.rl_multitask import MultiTaskRLEnv

TASKS = ["AndroidWorld/SendSms-v0", "AndroidWorld/ClockStopWatchRunning-v0", "AndroidWorld/SystemWifiTurnOff-v0"]


@pytest.fixture
def env():
    env = MultiTaskRLEnv(TASKS)
    yield env
    env.close()


def test_episodes_draw_every_task_from_the_seed(env):
    drawn = [env.reset(seed=seed)[1]["task"] for seed in range(12)]
    assert set(drawn) == set(TASKS)
    again = [env.reset(seed=seed)[1]["task"] for seed in range(12)]
    assert drawn == again


def test_a_task_can_be_chosen_and_its_goal_and_mask_are_its_own(env):
    observation, info = env.reset(seed=3, options={"task": "ClockStopWatchRunning"})
    assert info["task"] == TASKS[1] and "stopwatch" in env.current.unwrapped.task.goal.lower()
    assert env.observation_space.contains(observation)
    mask = env.action_masks()
    assert (mask == info["action_mask"]).all()
    _, _, _, _, step_info = env.step(int(np.flatnonzero(mask)[0]))
    assert step_info["task"] == TASKS[1]


def test_unknown_task_and_empty_list_are_configuration_errors(env):
    with pytest.raises(AdapterConfigError, match="not one of"):
        env.reset(options={"task": "NoSuchTask"})
    with pytest.raises(AdapterConfigError):
        MultiTaskRLEnv([])


@pytest.mark.parametrize("options", ["x", ["task"], 3])
def test_options_that_are_not_a_dict_are_a_configuration_error(env, options):
    with pytest.raises(ConfigError, match=r"options are None or a dict, such as \{'task': 'SendSms'\}"):
        env.reset(options=options)
    assert env.reset(seed=0, options={"task": "SendSms"})[1]["task"] == TASKS[0]  # and the env still works


def test_sb3_accepts_it(env):
    import warnings

    from stable_baselines3.common.env_checker import check_env

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env, skip_render_check=True)
