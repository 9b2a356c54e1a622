"""Reset time over the whole task catalogue on the simulated phone: per task, the median wall time of ``reset``
(teardown of the previous episode, new parameters, app state set up over the device, first observation), then the
median and worst over the catalogue and the slowest tasks.

Usage: python benchmarks/resets.py [--resets 5] [--tasks 'Expense*'] [--pixels] [--slowest 10]
                                  [--device-config train] [--clock wall|cpu]

``--clock cpu`` times this process's CPU (``time.process_time``: all its threads, not the Chromium or adb
processes it talks to), which stays comparable on a loaded machine where wall times wander.

``--device-config train`` draws a phone configuration per episode (``android_gym.device.config``), so most
timed resets change the configuration as well.

One env per task, warmed by one reset that is not timed. Run it from the repository root or from benchmarks/.
"""

from __future__ import annotations

import argparse
import fnmatch
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path

import gymnasium as gym

sys.path.insert(0, str(Path(__file__).resolve().parent))
from throughput import CLOCKS, format_table, machine  # noqa: E402  (the sibling benchmark)

from android_gym.tasks.registry import env_id, task_names  # noqa: E402


def median_reset_ms(task: str, resets: int, pixels: bool, device_config: str | None = None,
                    clock: str = "wall") -> float:
    """Median time of ``reset`` for ``task`` on ``clock`` (``CLOCKS``), in ms, after one untimed warm-up reset."""
    now = CLOCKS[clock]
    env = gym.make(env_id(task), pixels=pixels, device_config=device_config)
    env.reset(seed=0)
    times = []
    for seed in range(1, resets + 1):
        start = now()
        env.reset(seed=seed)
        times.append(1000 * (now() - start))
    env.close()
    return statistics.median(times)


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--resets", type=int, default=5, help="timed resets per task")
    parser.add_argument("--tasks", default="*", help="a glob over task names (default: every registered task)")
    parser.add_argument("--pixels", action="store_true", help="observations with pixels")
    parser.add_argument("--slowest", type=int, default=10, help="how many of the slowest tasks to list")
    parser.add_argument("--device-config", help="draw a device configuration per episode: 'train' or 'heldout'")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall",
                        help="wall time, or this process's CPU time (steady on a loaded machine)")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> dict[str, float]:
    """Print the catalogue's median and worst reset and the slowest tasks; returns ms per task."""
    args = parse_args(argv)
    tasks = [name for name in task_names(include_aliases=False) if fnmatch.fnmatchcase(name, args.tasks)]
    if not tasks:
        raise SystemExit(f"no registered task matches {args.tasks!r}")
    print(f"machine: {machine()}")
    print(f"{len(tasks)} tasks, median of {args.resets} resets each ({args.clock} time), "
          f"{'with' if args.pixels else 'without'} pixels"
          + (f", device configurations drawn from {args.device_config!r}" if args.device_config else ""))
    per_task = {task: median_reset_ms(task, args.resets, args.pixels, args.device_config, args.clock)
                for task in tasks}
    values = sorted(per_task.values())
    print(format_table(("catalogue", "median reset ms", "worst reset ms"),
                       [("all tasks", f"{statistics.median(values):.2f}", f"{values[-1]:.2f}")]))
    slowest = sorted(per_task.items(), key=lambda item: -item[1])[:args.slowest]
    print(format_table(("slowest task", "median reset ms"), [(task, f"{ms:.2f}") for task, ms in slowest]))
    return per_task


if __name__ == "__main__":
    main()
