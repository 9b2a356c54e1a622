"""Env throughput on the simulated phone: steps/s (pixels on and off), ms per reset and memory per env.

Usage: python benchmarks/throughput.py [--task AndroidWorld/SendSms-v0] [--steps 2000] [--resets 50]
"""

from __future__ import annotations

import argparse
import platform
import resource
import time

import gymnasium as gym

import android_gym  # noqa: F401


def steps_per_second(env_id: str, pixels: bool, steps: int, seed: int = 0) -> float:
    """Random-policy steps per second, resets included when episodes end (actions sampled beforehand)."""
    env = gym.make(env_id, pixels=pixels)
    env.action_space.seed(seed)
    actions = [env.action_space.sample() for _ in range(steps)]
    env.reset(seed=seed)
    start = time.perf_counter()
    for action in actions:
        _, _, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            env.reset()
    elapsed = time.perf_counter() - start
    env.close()
    return steps / elapsed


def ms_per_reset(env_id: str, resets: int) -> float:
    """Mean wall time of ``reset`` (teardown + task initialization + first observation), pixels off."""
    env = gym.make(env_id, pixels=False)
    env.reset(seed=0)
    start = time.perf_counter()
    for _ in range(resets):
        env.reset()
    elapsed = time.perf_counter() - start
    env.close()
    return 1000 * elapsed / resets


def _rss_mb() -> float:
    """Current resident set size of this process (Linux ``/proc``), MB."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize() / 2**20


def mb_per_env(env_id: str, count: int) -> float:
    """Resident memory each extra env costs after a reset with pixels on (``count`` envs kept alive)."""
    gym.make(env_id).close()  # imports, fonts and caches are paid once, before measuring
    before = _rss_mb()
    envs = [gym.make(env_id) for _ in range(count)]
    for seed, env in enumerate(envs):
        env.reset(seed=seed)
    per_env = (_rss_mb() - before) / count
    for env in envs:
        env.close()
    return per_env


def main() -> None:
    """Print the figures as a small table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--task", default="AndroidWorld/SendSms-v0")
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--resets", type=int, default=50)
    args = parser.parse_args()
    print(f"machine: {platform.machine()} {platform.processor() or ''} python {platform.python_version()}")
    print(f"task: {args.task}, random policy")
    print(f"{'steps/s, a11y only':28s} {steps_per_second(args.task, False, args.steps):10.1f}")
    print(f"{'steps/s, 1080x2400 pixels':28s} {steps_per_second(args.task, True, args.steps // 4):10.1f}")
    print(f"{'ms per reset':28s} {ms_per_reset(args.task, args.resets):10.2f}")
    print(f"{'MB per env (8 envs, pixels)':28s} {mb_per_env(args.task, 8):10.1f}")


if __name__ == "__main__":
    main()
