"""DeepMind's AndroidEnv 1.3.0 (from PyPI, the ``compat`` extra) attached to the served phone as to a running
emulator: its own loader, adb controller, log stream and log parsing, dumpsys parsing, touch and key actions and
screenshots over the emulator's gRPC API, task setup steps and the accessibility-forwarder protocol. Nothing of
AndroidEnv is patched: where it needs something, the phone provides it as Android 13 does.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
from absl import logging as absl_logging
from android_env import loader
from android_env.components import action_type, config_classes
from android_env.proto import adb_pb2
from android_env.wrappers import a11y_grpc_wrapper
from apk_builder import build_apk

from android_gym.actions import ActionType, execute
from android_gym.agents import OracleAgent
from android_gym.device.adb import AdbDevice
from android_gym.sim import keycodes
from android_gym.sim.apps.accessibility_forwarder import PACKAGE as FORWARDER
from android_gym.sim.server import SimServer
from android_gym.ui import parse_ui_dump

absl_logging.set_verbosity(absl_logging.WARNING)

SMS = "com.simplemobiletools.smsmessenger"
SMS_MAIN = f"{SMS}/{SMS}.activities.MainActivity"
LAUNCHER = "com.google.android.apps.nexuslauncher"
#: Seconds to wait for something that arrives asynchronously (a log line, a forwarded tree).
ASYNC_TIMEOUT_S = 30
TOUCH, LIFT, REPEAT, KEYDOWN = (action_type.ActionType[name] for name in ("TOUCH", "LIFT", "REPEAT", "KEYDOWN"))


@pytest.fixture
def load_android_env(fresh_served_phone: SimServer, tmp_path: Path) -> Iterator:
    """``load_android_env(task_textproto="", **coordinator_config)``: AndroidEnv attached to the served phone as
    to an existing emulator (adb, console and gRPC ports given, so it launches nothing), closed after the test."""
    envs = []

    def load(task: str = "", **coordinator: object):
        path = tmp_path / f"task{len(envs)}.textproto"
        path.write_text(f'id: "compat"\nname: "compat"\nmax_episode_sec: 7200\n{task}')
        server = fresh_served_phone
        config = config_classes.AndroidEnvConfig(
            task=config_classes.FilesystemTaskConfig(path=str(path)),
            coordinator=config_classes.CoordinatorConfig(**coordinator),
            simulator=config_classes.EmulatorConfig(
                emulator_launcher=config_classes.EmulatorLauncherConfig(
                    emulator_console_port=server.console_port, adb_port=server.adb_port,
                    grpc_port=server.grpc.port),
                # The private adb server of the tests is named by ANDROID_ADB_SERVER_PORT.
                adb_controller=config_classes.AdbControllerConfig(adb_path=shutil.which("adb"),
                                                                  use_adb_server_port_from_os_env=True)))
        env = loader.load(config)
        envs.append(env)
        return env

    yield load
    for env in envs:
        env.close()


def act(env, kind: int, x: float = 0.0, y: float = 0.0, **extra: np.ndarray):
    """One AndroidEnv step."""
    return env.step({"action_type": np.array(kind, np.int32),
                     "touch_position": np.array([x, y], np.float32), **extra})


def tap(env, phone, px: int, py: int):
    """TOUCH then LIFT at a pixel (the normalized position AndroidEnv maps back to that pixel)."""
    width, height = phone.screen_size
    x, y = (px + 0.5) / width, (py + 0.5) / height
    act(env, TOUCH, x, y)
    return act(env, LIFT, x, y)


def center_of(phone, text: str) -> tuple[int, int]:
    """The centre of the on-screen element showing ``text``."""
    element = next(e for e in parse_ui_dump(phone.ui_dump()) if text in (e.text, e.content_description))
    return round(element.bbox_pixels.center[0]), round(element.bbox_pixels.center[1])


def adb_shell(env, *args: str) -> bytes:
    """``adb shell ARGS`` through AndroidEnv's own adb call parser."""
    response = env.execute_adb_call(adb_pb2.AdbRequest(generic=adb_pb2.AdbRequest.GenericRequest(
        args=["shell", *args])))
    assert response.status == adb_pb2.AdbResponse.Status.OK, response
    return response.generic.output


