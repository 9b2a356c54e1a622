"""A reset gives the same phone whatever earlier episodes did: ``reset(seed=s)`` of an env that played random episodes
(which opened other apps, left their screens open in the background, wrote their data and toggled settings) and of
a fresh env give the same observations, rewards and infos through a walk of the same actions, and the same phone
(files, databases' rows, settings, clip, Chrome's tab) after the reset; an oracle's episode or one that did nothing
too. The simulated phone rewinds at reset (``SimDevice.rewind``); without it the first of these walks parts ways
within 25 steps (the app a random tap opens shows the screen an earlier episode left it on: Contacts' new-contact
editor, Broccoli's new recipe, the messenger's search)."""

from __future__ import annotations

import hashlib
import os
import sqlite3
import tempfile
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import pytest

import android_gym  # noqa: F401  (registers the ids)
from android_gym.agents import load_agent
from android_gym.device.base import SETTINGS_NAMESPACES
from android_gym.sim.apps import chrome
from android_gym.sim.framework.activities import ActivityManager
from android_gym.sim.phone import Phone

#: An SMS task, an expense table, a Markor note, Retro Music's songs, a setting, and a composite of two settings'
#: parts and an app.
TASKS = ("SimpleSmsSend", "ExpenseDeleteSingle", "MarkorCreateNote", "RetroPlayingQueue", "SystemWifiTurnOn",
         "TurnOnWifiAndOpenApp")
#: The earlier episodes' seeds and length: enough random taps to open apps beyond the task's.
EARLIER, EARLIER_STEPS, WALK_STEPS, SEED = (101, 102, 103), 80, 60, 7


def _make(task: str) -> gym.Env:
    return gym.make(f"AndroidWorld/{task}-v0", device="sim:270x600", max_episode_steps=1000)


def _phone(env: gym.Env) -> Phone:
    return env.unwrapped.device.phone


def _db_rows(host: Path) -> str:
    """A database's schema and rows (its bytes tell its history too: the change counter, free pages), read from a
    copy so the phone's files stay as they are."""
    with tempfile.TemporaryDirectory() as scratch:
        for suffix in ("", "-wal", "-journal"):
            if os.path.exists(f"{host}{suffix}"):
                Path(scratch, "db" + suffix).write_bytes(Path(f"{host}{suffix}").read_bytes())
        connection = sqlite3.connect(Path(scratch, "db"))
        try:
            return "\n".join(connection.iterdump())
        finally:
            connection.close()


def browser_state(phone: Phone) -> tuple[str, int] | None:
    """Chrome's tab: the address its URL bar shows and how many pages its history holds; ``None`` while Chrome's
    profile (the phone's browser context) is closed, as on a phone whose Chrome never ran."""
    if not phone.chromium.running:
        return None
    page = phone.packages.get(chrome.PACKAGE).tab().page
    return chrome.display_url(phone.fs.host_path("/"), page.url), page.evaluate("history.length")


def phone_state(env: gym.Env) -> dict[str, Any]:
    """What the phone keeps, independent of the clock: every path of its files with its bytes or, for a database, its
    rows (every app's files: resolving ``/`` starts the apps not started yet, as a walk of the device, ``find /``,
    would); the settings; the clip; Chrome's tab (``browser_state``)."""
    phone = _phone(env)
    files: dict[str, str] = {}
    for folder, _, names in os.walk(phone.fs.host_path("/")):
        files[os.path.relpath(folder, phone.fs.root) + "/"] = "directory"
        for name in names:
            host = Path(folder, name)
            path = os.path.relpath(host, phone.fs.root)
            if name.endswith(("-wal", "-shm", "-journal")):
                continue  # read with their database
            data = host.read_bytes()
            content = _db_rows(host).encode() if data.startswith(b"SQLite format 3\0") else data
            files[path] = hashlib.sha256(content).hexdigest()
    return {"files": files, "settings": {ns: phone.settings.items(ns) for ns in SETTINGS_NAMESPACES},
            "clip": phone.clipboard.primary, "browser": browser_state(phone)}


