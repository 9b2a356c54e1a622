"""Shared fixtures: fresh simulated phones and envs, closed after each test."""

from __future__ import annotations

import gymnasium as gym
import pytest

import android_gym  # noqa: F401  (registers the envs)
from android_gym.device.sim import SimDevice


@pytest.fixture
def device():
    """A fresh simulated phone behind the Device protocol."""
    dev = SimDevice()
    yield dev
    dev.close()


@pytest.fixture
def make_env():
    """``make_env(id, **kwargs)``; every env made is closed after the test."""
    envs = []

    def make(env_id: str = "AndroidWorld/SendSms-v0", **kwargs):
        env = gym.make(env_id, **kwargs)
        envs.append(env)
        return env

    yield make
    for env in envs:
        env.close()
