"""PPO with stable-baselines3's CnnPolicy on the pixels view of a task (``make_pixel_env``: the screen scaled down,
a discrete touch grid), evaluated on held-out seeds.

    python benchmarks/learning_pixels.py --task ClockStopWatchRunning --steps 150000 --out runs/pixels/stopwatch

``--workers`` envs run in SB3's ``SubprocVecEnv``, each its own simulated phone; worker ``i`` is seeded once with
``seed + i`` and every episode draws fresh task parameters from that stream. Every ``--eval-every`` env steps the
policy plays the held-out seeds from ``--eval-seed`` (10,000; training never seeds them), greedily (its most likely
action) and sampling. Prints a line per evaluation and the figures at the end: env steps/s of training (PPO updates
included, evaluations not), held-out success; writes ``curve.png`` (success vs env steps), ``summary.json`` (the
figures and every curve point) and ``model.zip`` (``PPO.load``, then act on the same ``make_pixel_env``) to ``--out``.
"""

from __future__ import annotations

import argparse
import json
import re
import time
from collections.abc import Sequence
from dataclasses import asdict
from functools import partial
from pathlib import Path
from typing import Any

import torch
from _examples import load_example  # the sibling modules: run as python benchmarks/learning_pixels.py
from stable_baselines3 import PPO
from stable_baselines3.common.env_util import make_vec_env
from stable_baselines3.common.vec_env import SubprocVecEnv
from throughput import machine

import android_gym
from android_gym.wrappers.rl_pixels import DEFAULT_GRID, DEFAULT_SHAPE, make_pixel_env

PPO_ARGS = ("n_steps", "batch_size", "n_epochs", "ent_coef")  # the hyper-parameters the summary records
_SIZE = re.compile(r"(\d+)x(\d+)")
#: examples/train_ppo.py: its curve points, held-out evaluation, plot and success threshold serve here too
train_ppo = load_example("train_ppo")


def size(text: str) -> tuple[int, int]:
    """``AxB`` as ``(A, B)`` (argparse type of ``--shape`` and ``--grid``)."""
    match = _SIZE.fullmatch(text)
    if match is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not AxB, e.g. 20x9")
    return int(match.group(1)), int(match.group(2))


