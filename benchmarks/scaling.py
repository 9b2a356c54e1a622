"""Vector-env scaling on the simulated phone: total env steps/s against the number of envs, for gymnasium's
``make_vec`` (sync and async) and stable-baselines3's ``SubprocVecEnv`` over ``make_rl_env`` (what
examples/train_ppo.py trains on); and, with ``--modes processes``, N independent processes each stepping its own env
(DESIGN.md's "2 processes vs 1").

Usage: python benchmarks/scaling.py [--task AndroidWorld/SendSms-v0] [--envs 1,2,4,8] [--modes sync,async,sb3]
                                    [--pixels both] [--steps 300] [--policy random-valid] [--plot scaling.png]

Each measurement creates its vector env, resets it and plays a few warm-up steps (the gym modes open Chrome in every
env first: its browser starts once per process), then times ``--steps`` vector steps of a seeded random policy: env
``i`` plays its own stream of actions sampled beforehand from the single action space (seed + i; the vector env's
autoreset starts new episodes), and for ``sb3`` a uniformly random *allowed* action under the env's action mask,
fetched every step as MaskablePPO does. Env steps/s is N x vector steps/s; speedup is over the same series at the
smallest N. ``make_rl_env`` always drops the screen, so ``sb3`` runs with pixels off only. The envs are created as
users write them (default multiprocessing context and options). ``processes`` starts N fresh interpreters (spawn),
each running throughput.py's ``steps_per_second`` (``--policy``, random-valid by default as DESIGN.md's targets ask;
seed + i; Chrome opened first) and starting its timed steps when all are ready; its "vector steps/s" is the mean of
their rates, env steps/s their sum. Steps that show the phone's Chrome wait on its real Chromium, a process of its own
that takes a core while a page loads: the processes mode also gives the env steps/s of the other steps ("outside
Chrome", throughput.py's figure, summed over the processes) and their speedup, the simulator's own scaling, next to
the overall figures (the vector modes time whole vector steps: "-").
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import multiprocessing
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector.utils import concatenate, create_empty_array
from throughput import Rate, format_table, machine, steps_per_second  # the sibling script: run from benchmarks/

import android_gym  # noqa: F401
from android_gym.actions import ACTION_TYPES, ActionType
from android_gym.errors import AndroidGymError
from android_gym.wrappers import make_rl_env

MODES = {"sync": "gym sync", "async": "gym async", "sb3": "sb3 SubprocVecEnv", "processes": "processes"}
DEFAULT_MODES = ["sync", "async", "sb3"]
WARMUP_STEPS = 10
COLUMNS = ("mode", "pixels", "envs", "vector steps/s", "env steps/s", "speedup", "env steps/s outside Chrome",
           "speedup outside Chrome")


class BenchmarkError(AndroidGymError):
    """A benchmark option that needs a package that is not installed."""


def _require_sb3() -> None:
    try:
        import stable_baselines3  # noqa: F401
    except ImportError as error:
        raise BenchmarkError('--modes sb3 needs stable-baselines3: pip install -e ".[rl]" (or drop sb3 from '
                             "--modes)") from error


def _pyplot() -> Any:
    """matplotlib's pyplot on the Agg backend, or ``BenchmarkError`` with the install command."""
    try:
        import matplotlib
    except ImportError as error:
        raise BenchmarkError('--plot needs matplotlib: pip install -e ".[rl]" (or drop --plot)') from error
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _batched_actions(space: gym.Space, num_envs: int, count: int, seed: int) -> list[Any]:
    """``count`` batched actions: env ``i``'s are samples of ``space`` seeded ``seed + i``."""
    per_env = []
    for i in range(num_envs):
        own = copy.deepcopy(space)
        own.seed(seed + i)
        per_env.append([own.sample() for _ in range(count)])
    return [concatenate(space, [actions[t] for actions in per_env], create_empty_array(space, num_envs))
            for t in range(count)]


def _open_browser(envs: gym.vector.VectorEnv) -> None:
    """Open Chrome in every env, then start over: the phone's browser (a headless Chromium, ~1.4 s to start, once
    per process) must not be billed to whichever timed steps a random tap on Chrome's dock icon lands in (as
    throughput.py's ``start_browser``)."""
    action = envs.single_action_space.sample()
    action.update(action_type=ACTION_TYPES.index(ActionType.OPEN_APP), app_name="Chrome")
    envs.step(concatenate(envs.single_action_space, [action] * envs.num_envs,
                          create_empty_array(envs.single_action_space, envs.num_envs)))


