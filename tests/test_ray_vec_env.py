"""RayVecEnv: stable-baselines3's VecEnv over Ray actors, compared step by step with DummyVecEnv over the same
RL-view envs, and MaskablePPO training on it (local Ray)."""

from __future__ import annotations

import numpy as np
import pytest
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import DummyVecEnv

import android_gym
from android_gym.distributed import DistributedError
from android_gym.ray_vec_env import RayVecEnv
from android_gym.wrappers import make_rl_env

SEND_SMS = "AndroidWorld/SendSms-v0"
STEPS = 40  # SendSms episodes end within 10 steps: several auto-resets per env


@pytest.fixture
def ray_envs(local_ray):
    """Two sim envs on Ray actors, new for each test: the apps an episode opens keep their screens across a reset
    (Gallery's search left open, Retro Music's tab), so envs that ran an earlier test's episodes would no longer
    step as new local ones do."""
    envs = RayVecEnv(SEND_SMS, devices="sim,sim", cpus_per_worker=0.5)  # 1 of local Ray's 2 CPUs
    yield envs
    envs.close()


def test_steps_match_dummy_vec_env_field_by_field(ray_envs):
    local = DummyVecEnv([lambda: Monitor(make_rl_env(SEND_SMS)) for _ in range(2)])
    rng = np.random.default_rng(0)
    try:
        for envs in (ray_envs, local):
            envs.seed(21)
        observations = ray_envs.reset(), local.reset()
        episodes_ended = 0
        for step in range(STEPS):
            for key in observations[1]:
                assert np.array_equal(observations[0][key], observations[1][key]), f"step {step}: {key}"
            masks = get_action_masks(ray_envs)
            assert np.array_equal(masks, get_action_masks(local))
            actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in masks])
            ray_step, local_step = ray_envs.step(actions), local.step(actions)
            observations = ray_step[0], local_step[0]
            assert np.array_equal(ray_step[1], local_step[1]) and np.array_equal(ray_step[2], local_step[2])
            for ray_info, local_info in zip(ray_step[3], local_step[3]):
                assert "ui_elements" not in ray_info
                assert ray_info.get("episode", {}).get("r") == local_info.get("episode", {}).get("r")
                assert ray_info["score"] == local_info["score"]
                if "terminal_observation" in local_info:
                    episodes_ended += 1
                    assert np.array_equal(ray_info["terminal_observation"]["elements"],
                                          local_info["terminal_observation"]["elements"])
        assert episodes_ended >= 4
        assert ray_envs.get_attr("max_elements") == [64, 64]  # make_rl_env's default
        assert ray_envs.env_is_wrapped(Monitor) == [True, True]
        assert ray_envs.has_attr("action_masks") and not ray_envs.has_attr("no_such_attribute")
    finally:
        local.close()


def test_action_masks_from_the_actors_equal_the_cached_ones(ray_envs):
    ray_envs.reset()
    cached = ray_envs.env_method("action_masks")
    remote = ray_envs._ray.get([actor.call.remote("action_masks", (), {}) for actor in ray_envs.actors])
    assert all(np.array_equal(a, b) for a, b in zip(cached, remote)) and cached[0].any()


def test_maskable_ppo_trains_on_ray_actors(ray_envs):
    model = MaskablePPO("MultiInputPolicy", ray_envs, n_steps=32, batch_size=32, n_epochs=1, seed=0, device="cpu")
    model.learn(total_timesteps=64)
    assert model.num_timesteps == 64
    assert len(model.ep_info_buffer) > 0  # Monitor's episodes came back through the actors


def test_a_place_no_node_offers_is_refused_before_actors_start(local_ray):
    with pytest.raises(DistributedError, match="no-such-farm"):
        RayVecEnv(SEND_SMS, devices="sim@no-such-farm")


def test_actors_without_room_on_the_cluster_are_an_error_not_a_hang(local_ray):
    # 8 CPUs on local Ray's 2: the actor can never start, so however short the wait it runs out
    with pytest.raises(DistributedError, match="did not start within 1 s"):
        RayVecEnv(SEND_SMS, devices="sim", cpus_per_worker=8, start_timeout=1)


def test_train_ppo_runs_its_workers_on_ray(local_ray, load_script, tmp_path):
    train_ppo = load_script("examples/train_ppo.py")
    summary = train_ppo.main(["--task", "OpenAppTaskEval", "--ray", "--devices", "sim,sim", "--cpus-per-worker",
                              "0.25", "--steps", "64",
                              "--n-steps", "32", "--eval-episodes", "2", "--eval-every", "64", "--out", str(tmp_path)])
    assert summary["ray"] and summary["workers"] == 2 and summary["env_steps"] == 64
    assert (tmp_path / "model.zip").is_file()
    with pytest.raises(android_gym.AndroidGymError, match="add --ray"):
        train_ppo.main(["--task", "OpenAppTaskEval", "--devices", "sim,sim", "--out", str(tmp_path)])
