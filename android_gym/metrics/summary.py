"""``summarize``: every metric over a set of episodes, per task and overall, with confidence intervals."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict
from functools import partial
from typing import Any

from android_gym.metrics.arena import (
    invalid_action_ratio,
    repeated_action_ratio,
    reversed_redundancy_ratio,
    task_completion_ratio,
    task_reward,
)
from android_gym.metrics.episode import Episode
from android_gym.metrics.lab import reasonable_operation_ratio, sub_goal_success_rate, success_rate
from android_gym.metrics.stats import RESAMPLES, Estimate, bootstrap_interval

#: Per-episode metrics averaged by ``summarize`` (an episode where one is ``None`` is left out of its mean).
EPISODE_METRICS: dict[str, Callable[[Episode], float | None]] = {
    "score": lambda episode: episode.score,
    "sub_goal_success_rate": sub_goal_success_rate,
    "task_reward": task_reward,
    "task_completion_ratio": task_completion_ratio,
    "reversed_redundancy_ratio": reversed_redundancy_ratio,
    "reversed_redundancy_ratio_arena": partial(reversed_redundancy_ratio, failed_as_zero=True),
    "reasonable_operation_ratio": reasonable_operation_ratio,
    "invalid_action_ratio": invalid_action_ratio,
    "repeated_action_ratio": repeated_action_ratio,
}
_NONE = {"mean": None, "n": 0, "interval": None}


def _group(episodes: Sequence[Episode], confidence: float, resamples: int, seed: int) -> dict[str, Any]:
    group: dict[str, Any] = {"episodes": len(episodes)}
    group["success_rate"] = asdict(success_rate(episodes, confidence)) if episodes else dict(_NONE)
    for name, metric in EPISODE_METRICS.items():
        values = [value for value in map(metric, episodes) if value is not None]
        if not values:
            group[name] = dict(_NONE)
            continue
        interval = bootstrap_interval(values, confidence, resamples, seed)
        group[name] = asdict(Estimate(sum(values) / len(values), len(values), interval))
    return group


def summarize(
    episodes: Iterable[Episode], confidence: float = 0.95, resamples: int = RESAMPLES, seed: int = 0
) -> dict[str, Any]:
    """Every metric over ``episodes``: ``{"overall": group, "tasks": {task: group}}``, tasks in name order.

    A group holds ``episodes`` (the count) and, per metric, ``{"mean", "n", "interval"}``: ``n`` is the number
    of episodes where the metric is defined, ``interval`` the ``confidence`` interval of the mean (``None``,
    and the mean too, when ``n`` is 0). ``success_rate`` takes Wilson's score interval; the other metrics
    (``EPISODE_METRICS``: the task score, AndroidArena's and AndroidLab's per-episode metrics) a percentile
    bootstrap of the mean with ``resamples`` resamples from ``seed``. ``reversed_redundancy_ratio`` is
    AndroidLab's mean over successful episodes, ``reversed_redundancy_ratio_arena`` AndroidArena's, failed
    episodes counting 0. ``overall`` pools the episodes of all tasks (so a task with more episodes weighs
    more, as AndroidLab's totals).
    """
    episodes = list(episodes)
    tasks: dict[str, list[Episode]] = {}
    for episode in episodes:
        tasks.setdefault(episode.task, []).append(episode)
    return {
        "overall": _group(episodes, confidence, resamples, seed),
        "tasks": {task: _group(tasks[task], confidence, resamples, seed) for task in sorted(tasks)},
    }
