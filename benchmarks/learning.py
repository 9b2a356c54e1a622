"""MaskablePPO on a suite of tasks through the RL view (``make_rl_env``), per regime, evaluated on held-out seeds.

    python benchmarks/learning.py --regimes scratch bc --steps 20000 --out runs/learning

Each (task, regime) is one ``examples/train_ppo.py`` run in ``OUT/<regime>/<task>``: ``scratch`` trains from a
fresh policy; ``bc`` first clones ``--bc-episodes`` oracle demonstrations (recorded through the RL view), then
runs PPO; ``multitask`` is one run over all the tasks (``--task A,B,…``: one policy, each task's demonstrations
cloned, ``--steps`` times the number of tasks), evaluated on each task alone. Prints a markdown table (task, app,
regime, held-out success greedy / sampled, env steps, wall-clock) and writes it to ``OUT/results.md``; every run
keeps its curve, model and summary.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from _examples import load_example  # the sibling module: run as python benchmarks/learning.py

#: Twelve tasks from eight apps: SMS, settings, clock, contacts, Pro Expense, Markor, Files, Tasks (a
#: ``task_specs`` question), plus a composite (Wi-Fi on, then open an app).
SUITE = {
    "SendSms": "SMS", "SimpleSmsReply": "SMS", "SystemWifiTurnOff": "Settings", "SystemBluetoothTurnOn": "Settings",
    "ClockStopWatchRunning": "Clock", "ClockTimerEntry": "Clock", "ContactsAddContact": "Contacts",
    "ExpenseDeleteSingle": "Pro Expense", "MarkorCreateFolder": "Markor", "FilesDeleteFile": "Files",
    "TasksCountHighPriority": "Tasks (question)", "TurnOnWifiAndOpenApp": "composite",
}


def _multitask(train_ppo, args: argparse.Namespace) -> list[dict]:
    """One policy over every task; a row per task with its own held-out success."""
    steps = args.steps * len(args.tasks)
    summary = train_ppo.main(["--task", ",".join(args.tasks), "--steps", str(steps), "--workers", str(args.workers),
                              "--out", str(args.out / "multitask"), "--eval-episodes", str(args.eval_episodes),
                              "--eval-every", str(steps), "--bc-episodes", str(args.bc_episodes),
                              "--n-steps", str(args.n_steps), "--policy-net", args.policy_net])
    return [{**summary, "task": task, "app": SUITE.get(task, ""), "regime": "multitask (one policy)",
             "final_held_out_success": result["greedy"], "final_held_out_success_sampled": result["sampled"]}
            for task, result in zip(args.tasks, summary["per_task"].values())]


def plot_results(rows: Sequence[dict], path: Path) -> None:
    """Held-out greedy success per task, one bar per regime, as a small PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    tasks = list(dict.fromkeys(row["task"] for row in rows))
    regimes = list(dict.fromkeys(row["regime"] for row in rows))
    success = {(row["task"], row["regime"]): row["final_held_out_success"] for row in rows}
    figure, axes = plt.subplots(figsize=(7.0, 0.32 * len(tasks) * len(regimes) + 1.2), dpi=100)
    height = 0.8 / len(regimes)
    for number, regime in enumerate(regimes):
        positions = [index + number * height for index in range(len(tasks))]
        axes.barh(positions, [success.get((task, regime), 0.0) for task in tasks], height, label=regime)
    axes.set_yticks([index + 0.4 - height / 2 for index in range(len(tasks))], tasks)
    axes.invert_yaxis()
    axes.set(xlabel="held-out success (greedy)", xlim=(0, 1.0), title="MaskablePPO through the RL view")
    axes.grid(axis="x", alpha=0.3)
    axes.legend(loc="lower right", fontsize="small")
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--tasks", nargs="+", default=list(SUITE), help="task names (default: the suite)")
    parser.add_argument("--regimes", nargs="+", choices=("scratch", "bc", "multitask"),
                        default=["scratch", "bc", "multitask"])
    parser.add_argument("--steps", type=int, default=20_000, help="PPO env steps per run")
    parser.add_argument("--bc-episodes", type=int, default=20, help="oracle demonstrations cloned in the bc regime")
    parser.add_argument("--eval-episodes", type=int, default=30, help="held-out seeds per evaluation")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--n-steps", type=int, default=256, help="PPO rollout length per worker (train_ppo's "
                        "--n-steps): a run takes whole rollouts, so at least this many steps per worker")
    parser.add_argument("--policy-net", default="pointer",
                        help="the policy: train_ppo's --policy-net, which checks the name (mlp, elements, pointer)")
    parser.add_argument("--out", type=Path, default=Path("runs/learning"))
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> list[dict]:
    """Run every (task, regime); print and write the table."""
    args = parse_args(argv)
    train_ppo, rows = load_example("train_ppo"), []
    for regime in args.regimes:
        if regime == "multitask":
            rows += _multitask(train_ppo, args)
        for task in args.tasks if regime != "multitask" else []:
            out = args.out / regime / task
            run = ["--task", task, "--steps", str(args.steps), "--workers", str(args.workers), "--out", str(out),
                   "--eval-episodes", str(args.eval_episodes), "--eval-every", str(args.steps),
                   "--n-steps", str(args.n_steps), "--policy-net", args.policy_net]
            if regime == "bc":
                run += ["--bc-episodes", str(args.bc_episodes)]
            summary = train_ppo.main(run)
            rows.append({"task": task, "app": SUITE.get(task, ""), "regime": regime, **summary})
        (args.out / "results.json").write_text(json.dumps(rows, indent=1, default=str))
    table = ["| task | app | regime | held-out success greedy / sampled | env steps | wall-clock |",
             "|---|---|---|---|---|---|"]
    for row in rows:
        table.append(f"| {row['task']} | {row['app']} | {row['regime']} | {row['final_held_out_success']:.2f} / "
                     f"{row['final_held_out_success_sampled']:.2f} | {row['env_steps']:,} | "
                     f"{row['wall_seconds']:.0f} s |")
    text = "\n".join(table)
    (args.out / "results.md").write_text(text + "\n")
    plot_results(rows, args.out / "results.png")
    print(text)
    return rows


if __name__ == "__main__":
    sys.exit(main() and 0)
