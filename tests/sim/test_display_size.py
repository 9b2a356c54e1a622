"""``wm size`` and ``wm density`` on the simulated phone: the display changes live, everything that reports the screen
follows, apps lay out at the new width and oracles still solve their tasks."""

from __future__ import annotations

import struct

import gymnasium as gym
import pytest

import android_gym
from android_gym.agents import OracleAgent
from android_gym.device.config import PHONES, DeviceConfig
from android_gym.device.sim import SimDevice
from android_gym.sim import grpc_server
from android_gym.sim.framework.display import Display
from android_gym.sim.shell.commands.input import raw_header
from android_gym.testing import run_episode
from android_gym.ui import parse_ui_dump


def run(device: SimDevice, command: str) -> str:
    result = device.shell(command)
    assert result.ok, result.output
    return result.output


@pytest.fixture
def device():
    phone = SimDevice()
    yield phone
    phone.close()


def test_wm_prints_the_physical_values_and_the_overrides_as_android_does(device):
    run(device, "wm size 720x1280 && wm density 320")
    assert run(device, "wm size") == "Physical size: 1080x2400\nOverride size: 720x1280\n"
    assert run(device, "wm density") == "Physical density: 420\nOverride density: 320\n"
    assert run(device, "getprop ro.sf.lcd_density") == "420\n"  # the physical density stays
    run(device, "wm size reset && cmd window density reset")
    assert run(device, "wm size") == "Physical size: 1080x2400\n"
    assert run(device, "wm density") == "Physical density: 420\n"


def test_sizes_are_bounded_and_bad_arguments_refused_as_windowmanager_does(device):
    run(device, "wm size 100x9000")  # DisplayContent.setForcedSize: 200 px .. twice the physical side
    assert device.screen_size == (200, 4800)
    run(device, "wm size 1080x2400")  # the physical size clears the override
    assert run(device, "wm size") == "Physical size: 1080x2400\n"
    run(device, "wm size 360dpx640dp")  # dp at the current density: 360 * 420 / 160
    assert device.screen_size == (945, 1680)
    number = "Error: bad number java.lang.NumberFormatException: For input string: "
    for command, message in (("wm size 720", "Error: bad size 720"), ("wm size 7x2o", number + '"2o"'),
                             ("wm density 60", "Error: density must be >= 72")):
        result = device.shell(command)
        assert (result.exit_code, result.output) == (255, message + "\n")
    assert device.screen_size == (945, 1680)


@pytest.mark.parametrize("phone", sorted(PHONES))
def test_a_configured_screen_is_reported_drawn_dumped_and_touched_alike(device, phone):
    """``DeviceConfig.apply`` of each phone: the size and density reach every report, the pixels, the dump's
    bounds and the touches; going back to the Pixel 6 clears the overrides."""
    width, height, density = PHONES[phone]
    DeviceConfig(phone=phone).apply(device, DeviceConfig())
    window = device.phone.window
    assert device.screen_size == (width, height) == device.phone.screen_size
    assert window.design_width == round(width * 420 / density)  # 720 px at 320 dpi: 360 dp, 945 design px
    assert device.screenshot().shape == (height, width, 3)
    assert raw_header(device.phone)[:8] == struct.pack("<2I", width, height)
    assert grpc_server.density(device.phone) == density
    windows = run(device, "dumpsys window")
    assert f" w{round(width * 160 / density)}dp " in windows and f" {density}dpi " in windows  # the Configuration
    base = f" base={width}x{height} {density}dpi" if phone != "pixel_6" else ""
    assert f"init=1080x2400 420dpi{base} cur={width}x{height}" in windows
    elements = parse_ui_dump(device.ui_dump())
    assert all(0 <= e.bbox_pixels.x_min <= e.bbox_pixels.x_max <= width for e in elements)
    assert all(0 <= e.bbox_pixels.y_min <= e.bbox_pixels.y_max <= height for e in elements)
    settings = next(e for e in elements if e.text == "Settings")
    device.tap(*settings.bbox_pixels.center)
    assert device.phone.activities.foreground()[0] == "com.android.settings"
    DeviceConfig().apply(device, DeviceConfig(phone=phone))
    assert run(device, "wm size; wm density") == "Physical size: 1080x2400\nPhysical density: 420\n"
    assert device.screenshot().shape == (2400, 1080, 3)


def test_the_default_display_is_todays_and_design_sizes_cover_the_screen():
    assert Display(1080, 2400).design_size == (1080, 2400) and Display(270, 600).design_size == (1080, 2400)
    assert Display(270, 600).scale == 0.25 and Display(270, 600).density == 105
    tablet = Display(1080, 2400).with_size(1600, 2560).with_density(320)
    assert tablet.design_size == (2100, 3360)
    pixel_4a = Display(1080, 2400).with_size(1080, 2340).with_density(440)
    assert all(round(side * pixel_4a.scale) >= pixel for side, pixel in zip(pixel_4a.design_size, (1080, 2340)))


def test_the_launcher_takes_launcher3s_tablet_grid(device):
    def columns() -> int:
        tops = [e.bbox_pixels.y_min for e in parse_ui_dump(device.ui_dump()) if e.class_name.endswith("TextView")
                and e.is_clickable]
        return tops.count(tops[0])

    assert columns() == 4
    DeviceConfig(phone="pixel_tablet").apply(device, DeviceConfig())
    assert columns() == 6


#: A spread of tasks over the apps, each played on a phone of its own (every phone comes up).
SPREAD = ["SendSms", "SimpleSmsSendReceivedAddress", "SystemBrightnessMax", "ExpenseAddSingle",
          "SimpleCalendarAddOneEvent", "SportsTrackerRenameActivity", "ContactsAddContact", "MarkorCreateNote",
          "TasksHighPriorityTasks", "RecipeAddSingleRecipe", "OsmAndFavorite", "FilesDeleteFile"]


@pytest.mark.parametrize("index", range(len(SPREAD)))
def test_oracles_solve_their_tasks_on_every_screen(index):
    task, phone = SPREAD[index], sorted(PHONES)[index % len(PHONES)]
    device = SimDevice()
    DeviceConfig(phone=phone).apply(device, DeviceConfig())
    env = gym.make(android_gym.env_id(task), device=device, pixels=False)
    try:
        result = run_episode(env, OracleAgent(), seed=index)
        assert (result.score, result.invalid_actions) == (1.0, []), f"{task} on {phone}"
    finally:
        env.close()
        device.close()
