"""Env throughput on the simulated phone, per screen size: steps/s (pixels on and off), ms per reset and memory per
env, one process, a seeded policy: samples of the action space (``random``, the default) or actions on what is on
screen (``random-valid``, as DESIGN.md's targets table asks: an agent's steps mostly change the screen).

Usage: python benchmarks/throughput.py [--task AndroidWorld/SendSms-v0] [--screens 1080x2400,540x1200]
                                       [--steps 2000] [--policy random|random-valid] [--share-pixels]
                                       [--resets 50] [--memory-envs 8] [--memory-steps 300] [--clock wall|cpu]

Steps that show Chrome (before or after them) wait on the phone's real Chromium, whose page work is not the
simulator's; the dock has Chrome, so a random policy opens it now and then: the table gives the share of the time such
steps took and the steps/s of the others ("outside Chrome") next to the overall figure.

``--clock cpu`` times this process's CPU (``time.process_time``: all its threads, not the Chromium it talks to),
which stays comparable on a loaded machine where wall times wander: steps per CPU second.

Each figure gets a fresh env. Memory is measured in a fresh interpreter per screen (this script with
``--memory-only``), so what earlier measurements left in the heap does not hide what an env costs: right after a reset,
and in the steady state, after each env took ``--memory-steps`` steps of the random-valid policy (the screens it
went through drawn, their pictures scaled and kept). The steady state needs a few hundred steps: an env's kept screens
fill until then, and the process's stores slowly after (SendSms at 1080x2400, 8 envs: 34 MB each after 40 steps, 33
after 300, 36 after 1,500). The figure is the growth over the count, so it also holds a share of what the process
keeps for all envs (text masks and tiles, bars' looks, maps, pictures handed as they are): with more envs per process,
each costs less.
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import os
import platform
import re
import resource
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import gymnasium as gym

from android_gym.agents import load_agent
from android_gym.errors import AndroidGymError

SCREEN = re.compile(r"(\d+)x(\d+)")
COLUMNS = ("screen", "steps/s a11y only", "a11y outside Chrome", "Chrome share a11y", "steps/s pixels",
           "pixels outside Chrome", "Chrome share pixels", "reset ms a11y only", "reset ms pixels", "MB/env (pixels)",
           "MB/env steady")
#: What a timed figure is measured on: wall time, or this process's CPU time.
CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}
#: The uiautomator dump's nodes name the package of the window they belong to.
BROWSER_NODE = 'package="com.android.chrome"'


@dataclass(frozen=True)
class Rate:
    """Steps per second over a run; the share of its time taken by steps that showed Chrome (before or after the
    step), and the steps per second of the other steps."""

    steps_per_second: float
    browser_share: float
    outside_browser: float


def machine() -> str:
    """One line naming the machine: CPUs usable, CPU model, OS, Python, and the load when the benchmark starts."""
    model = platform.processor() or "unknown CPU"
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            model = next((line.split(":", 1)[1].strip() for line in cpuinfo if line.startswith("model name")), model)
    except OSError:
        pass
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    load = f", load average {os.getloadavg()[0]:.1f} at start" if hasattr(os, "getloadavg") else ""
    return (f"{cpus} CPUs ({model}), {platform.machine()}, {platform.system()} {platform.release()}, "
            f"Python {platform.python_version()}{load}")


def format_table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A Markdown table with padded columns (readable in a terminal, pasteable into the README)."""
    cells = [list(map(str, header)), *[[str(cell) for cell in row] for row in rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]

    def line(row: Sequence[str]) -> str:
        return "| " + " | ".join(cell.rjust(width) if i else cell.ljust(width)
                                 for i, (cell, width) in enumerate(zip(row, widths))) + " |"

    rule = "|" + "|".join("-" * (width + 2) for width in widths) + "|"
    return "\n".join([line(cells[0]), rule, *map(line, cells[1:])])


def screen_size(text: str) -> str:
    """``WIDTHxHEIGHT`` (argparse type of one ``--screens`` entry)."""
    if not SCREEN.fullmatch(text):
        raise argparse.ArgumentTypeError(f"screen {text!r} is not WIDTHxHEIGHT, e.g. 540x1200")
    return text


def start_browser(env: gym.Env) -> None:
    """Open Chrome once before timing: the first start of the phone's browser (a headless Chromium, ~1.4 s) is a
    once-per-process cost, and a random policy that taps Chrome's dock icon would otherwise bill it to the steps of
    whichever run happens to tap it."""
    env.reset(seed=0)
    env.unwrapped.device.shell("monkey -p com.android.chrome -c android.intent.category.LAUNCHER 1")
    try:
        env.unwrapped.device.ui_dump()
    except AndroidGymError:  # no Chromium installed (the `web` extra): Chrome shows nothing to start
        pass


def steps_per_second(env_id: str, pixels: bool, steps: int, seed: int = 0, device: str = "sim",
                     policy: str = "random", before_timing: Callable[[], object] | None = None,
                     share_pixels: bool = False, clock: str = "wall") -> Rate:
    """Env steps per second under ``policy`` (an ``android_gym.agents`` name: ``random`` samples the action space,
    ``random-valid`` taps, types and scrolls what is on screen, goes back or home or opens the task's app), resets
    included when episodes end; only ``step`` and ``reset`` are timed, not the policy, after ``start_browser``.
    Whether a step showed Chrome is read from the observations' trees (no call to the device). ``before_timing``
    is called once the env is ready, just before the timed steps (other processes' start line). ``share_pixels``
    as the env takes it (observations hold the screen itself, the same array while it does not change); ``clock``
    a ``CLOCKS`` name."""
    now = CLOCKS[clock]
    env = gym.make(env_id, pixels=pixels, device=device, share_pixels=share_pixels)
    agent = load_agent(policy, seed)
    start_browser(env)
    observation, info = env.reset(seed=seed)
    agent.reset(env)
    if before_timing is not None:
        before_timing()
    elapsed = in_browser = 0.0
    browser_steps = 0
    for _ in range(steps):
        action = agent.act(observation, info)
        shown_before = BROWSER_NODE in observation["a11y_tree"]
        start = now()
        observation, _, terminated, truncated, info = env.step(action)
        shown_after = BROWSER_NODE in observation["a11y_tree"]
        if terminated or truncated:
            observation, info = env.reset()
        took = now() - start
        elapsed += took
        if shown_before or shown_after:
            in_browser += took
            browser_steps += 1
        if terminated or truncated:
            agent.reset(env)
    env.close()
    outside = (steps - browser_steps) / (elapsed - in_browser) if browser_steps < steps else 0.0
    return Rate(steps / elapsed, in_browser / elapsed, outside)


def ms_per_reset(env_id: str, resets: int, pixels: bool = False, device: str = "sim", clock: str = "wall") -> float:
    """Mean time of ``reset`` (teardown + task initialization + first observation) on ``clock`` (``CLOCKS``)."""
    now = CLOCKS[clock]
    env = gym.make(env_id, pixels=pixels, device=device)
    env.reset(seed=0)
    start = now()
    for _ in range(resets):
        env.reset()
    elapsed = now() - start
    env.close()
    return 1000 * elapsed / resets


def _rss_mb() -> float:
    """Current resident set size of this process (Linux ``/proc``), MB, once the garbage collector ran (objects in
    reference cycles, which a benchmark's last steps may have left, are not counted)."""
    gc.collect()
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize() / 2**20


def _release_freed() -> None:
    """Give the pages of freed heap memory back to the kernel (glibc's ``malloc_trim``; nothing elsewhere)."""
    try:
        ctypes.CDLL(None).malloc_trim(0)
    except (OSError, AttributeError):
        pass


def mb_per_env(env_id: str, count: int, device: str = "sim", steps: int = 0) -> tuple[float, float]:
    """Resident memory each extra env costs (``count`` envs kept alive, pixels on), measured in this process: after a
    reset, and after ``steps`` more steps of the random-valid policy in each (the last observations dropped).

    The baseline is taken once the warm-up env's freed memory is given back: glibc keeps it resident for reuse, and
    the envs measured would otherwise get that much for free, a share that moves with how the warm-up env happened
    to free its memory, not with what an env costs. The readings after that are not trimmed: memory freed during the
    steps that glibc keeps resident between blocks still in use counts, as the process holds it (SendSms, 300 steps:
    under 1 MB per env)."""
    def run(env: gym.Env, seed: int, steps: int) -> None:
        agent = load_agent("random-valid", seed)
        observation, info = env.reset(seed=seed)
        agent.reset(env)
        for _ in range(steps):
            observation, _, terminated, truncated, info = env.step(agent.act(observation, info))
            if terminated or truncated:
                observation, info = env.reset()
                agent.reset(env)

    warm = gym.make(env_id, device=device)  # imports, fonts and caches are paid once, before measuring
    run(warm, 0, steps)
    warm.close()
    _release_freed()
    before = _rss_mb()
    envs = [gym.make(env_id, device=device) for _ in range(count)]
    for seed, env in enumerate(envs):
        env.reset(seed=seed)
    after_reset = (_rss_mb() - before) / count
    for seed, env in enumerate(envs):
        run(env, seed, steps)
    steady = (_rss_mb() - before) / count
    for env in envs:
        env.close()
    return after_reset, steady


def mb_per_env_fresh(env_id: str, count: int, screen: str, steps: int) -> tuple[float, float]:
    """``mb_per_env`` measured in a fresh interpreter (this script with ``--memory-only``)."""
    command = [sys.executable, str(Path(__file__).resolve()), "--memory-only", "--task", env_id,
               "--screens", screen, "--memory-envs", str(count), "--memory-steps", str(steps)]
    after_reset, steady = subprocess.run(command, check=True, capture_output=True, text=True).stdout.split()
    return float(after_reset), float(steady)


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--task", default="AndroidWorld/SendSms-v0")
    parser.add_argument("--screens", type=lambda text: [screen_size(item) for item in text.split(",")],
                        default=["1080x2400", "540x1200"], help="simulated screens WIDTHxHEIGHT, comma-separated")
    parser.add_argument("--steps", type=int, default=2000, help="steps a11y only (a quarter of them with pixels)")
    parser.add_argument("--policy", default="random", choices=("random", "random-valid"),
                        help="random: samples of the action space (many do nothing); random-valid: actions on what "
                             "is on screen, as an agent's steps are")
    parser.add_argument("--share-pixels", action="store_true",
                        help="observations hold the screen itself, the same array while it does not change (the env's "
                             "share_pixels)")
    parser.add_argument("--resets", type=int, default=50)
    parser.add_argument("--memory-envs", type=int, default=8, help="envs kept alive to measure memory per env")
    parser.add_argument("--memory-steps", type=int, default=300,
                        help="random-valid steps each env takes before the steady-state memory is measured")
    parser.add_argument("--memory-only", action="store_true",
                        help="print only MB per env for the first screen after a reset and in the steady state, "
                             "measured in this process")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall",
                        help="wall time, or this process's CPU time (steps per CPU second; steady on a loaded machine)")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> list[dict[str, object]]:
    """Print the figures as one table (a row per screen); returns the rows."""
    args = parse_args(argv)
    if args.memory_only:
        after_reset, steady = mb_per_env(args.task, args.memory_envs, f"sim:{args.screens[0]}", args.memory_steps)
        print(f"{after_reset:.2f} {steady:.2f}")
        return []
    print(f"machine: {machine()}")
    print(f"task: {args.task}, seeded {args.policy} policy, one process, {args.clock} time; steps/s over "
          f"{args.steps} steps a11y only and {max(1, args.steps // 4)} with pixels"
          f"{' (shared)' if args.share_pixels else ''}, resets included; "
          f"reset over {args.resets}; memory with {args.memory_envs} envs alive, after a reset and after "
          f"{args.memory_steps} random-valid steps each (steady)")
    rows = []
    for screen in args.screens:
        device = f"sim:{screen}"
        a11y = steps_per_second(args.task, False, args.steps, device=device, policy=args.policy, clock=args.clock)
        pixels = steps_per_second(args.task, True, max(1, args.steps // 4), device=device, policy=args.policy,
                                  share_pixels=args.share_pixels, clock=args.clock)
        figures = (a11y.steps_per_second, a11y.outside_browser, a11y.browser_share,
                   pixels.steps_per_second, pixels.outside_browser, pixels.browser_share,
                   ms_per_reset(args.task, args.resets, pixels=False, device=device, clock=args.clock),
                   ms_per_reset(args.task, args.resets, pixels=True, device=device, clock=args.clock),
                   *mb_per_env_fresh(args.task, args.memory_envs, screen, args.memory_steps))
        rows.append(dict(zip(COLUMNS, (screen, *figures))))
    formats = ("{}", "{:,.0f}", "{:,.0f}", "{:.0%}", "{:,.0f}", "{:,.0f}", "{:.0%}", "{:.2f}", "{:.2f}", "{:.1f}",
               "{:.1f}")
    print(format_table(COLUMNS, [[spec.format(row[column]) for spec, column in zip(formats, COLUMNS)]
                                 for row in rows]))
    return rows


if __name__ == "__main__":
    main()
