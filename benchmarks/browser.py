"""Chrome on the simulated phone (a real headless Chromium per phone): reset and step times of the browser tasks
and MiniWoB++ envs, and memory per env.

For each env: the first reset (it starts the phone's Chromium), the median of later resets, and the median step
while its oracle plays (seeds 1..N); memory is the proportional set size (PSS, shared pages split among the
processes sharing them) of the env's browser processes (Chromium's and Playwright's driver), plus the growth of
this Python process while the envs are open.

``--clock cpu`` times CPU instead of wall time: this process's (``time.process_time``) plus that of its browser
processes (Chromium's and Playwright's driver: user + system time from psutil, their exited children's included),
which stays comparable on a loaded machine where wall times wander; its steps are a mean (the browser processes'
times are counted in 10 ms ticks), and the table splits it into Python's part and the browser's.

Usage: python benchmarks/browser.py [--episodes 3] [--envs 3] [--device sim:540x1200] [--clock wall|cpu]

Run it from the repository root or from benchmarks/.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

import gymnasium as gym
import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent))
from throughput import format_table, machine  # noqa: E402  (the sibling benchmark)

import android_gym.envs  # noqa: E402,F401  (registers the MiniWoB ids)
from android_gym.envs.miniwob import env_id as miniwob_id  # noqa: E402
from android_gym.tasks.oracle import OraclePolicy  # noqa: E402
from android_gym.tasks.registry import env_id  # noqa: E402

T = TypeVar("T")
ENVS = (env_id("BrowserMaze"), env_id("BrowserMultiply"), env_id("BrowserDraw"), miniwob_id("click-button"),
        miniwob_id("enter-text"), miniwob_id("click-checkboxes"))


def _kib(path: str, field: str) -> int:
    try:
        with open(path) as status:
            return next((int(line.split()[1]) for line in status if line.startswith(field)), 0)
    except OSError:
        return 0


def descendants(pid: int) -> list[int]:
    """Every process under ``pid`` (from /proc's parent links)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            parent = _kib(f"/proc/{entry}/status", "PPid:")
            children.setdefault(parent, []).append(int(entry))
    found, stack = [], [pid]
    while stack:
        for child in children.get(stack.pop(), []):
            found.append(child)
            stack.append(child)
    return found


def browser_pss_mib() -> float:
    """PSS of every process this one started (the phones' Chromium and Playwright drivers), in MiB."""
    return sum(_kib(f"/proc/{pid}/smaps_rollup", "Pss:") for pid in descendants(os.getpid())) / 1024


def own_rss_mib() -> float:
    """This process's resident set, in MiB."""
    return _kib("/proc/self/status", "VmRSS:") / 1024


def browser_cpu_s() -> float:
    """CPU time (user + system, s) of every process this one started, their exited children's included."""
    total = 0.0
    for process in psutil.Process().children(recursive=True):
        with contextlib.suppress(psutil.NoSuchProcess):
            times = process.cpu_times()
            total += times.user + times.system + times.children_user + times.children_system
    return total


class Timer:
    """Times calls on a clock, in ms: ``"wall"`` (``perf_counter``) or ``"cpu"`` (this process's CPU and its browser
    processes'; the browser's part of the last call in ``browser``)."""

    def __init__(self, clock: str) -> None:
        self.clock = clock
        self.browser = 0.0

    def __call__(self, call: Callable[[], T]) -> tuple[T, float]:
        """``call()``'s result and the time it took."""
        if self.clock == "wall":
            start = time.perf_counter()
            result = call()
            return result, 1000 * (time.perf_counter() - start)
        browser = browser_cpu_s()  # read outside the timed span: psutil's reads cost this process CPU
        start = time.process_time()
        result = call()
        python = time.process_time() - start
        self.browser = 1000 * (browser_cpu_s() - browser)
        return result, 1000 * python + self.browser


def measure(env_name: str, episodes: int, device: str, timer: Timer) -> tuple[float, float, list[tuple[float, float]]]:
    """First reset, median later reset (ms) and every step's time and browser CPU (ms; 0 on the wall clock) over
    ``episodes`` oracle replays."""
    env = gym.make(env_name, pixels=True, device=device)
    (obs, info), first = timer(lambda: env.reset(seed=0))
    resets, steps = [], []
    for seed in range(1, episodes + 1):
        (obs, info), spent = timer(lambda seed=seed: env.reset(seed=seed))
        resets.append(spent)
        policy = OraclePolicy(env.unwrapped.task.oracle())
        for _ in range(env.unwrapped.task_class.max_steps()):
            action = policy.act(info["ui_elements"])
            (obs, reward, terminated, truncated, info), spent = timer(lambda action=action: env.step(action))
            steps.append((spent, timer.browser))
            if terminated or truncated:
                break
    env.close()
    return first, statistics.median(resets), steps


def memory(count: int) -> tuple[float, float]:
    """Per env, with ``count`` BrowserMaze envs open and reset (each its own phone and Chromium): browser PSS
    and Python growth, in MiB."""
    base_browser, base_rss = browser_pss_mib(), own_rss_mib()
    envs = [gym.make(env_id("BrowserMaze"), pixels=True) for _ in range(count)]
    for env in envs:
        obs, info = env.reset(seed=0)
        policy = OraclePolicy(env.unwrapped.task.oracle())
        for _ in range(8):  # through Files into Chrome: the page is shown
            obs, reward, terminated, truncated, info = env.step(policy.act(info["ui_elements"]))
    browser, rss = (browser_pss_mib() - base_browser) / count, (own_rss_mib() - base_rss) / count
    for env in envs:
        env.close()
    return browser, rss


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=3, help="timed oracle episodes per env")
    parser.add_argument("--envs", type=int, default=3, help="envs open at once for the memory figure")
    parser.add_argument("--device", default="sim", help="the phone: sim, or sim:WxH for another screen and density")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="wall time, or CPU time of this process and its browser processes")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> None:
    """Print the timing table and the memory per env."""
    args = parse_args(argv)
    print(machine())
    print(f"{args.device}, {args.clock} time")
    timer, rows = Timer(args.clock), []
    for name in ENVS:
        first, reset, steps = measure(name, args.episodes, args.device, timer)
        if args.clock == "wall":
            step = [f"{statistics.median(spent for spent, _ in steps):.0f}"]
        else:
            spent, browser = (statistics.fmean(column) for column in zip(*steps))
            step = [f"{spent:.1f}", f"{spent - browser:.1f}", f"{browser:.1f}"]
        rows.append([name, f"{first:.0f}", f"{reset:.0f}", *step, len(steps)])
    steps = ["step ms (median)"] if args.clock == "wall" else ["step ms (mean)", "of it Python", "of it browser"]
    print(format_table(["env", "first reset ms", "reset ms (median)", *steps, "steps timed"], rows))
    browser, rss = memory(args.envs)
    print(f"memory per env ({args.envs} open): browser processes {browser:.0f} MiB PSS, Python +{rss:.0f} MiB RSS")


if __name__ == "__main__":
    main()
