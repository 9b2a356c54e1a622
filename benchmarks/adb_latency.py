"""Latency of the adb path: Debian's adb server → the simulated phone's adbd (and its emulator gRPC service), next
to the in-process phone, per screen size.

The phone runs in its own process (``android-gym sim serve``), the adb server on a private port with a private
HOME, so the figures are what a training script sees against an emulator-like device on this machine.

Env steps take valid actions that change the screen, as an agent's do (``random-valid``: taps, long presses, typing
and scrolls on what is on screen, back, home, opening the task's app; DESIGN.md "Measure with a policy of valid
actions"). Over adb they run with ``stabilize=off``: the served phone has settled when an input returns, and
stabilization's 50 ms poll interval is a real device's budget, not the transport's.

Usage: python benchmarks/adb_latency.py [--repeats 30] [--steps 60] [--screens 1080x2400,540x1200]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import adbutils
import gymnasium as gym

import android_gym  # noqa: F401
from android_gym.agents import load_agent
from android_gym.device.adb import AdbDevice
from android_gym.sim.adb_harness import free_emulator_port, free_port, private_adb_server

TASK = "AndroidWorld/SendSms-v0"


def median_ms(operation: Callable[[], object], repeats: int) -> float:
    """Median wall time of ``operation`` in milliseconds (one warm-up call first)."""
    operation()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        operation()
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def median_step_ms(device: str, steps: int, pixels: bool, seed: int = 0) -> float:
    """Median wall time of one env step (valid actions; UI tree, and pixels if asked, observed) on ``device``."""
    env = gym.make(TASK, device=device, pixels=pixels)
    agent = load_agent("random-valid", seed)
    observation, info = env.reset(seed=seed)
    agent.reset(env)
    times = []
    for _ in range(steps):
        action = agent.act(observation, info)
        start = time.perf_counter()
        observation, _, terminated, truncated, info = env.step(action)
        times.append(time.perf_counter() - start)
        if terminated or truncated:
            observation, info = env.reset()
            agent.reset(env)
    env.close()
    return 1000 * statistics.median(times)


@contextmanager
def served_phone(server_port: int, screen: str) -> Iterator[tuple[str, str]]:
    """``android-gym sim serve`` with a ``screen``-sized phone; yields its serial and gRPC address."""
    adb_port, grpc_port = free_emulator_port(), free_port()
    phone = subprocess.Popen([sys.executable, "-m", "android_gym.cli", "sim", "serve", "--adb-port", str(adb_port),
                              "--grpc-port", str(grpc_port), "--size", screen], stdout=subprocess.DEVNULL)
    serial = f"emulator-{adb_port - 1}"
    try:
        adbutils.AdbClient("127.0.0.1", server_port).wait_for(serial, timeout=60)
        yield serial, f"127.0.0.1:{grpc_port}"
    finally:
        phone.terminate()
        phone.wait()


def measure(server_port: int, screen: str, repeats: int, steps: int) -> dict[str, float]:
    """Every row's figure for one screen size."""
    with served_phone(server_port, screen) as (serial, grpc):
        device, device_grpc = AdbDevice(serial), AdbDevice(serial, grpc=grpc)
        adb_cli = ["adb", "-P", str(server_port), "-s", serial, "shell", "true"]
        over_adb, over_grpc = f"adb:{serial}?stabilize=off", f"adb:{serial}?stabilize=off&grpc={grpc}"
        rows = {
            "`adb shell true` (Debian adb command)": median_ms(lambda: subprocess.run(adb_cli, check=True),
                                                               repeats),
            "AdbDevice.shell('true')": median_ms(lambda: device.shell("true"), repeats),
            "AdbDevice.ui_dump() (dump + cat)": median_ms(device.ui_dump, repeats),
            "AdbDevice.screenshot() (raw screencap)": median_ms(device.screenshot, repeats),
            "AdbDevice.screenshot() (gRPC RGB888)": median_ms(device_grpc.screenshot, repeats),
            "env step over adb, UI tree only": median_step_ms(over_adb, steps, pixels=False),
            "env step over adb, pixels + UI tree": median_step_ms(over_adb, steps, pixels=True),
            "env step over adb+gRPC, UI tree only": median_step_ms(over_grpc, steps, pixels=False),
            "env step over adb+gRPC, pixels + UI tree": median_step_ms(over_grpc, steps, pixels=True),
        }
        device.close()
        device_grpc.close()
    rows["env step in process, UI tree only"] = median_step_ms(f"sim:{screen}", steps, pixels=False)
    rows["env step in process, pixels + UI tree"] = median_step_ms(f"sim:{screen}", steps, pixels=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=30)
    parser.add_argument("--steps", type=int, default=60)
    parser.add_argument("--screens", type=lambda text: text.split(","), default=["1080x2400", "540x1200"])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home, private_adb_server(Path(home)) as server_port:
        figures = {screen: measure(server_port, screen, args.repeats, args.steps) for screen in args.screens}
    print(f"median latency in ms, {args.repeats} calls / {args.steps} steps each ({TASK}, valid actions)")
    print(f"  {'':42s}" + "".join(f"{screen:>12s}" for screen in args.screens))
    for name in figures[args.screens[0]]:
        print(f"  {name:42s}" + "".join(f"{figures[screen][name]:12.2f}" for screen in args.screens))


if __name__ == "__main__":
    main()