def gym_vector_rate(env_id: str, mode: str, num_envs: int, pixels: bool, steps: int, seed: int = 0,
                    device: str = "sim") -> float:
    """Vector steps per second of ``gym.make_vec(env_id, num_envs, vectorization_mode=mode)`` (warm)."""
    envs = gym.make_vec(env_id, num_envs=num_envs, vectorization_mode=mode, pixels=pixels, device=device)
    try:
        actions = _batched_actions(envs.single_action_space, num_envs, WARMUP_STEPS + steps, seed)
        envs.reset(seed=seed)
        _open_browser(envs)
        envs.reset(seed=seed)
        for action in actions[:WARMUP_STEPS]:
            envs.step(action)
        start = time.perf_counter()
        for action in actions[WARMUP_STEPS:]:
            envs.step(action)
        return steps / (time.perf_counter() - start)
    finally:
        envs.close()


def sb3_vector_rate(env_id: str, num_envs: int, steps: int, seed: int = 0, device: str = "sim") -> float:
    """Vector steps per second of stable-baselines3's ``SubprocVecEnv`` over ``make_rl_env`` (as train_ppo builds
    it), random allowed actions under the action mask (warm)."""
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.vec_env import SubprocVecEnv

    envs = make_vec_env(partial(make_rl_env, env_id, device=device), n_envs=num_envs, seed=seed,
                        vec_env_cls=SubprocVecEnv)
    try:
        draws = np.random.default_rng(seed).random((WARMUP_STEPS + steps, num_envs))
        envs.reset()

        def step(row: np.ndarray) -> None:
            masks = envs.env_method("action_masks")  # what MaskablePPO's get_action_masks asks every step
            allowed = [np.flatnonzero(mask) for mask in masks]
            envs.step(np.array([ids[int(u * len(ids))] for ids, u in zip(allowed, row)]))

        for row in draws[:WARMUP_STEPS]:
            step(row)
        start = time.perf_counter()
        for row in draws[WARMUP_STEPS:]:
            step(row)
        return steps / (time.perf_counter() - start)
    finally:
        envs.close()


def _timed_in_process(env_id: str, pixels: bool, steps: int, seed: int, device: str, policy: str,
                      start_line: Any) -> Rate:
    """One process's ``steps_per_second``, its timed steps starting when every process is ready."""
    return steps_per_second(env_id, pixels, steps, seed, device, policy, before_timing=start_line.wait)


def processes_rate(env_id: str, num_envs: int, pixels: bool, steps: int, seed: int = 0, device: str = "sim",
                   policy: str = "random-valid") -> Rate:
    """The mean rates (steps/s, Chrome's share, steps/s outside Chrome) of ``num_envs`` fresh processes stepping
    their own env at the same time."""
    context = multiprocessing.get_context("spawn")
    with context.Manager() as manager, ProcessPoolExecutor(num_envs, mp_context=context) as pool:
        start_line = manager.Barrier(num_envs)
        futures = [pool.submit(_timed_in_process, env_id, pixels, steps, seed + i, device, policy, start_line)
                   for i in range(num_envs)]
        rates = [dataclasses.astuple(future.result()) for future in futures]
        return Rate(*(sum(values) / num_envs for values in zip(*rates)))


def _comma_list(kind: type, choices: Sequence[str] | None = None) -> Any:
    """An argparse type: a comma-separated list of ``kind`` (positive ints, or strings among ``choices``)."""

    def parse(text: str) -> list:
        items = [item.strip() for item in text.split(",") if item.strip()]
        if not items:
            raise argparse.ArgumentTypeError("give at least one value")
        if kind is int:
            if not all(item.isdigit() and int(item) > 0 for item in items):
                raise argparse.ArgumentTypeError(f"{text!r}: give positive integers, e.g. 1,2,4,8")
            return sorted(set(map(int, items)))
        unknown = [item for item in items if item not in choices]
        if unknown:
            raise argparse.ArgumentTypeError(f"unknown {', '.join(unknown)}; choose from {', '.join(choices)}")
        return list(dict.fromkeys(items))

    return parse


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--task", default="AndroidWorld/SendSms-v0")
    parser.add_argument("--envs", type=_comma_list(int), default=[1, 2, 4, 8], help="numbers of envs, e.g. 1,2,4,8")
    parser.add_argument("--modes", type=_comma_list(str, tuple(MODES)), default=DEFAULT_MODES,
                        help=f"comma-separated, among {', '.join(MODES)} (default: {','.join(DEFAULT_MODES)})")
    parser.add_argument("--pixels", choices=("off", "on", "both"), default="both")
    parser.add_argument("--steps", type=int, default=300, help="timed vector steps per measurement")
    parser.add_argument("--device", default="sim", help="device spec of every env, e.g. sim:540x1200")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--policy", default="random-valid", choices=("random", "random-valid"),
                        help="the processes mode's policy (throughput.py's); the vector modes sample the action space")
    parser.add_argument("--plot", type=Path, default=None, help="also save a PNG line plot here")
    return parser.parse_args(argv)


