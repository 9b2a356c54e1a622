"""AppAgent-style exploration, measured: how much of an app a visit-count explorer covers in N steps, and whether
the docs it writes change the success of an oracle-free agent.

Usage: python benchmarks/exploration.py [--steps 200] [--seeds 10] [--apps expense markor sms]

1. Coverage: each app of ``--apps`` is explored for ``--steps`` steps (seed 0) with the deterministic doc writer;
   printed: distinct screens (state keys), activities, elements documented, document entries, time.
2. With vs. without docs: ``GoalWordAgent`` opens the task's app when another is in front; in the app it picks
   among the valid actions on screen (``agents.valid_actions``) the ones whose element's text shares the most
   words with the goal (uniformly among them; a random valid action with probability ``EPSILON``, or when no
   candidate shares a word). Without docs the text is the element's label (or the first label inside it); with
   docs, also the element's document for that action, from exploring the tasks' apps for ``--steps`` steps
   (seed 1, so the docs do not come from the evaluated episodes' seeds). Same agent seed in both arms; success
   rate over the tasks × ``--seeds`` seeds.
"""

from __future__ import annotations

import argparse
import re
import time
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np

import android_gym
from android_gym.actions import Action, ActionType
from android_gym.agents import episode_rng, valid_actions
from android_gym.appdocs import DocStore, explore
from android_gym.appdocs.store import VERBS, inner_label, screen_docs
from android_gym.device.state import foreground_activity
from android_gym.testing import run_episode

#: Tasks an agent can solve by tapping the right elements (no text to type, no answer to give).
TASKS = ("SystemWifiTurnOn", "SystemWifiTurnOff", "SystemBluetoothTurnOn", "SystemBluetoothTurnOff",
         "ClockStopWatchRunning")
EPSILON = 0.2
_WORD = re.compile(r"[a-z0-9]+")
_STOP = {"the", "and", "turn", "app", "on", "off", "it", "to", "a", "of", "in", "tapping", "shows", "opens", "more",
         "screen", "page", "showing"}


def words(text: str) -> set[str]:
    """Lower-case words of ``text`` with hyphens dropped (``Wi-Fi`` → ``wifi``), common words left out."""
    return set(_WORD.findall(text.lower().replace("-", ""))) - _STOP


class GoalWordAgent:
    """In the task's app, prefers valid actions on elements whose text (label, and the element's docs if given)
    shares goal words."""

    def __init__(self, docs: dict[str, DocStore] | None, seed: int = 0) -> None:
        self.docs, self.seed = docs or {}, seed
        self._rng: np.random.Generator | None = None
        self._env: Any = None

    def reset(self, env: gym.Env) -> None:
        """Seed this episode's generator from the env's."""
        self._rng, self._env = episode_rng(env, self.seed), env.unwrapped

    def act(self, observation: dict[str, Any], info: dict[str, Any]) -> Action:
        """A valid action, chosen by goal words (see the class docstring)."""
        assert self._rng is not None, "reset() first"
        elements, apps = info["ui_elements"], self._env.task_class.app_packages
        activity = foreground_activity(self._env.device) or ""
        if activity.partition("/")[0] not in apps:
            return Action(ActionType.OPEN_APP, app_name=apps[0])
        choices = valid_actions(elements, apps, self._env.device.screen_size)
        documented = screen_docs(self.docs, activity, elements) if self.docs else {}
        goal = words(str(observation["goal"]))
        scores = [self._score(goal, kind, index, elements, documented) for kind, index, _ in choices]
        best = max(scores)
        pool = [choice for choice, score in zip(choices, scores) if score == best]
        if best == 0 or self._rng.random() < EPSILON:
            pool = choices
        kind, index, detail = pool[int(self._rng.integers(len(pool)))]
        if kind is ActionType.SCROLL:
            return Action(kind, index=index, direction=detail)
        if kind is ActionType.OPEN_APP:
            return Action(kind, app_name=detail)
        if kind is ActionType.INPUT_TEXT:
            return Action(kind, index=index, text="test")
        return Action(kind, index=index)

    @staticmethod
    def _score(goal: set[str], kind: ActionType, index: int | None, elements: Sequence[Any],
               documented: dict[int, dict[str, str]]) -> int:
        if index is None:
            return 0
        text = inner_label(elements[index], elements) + " " + documented.get(index, {}).get(VERBS.get(kind, ""), "")
        return len(goal & words(text))


def coverage(apps: Sequence[str], steps: int) -> None:
    """Explore each app and print its coverage."""
    print(f"exploration coverage, {steps} steps, seed 0, visit-count explorer, rule-written docs")
    print(f"{'app':38s} {'screens':>7s} {'activities':>10s} {'elements':>8s} {'entries':>7s} {'seconds':>7s}")
    for app in apps:
        started = time.perf_counter()
        _, report = explore(app, steps, seed=0)
        print(f"{report.package:38s} {report.screens:7d} {len(report.activities):10d} {report.elements:8d} "
              f"{report.entries:7d} {time.perf_counter() - started:7.1f}")


def success(agent: GoalWordAgent, seeds: int) -> tuple[int, int]:
    """Episodes solved and played over ``TASKS`` × seeds."""
    solved = played = 0
    for task in TASKS:
        env = gym.make(android_gym.env_id(task), pixels=False)
        try:
            for seed in range(seeds):
                solved += run_episode(env, agent, seed=seed).score >= 1.0
                played += 1
        finally:
            env.close()
    return solved, played


def with_and_without_docs(steps: int, seeds: int) -> None:
    """Explore the tasks' apps, then compare the agent with and without their docs."""
    packages = sorted({package for task in TASKS for package in android_gym.get_task(task).app_packages})
    docs = {package: explore(package, steps, seed=1)[0] for package in packages}
    print(f"\ngoal-word agent on {len(TASKS)} tasks x {seeds} seeds (docs: {steps} exploration steps of "
          f"{', '.join(packages)}, seed 1; {sum(map(len, docs.values()))} elements documented)")
    for name, arm in (("without docs", None), ("with docs", docs)):
        solved, played = success(GoalWordAgent(arm, seed=0), seeds)
        print(f"{name:13s} success {solved}/{played} = {solved / played:.2f}")


def main() -> None:
    """Run both measurements."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200, help="exploration steps per app (default 200)")
    parser.add_argument("--seeds", type=int, default=10, help="episodes per task and arm (default 10)")
    parser.add_argument("--apps", nargs="+", default=["expense", "markor", "sms"], help="apps whose coverage to print")
    args = parser.parse_args()
    coverage(args.apps, args.steps)
    with_and_without_docs(args.steps, args.seeds)


if __name__ == "__main__":
    main()
