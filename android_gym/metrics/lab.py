"""AndroidLab's metrics: success rate (SR), sub-goal success rate (Sub-SR), reasonable operation ratio (ROR), and
its test of whether an operation changed the screen. Its reversed redundancy ratio (RRR) is AndroidArena's, which
AndroidLab adopts leaving failed episodes out: ``arena.reversed_redundancy_ratio``.

Source: Xu et al., "AndroidLab: Training and Systematic Benchmarking of Android Autonomous Agents", ACL 2025
(arXiv:2410.24024), section on the benchmark's metrics; the exact formulas follow their released evaluator
(THUDM/Android-Lab, ``evaluation/task.py``: ``calculate_partial_acc``, ``compute_image_similarity``,
``Evaluation_Task.add_metrics``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from android_gym.metrics.episode import Episode
from android_gym.metrics.stats import Estimate, wilson_interval

#: AndroidLab's threshold: two screens whose (non-blank) pixels agree above this share are the same screen.
SAME_SCREEN = 0.999


def success_rate(episodes: Sequence[Episode], confidence: float = 0.95) -> Estimate:
    """The success rate (SR, both papers): the share of episodes whose task score reached 1.0, with its Wilson
    score interval (``stats.wilson_interval``). ``ValueError`` for no episodes."""
    successes = sum(episode.success for episode in episodes)
    interval = wilson_interval(successes, len(episodes), confidence)
    return Estimate(successes / len(episodes), len(episodes), interval)


def sub_goal_success_rate(episode: Episode) -> float | None:
    """AndroidLab's sub-goal success rate (Sub-SR) of one episode: 1.0 when the task succeeded, else the share of
    its sub-goals met (0.0 when the task has none, ``subgoals=()``), averaged over episodes by ``summarize``.
    Edge case: ``None`` when the sub-goals are not known (``subgoals=None``; trajectory logs do not record
    them): counting only the successes, whose value needs no sub-goals, would bias the mean upwards."""
    if episode.subgoals is None:
        return None
    if episode.success:
        return 1.0
    return sum(episode.subgoals) / len(episode.subgoals) if episode.subgoals else 0.0


def reasonable_operation_ratio(episode: Episode) -> float | None:
    """AndroidLab's reasonable operation ratio (ROR): the share of operations after which the screen changed
    (an operation that leaves the screen as it was did nothing: a tap beside a button, an invalid action).

    The ``status`` step is not an operation (their denominator, steps − 1, leaves out the final ``finish``).
    Ambiguity: their evaluator does not judge the operation just before ``finish`` (the screen after it is not
    compared) and counts it reasonable; here every operation is judged.
    Edge cases: 1.0 for an episode without operations (as theirs for a lone ``finish``); ``None`` when a
    step's screen change is not known (trajectory logs do not record it).
    """
    operations = episode.operations
    if any(step.screen_changed is None for step in operations):
        return None
    return sum(bool(step.screen_changed) for step in operations) / len(operations) if operations else 1.0


def screen_changed(before: np.ndarray, after: np.ndarray, threshold: float = SAME_SCREEN) -> bool:
    """AndroidLab's test of a changed screen: among the pixel values that are not 255 (blank white) in at least
    one of the two screenshots, the share equal in both is at most ``threshold`` (0.999), or the shapes differ.
    Two all-white screens are the same."""
    if before.shape != after.shape:
        return True
    inked = (before != 255) | (after != 255)
    if not inked.any():
        return False
    return float(np.count_nonzero((before == after) & inked)) / float(np.count_nonzero(inked)) <= threshold