def test_androidenv_attaches_and_observes_the_served_phone(load_android_env, fresh_served_phone):
    env = load_android_env()
    timestep = env.reset()
    phone = fresh_served_phone.phone
    assert timestep.observation["pixels"].shape == (2400, 1080, 3)
    assert np.array_equal(timestep.observation["pixels"], phone.screenshot())
    assert timestep.observation["orientation"].tolist() == [1, 0, 0, 0]  # from dumpsys input
    assert (phone.settings.get("system", "show_touches"), phone.settings.get("system", "pointer_location")) == (
        "1", "1")  # its DeviceSettings
    activity = env.execute_adb_call(adb_pb2.AdbRequest(get_current_activity=adb_pb2.AdbRequest.GetCurrentActivity()))
    assert activity.get_current_activity.full_activity == f"{LAUNCHER}/{LAUNCHER}.NexusLauncherActivity"


def test_touch_actions_over_grpc_open_an_app_and_the_pixels_follow(load_android_env, fresh_served_phone):
    env = load_android_env()
    env.reset()
    phone = fresh_served_phone.phone
    timestep = tap(env, phone, *center_of(phone, "SMS Messenger"))
    assert phone.activities.foreground() == (SMS, f"{SMS}.activities.MainActivity")
    assert np.array_equal(timestep.observation["pixels"], phone.screenshot())
    activity = env.execute_adb_call(adb_pb2.AdbRequest(get_current_activity=adb_pb2.AdbRequest.GetCurrentActivity()))
    assert activity.get_current_activity.full_activity == SMS_MAIN


def test_key_events_over_grpc_are_xkb_codes(load_android_env, fresh_served_phone):
    """With key events enabled AndroidEnv sends XKB key codes on Linux: KEY_BACK (158) + 8."""
    env = load_android_env(enable_key_events=True)
    env.reset()
    phone = fresh_served_phone.phone
    adb_shell(env, "am", "start", "-n", SMS_MAIN)
    assert phone.activities.foreground()[0] == SMS
    act(env, KEYDOWN, keycode=np.array(158 + 8, np.int32))
    act(env, action_type.ActionType.KEYUP, keycode=np.array(158 + 8, np.int32))
    assert phone.activities.foreground()[0] == LAUNCHER


def test_log_lines_become_rewards_and_extras(load_android_env):
    """AndroidEnv's log stream (``logcat -v epoch AndroidRLTask:V *:S``) turns logged lines into rewards and
    extras; they arrive asynchronously, so the test steps until they have (or fails after a while)."""
    env = load_android_env("""
log_parsing_config {
  filters: "AndroidRLTask:V"
  log_regexps {
    reward: "^[Rr]eward: ([-+]?[0-9]*\\\\.?[0-9]+)$"
    extra: "^extra: (?P<name>[^ ]*)[ ]?(?P<extra>.*)$"
  }
}""")
    env.reset()
    adb_shell(env, "log", "-t", "AndroidRLTask", "'reward: 2.5'")
    adb_shell(env, "log", "-t", "AndroidRLTask", "'extra: level [7]'")
    adb_shell(env, "log", "-t", "Other", "'reward: 100'")  # filtered out by *:S
    reward, extras, deadline = 0.0, {}, time.monotonic() + ASYNC_TIMEOUT_S
    while (reward == 0.0 or "level" not in extras) and time.monotonic() < deadline:
        reward += act(env, REPEAT).reward
        extras.update(env.task_extras())
    assert reward == 2.5
    assert extras["level"].tolist() == [7]


def test_setup_steps_install_start_wait_for_screen_stop_and_broadcast(load_android_env, fresh_served_phone,
                                                                      tmp_path):
    apk = tmp_path / "app.apk"
    apk.write_bytes(build_apk("com.example.setup", 3, "0.3"))
    env = load_android_env(f"""
setup_steps {{
  adb_request {{ install_apk {{ filesystem {{ path: "{apk}" }} }} }}
  success_condition {{ check_install {{ package_name: "com.example.setup" timeout_sec: 10 }} }}
}}
setup_steps {{
  adb_request {{ settings {{ name_space: SYSTEM put {{ key: "user_rotation" value: "1" }} }} }}
}}
reset_steps {{
  adb_request {{ force_stop {{ package_name: "{SMS}" }} }}
}}
reset_steps {{
  adb_request {{ start_activity {{ full_activity: "{SMS_MAIN}" }} }}
  success_condition {{
    wait_for_app_screen {{
      app_screen {{ activity: "{SMS_MAIN}" view_hierarchy_path: "^DecorView@.*\\\\[MainActivity\\\\]$" }}
      timeout_sec: 10
    }}
  }}
}}
reset_steps {{
  adb_request {{ send_broadcast {{ action: "clipper.set -e text pasted" }} }}
}}""")
    env.reset()
    phone = fresh_served_phone.phone
    assert phone.packages.get("com.example.setup") is not None
    assert phone.activities.foreground() == (SMS, f"{SMS}.activities.MainActivity")
    assert phone.clipboard.primary.text == "pasted"
    orientation = env.execute_adb_call(adb_pb2.AdbRequest(get_orientation=adb_pb2.AdbRequest.GetOrientationRequest()))
    assert orientation.get_orientation.orientation == 1  # user_rotation, read back from dumpsys input


