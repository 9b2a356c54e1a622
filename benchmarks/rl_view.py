"""Steps per second of the RL view (``make_rl_env``: the element, text and goal features and the action mask
MaskablePPO trains on) on the simulated phone, under a seeded random policy over the masked action ids, as
MaskablePPO's rollouts call it: ``step``, then ``action_masks()``. Resets are included.

Usage: python benchmarks/rl_view.py [--tasks SendSms,ExpenseDeleteMultiple2] [--steps 400] [--seed 0]
                                    [--clock wall|cpu]

``--clock cpu`` times this process's CPU (``time.process_time``), which stays comparable on a loaded machine; the
Chromium a step may wait on is another process and not counted then. Each env is warmed by 50 untimed steps. Run it
from the repository root or from benchmarks/.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from throughput import CLOCKS, format_table, machine  # noqa: E402  (the sibling benchmark)

from android_gym.tasks.registry import env_id  # noqa: E402
from android_gym.wrappers.rl_env import make_rl_env  # noqa: E402

WARM_STEPS = 50


def rl_steps_per_second(task: str, steps: int, seed: int = 0, clock: str = "wall") -> float:
    """RL-view steps per second of ``task`` on ``clock`` over ``steps`` random masked steps after the warm-up."""
    env = make_rl_env(env_id(task))
    masks = env.get_wrapper_attr("action_masks")
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    mask = masks()

    def walk(count: int) -> None:
        nonlocal mask
        for _ in range(count):
            _, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
            if terminated or truncated:
                env.reset()
            mask = masks()

    walk(WARM_STEPS)
    now = CLOCKS[clock]
    start = now()
    walk(steps)
    elapsed = now() - start
    env.close()
    return steps / elapsed


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tasks", default="SendSms,ExpenseDeleteMultiple2", help="comma-separated task names")
    parser.add_argument("--steps", type=int, default=400, help="timed steps per task")
    parser.add_argument("--seed", type=int, default=0, help="the env's and the policy's seed")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall",
                        help="wall time, or this process's CPU time (steady on a loaded machine)")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> dict[str, float]:
    """Print RL-view steps per second per task; returns them."""
    args = parse_args(argv)
    tasks = [name for name in args.tasks.split(",") if name]
    print(f"machine: {machine()}")
    print(f"make_rl_env, random masked ids (seed {args.seed}), {args.steps} steps per task after {WARM_STEPS} "
          f"warm ones, resets included ({args.clock} time)")
    rates = {task: rl_steps_per_second(task, args.steps, args.seed, args.clock) for task in tasks}
    print(format_table(("task", "RL steps/s"), [(task, f"{rate:,.0f}") for task, rate in rates.items()]))
    return rates


if __name__ == "__main__":
    main()
