"""Generalization: policies trained on some phone configurations, tested on others and with distractors; baselines
on the long-horizon cross-app suite.

    python benchmarks/generalization.py --steps 4096 --bc-episodes 20 --eval-episodes 20 --out runs/generalization

Part 1, for each task of ``TASKS``: one ``examples/train_ppo.py`` run (oracle demonstrations cloned, then
MaskablePPO) on the ``train`` device configurations (``android_gym.device.config``: three phones, three font
sizes, light and dark, English and German, both navigation modes), then its greedy success on held-out seeds
under each test condition: ``train`` (new seeds, configurations as in training), ``heldout`` (every episode shows
a phone, font size or language training never did), ``distractors`` (train configurations with notifications,
dialogs and warnings arriving) and ``default`` (AndroidWorld's phone as it comes); and under each of ``heldout``'s
new values alone on AndroidWorld's phone (``FACTORS``: the Pixel 4a, the Pixel Tablet, the largest font, French),
which tells which of them a policy does not carry over to.

Part 2: the oracle and a random agent (valid taps, ``RandomValidAgent``) on every task of the ``long_horizon``
suite: success rate and mean partial score (the mean of the sub-goals met).

Prints both tables as markdown, writes them to ``OUT/results.md`` and the figure to ``OUT/generalization.png``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

import gymnasium as gym
from _examples import load_example  # the sibling modules: run as python benchmarks/generalization.py
from learning import plot_results

import android_gym
from android_gym.agents import OracleAgent, RandomValidAgent
from android_gym.evaluation.suite import long_horizon_tasks
from android_gym.testing import run_episode

#: Seven tasks from five apps that behaviour cloning learns on AndroidWorld's phone (benchmarks/learning.py).
TASKS = ("SendSms", "SystemWifiTurnOff", "SystemBluetoothTurnOn", "ClockStopWatchRunning", "ContactsAddContact",
         "ExpenseDeleteSingle", "MarkorCreateFolder")
CONDITIONS = ("train", "heldout", "distractors", "default")
#: AndroidWorld's phone with one of ``heldout``'s new values alone (train_ppo's ``TEST_CONDITIONS``).
FACTORS = ("pixel_4a", "pixel_tablet", "largest_font", "french")


def train_and_test(args: argparse.Namespace) -> list[dict]:
    """One BC + PPO run per task on the train configurations; a row per task with success per condition. A task
    whose run finished before (``OUT/policies/<task>/summary.json`` with every condition) is not run again."""
    train_ppo, rows = load_example("train_ppo"), []
    for task in args.tasks:
        done = args.out / "policies" / task / "summary.json"
        summary = json.loads(done.read_text()) if done.exists() else {}
        if set(summary.get("test_conditions", {})) != {*CONDITIONS, *FACTORS}:
            summary = train_ppo.main([
                "--task", task, "--device-config", "train", "--steps", str(args.steps),
                "--workers", str(args.workers), "--bc-episodes", str(args.bc_episodes),
                "--eval-episodes", str(args.eval_episodes), "--eval-every", str(args.steps),
                "--test-conditions", ",".join(CONDITIONS + FACTORS), "--out", str(args.out / "policies" / task)])
        rows.append({"task": task, **{name: result["greedy"] for name, result in summary["test_conditions"].items()},
                     "wall_seconds": summary["wall_seconds"]})
    return rows


def long_horizon_baselines(episodes: int, device: str) -> list[dict]:
    """Oracle and random-valid success and mean partial score on each long-horizon task, ``episodes`` seeds each
    (the random agent seeded, so a run repeats)."""
    rows = []
    for task in long_horizon_tasks():
        env = gym.make(android_gym.env_id(task), device=device, pixels=False)
        row: dict = {"task": task, "apps": len(env.unwrapped.task_class.app_packages)}
        for name, agent in (("oracle", OracleAgent()), ("random", RandomValidAgent(seed=0))):
            results = [run_episode(env, agent, seed=seed) for seed in range(episodes)]
            row[f"{name}_success"] = sum(result.score >= 1.0 for result in results) / episodes
            row[f"{name}_score"] = sum(result.score for result in results) / episodes
            if name == "oracle":
                row["oracle_steps"] = sum(result.steps for result in results) / episodes
        env.close()
        rows.append(row)
    return rows


def tables(policy_rows: Sequence[dict], suite_rows: Sequence[dict]) -> str:
    """Both results as markdown tables."""
    lines = ["| task | " + " | ".join(CONDITIONS) + " | wall-clock |", "|---" * (len(CONDITIONS) + 2) + "|"]
    lines += [f"| {row['task']} | " + " | ".join(f"{row[name]:.2f}" for name in CONDITIONS)
              + f" | {row['wall_seconds']:.0f} s |" for row in policy_rows]
    if policy_rows:
        lines += ["", "| task (default phone but) | " + " | ".join(FACTORS) + " |", "|---" * (len(FACTORS) + 1) + "|"]
        lines += [f"| {row['task']} | " + " | ".join(f"{row[name]:.2f}" for name in FACTORS) + " |"
                  for row in policy_rows]
    lines += ["", "| long-horizon task | apps | oracle steps | oracle success | random success | "
                  "random partial score |", "|---|---|---|---|---|---|"]
    lines += [f"| {row['task']} | {row['apps']} | {row['oracle_steps']:.0f} | {row['oracle_success']:.2f} | "
              f"{row['random_success']:.2f} | {row['random_score']:.2f} |" for row in suite_rows]
    return "\n".join(lines)


def plot(policy_rows: Sequence[dict], path: Path) -> None:
    """Held-out greedy success per task, one bar per test condition (``learning.plot_results``'s chart)."""
    plot_results([{"task": row["task"], "regime": f"tested on {name}", "final_held_out_success": row[name]}
                           for row in policy_rows for name in CONDITIONS], path)


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--tasks", nargs="+", default=list(TASKS), help="tasks to train and test")
    parser.add_argument("--steps", type=int, default=4096, help="PPO env steps per task")
    parser.add_argument("--bc-episodes", type=int, default=20, help="oracle demonstrations cloned first")
    parser.add_argument("--eval-episodes", type=int, default=20, help="held-out seeds per condition")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--suite-episodes", type=int, default=3, help="seeds per long-horizon task")
    parser.add_argument("--suite-device", default="sim:270x600", help="device of the long-horizon baselines")
    parser.add_argument("--skip-training", action="store_true", help="only the long-horizon baselines")
    parser.add_argument("--out", type=Path, default=Path("runs/generalization"),
                        help="output folder (a task trained there before is not trained again)")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> str:
    """Run both parts; print and write the tables and the figure."""
    args = parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    policy_rows = [] if args.skip_training else train_and_test(args)
    suite_rows = long_horizon_baselines(args.suite_episodes, args.suite_device)
    (args.out / "results.json").write_text(json.dumps({"policies": policy_rows, "long_horizon": suite_rows},
                                                      indent=1))
    text = tables(policy_rows, suite_rows)
    (args.out / "results.md").write_text(text + "\n")
    if policy_rows:
        plot(policy_rows, args.out / "generalization.png")
    print(text)
    return text


if __name__ == "__main__":
    sys.exit(main() and 0)