def test_the_phone_plays_the_accessibility_forwarder(load_android_env, fresh_served_phone, tmp_path):
    """AndroidEnv's A11yGrpcWrapper (as AndroidWorld's controller sets it up): enable the forwarder service, turn
    tree logging on, start its gRPC server and send the host and port with ``SET_GRPC``; the phone then sends
    accessibility forests of its screen to it."""
    apk = tmp_path / "forwarder.apk"
    apk.write_bytes(build_apk(FORWARDER, 1, "1.0"))
    env = load_android_env()
    response = env.execute_adb_call(adb_pb2.AdbRequest(install_apk=adb_pb2.AdbRequest.InstallApk(
        filesystem=adb_pb2.AdbRequest.InstallApk.Filesystem(path=str(apk)))))
    assert response.status == adb_pb2.AdbResponse.Status.OK
    wrapped = a11y_grpc_wrapper.A11yGrpcWrapper(env, install_a11y_forwarding=False, start_a11y_service=True,
                                                enable_a11y_tree_info=True, latest_a11y_info_only=True)
    try:
        wrapped.reset()
        phone = fresh_served_phone.phone
        adb_shell(wrapped, "am", "start", "-n", SMS_MAIN)
        wanted = {e.text for e in parse_ui_dump(phone.ui_dump()) if e.text}
        deadline, texts = time.monotonic() + ASYNC_TIMEOUT_S, set()
        while not wanted <= texts and time.monotonic() < deadline:
            forests = wrapped.accumulate_new_extras().get("accessibility_tree", [])
            if len(forests):
                texts = {node.text for window in forests[-1].windows for node in window.tree.nodes if node.text}
            time.sleep(0.05)
        assert wanted <= texts
        app_window = next(w for w in forests[-1].windows if w.window_type == 1)  # TYPE_APPLICATION
        assert {node.package_name for node in app_window.tree.nodes} == {SMS}
        assert app_window.tree.nodes[0].unique_id == 0 and app_window.tree.nodes[0].depth == 0
    finally:
        wrapped.close()


class AndroidEnvTouches(AdbDevice):
    """Our adb device, except that taps go through AndroidEnv's touch actions (gRPC ``sendTouch``) and HOME/BACK/
    ENTER through its ``press_button`` adb calls: how a task solved through AndroidEnv acts on the phone."""

    def __init__(self, serial: str, env) -> None:
        super().__init__(serial)
        self.env = env

    def tap(self, x: float, y: float) -> None:
        width, height = self.screen_size
        position = ((int(x) + 0.5) / width, (int(y) + 0.5) / height)
        act(self.env, TOUCH, *position)
        act(self.env, LIFT, *position)

    def key(self, code: int) -> None:
        button = {keycodes.HOME: "HOME", keycodes.BACK: "BACK", keycodes.ENTER: "ENTER"}.get(code)
        if button is None:
            super().key(code)
            return
        self.env.execute_adb_call(adb_pb2.AdbRequest(press_button=adb_pb2.AdbRequest.PressButton(
            button=adb_pb2.AdbRequest.PressButton.Button.Value(button))))


@pytest.mark.parametrize("task", ["SystemBluetoothTurnOff", "SimpleSmsSend", "ExpenseDeleteSingle"])
def test_our_tasks_solved_through_androidenv(task, load_android_env, fresh_served_phone):
    """Our env sets the task up and scores it over adb; its oracle's steps are performed through AndroidEnv."""
    android_env = load_android_env()
    android_env.reset()
    env = gym.make(f"AndroidWorld/{task}-v0", device=f"adb:{fresh_served_phone.serial}", pixels=False)
    try:
        _, info = env.reset(seed=0)
        device = AndroidEnvTouches(fresh_served_phone.serial, android_env)
        agent = OracleAgent()
        agent.reset(env)
        for _ in range(env.unwrapped.task.max_steps()):
            action = agent.act({}, {"ui_elements": parse_ui_dump(device.ui_dump())})
            if action.action_type in (ActionType.STATUS, ActionType.ANSWER):
                break
            execute(action, device, parse_ui_dump(device.ui_dump()))
        assert env.unwrapped.task.is_successful(env.unwrapped.device) == 1.0
    finally:
        env.close()
