"""Latency of DeepMind's AndroidEnv 1.3.0 stepping the served phone: one ``AndroidEnv.step`` is a gRPC
``sendTouch`` plus a gRPC ``getScreenshot`` (RGBA8888, 1080×2400) and AndroidEnv's own bookkeeping.

The phone runs in its own process (``android-gym sim serve --grpc-port``), the adb server on a private port with a
private HOME, as a researcher's setup would have them. The agent taps the SMS app's icon on the home screen and
then the navigation bar's BACK button, over and over: every LIFT completes a tap that changes the screen, so each
LIFT step pays for a new frame; TOUCH steps (finger down) change nothing.

Usage: python benchmarks/androidenv_latency.py [--taps 50]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from pathlib import Path

import adbutils
import numpy as np
from absl import logging as absl_logging
from android_env import loader
from android_env.components import action_type, config_classes

from android_gym.device.adb import AdbDevice
from android_gym.sim.adb_harness import private_adb_server, served_phone_process
from android_gym.sim.phone import Phone
from android_gym.ui import parse_ui_dump

TOUCH, LIFT = action_type.ActionType.TOUCH, action_type.ActionType.LIFT


def load(adb_port: int, grpc_port: int, task: Path):
    """AndroidEnv attached to the served phone (the private adb server is named by ANDROID_ADB_SERVER_PORT)."""
    task.write_text('id: "latency"\nname: "latency"\nmax_episode_sec: 7200\n')
    return loader.load(config_classes.AndroidEnvConfig(
        task=config_classes.FilesystemTaskConfig(path=str(task)),
        simulator=config_classes.EmulatorConfig(
            emulator_launcher=config_classes.EmulatorLauncherConfig(
                emulator_console_port=adb_port - 1, adb_port=adb_port, grpc_port=grpc_port),
            adb_controller=config_classes.AdbControllerConfig(adb_path=shutil.which("adb"),
                                                              use_adb_server_port_from_os_env=True))))


def center(elements, text: str, size: tuple[int, int]) -> np.ndarray:
    """The normalized touch position of the element showing ``text``."""
    element = next(e for e in elements if text in (e.text, e.content_description))
    x, y = element.bbox_pixels.center
    return np.array([x / size[0], y / size[1]], np.float32)


def back_button(size: tuple[int, int]) -> np.ndarray:
    """The normalized position of the navigation bar's BACK button (not in the app window's UI dump), from a
    phone of the same size laid out in process."""
    phone = Phone(*size)
    try:
        nav_bar = next(w for w in phone.window.screen_windows() if w.title == "NavigationBar0")
        button = next(view for view in nav_bar.root.walk() if view.content_desc == "Back")
    finally:
        phone.close()
    x1, y1, x2, y2 = button.bounds
    return np.array([(x1 + x2) / 2 / size[0], (y1 + y2) / 2 / size[1]], np.float32)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--taps", type=int, default=50, help="taps on each target (2 steps per tap)")
    args = parser.parse_args()
    absl_logging.set_verbosity(absl_logging.WARNING)
    with tempfile.TemporaryDirectory() as home, private_adb_server(Path(home)) as server_port:
        with served_phone_process() as phone:
            adbutils.AdbClient("127.0.0.1", server_port).wait_for(phone.serial, timeout=60)
            device = AdbDevice(phone.serial)
            env = load(phone.adb_port, phone.grpc_port, Path(home) / "task.textproto")
            env.reset()
            icon = center(parse_ui_dump(device.ui_dump()), "SMS Messenger", device.screen_size)
            back = back_button(device.screen_size)
            times: dict[int, list[float]] = {TOUCH: [], LIFT: []}
            for _ in range(args.taps):
                for position in (icon, back):
                    for kind in (TOUCH, LIFT):
                        start = time.perf_counter()
                        env.step({"action_type": np.array(kind, np.int32), "touch_position": position})
                        times[kind].append(time.perf_counter() - start)
            env.close()
    every = times[TOUCH] + times[LIFT]
    print(f"AndroidEnv.step over `sim serve` (gRPC touch + RGBA screenshot), {len(every)} steps")
    for name, values in (("TOUCH (finger down, screen unchanged)", times[TOUCH]),
                         ("LIFT (tap completes, new frame)", times[LIFT]), ("every step", every)):
        ms = sorted(1000 * value for value in values)
        print(f"  {name:40s} median {statistics.median(ms):7.2f} ms   p90 {ms[int(0.9 * (len(ms) - 1))]:7.2f} ms")


if __name__ == "__main__":
    main()
