"""Device configurations through the env: drawn per episode, applied before the task, every oracle still solves."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import android_gym
from android_gym.agents import OracleAgent
from android_gym.device.config import CONFIG_DISTRIBUTIONS, DeviceConfig
from android_gym.errors import ConfigError
from android_gym.testing import replay_oracle_ids, run_episode
from android_gym.wrappers import make_rl_env

#: Tasks of eleven apps, each solved by its oracle under a combined configuration of each split; the last two draw
#: the small phone with large text, where a dialog with a text field must fit above the keyboard (the sweep of
#: issue #28).
_SPREAD = ("SendSms", "MarkorCreateNote", "ExpenseDeleteSingle", "SimpleCalendarAddOneEvent", "ContactsAddContact",
           "SystemBluetoothTurnOn", "TasksAddTask", "ClockStopWatchRunning", "RetroCreatePlaylist",
           "TextSenderJoinsEvent", "MarkorCreateNoteAndSms", "SimpleDrawProCreateDrawing")


@pytest.mark.parametrize("split", ["train", "heldout"])
@pytest.mark.parametrize("task", _SPREAD)
def test_oracles_solve_tasks_under_sampled_configurations(task, split):
    env = gym.make(android_gym.env_id(task), device="sim:270x600", pixels=False, device_config=split)
    try:
        seed = sum(map(ord, task + split)) % 1000  # a different configuration per task and split
        result = run_episode(env, OracleAgent(), seed=seed)
        config = result.info["device_config"]
        assert result.score == 1.0 and not result.invalid_actions, (config, result.invalid_actions)
        assert DeviceConfig(**config) == CONFIG_DISTRIBUTIONS[split].sample(_rng_after_params(env, seed))
    finally:
        env.close()


def _rng_after_params(env: gym.Env, seed: int) -> np.random.Generator:
    """The env's generator as it is when the configuration is drawn: seeded, then the task's parameters drawn."""
    rng = gym.utils.seeding.np_random(seed)[0]
    env.unwrapped.task_class.generate_params(rng)
    return rng


def test_a_seed_draws_the_same_task_under_every_distribution_and_the_same_configuration_each_time():
    plain = gym.make("AndroidWorld/SendSms-v0", device="sim:270x600", pixels=False)
    drawn = gym.make("AndroidWorld/SendSms-v0", device="sim:270x600", pixels=False, device_config="train")
    try:
        _, first = drawn.reset(seed=5)
        _, again = drawn.reset(seed=5)
        _, baseline = plain.reset(seed=5)
        assert first["params"] == baseline["params"] == again["params"]
        assert first["device_config"] == again["device_config"] and baseline["device_config"] is None
        configs = {drawn.reset(seed=seed)[1]["device_config"]["phone"] for seed in range(12)}
        assert len(configs) > 1  # the phone varies from episode to episode
    finally:
        plain.close()
        drawn.close()


def test_a_reset_option_overrides_the_env_configuration_and_the_pixels_keep_their_shape():
    env = gym.make("AndroidWorld/SendSms-v0", device="sim:270x600", device_config={"dark_theme": True})
    try:
        observation, info = env.reset(seed=0)
        assert observation["pixels"].shape == (600, 270, 3) and info["device_config"]["dark_theme"] is True
        tablet = DeviceConfig(phone="pixel_tablet", language="fr-FR")
        observation, info = env.reset(seed=0, options={"device_config": tablet})
        assert info["device_config"] == tablet.as_dict() and info["screen_size"] == (400, 640)
        assert observation["pixels"].shape == (600, 270, 3)  # the tablet's 400x640 screen, scaled to the space
        assert env.observation_space.contains(observation)
        assert env.unwrapped.device.shell("getprop persist.sys.locale").output == "fr-FR\n"
        # The next episode without the option is back to the env's configuration.
        _, info = env.reset(seed=0)
        assert info["device_config"] == DeviceConfig(dark_theme=True).as_dict() and info["screen_size"] == (270, 600)
    finally:
        env.close()


@pytest.mark.filterwarnings("ignore:.*share an object")  # gym.make's checker on share_pixels: meant
def test_a_screen_scaled_to_the_space_is_scaled_once_while_it_does_not_change():
    env = gym.make("AndroidWorld/SendSms-v0", device="sim:270x600", device_config=DeviceConfig(phone="pixel_tablet"),
                   share_pixels=True)
    try:
        observation, _ = env.reset(seed=0)
        unchanged, *_ = env.step({"action_type": "fly"})  # an invalid action: nothing happens
        assert unchanged["pixels"] is observation["pixels"] and not observation["pixels"].flags.writeable
        changed, *_ = env.step({"action_type": "open_app", "app_name": "Clock"})
        assert changed["pixels"].shape == (600, 270, 3) and not np.array_equal(changed["pixels"], observation["pixels"])
    finally:
        env.close()


def test_a_bad_configuration_is_refused_before_the_episode_is_touched():
    with pytest.raises(ConfigError, match="not a distribution"):
        gym.make("AndroidWorld/SendSms-v0", device="sim:270x600", device_config="validation")
    env = gym.make("AndroidWorld/SendSms-v0", device="sim:270x600", pixels=False)
    try:
        env.reset(seed=0)
        task = env.unwrapped.task
        with pytest.raises(ConfigError, match="font_scale"):
            env.reset(seed=1, options={"device_config": {"font_scale": 3}})
        assert env.unwrapped.task is task  # the episode in progress was left alone
    finally:
        env.close()


@pytest.mark.parametrize("task", _SPREAD[:5])
def test_the_rl_view_replays_oracles_on_phones_of_every_size(task):
    """The RL view reads each episode's screen size: an oracle's taps keep their ids on every phone."""
    env = make_rl_env(android_gym.env_id(task), device="sim:270x600", device_config="heldout")
    try:
        for seed in range(3):
            result, stopped = replay_oracle_ids(env, seed=seed)
            assert stopped is None and result.score == 1.0, (result.info["device_config"], stopped)
    finally:
        env.close()
