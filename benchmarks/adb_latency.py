"""Latency of the adb path: Debian's adb server → the simulated phone's adbd (and its emulator gRPC service), next
to the in-process phone, per screen size.

The phone runs in its own process (``android-gym sim serve``), the adb server on a private port with a private
HOME, so the figures are what a training script sees against an emulator-like device on this machine. Each row
has its median wall time and the CPU time the three processes spent per call (this one, the adb server, the
phone; this one's by ``time.process_time``, the others' as the time their threads ran, in nanoseconds, from
/proc, where a thread that ends during a call is not counted): on a machine shared with other work the wall
times wander, the CPU times much less.

Env steps take valid actions that change the screen, as an agent's do (``random-valid``: taps, long presses, typing
and scrolls on what is on screen, back, home, opening the task's app; DESIGN.md "Measure with a policy of valid
actions"). Over adb they run with ``stabilize=off``: the served phone has settled when an input returns, and
stabilization's 50 ms poll interval is a real device's budget, not the transport's.

Usage: python benchmarks/adb_latency.py [--repeats 30] [--steps 60] [--screens 1080x2400,540x1200]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

import adbutils
import gymnasium as gym

import android_gym  # noqa: F401
from android_gym.agents import load_agent
from android_gym.device.adb import AdbDevice
from android_gym.sim.adb_harness import private_adb_server, served_phone_process

TASK = "AndroidWorld/SendSms-v0"
T = TypeVar("T")


def cpu_seconds(pid: int) -> float:
    """The CPU seconds (user and system) the threads of process ``pid`` still running have used so far: the first
    field of each one's /proc schedstat, in nanoseconds (where /proc/PID/stat counts clock ticks of 10 ms)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            total += int((task / "schedstat").read_text().split()[0])
        except (OSError, IndexError, ValueError):  # a thread that ended just now
            continue
    return total / 1e9


def adb_server_pid(port: int) -> int:
    """The process id of the adb server listening on ``port`` (its command line names the port)."""
    for entry in Path("/proc").iterdir():
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:  # not a process, or gone
            continue
        if b"fork-server" in argv and f"tcp:{port}".encode() in argv:
            return int(entry.name)
    raise RuntimeError(f"no adb server process for port {port}")


@dataclass
class Meter:
    """Wall times of calls and the CPU time the client, the adb server and the phone spent in them."""

    pids: dict[str, int]
    walls: list[float] = field(default_factory=list)
    cpu: dict[str, float] = field(default_factory=dict)

    def time(self, operation: Callable[..., T], *args: object) -> T:
        """``operation(*args)``, measured: this process's CPU by ``time.process_time`` right around it, so reading
        the others' from /proc is not counted."""
        before = self._others()
        start, start_cpu = time.perf_counter(), time.process_time()
        result = operation(*args)
        cpu, wall = time.process_time() - start_cpu, time.perf_counter() - start
        self.walls.append(wall)
        spent = {name: cpu_seconds(pid) - before[name] for name, pid in self.pids.items() if name in before}
        for name in self.pids:
            self.cpu[name] = self.cpu.get(name, 0.0) + spent.get(name, cpu)
        return result

    def _others(self) -> dict[str, float]:
        """The CPU seconds the other processes have used so far."""
        return {name: cpu_seconds(pid) for name, pid in self.pids.items() if pid != os.getpid()}

    def figure(self) -> str:
        """``wall (client + adb server + phone CPU)`` in ms per call."""
        calls = len(self.walls)
        parts = " + ".join(f"{1000 * self.cpu[name] / calls:.1f}" for name in self.pids)
        return f"{1000 * statistics.median(self.walls):.2f} ({parts})"


def median_ms(operation: Callable[[], object], repeats: int, pids: dict[str, int]) -> str:
    """The wall-time median and mean CPU of ``operation`` in milliseconds (one warm-up call first)."""
    operation()
    meter = Meter(pids)
    for _ in range(repeats):
        meter.time(operation)
    return meter.figure()


