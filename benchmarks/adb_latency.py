"""Latency of the adb path: Debian's adb server → the simulated phone's adbd, next to the in-process phone.

The phone runs in its own process (``android-gym sim serve``), the adb server on a private port with a private
HOME, so the figures are what a training script sees against an emulator-like device on this machine.

Env steps over adb stabilize after each input (one more UI dump per step) unless the row says otherwise.

Usage: python benchmarks/adb_latency.py [--repeats 50] [--steps 100]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import adbutils
import gymnasium as gym

import android_gym  # noqa: F401
from android_gym.device.adb import AdbDevice
from android_gym.sim.adb_harness import free_emulator_port, free_port, private_adb_server


def median_ms(operation: Callable[[], object], repeats: int) -> float:
    """Median wall time of ``operation`` in milliseconds (one warm-up call first)."""
    operation()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        operation()
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def median_step_ms(device: str, steps: int, pixels: bool = True, seed: int = 0) -> float:
    """Median wall time of one env step (random policy; UI tree, and pixels if asked, observed) on ``device``."""
    env = gym.make("AndroidWorld/SendSms-v0", device=device, pixels=pixels)
    env.action_space.seed(seed)
    env.reset(seed=seed)
    times = []
    for _ in range(steps):
        action = env.action_space.sample()
        start = time.perf_counter()
        _, _, terminated, truncated, _ = env.step(action)
        times.append(time.perf_counter() - start)
        if terminated or truncated:
            env.reset()
    env.close()
    return 1000 * statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=50)
    parser.add_argument("--steps", type=int, default=100)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home, private_adb_server(Path(home)) as server_port:
        adb_port = free_emulator_port()
        serial, grpc = f"emulator-{adb_port - 1}", f"127.0.0.1:{free_port()}"
        phone = subprocess.Popen([sys.executable, "-m", "android_gym.cli", "sim", "serve", "--adb-port",
                                  str(adb_port), "--grpc-port", grpc.rpartition(":")[2]], stdout=subprocess.DEVNULL)
        try:
            adbutils.AdbClient("127.0.0.1", server_port).wait_for(serial, timeout=60)
            device, device_grpc = AdbDevice(serial), AdbDevice(serial, grpc=grpc)
            adb_cli = ["adb", "-P", str(server_port), "-s", serial, "shell", "true"]
            rows = [
                ("`adb shell true` (Debian adb command)", median_ms(lambda: subprocess.run(adb_cli, check=True),
                                                                   args.repeats)),
                ("AdbDevice.shell('true')", median_ms(lambda: device.shell("true"), args.repeats)),
                ("AdbDevice.screenshot() (screencap -p)", median_ms(device.screenshot, args.repeats)),
                ("AdbDevice.screenshot() (gRPC RGB888)", median_ms(device_grpc.screenshot, args.repeats)),
                ("AdbDevice.ui_dump() (dump + pull)", median_ms(device.ui_dump, args.repeats)),
                ("env step over adb, pixels + UI tree", median_step_ms(f"adb:{serial}", args.steps)),
                ("env step over adb+gRPC, pixels + UI tree", median_step_ms(f"adb:{serial}?grpc={grpc}", args.steps)),
                ("env step over adb, UI tree only", median_step_ms(f"adb:{serial}", args.steps, pixels=False)),
                ("  the same without stabilization", median_step_ms(f"adb:{serial}?stabilize=off", args.steps,
                                                                    pixels=False)),
                ("env step in process, pixels + UI tree", median_step_ms("sim", args.steps)),
                ("env step in process, UI tree only", median_step_ms("sim", args.steps, pixels=False)),
            ]
        finally:
            phone.terminate()
            phone.wait()
    print(f"median latency, {args.repeats} calls / {args.steps} steps each")
    for name, value in rows:
        print(f"  {name:42s} {value:8.2f} ms")


if __name__ == "__main__":
    main()