def _shown(value: float | None, form: str) -> str:
    """``value`` in ``form``, or "-" when not measured."""
    return "-" if value is None else form.format(value)


def plot(rows: Sequence[dict[str, Any]], path: Path, title: str) -> None:
    """Save env steps/s against the number of envs, a line per (mode, pixels) series, as a PNG."""
    plt = _pyplot()
    figure, axes = plt.subplots(figsize=(6.4, 4.0), dpi=100)
    series: dict[tuple[str, str], list[tuple[int, float]]] = {}
    for row in rows:
        series.setdefault((row["mode"], row["pixels"]), []).append((row["envs"], row["env steps/s"]))
    colours = {mode: f"C{i}" for i, mode in enumerate(MODES.values())}  # a colour per mode, a dash for pixels on
    for (mode, pixels), points in series.items():
        axes.plot(*zip(*points), marker="o", color=colours[mode], linestyle="--" if pixels == "on" else "-",
                  label=f"{mode}, pixels {pixels}")
    envs = sorted({row["envs"] for row in rows})
    axes.set_xscale("log", base=2)
    axes.set_xticks(envs, [str(n) for n in envs])
    axes.set(xlabel="envs", ylabel="env steps/s (all envs)", ylim=(0, None), title=title)
    axes.grid(alpha=0.3)
    axes.legend(fontsize="small")
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path)
    plt.close(figure)


def main(argv: Sequence[str] | None = None) -> list[dict[str, Any]]:
    """Measure every (pixels, mode, N), print the table (and save the plot); returns the rows."""
    args = parse_args(argv)
    if "sb3" in args.modes:
        _require_sb3()
    if args.plot is not None:
        _pyplot()  # fail before minutes of measuring, not after
    pixel_settings = {"off": [False], "on": [True], "both": [False, True]}[args.pixels]
    print(f"machine: {machine()}")
    policy = f" ({args.policy} in the processes mode)" if "processes" in args.modes else ""
    print(f"task: {args.task} on {args.device}, seeded random policy{policy}, {args.steps} timed vector steps after "
          f"{WARMUP_STEPS} warm-up steps; speedup over the same series at N={args.envs[0]}")
    rows: list[dict[str, Any]] = []
    for pixels in pixel_settings:
        for mode in args.modes:
            if mode == "sb3" and pixels:
                print("sb3 with pixels on: skipped (make_rl_env drops the screen)")
                continue
            base = base_outside = None
            for num_envs in args.envs:
                outside = None  # steps/s outside Chrome: the processes mode's alone
                if mode == "sb3":
                    rate = sb3_vector_rate(args.task, num_envs, args.steps, args.seed, args.device)
                elif mode == "processes":
                    measured = processes_rate(args.task, num_envs, pixels, args.steps, args.seed, args.device,
                                              args.policy)
                    rate, outside = measured.steps_per_second, num_envs * measured.outside_browser
                    base_outside = outside if base_outside is None else base_outside
                else:
                    rate = gym_vector_rate(args.task, mode, num_envs, pixels, args.steps, args.seed, args.device)
                base = base or num_envs * rate
                rows.append(dict(zip(COLUMNS, (MODES[mode], "on" if pixels else "off", num_envs, rate,
                                               num_envs * rate, num_envs * rate / base, outside,
                                               outside / base_outside if outside and base_outside else None))))
    print(format_table(COLUMNS, [[row["mode"], row["pixels"], row["envs"], f"{row['vector steps/s']:,.0f}",
                                  f"{row['env steps/s']:,.0f}", f"{row['speedup']:.2f}x",
                                  _shown(row["env steps/s outside Chrome"], "{:,.0f}"),
                                  _shown(row["speedup outside Chrome"], "{:.2f}x")] for row in rows]))
    if args.plot is not None:
        plot(rows, args.plot, f"{args.task.removeprefix('AndroidWorld/')}: env steps/s vs envs")
        print(f"plot: {args.plot}")
    return rows


if __name__ == "__main__":
    main()
