"""The ``android-gym`` command: list tasks, run an agent on a task (optionally recording every episode)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

import gymnasium as gym
from tqdm import tqdm

import android_gym
from android_gym.agents import OracleAgent, RandomAgent
from android_gym.errors import AndroidGymError
from android_gym.testing import run_episode
from android_gym.wrappers import RecordTrajectory


def _env_id(task: str) -> str:
    """Accept ``AndroidWorld/SendSms-v0``, ``SendSms-v0`` or ``SendSms``."""
    if "/" in task:
        return task
    return android_gym.env_id(task.removesuffix("-v0"))


def cmd_list(args: argparse.Namespace) -> int:
    """Print every registered env id with its step budget and goal template."""
    for name in android_gym.task_names():
        task = android_gym.get_task(name)
        print(f"{android_gym.env_id(name):50s} steps={task.max_steps():3d}  {task.template}")
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    """Run ``--episodes`` episodes of an agent and print per-episode results and the success rate."""
    env_id = _env_id(args.task)
    if env_id not in gym.registry:
        android_gym.get_task(env_id.split("/")[-1].removesuffix("-v0"))  # raises with suggestions
    env = gym.make(env_id, device=args.device, pixels=args.record is not None)
    if args.record:
        env = RecordTrajectory(env, args.record)
    agent = OracleAgent() if args.agent == "oracle" else RandomAgent(args.seed)
    successes = 0
    try:
        with tqdm(range(args.episodes), desc=env_id, unit="episode", disable=args.episodes < 2) as bar:
            for episode in bar:
                result = run_episode(env, agent, seed=args.seed if episode == 0 else None)
                successes += result.score >= 1.0
                tqdm.write(f"episode {episode}: score={result.score:.2f} steps={result.steps} "
                           f"goal={env.unwrapped.task.goal!r}")
                bar.set_postfix(success_rate=f"{successes / (episode + 1):.2f}")
    finally:
        env.close()
    print(f"success rate: {successes}/{args.episodes} = {successes / args.episodes:.2f}")
    if args.record:
        print(f"recorded episodes in {args.record}/")
    return 0


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``android-gym``."""
    parser = argparse.ArgumentParser(prog="android-gym", description=__doc__)
    parser.add_argument("--version", action="version", version=android_gym.__version__)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="list the registered tasks").set_defaults(func=cmd_list)
    run = sub.add_parser("run", help="run an agent on a task")
    run.add_argument("task", help="env id (AndroidWorld/SendSms-v0) or task name (SendSms)")
    run.add_argument("--agent", choices=("oracle", "random"), default="oracle")
    run.add_argument("--episodes", type=_positive_int, default=1)
    run.add_argument("--seed", type=int, default=0)
    run.add_argument("--device", default="sim", help="'sim' (default) or 'sim:WIDTHxHEIGHT'")
    run.add_argument("--record", metavar="DIR", help="write goal, JSONL trajectory and GIF per episode here")
    run.set_defaults(func=cmd_run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; configuration errors print a one-line message and exit 2."""
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except AndroidGymError as error:
        print(f"android-gym: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
