"""A long fuzz run over the task catalogue: per task, episodes of garbage (``android_gym.fuzzing``: malformed and
pathological actions in every accepted form, bad reset seeds and options), checking the properties of
``garbage_episode`` — ``reset`` raises only ``ConfigError``, ``step`` never raises, an invalid action rewards
nothing and changes nothing, and (every ``--solve-every``-th episode) the oracle still solves the task. Prints the
counts per outcome and every failure (task, property, first lines of the error). The examples are derandomized:
the same arguments draw the same garbage.

Usage: python benchmarks/fuzz.py [--episodes 20] [--max-actions 40] [--solve-every 5] [--tasks 'Expense*']

Episodes that are not replayed step all their actions (resetting when one ends); ``--episodes 20 --max-actions
60`` over the whole catalogue steps about 100,000 actions. Needs Hypothesis
(the ``dev`` extra). Run it from the repository root or from benchmarks/.
"""

from __future__ import annotations

import argparse
import fnmatch
import time
import traceback
import warnings
from collections import Counter
from collections.abc import Sequence

import gymnasium as gym
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from android_gym.fuzzing import any_action, garbage_episode, reset_options, seeds
from android_gym.tasks.registry import env_id, task_names


def fuzz_task(task: str, episodes: int, max_actions: int, solve_every: int) -> tuple[Counter, list[str]]:
    """Run ``episodes`` garbage episodes on one env of ``task``; the counts and the failures' descriptions."""
    env = gym.make(env_id(task), pixels=False)
    counts: Counter = Counter()
    failures: list[str] = []

    @settings(max_examples=episodes, database=None, deadline=None, phases=[Phase.generate], derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(seed=seeds, options=reset_options, pin_seed=st.integers(0, 2**32 - 1),
           garbage=st.lists(any_action, min_size=max_actions // 2, max_size=max_actions))
    def episode(seed, options, pin_seed, garbage) -> None:
        counts["episodes"] += 1
        solve = counts["episodes"] % solve_every == 0
        try:
            counts.update(garbage_episode(env, seed, options, pin_seed, garbage, solve=solve))
            counts["oracle_solved"] += solve
        except Exception as error:  # every failure is counted and reported, the run goes on
            counts["failures"] += 1
            where = traceback.format_exception(error)[-1].strip()
            failures.append(f"{task}: {type(error).__name__}: {str(error)[:200]} ({where[:200]})")
            env.reset(seed=pin_seed)

    try:
        episode()
    finally:
        env.close()
    return counts, failures


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=20, help="garbage episodes per task")
    parser.add_argument("--max-actions", type=int, default=40, help="most garbage actions per episode")
    parser.add_argument("--solve-every", type=int, default=5, help="replay the oracle after every n-th episode")
    parser.add_argument("--tasks", default="*", help="a glob over task names (default: every registered task)")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> Counter:
    """Fuzz every matching task, print the totals and failures; returns the totals."""
    args = parse_args(argv)
    warnings.filterwarnings("ignore", message=r".*step\(\) was called after the episode ended")  # garbage does
    tasks = [task for task in task_names(include_aliases=False) if fnmatch.fnmatch(task, args.tasks)]
    if not tasks:
        raise SystemExit(f"no registered task matches {args.tasks!r}")
    totals: Counter = Counter()
    failures: list[str] = []
    start = time.perf_counter()
    for task in tasks:
        counts, failed = fuzz_task(task, args.episodes, args.max_actions, args.solve_every)
        totals.update(counts)
        failures += failed
    seconds = time.perf_counter() - start
    print(f"{len(tasks)} tasks, {totals['episodes']} episodes, {seconds:.0f} s "
          f"({totals['actions'] / max(seconds, 1e-9):.0f} garbage actions/s)")
    for key in ("actions", "invalid", "acted", "episodes_ended", "resets_refused", "oracle_solved",
                "oracle_out_of_budget", "failures"):
        print(f"{key:>15}: {totals[key]}")
    for failure in failures:
        print(f"FAILED {failure}")
    return totals


if __name__ == "__main__":
    main()