def median_step_ms(device: str, steps: int, pixels: bool, pids: dict[str, int], seed: int = 0) -> str:
    """The wall-time median and mean CPU of one env step (valid actions; UI tree, and pixels if asked, observed)
    on ``device``; resets are not counted."""
    env = gym.make(TASK, device=device, pixels=pixels)
    agent = load_agent("random-valid", seed)
    observation, info = env.reset(seed=seed)
    agent.reset(env)
    meter = Meter(pids)
    for _ in range(steps):
        action = agent.act(observation, info)
        observation, _, terminated, truncated, info = meter.time(env.step, action)
        if terminated or truncated:
            observation, info = env.reset()
            agent.reset(env)
    env.close()
    return meter.figure()


@contextmanager
def served_phone(server_port: int, screen: str) -> Iterator[tuple[str, str, int]]:
    """A ``screen``-sized phone served in its own process on ports it takes itself (``served_phone_process``), for
    the duration, once the adb server lists it; yields its serial, gRPC address and process id."""
    with served_phone_process("--size", screen) as phone:
        adbutils.AdbClient("127.0.0.1", server_port).wait_for(phone.serial, timeout=60)
        yield phone.serial, f"127.0.0.1:{phone.grpc_port}", phone.process.pid


def measure(server_port: int, screen: str, repeats: int, steps: int) -> dict[str, str]:
    """Every row's figure for one screen size."""
    with served_phone(server_port, screen) as (serial, grpc, phone_pid):
        pids = {"client": os.getpid(), "adb server": adb_server_pid(server_port), "phone": phone_pid}
        device, device_grpc = AdbDevice(serial), AdbDevice(serial, grpc=grpc)
        adb_cli = ["adb", "-P", str(server_port), "-s", serial, "shell", "true"]
        over_adb, over_grpc = f"adb:{serial}?stabilize=off", f"adb:{serial}?stabilize=off&grpc={grpc}"
        rows = {
            "`adb shell true` (Debian adb command)": median_ms(lambda: subprocess.run(adb_cli, check=True),
                                                               repeats, pids),
            "AdbDevice.shell('true')": median_ms(lambda: device.shell("true"), repeats, pids),
            "AdbDevice.ui_dump() (dump + cat)": median_ms(device.ui_dump, repeats, pids),
            "AdbDevice.screenshot() (raw screencap)": median_ms(device.screenshot, repeats, pids),
            "AdbDevice.screenshot() (gRPC RGB888)": median_ms(device_grpc.screenshot, repeats, pids),
            "env step over adb, UI tree only": median_step_ms(over_adb, steps, False, pids),
            "env step over adb, pixels + UI tree": median_step_ms(over_adb, steps, True, pids),
            "env step over adb+gRPC, UI tree only": median_step_ms(over_grpc, steps, False, pids),
            "env step over adb+gRPC, pixels + UI tree": median_step_ms(over_grpc, steps, True, pids),
        }
        device.close()
        device_grpc.close()
    in_process = {"client": os.getpid()}
    rows["env step in process, UI tree only"] = median_step_ms(f"sim:{screen}", steps, False, in_process)
    rows["env step in process, pixels + UI tree"] = median_step_ms(f"sim:{screen}", steps, True, in_process)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=30)
    parser.add_argument("--steps", type=int, default=60)
    parser.add_argument("--screens", type=lambda text: text.split(","), default=["1080x2400", "540x1200"])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home, private_adb_server(Path(home)) as server_port:
        figures = {screen: measure(server_port, screen, args.repeats, args.steps) for screen in args.screens}
    print(f"median wall ms (mean CPU ms of this process + the adb server + the phone; in process: this one), "
          f"{args.repeats} calls / {args.steps} steps each ({TASK}, valid actions)")
    print(f"  {'':42s}" + "".join(f"{screen:>28s}" for screen in args.screens))
    for name in figures[args.screens[0]]:
        print(f"  {name:42s}" + "".join(f"{figures[screen][name]:>28s}" for screen in args.screens))


if __name__ == "__main__":
    main()
