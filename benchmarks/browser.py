"""Chrome on the simulated phone (a real headless Chromium per phone): reset and step times of the browser tasks
and MiniWoB++ envs, and memory per env.

For each env: the first reset (it starts the phone's Chromium), the median of later resets, and the median step
while its oracle plays (seeds 1..N); memory is the proportional set size (PSS, shared pages split among the
processes sharing them) of the env's browser processes (Chromium's and Playwright's driver), plus the growth of
this Python process while the envs are open.

Usage: python benchmarks/browser.py [--episodes 3] [--envs 3]

Run it from the repository root or from benchmarks/.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import gymnasium as gym

sys.path.insert(0, str(Path(__file__).resolve().parent))
from throughput import format_table, machine  # noqa: E402  (the sibling benchmark)

import android_gym.envs  # noqa: E402,F401  (registers the MiniWoB ids)
from android_gym.envs.miniwob import env_id as miniwob_id  # noqa: E402
from android_gym.tasks.oracle import OraclePolicy  # noqa: E402
from android_gym.tasks.registry import env_id  # noqa: E402

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


def measure(env_name: str, episodes: int) -> tuple[float, float, float, int]:
    """First reset, median later reset and median step (ms) over ``episodes`` oracle replays; steps played."""
    env = gym.make(env_name, pixels=True)
    start = time.perf_counter()
    obs, info = env.reset(seed=0)
    first = 1000 * (time.perf_counter() - start)
    resets, steps = [], []
    for seed in range(1, episodes + 1):
        start = time.perf_counter()
        obs, info = env.reset(seed=seed)
        resets.append(1000 * (time.perf_counter() - start))
        policy = OraclePolicy(env.unwrapped.task.oracle())
        for _ in range(env.unwrapped.task_class.max_steps()):
            action = policy.act(info["ui_elements"])
            start = time.perf_counter()
            obs, reward, terminated, truncated, info = env.step(action)
            steps.append(1000 * (time.perf_counter() - start))
            if terminated or truncated:
                break
    env.close()
    return first, statistics.median(resets), statistics.median(steps), len(steps)


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
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> None:
    """Print the timing table and the memory per env."""
    args = parse_args(argv)
    print(machine())
    rows = []
    for name in ENVS:
        first, reset, step, steps = measure(name, args.episodes)
        rows.append([name, f"{first:.0f}", f"{reset:.0f}", f"{step:.0f}", steps])
    print(format_table(["env", "first reset ms", "reset ms (median)", "step ms (median)", "steps timed"], rows))
    browser, rss = memory(args.envs)
    print(f"memory per env ({args.envs} open): browser processes {browser:.0f} MiB PSS, Python +{rss:.0f} MiB RSS")


if __name__ == "__main__":
    main()
