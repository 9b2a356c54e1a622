"""A screen configuration over Debian's adb: the same ``wm`` commands change the served phone, and ``AdbDevice``
reads the new size after them."""

from __future__ import annotations

import gymnasium as gym

import android_gym
from android_gym.agents import OracleAgent
from android_gym.device import open_device
from android_gym.device.config import DeviceConfig
from android_gym.testing import run_episode


def test_a_phone_configured_over_adb_reports_draws_and_plays_at_its_size(fresh_served_phone):
    device = open_device(f"adb:{fresh_served_phone.serial}?stabilize=off")
    try:
        assert device.screen_size == (1080, 2400)
        DeviceConfig(phone="small_phone").apply(device, DeviceConfig())
        assert device.screen_size == (720, 1280) == fresh_served_phone.phone_host.phone.screen_size
        assert device.shell("wm size").output == "Physical size: 1080x2400\nOverride size: 720x1280\n"
        assert device.screenshot().shape == (1280, 720, 3)
        env = gym.make(android_gym.env_id("SendSms"), device=device, pixels=False)
        assert run_episode(env, OracleAgent(), seed=0).score == 1.0
        DeviceConfig().apply(device, DeviceConfig(phone="small_phone"))
        assert device.screen_size == (1080, 2400) and device.screenshot().shape == (2400, 1080, 3)
    finally:
        device.close()