class TimedEvaluation(train_ppo.HeldOutEvaluation):
    """train_ppo's held-out evaluation (greedy and sampling, training episodes since the last point), also adding
    up the time spent evaluating, to keep it apart from training's."""

    eval_seconds = 0.0

    def record(self, env_steps: int) -> train_ppo.CurvePoint:
        begin = time.perf_counter()
        point = super().record(env_steps)
        self.eval_seconds += time.perf_counter() - begin
        return point


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--task", default="ClockStopWatchRunning", help="task name or AndroidWorld/<Task>-v0 id")
    parser.add_argument("--steps", type=int, default=150_000, help="training env steps (all workers)")
    parser.add_argument("--workers", type=int, default=2, help="SubprocVecEnv workers, one phone each")
    parser.add_argument("--device", default=None, help="device spec of every env (default: the 1080x2400 sim)")
    parser.add_argument("--shape", type=size, default=DEFAULT_SHAPE, help="observation HEIGHTxWIDTH")
    parser.add_argument("--rgb", action="store_true", help="three colour channels instead of grey")
    parser.add_argument("--frame-stack", type=int, default=1)
    parser.add_argument("--grid", type=size, default=DEFAULT_GRID, help="touch grid ROWSxCOLUMNS")
    parser.add_argument("--seed", type=int, default=0, help="training seed; worker i's env is seeded seed + i")
    parser.add_argument("--eval-seed", type=int, default=10_000, help="first held-out seed")
    parser.add_argument("--eval-episodes", type=int, default=50)
    parser.add_argument("--eval-every", type=int, default=10_000, help="env steps between evaluations")
    parser.add_argument("--n-steps", type=int, default=256, help="PPO rollout length per worker")
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--n-epochs", type=int, default=10)
    parser.add_argument("--ent-coef", type=float, default=0.01)
    parser.add_argument("--torch-threads", type=int, default=1,
                        help="torch threads of the learner (1: the workers keep the other cores)")
    parser.add_argument("--out", type=Path, default=Path("runs/pixels"))
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    """Train, evaluate, save; returns the summary it writes."""
    args = parse_args(argv)
    torch.set_num_threads(args.torch_threads)
    task = args.task.removeprefix(f"{android_gym.NAMESPACE}/").removesuffix("-v0")
    env_id = android_gym.env_id(android_gym.get_task(task).name)
    view = {"shape": args.shape, "grayscale": not args.rgb, "frame_stack": args.frame_stack, "grid": args.grid}
    make = partial(make_pixel_env, env_id, args.device, **view)  # pickles by reference for the workers
    eval_env = make()
    seeds = list(range(args.eval_seed, args.eval_seed + args.eval_episodes))
    args.out.mkdir(parents=True, exist_ok=True)
    host = machine()
    print(f"machine: {host}\nPPO CnnPolicy on {env_id}, {view}, {eval_env.observation_space}, "
          f"{eval_env.action_space}; {args.workers} workers, {args.steps:,} steps, held-out seeds "
          f"{seeds[0]}..{seeds[-1]}", flush=True)
    workers = make_vec_env(make, n_envs=args.workers, seed=args.seed, vec_env_cls=SubprocVecEnv)
    model = PPO("CnnPolicy", workers, n_steps=args.n_steps, batch_size=args.batch_size, n_epochs=args.n_epochs,
                ent_coef=args.ent_coef, seed=args.seed, verbose=0, device="cpu")
    evaluation = TimedEvaluation(eval_env, seeds, args.eval_every, time.perf_counter())
    evaluation.init_callback(model)
    evaluation.record(0)
    model.learn(total_timesteps=args.steps, callback=evaluation)
    if evaluation.points[-1].env_steps != model.num_timesteps:
        evaluation.record(model.num_timesteps)
    wall = time.perf_counter() - evaluation.start
    workers.close()
    eval_env.close()

    model.save(args.out / "model.zip")
    title = f"PPO CnnPolicy on {task}: {args.shape[0]}x{args.shape[1]} pixels, {args.grid[0]}x{args.grid[1]} grid"
    train_ppo.plot_curve(evaluation.points, args.out / "curve.png", title)
    final, train_seconds = evaluation.points[-1], wall - evaluation.eval_seconds
    solved = [point.env_steps for point in evaluation.points if point.eval_success >= train_ppo.SUCCESS]
    training = [point for point in evaluation.points if point.train_success is not None]
    summary = {"env_id": env_id, "view": view, "device": args.device or "sim (1080x2400)", "workers": args.workers,
               "seed": args.seed, "ppo": {key: getattr(args, key) for key in PPO_ARGS},
               "torch_threads": args.torch_threads, "env_steps": model.num_timesteps,
               "wall_seconds": round(wall, 1), "eval_seconds": round(evaluation.eval_seconds, 1),
               "train_env_steps_per_second": round(model.num_timesteps / train_seconds, 1),
               "held_out_seeds": [seeds[0], seeds[-1]], "final_held_out_success": final.eval_success,
               "final_held_out_success_sampled": final.eval_success_sampled,
               "final_mean_steps": final.eval_mean_steps,
               "first_steps_greedy_solved": solved[0] if solved else None,
               "training_episodes": sum(point.train_episodes for point in training),
               "training_episodes_solved": round(sum(point.train_success * point.train_episodes
                                                     for point in training)),
               "machine": host, "curve": [asdict(point) for point in evaluation.points]}
    (args.out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    print(f"done: {model.num_timesteps:,} env steps in {wall:.0f} s ({evaluation.eval_seconds:.0f} s of it "
          f"evaluating): {summary['train_env_steps_per_second']:.0f} env steps/s training; held-out success "
          f"greedy {final.eval_success:.2f}, sampling {final.eval_success_sampled:.2f} "
          f"(mean {final.eval_mean_steps:.1f} steps); training episodes solved "
          f"{summary['training_episodes_solved']:,} of {summary['training_episodes']:,}; curve.png, summary.json "
          f"and model.zip in {args.out}")
    return summary


if __name__ == "__main__":
    main()
