"""The Distractors wrapper: off unless wrapped, deterministic per seed, undone at reset, and oracles still solve
their tasks through them (a distractor alone never changes a score)."""

from __future__ import annotations

import gymnasium as gym
import pytest

import android_gym
from android_gym.actions import Action, ActionType
from android_gym.agents import OracleAgent
from android_gym.errors import ConfigError
from android_gym.testing import run_episode
from android_gym.wrappers import Distractors

WAIT = Action(ActionType.WAIT)


def _make(task: str, **kwargs) -> gym.Env:
    return Distractors(gym.make(android_gym.env_id(task), device="sim:270x600"), **kwargs)


def _fired(env: gym.Env, seed: int, steps: int) -> tuple[list, list[float]]:
    """What fired at reset and each waiting step, and the scores seen."""
    _, info = env.reset(seed=seed)
    fired, scores = [info["distractor"]], [info["score"]]
    for _ in range(steps):
        *_, info = env.step(WAIT)
        fired.append(info["distractor"])
        scores.append(info["score"])
    return fired, scores


def test_same_seed_same_distractors_and_scores_unchanged():
    env, twin = _make("SendSms", rate=0.5), _make("SendSms", rate=0.5)
    try:
        first, scores = _fired(env, 3, 12)
        assert first == _fired(twin, 3, 12)[0]
        assert {"notification", "low_battery"} <= set(first)
        assert set(scores) == {0.0}  # waiting among distractors scores nothing
        assert first != _fired(env, 4, 12)[0]
    finally:
        env.close()
        twin.close()


def test_off_by_default_and_rate_zero():
    plain = gym.make(android_gym.env_id("SendSms"), device="sim:270x600")
    try:
        _, info = plain.reset(seed=0)
        assert "distractor" not in info
    finally:
        plain.close()
    env = _make("SendSms", rate=0.0)
    try:
        assert set(_fired(env, 0, 5)[0]) == {None}
    finally:
        env.close()


def test_cleanup_at_reset():
    env = _make("SendSms", rate=1.0, kinds=("notification", "low_battery", "permission"))
    try:
        fired, _ = _fired(env, 0, 6)
        assert fired[0] == "permission" and {"notification", "low_battery"} <= set(fired)
        device = env.unwrapped.device
        assert "level: 15" in device.shell("dumpsys battery").output
        env.rate = 0.0
        env.reset(seed=0)
        assert "UPDATES STOPPED" not in device.shell("dumpsys battery").output
        package = device.shell("dumpsys package com.simplemobiletools.smsmessenger").output
        assert "android.permission.POST_NOTIFICATIONS: granted=true" in package
        assert not device.phone.window.notifications.active
    finally:
        env.close()


def test_bad_configuration():
    with pytest.raises(ConfigError, match="rate"):
        _make("SendSms", rate=1.5)
    with pytest.raises(ConfigError, match="kinds"):
        _make("SendSms", kinds=("earthquake",))


@pytest.mark.parametrize("task", ["SendSms", "MarkorCreateNote", "ExpenseAddSingle", "SystemWifiTurnOff",
                                  "SimpleCalendarAddOneEvent"])
def test_oracles_solve_tasks_among_distractors(task):
    env = _make(task, rate=0.3)
    try:
        met: set[str] = set()
        for seed in (0, 1, 2):
            result = run_episode(env, OracleAgent(), seed=seed)
            assert result.score == 1.0 and not result.invalid_actions, (task, seed)
            met |= env._fired | ({"permission"} if env._revoked else set())
        assert met, f"{task}: no distractor fired in three episodes at rate 0.3"
    finally:
        env.close()


@pytest.mark.parametrize("task", ["SendSms", "SimpleCalendarAddOneEvent", "SimpleDrawProCreateDrawing"])
def test_oracles_solve_tasks_among_start_up_dialogs(task):
    env = _make(task, rate=0.5, kinds=("rating", "whats_new"))
    try:
        armed = 0
        for seed in (0, 1, 2, 3):
            result = run_episode(env, OracleAgent(), seed=seed)
            assert result.score == 1.0 and not result.invalid_actions, (task, seed)
            armed += env._prefs is not None
        assert armed, f"{task}: no start-up dialog armed in four episodes at rate 0.5"
    finally:
        env.close()


def test_start_up_dialog_prefs_restored_at_reset():
    env = _make("SendSms", rate=1.0, kinds=("rating",))
    try:
        device = env.unwrapped.device
        path = "/data/data/com.simplemobiletools.smsmessenger/shared_prefs/Prefs.xml"
        _, info = env.reset(seed=0)
        assert info["distractor"] == "rating"
        assert '"app_run_count" value="39"' in device.shell(f"cat {path}").output
        env.rate = 0.0
        env.reset(seed=0)
        assert "app_run_count" not in device.shell(f"cat {path}").output
    finally:
        env.close()