def differences(env: gym.Env, other: gym.Env) -> list[str]:
    """What differs between the two envs' phones (``phone_state``): file paths, ``settings``, ``clip``, ``browser``."""
    one, two = phone_state(env), phone_state(other)
    files = [path for path in sorted(one["files"].keys() | two["files"].keys())
             if one["files"].get(path) != two["files"].get(path)]
    return files + [part for part in ("settings", "clip", "browser") if one[part] != two[part]]


def _play(env: gym.Env, agent_name: str, seed: int, steps: int) -> None:
    """An episode of ``agent_name`` from ``reset(seed=seed)``, at most ``steps`` long."""
    observation, info = env.reset(seed=seed)
    agent = load_agent(agent_name, seed)
    agent.reset(env)
    for _ in range(steps):
        observation, _, terminated, truncated, info = env.step(agent.act(observation, info))
        if terminated or truncated:
            return


def _same_info(one: dict[str, Any], other: dict[str, Any]) -> bool:
    return one.keys() == other.keys() and all(
        np.array_equal(one[key], other[key]) if isinstance(one[key], np.ndarray) else one[key] == other[key]
        for key in one)


@pytest.mark.parametrize("task", TASKS)
def test_a_reset_after_random_episodes_gives_a_fresh_envs_phone(task):
    fresh, played = _make(task), _make(task)
    own = {*played.unwrapped.task_class.app_packages, _phone(played).activities.launcher.package}
    opened = set()
    for seed in EARLIER:
        _play(played, "random-valid", seed, EARLIER_STEPS)
        opened |= _phone(played).activities.running() - own
    assert opened, "the earlier episodes opened no other app: they test nothing"
    fresh_observation, fresh_info = fresh.reset(seed=SEED)
    observation, info = played.reset(seed=SEED)
    assert differences(played, fresh) == []
    walker = load_agent("random-valid", SEED)
    walker.reset(fresh)
    for step in range(WALK_STEPS):
        assert observation["a11y_tree"] == fresh_observation["a11y_tree"], f"step {step}"
        assert np.array_equal(observation["pixels"], fresh_observation["pixels"]), f"step {step}"
        assert _same_info(info, fresh_info), f"step {step}"
        action = walker.act(fresh_observation, fresh_info)
        fresh_observation, fresh_reward, fresh_terminated, fresh_truncated, fresh_info = fresh.step(action)
        observation, reward, terminated, truncated, info = played.step(action)
        assert (reward, terminated, truncated) == (fresh_reward, fresh_terminated, fresh_truncated), f"step {step}"
        if terminated or truncated:
            break
    fresh.close()
    played.close()


#: RetroPlaylistDuration: a teardown that clears what the next set-up keeps (the songs in storage).
@pytest.mark.parametrize("task", ("SimpleSmsSend", "MarkorCreateNote", "SystemWifiTurnOn", "BrowserMaze",
                                  "RetroPlaylistDuration"))
@pytest.mark.parametrize("agent", ("oracle", "nothing"))
def test_a_reset_after_an_oracle_or_an_idle_episode_gives_a_fresh_envs_phone(task, agent):
    fresh, played = _make(task), _make(task)
    if agent == "oracle":
        _play(played, agent, 3, 100)
    else:
        played.reset(seed=3)
    fresh.reset(seed=SEED)
    played.reset(seed=SEED)
    assert differences(played, fresh) == []
    fresh.close()
    played.close()


def test_a_reset_on_the_simulated_phone_stops_each_app_once(monkeypatch):
    """The rewind stops every app and goes home (``SimDevice.full_rewind``): the SMS task's ``hand_over``, its base
    teardown, leaves the stop to it, and ``prepare``'s line does not stop the app again after it."""
    env = _make("SimpleSmsSend")
    _play(env, "oracle", 3, 100)
    package = env.unwrapped.task_class.app_packages[0]
    assert package in _phone(env).activities.running()
    stopped = []
    force_stop = ActivityManager.force_stop
    monkeypatch.setattr(ActivityManager, "force_stop",
                        lambda self, name: (stopped.append(name), force_stop(self, name))[1])
    env.reset(seed=SEED)
    assert stopped.count(package) == 1
    env.close()
