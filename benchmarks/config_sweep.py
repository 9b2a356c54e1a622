"""Every oracle under sampled device configurations: for each task and seed, draw a configuration from a split
(``android_gym.device.config.CONFIG_DISTRIBUTIONS``), play the task's oracle and report every run that does not
score 1.0, with its configuration and what went wrong.

Usage: python benchmarks/config_sweep.py [--split heldout|train|none] [--seeds 6] [--tasks 'Retro*'] [--jobs 2]
                                        [--phone small_phone] [--font-scale 1.3] [--language fr-FR] [--rl]

``--rl`` replays each oracle through the RL view's action ids (``make_rl_env``, ``replay_oracle_ids``), the view
PPO trains on; ``--split none`` plays on the phone as it is (no configuration drawn).

``--phone``/``--font-scale``/``--language`` keep only the runs whose drawn configuration has that value (the
draw is unchanged, so a seed names the same run with or without them). Exit status 1 when any run fails.
"""

from __future__ import annotations

import argparse
import fnmatch
import sys
import traceback
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

import gymnasium as gym
from tqdm import tqdm

from android_gym.agents import OracleAgent
from android_gym.device.config import CONFIG_DISTRIBUTIONS
from android_gym.evaluation.suite import registered
from android_gym.sim.system.chromium import keep_browser
from android_gym.tasks.registry import env_id
from android_gym.testing import replay_oracle_ids, run_episode
from android_gym.wrappers import make_rl_env


def drawn_config(env: gym.Env, seed: int, split: str) -> dict:
    """The configuration ``env`` draws at ``seed``: its generator seeded, the task's parameters drawn, then the
    split sampled (as ``AndroidEnv.reset`` does)."""
    rng = gym.utils.seeding.np_random(seed)[0]
    env.unwrapped.task_class.generate_params(rng)
    return CONFIG_DISTRIBUTIONS[split].sample(rng).as_dict()


def play(task: str, seed: int, split: str | None, device: str, only: dict[str, object],
         rl: bool) -> dict | None:
    """Play ``task``'s oracle at ``seed`` under the configuration the split draws (as it is, or through the RL
    view's ids when ``rl``): a row with the score, the steps and what went wrong (the error raised, why the RL
    replay stopped, or the first invalid actions); ``None`` when ``only`` rules the drawn configuration out (the
    oracle is not played then)."""
    if rl:
        env = make_rl_env(env_id(task), device=device, device_config=split)
    else:
        env = gym.make(env_id(task), device=device, pixels=False, device_config=split)
    try:
        config = drawn_config(env, seed, split) if split else {}
        if any(config.get(key) != value for key, value in only.items()):
            return None
        row = {"task": task, "seed": seed, "score": 0.0, "config": config, "error": ""}
        try:
            if rl:
                result, stopped = replay_oracle_ids(env, seed=seed)
            else:
                result, stopped = run_episode(env, OracleAgent(), seed=seed), None
            row.update(score=result.score, steps=result.steps,
                       error=stopped or "; ".join(result.invalid_actions[:2]))
        except Exception as error:  # noqa: BLE001 -- a sweep reports every failure and goes on
            row["error"] = traceback.format_exception_only(error)[-1].strip()
        return row
    finally:
        env.close()


def keep_the_browser() -> None:
    """A worker's Chrome runs share one Chromium, started at its first page and kept until the worker exits."""
    keep_browser().__enter__()


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--split", default="heldout",
                        help="the configuration distribution: train or heldout; 'none' leaves the phone as it is")
    parser.add_argument("--rl", action="store_true", help="replay the oracles through the RL view's action ids")
    parser.add_argument("--seeds", type=int, default=6, help="seeds per task, 0..N-1")
    parser.add_argument("--tasks", default="*", help="a glob over task names (default: every registered task)")
    parser.add_argument("--device", default="sim:270x600", help="the device each env runs on")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--phone", help="keep only runs drawn on this phone")
    parser.add_argument("--font-scale", type=float, help="keep only runs drawn at this font scale")
    parser.add_argument("--language", help="keep only runs drawn in this language")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> list[dict]:
    """Run the sweep, print the failures and a summary; returns the failed rows."""
    args = parse_args(argv)
    split = None if args.split == "none" else args.split
    only = {key: value for key, value in (("phone", args.phone), ("font_scale", args.font_scale),
                                          ("language", args.language)) if value is not None}
    tasks = [name for name in registered() if fnmatch.fnmatchcase(name, args.tasks)]
    runs = [(task, seed) for task in tasks for seed in range(args.seeds)]
    rows, failed = [], []
    with ProcessPoolExecutor(args.jobs, initializer=keep_the_browser) as pool:
        futures = [pool.submit(play, task, seed, split, args.device, only, args.rl) for task, seed in runs]
        for future in tqdm(futures, desc=f"oracles under {args.split}", unit="run", file=sys.stderr):
            row = future.result()
            if row is None:
                continue
            rows.append(row)
            if row["score"] != 1.0:
                failed.append(row)
                tqdm.write(f"FAIL {row['task']} seed {row['seed']} score {row['score']:.2f} {row['config']} "
                           f"{row['error']}", file=sys.stderr)
    print(f"{len(rows) - len(failed)} of {len(rows)} runs scored 1.0 ({args.split}, {len(tasks)} tasks, "
          f"seeds 0-{args.seeds - 1}{', ' + str(only) if only else ''})")
    for row in failed:
        print(f"  {row['task']} seed {row['seed']}: {row['score']:.2f} {row['config']} {row['error']}")
    return failed


if __name__ == "__main__":
    sys.exit(1 if main() else 0)
