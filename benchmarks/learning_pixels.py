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
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import torch
from stable_baselines3 import PPO
from stable_baselines3.common.base_class import BaseAlgorithm
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.env_util import make_vec_env
from stable_baselines3.common.vec_env import SubprocVecEnv
from throughput import machine  # the sibling script: run as python benchmarks/learning_pixels.py

import android_gym
from android_gym.agents import ModelAgent
from android_gym.testing import run_episode
from android_gym.wrappers.rl_pixels import DEFAULT_GRID, DEFAULT_SHAPE, make_pixel_env

PPO_ARGS = ("n_steps", "batch_size", "n_epochs", "ent_coef")  # the hyper-parameters the summary records
SUCCESS = 1.0  # an episode succeeds when its rewards sum to the full task score
_SIZE = re.compile(r"(\d+)x(\d+)")


@dataclass
class CurvePoint:
    """One evaluation after ``env_steps`` training steps: held-out success greedy and sampling, and the training
    episodes finished since the previous point."""

    env_steps: int
    wall_seconds: float
    eval_success: float
    eval_success_sampled: float
    eval_mean_steps: float
    train_success: float | None
    train_episodes: int


def size(text: str) -> tuple[int, int]:
    """``AxB`` as ``(A, B)`` (argparse type of ``--shape`` and ``--grid``)."""
    match = _SIZE.fullmatch(text)
    if match is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not AxB, e.g. 20x9")
    return int(match.group(1)), int(match.group(2))


def evaluate(model: BaseAlgorithm, env: gym.Env, seeds: Sequence[int], deterministic: bool) -> tuple[float, float]:
    """Success rate and mean episode length of the policy, one episode per seed."""
    episodes = [run_episode(env, ModelAgent(model, deterministic), seed=seed) for seed in seeds]
    return (sum(episode.total_reward >= SUCCESS for episode in episodes) / len(seeds),
            float(np.mean([episode.steps for episode in episodes])))


class HeldOutEvaluation(BaseCallback):
    """Every ``every`` env steps: evaluate on the held-out seeds, note the training episodes' success, and keep
    the time spent evaluating apart from training's."""

    def __init__(self, env: gym.Env, seeds: Sequence[int], every: int) -> None:
        super().__init__()
        self.env, self.seeds, self.every = env, seeds, every
        self.points: list[CurvePoint] = []
        self.start = time.perf_counter()
        self.eval_seconds = 0.0
        self.train_results: list[bool] = []
        self._next, self._since = every, 0

    def record(self, env_steps: int) -> CurvePoint:
        """Evaluate now and append a curve point."""
        begin = time.perf_counter()
        success, mean_steps = evaluate(self.model, self.env, self.seeds, deterministic=True)
        sampled, _ = evaluate(self.model, self.env, self.seeds, deterministic=False)
        self.eval_seconds += time.perf_counter() - begin
        recent = self.train_results[self._since:]
        self._since = len(self.train_results)
        point = CurvePoint(env_steps, round(time.perf_counter() - self.start, 1), success, sampled, mean_steps,
                           float(np.mean(recent)) if recent else None, len(recent))
        self.points.append(point)
        train = "-" if point.train_success is None else f"{point.train_success:.2f} of {len(recent)}"
        print(f"steps {env_steps:>8,}  held-out success greedy {success:.2f} sampling {sampled:.2f}  mean steps "
              f"{mean_steps:4.1f}  training episodes {train}  {point.wall_seconds:7.1f} s", flush=True)
        return point

    def _on_step(self) -> bool:
        self.train_results += [info["episode"]["r"] >= SUCCESS for info in self.locals["infos"] if "episode" in info]
        if self.num_timesteps >= self._next:
            self._next += self.every
            self.record(self.num_timesteps)
        return True


def plot_curve(points: Sequence[CurvePoint], path: Path, title: str) -> None:
    """Success rate vs env steps (held-out greedy and sampling, training episodes) as a small PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(6.4, 4.0), dpi=100)
    steps = [point.env_steps for point in points]
    axes.plot(steps, [point.eval_success for point in points], marker="o", label="held-out seeds, greedy")
    axes.plot(steps, [point.eval_success_sampled for point in points], marker="s", label="held-out seeds, sampling")
    train = [(point.env_steps, point.train_success) for point in points if point.train_success is not None]
    if train:
        axes.plot(*zip(*train), marker=".", linestyle="--", label="training episodes")
    axes.set(xlabel="env steps", ylabel="success rate", ylim=(-0.03, 1.03), title=title)
    axes.grid(alpha=0.3)
    axes.legend(loc="center right")
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)


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
    evaluation = HeldOutEvaluation(eval_env, seeds, args.eval_every)
    evaluation.init_callback(model)
    evaluation.record(0)
    model.learn(total_timesteps=args.steps, callback=evaluation)
    if evaluation.points[-1].env_steps != model.num_timesteps:
        evaluation.record(model.num_timesteps)
    wall = time.perf_counter() - evaluation.start
    workers.close()
    eval_env.close()

    model.save(args.out / "model.zip")
    plot_curve(evaluation.points, args.out / "curve.png",
               f"PPO CnnPolicy on {task}: {args.shape[0]}x{args.shape[1]} pixels, {args.grid[0]}x{args.grid[1]} grid")
    final, train_seconds = evaluation.points[-1], wall - evaluation.eval_seconds
    solved = [point.env_steps for point in evaluation.points if point.eval_success >= SUCCESS]
    summary = {"env_id": env_id, "view": view, "device": args.device or "sim (1080x2400)", "workers": args.workers,
               "seed": args.seed, "ppo": {key: getattr(args, key) for key in PPO_ARGS},
               "torch_threads": args.torch_threads, "env_steps": model.num_timesteps,
               "wall_seconds": round(wall, 1), "eval_seconds": round(evaluation.eval_seconds, 1),
               "train_env_steps_per_second": round(model.num_timesteps / train_seconds, 1),
               "held_out_seeds": [seeds[0], seeds[-1]], "final_held_out_success": final.eval_success,
               "final_held_out_success_sampled": final.eval_success_sampled,
               "final_mean_steps": final.eval_mean_steps,
               "first_steps_greedy_solved": solved[0] if solved else None,
               "training_episodes": len(evaluation.train_results),
               "training_episodes_solved": int(sum(evaluation.train_results)),
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
