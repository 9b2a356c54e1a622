"""Tasks over the adb path: the env drives Debian's adb server, which drives the simulated phone's adbd."""

from __future__ import annotations

import contextlib

import gymnasium as gym
import numpy as np
import pytest

import android_gym
from android_gym.agents import OracleAgent
from android_gym.sim.adb_harness import free_port
from android_gym.sim.grpc_server import SimGrpcServer
from android_gym.testing import check_task


def _one_task_per_app() -> list[str]:
    """The first task of each catalogue module, and of each app whose rows declarative specs hold: every way a
    task sets up and reads its app's state crosses the adb path at least once (tests/test_env.py checks every
    task in process)."""
    chosen: dict[str, str] = {}
    for name in android_gym.task_names(include_aliases=False):
        task = android_gym.get_task(name)
        kind = getattr(task, "kind", None)
        chosen.setdefault(task.__module__ + (f":{kind.state_field}" if kind else ""), name)
    return sorted(chosen.values())


@pytest.mark.parametrize("task", _one_task_per_app())
def test_task_passes_the_task_checks_over_adb(task, fresh_served_phone):
    # The served phone has settled when an input returns: waiting for still dumps (50 ms a poll, a real device's
    # budget) would only add time here; the episode test below and tests/device/ cover the default waiting.
    # One oracle episode: a second parameter draw takes the same adb path (setup, input, the check's reads);
    # every task's oracle solves seeds 0 and 1 in process (tests/wrappers/test_rl_catalogue.py, test_every_task.py).
    check_task(task, seeds=(0,), device=f"adb:{fresh_served_phone.serial}?stabilize=off", pixels=False)


@pytest.mark.parametrize("path", ["waiting", "stabilize=off", "stabilize=off&grpc"])
def test_adb_and_in_process_envs_observe_the_same_episode(fresh_served_phone, path):
    """The oracle's actions, applied to both backends in lockstep, give identical observations and rewards: over
    adb with the default waiting for still dumps, without it (the dump and the task's digests then come in the
    input's own command line), and with touches and screenshots (through shared memory) over gRPC."""
    with contextlib.ExitStack() as stack:
        query = "" if path == "waiting" else "?stabilize=off"
        if path.endswith("grpc"):
            grpc_server = stack.enter_context(SimGrpcServer(fresh_served_phone.phone_host, port=free_port()))
            query += f"&grpc=127.0.0.1:{grpc_server.port}"
        _observe_the_same_episode(f"adb:{fresh_served_phone.serial}{query}")


def _observe_the_same_episode(device: str) -> None:
    """Two episodes: the second's first step follows a reset's shell commands (what it brings along changes)."""
    local, remote = (gym.make("AndroidWorld/SimpleSmsReply-v0", device=spec) for spec in ("sim", device))
    try:
        for seed in (3, 4):
            (obs_local, info), (obs_remote, _) = local.reset(seed=seed), remote.reset(seed=seed)
            agent = OracleAgent()
            agent.reset(local)
            done = False
            while not done:
                assert np.array_equal(obs_local["pixels"], obs_remote["pixels"])
                assert obs_local["a11y_tree"] == obs_remote["a11y_tree"]
                action = agent.act(obs_local, info)
                obs_local, reward_local, done, _, info = local.step(action)
                obs_remote, reward_remote, done_remote, _, info_remote = remote.step(action)
                assert (reward_local, done) == (reward_remote, done_remote)
            assert info["score"] == info_remote["score"] == 1.0
    finally:
        local.close()
        remote.close()


def test_text_the_device_keyboard_cannot_type_is_an_invalid_action(fresh_served_phone):
    env = gym.make("AndroidWorld/SendSms-v0", device=f"adb:{fresh_served_phone.serial}", pixels=False)
    try:
        env.reset(seed=0)
        _, reward, terminated, truncated, info = env.step('{"action_type": "input_text", "text": "café"}')
        assert "no key for some of these characters" in info["invalid_action"]
        assert (reward, terminated, truncated) == (0.0, False, False)
        assert "backend_error" not in info or info["backend_error"] is None
    finally:
        env.close()


def test_a_reset_over_adb_stops_the_apps_an_episode_showed_and_puts_its_settings_back(fresh_served_phone):
    """What adb reaches of a rewind (``AdbDevice.rewind``): the app the episode opened is stopped, the settings it
    changed get their values back, but for a setting a device configuration sets (the env's to apply)."""
    env = gym.make("AndroidWorld/SystemWifiTurnOn-v0", device=f"adb:{fresh_served_phone.serial}?stabilize=off",
                   pixels=False)
    try:
        env.reset(seed=0)
        phone = fresh_served_phone.phone
        brightness, font_scale = phone.settings.get("system", "screen_brightness"), "1.15"
        env.step('{"action_type": "open_app", "app_name": "Contacts"}')
        phone.settings.put("system", "screen_brightness", "7")  # as the shade's slider would
        phone.settings.put("system", "font_scale", font_scale)
        assert "com.google.android.contacts" in phone.activities.running()
        env.reset(seed=0)
        assert "com.google.android.contacts" not in phone.activities.running()
        assert phone.settings.get("system", "screen_brightness") == brightness
        assert phone.settings.get("system", "font_scale") == font_scale
    finally:
        env.close()
