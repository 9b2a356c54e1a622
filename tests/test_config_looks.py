"""Device configurations of the looks (font scale, dark theme, navigation mode): ``DeviceConfig.apply`` configures
the simulated phone in process and over Debian adb, and the oracles of a spread of tasks still solve them."""

from __future__ import annotations

import itertools

import gymnasium as gym
import numpy as np
import pytest

from android_gym import env_id
from android_gym.agents import OracleAgent
from android_gym.device import open_device
from android_gym.device.config import FONT_SCALES, NAVIGATION_MODES, DeviceConfig
from android_gym.device.sim import SimDevice
from android_gym.testing import run_episode

#: Tasks of different apps, among them ones that drag (Draw), scroll (Expense, Gallery's folder picker), open
#: overflow menus (Retro Music, Broccoli) or type (SMS, Markor).
TASKS = ("SimpleSmsSend", "SystemWifiTurnOff", "ExpenseAddSingle", "MarkorCreateNote", "TasksAddTask",
         "RetroCreatePlaylist", "RecipeDeleteSingleRecipe", "SimpleCalendarAddOneEvent", "ContactsAddContact",
         "OsmAndFavorite", "VlcCreatePlaylist", "SaveCopyOfReceiptTaskEval", "SimpleDrawProCreateDrawing",
         "FilesDeleteFile", "JoplinCreateNote", "SportsTrackerRenameActivity")
#: Every combination of the three dimensions, one per task.
LOOKS = [DeviceConfig(font_scale=font, dark_theme=dark, navigation=navigation)
         for font, dark, navigation in itertools.product(FONT_SCALES, (False, True), NAVIGATION_MODES)]


@pytest.mark.parametrize("task, config", zip(TASKS, LOOKS), ids=[f"{t}-{c.name}" for t, c in zip(TASKS, LOOKS)])
def test_oracles_solve_their_tasks_in_every_look(task, config):
    device = SimDevice(270, 600)
    config.apply(device, DeviceConfig())  # only the looks' commands: the phone is the default one otherwise
    env = gym.make(env_id(task), device=device, pixels=False)
    try:
        result = run_episode(env, OracleAgent(), seed=0)
    finally:
        env.close()
    assert result.score == 1.0 and not result.invalid_actions, (config.name, result)


@pytest.mark.parametrize("config, command, expected", [
    (DeviceConfig(font_scale=1.3), "settings get system font_scale", "1.3"),
    (DeviceConfig(font_scale=0.85), "dumpsys window | grep -c 'mGlobalConfiguration={0.85 '", "1"),
    (DeviceConfig(dark_theme=True), "cmd uimode night", "Night mode: yes"),
    (DeviceConfig(dark_theme=True), "settings get secure ui_night_mode", "2"),
    (DeviceConfig(navigation="gestures"), "settings get secure navigation_mode", "2"),
    (DeviceConfig(navigation="gestures"), "cmd overlay list android | grep -c '\\[x\\] .*navbar.gestural'", "1"),
])
def test_apply_configures_the_simulated_phone(config, command, expected):
    device = SimDevice(270, 600)
    try:
        config.apply(device, DeviceConfig())
        assert device.shell(command).output.strip() == expected
        DeviceConfig().apply(device, config)  # and back
        assert device.shell(command).output.strip() != expected
    finally:
        device.close()


def test_apply_over_adb_configures_the_served_phone_alike(fresh_served_phone):
    config = DeviceConfig(font_scale=1.15, dark_theme=True, navigation="gestures")
    device = open_device(f"adb:{fresh_served_phone.serial}?stabilize=off")
    try:
        config.apply(device, DeviceConfig())
        assert "mGlobalConfiguration={1.15 " in device.shell("dumpsys window").output
        assert device.shell("cmd uimode night").output == "Night mode: yes\n"
        assert "[x] com.android.internal.systemui.navbar.gestural" in device.shell("cmd overlay list").output
        local = SimDevice()
        try:
            config.apply(local, DeviceConfig())
            assert np.array_equal(device.screenshot(), local.screenshot())  # the same dark, gestural, large-font home
        finally:
            local.close()
    finally:
        device.close()
