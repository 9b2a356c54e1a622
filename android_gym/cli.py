"""The ``android-gym`` command: list tasks, run an agent on a task (optionally recording every episode), list
devices, and serve a simulated phone over adb."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

import gymnasium as gym
from tqdm import tqdm

import android_gym
from android_gym.agents import OracleAgent, RandomAgent
from android_gym.errors import AdbServerError, AndroidGymError
from android_gym.testing import run_episode
from android_gym.wrappers import RecordTrajectory


def _env_id(task: str) -> str:
    """Accept ``AndroidWorld/SendSms-v0``, ``SendSms-v0`` or ``SendSms``."""
    if "/" in task:
        return task
    return android_gym.env_id(task.removesuffix("-v0"))


def cmd_list(args: argparse.Namespace) -> int:
    """Print every registered env id with its step budget and goal template (constrained variants last)."""
    from android_gym.envs.constrained import CONSTRAINED_VARIANTS

    for name in android_gym.task_names():
        task = android_gym.get_task(name)
        print(f"{android_gym.env_id(name):50s} steps={task.max_steps():3d}  {task.template}")
    for name, (base, constraints) in CONSTRAINED_VARIANTS.items():
        rules = " ".join(constraint.describe() for constraint in constraints)
        print(f"{android_gym.env_id(name):50s} steps={android_gym.get_task(base).max_steps():3d}  {base} + {rules}")
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


def cmd_devices(args: argparse.Namespace) -> int:
    """Print the devices an env can use: the built-in simulated phone, then what the adb server lists."""
    import adbutils

    from android_gym.device.adb import server_address, server_answers

    print("sim\tsimulated phone (built in)")
    host, port = server_address()
    try:
        devices = adbutils.AdbClient(host, port, socket_timeout=5).list() if server_answers(host, port) else None
    except adbutils.AdbError as error:
        raise AdbServerError(f"the adb server on {host}:{port} failed to list devices: {error}") from error
    if devices is None:
        print(f"(no adb server on {host}:{port}; start one with `adb -P {port} start-server`)", file=sys.stderr)
        return 0
    for info in devices:
        print(f"adb:{info.serial}\t{info.state}")
    return 0


def cmd_sim_serve(args: argparse.Namespace) -> int:
    """Serve a simulated phone like an emulator until interrupted or killed through its console."""
    import asyncio

    from android_gym.sim.phone import Phone
    from android_gym.sim.server import SimServer

    width, height = args.size
    server = SimServer(Phone(width, height), adb_port=args.adb_port, console_port=args.console_port,
                       host=args.host)
    print(f"{server.serial}: adb on {args.host}:{server.adb_port}, console on {args.host}:{server.console_port} "
          f"(Ctrl-C or `adb -s {server.serial} emu kill` to stop)", flush=True)
    try:
        asyncio.run(server.serve())
    except KeyboardInterrupt:
        pass
    return 0


def _size(text: str) -> tuple[int, int]:
    width, _, height = text.partition("x")
    if not (width.isdigit() and height.isdigit() and int(width) > 0 and int(height) > 0):
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT like 1080x2400, got {text!r}")
    return int(width), int(height)


def _port(text: str) -> int:
    value = int(text)
    if not 0 < value < 65536:
        raise argparse.ArgumentTypeError(f"not a TCP port: {value}")
    return value


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
    run.add_argument("--device", default="sim",
                     help="'sim' (default), 'sim:WIDTHxHEIGHT', 'adb:<serial>' or 'adb:<host>:<port>'")
    run.add_argument("--record", metavar="DIR", help="write goal, JSONL trajectory and GIF per episode here")
    run.set_defaults(func=cmd_run)
    sub.add_parser("devices", help="list the devices an env can use").set_defaults(func=cmd_devices)
    sim = sub.add_parser("sim", help="the simulated phone").add_subparsers(dest="sim_command", required=True)
    serve = sim.add_parser("serve", help="serve a simulated phone like an emulator (adb device + console)")
    serve.add_argument("--adb-port", type=_port, default=5555, help="adb port (default 5555 → emulator-5554)")
    serve.add_argument("--console-port", type=_port, help="emulator console port (default: adb port - 1)")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default: loopback only)")
    serve.add_argument("--size", type=_size, default=(1080, 2400), help="screen WIDTHxHEIGHT (default 1080x2400)")
    serve.set_defaults(func=cmd_sim_serve)
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
