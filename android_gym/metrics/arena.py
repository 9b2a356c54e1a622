"""AndroidArena's metrics: task reward and task completion ratio against the oracle's actions, reversed redundancy
ratio, invalid-action ratio, repeated-action ratio.

Source: Xing et al., "Understanding the Weakness of Large Language Model Agents within a Complex Android
Environment", KDD 2024 (arXiv:2402.06596), section on evaluation metrics ("adaptive" task-completion metrics
and the fine-grained ones); the exact formulas follow their released evaluator, ``run_evaluator.py``
(AndroidArenaAgent/AndroidArena: ``task_reward``, ``task_completion_ratio``, ``reversed_redundancy_ratio``,
``invalid_action``, ``repeat_actions``).

Two actions are the same when their ``action_key`` is equal: same type, same element index (on the screen it
was chosen on) or point, same text, app, direction. AndroidArena's test is looser (same XPath or a neighbouring
one; typed text with similarity ≥ 0.6); our trajectories record the element index but not the element, so an
exact match is the only test they support. An invalid step never matches.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import groupby

from android_gym.actions import ActionType
from android_gym.metrics.episode import Episode, action_key

#: AndroidArena's discount of the task reward.
GAMMA = 0.9
#: Repeats made only of scrolls/swipes that AndroidArena's evaluator lets pass before counting (scrolling a list
#: takes several identical drags).
FREE_SCROLL_REPEATS = 2
_SCROLLS = (ActionType.SCROLL, ActionType.SWIPE)


def _tables(
    agent: Sequence[str | None], oracle: Sequence[str], gamma: float
) -> tuple[list[list[int]], list[list[float]]]:
    """``length[i][j]``: the LCS length of ``agent[:i]`` and ``oracle[:j]``; ``weight[i][j]``: the largest
    Σ gamma^(len(oracle) − 1 − j') over the matched oracle positions j' of such a longest subsequence."""
    rows, cols = len(agent) + 1, len(oracle) + 1
    length = [[0] * cols for _ in range(rows)]
    weight = [[0.0] * cols for _ in range(rows)]
    for i in range(1, rows):
        for j in range(1, cols):
            best = max((length[i - 1][j], weight[i - 1][j]), (length[i][j - 1], weight[i][j - 1]))
            if agent[i - 1] is not None and agent[i - 1] == oracle[j - 1]:
                best = max(best, (length[i - 1][j - 1] + 1, weight[i - 1][j - 1] + gamma ** (len(oracle) - j)))
            length[i][j], weight[i][j] = best
    return length, weight


def _sequences(episode: Episode) -> tuple[list[str | None], list[str]] | None:
    """The agent's operation keys (``None`` for an invalid step) and the oracle's, ``None`` without an oracle."""
    oracle = episode.oracle_operations
    if oracle is None:
        return None
    agent = [None if step.invalid else step.key for step in episode.operations]
    return agent, [action_key(action) for action in oracle]


def longest_common_subsequence(agent: Sequence[str | None], oracle: Sequence[str]) -> int:
    """The length of the longest common subsequence of two action-key sequences (``None`` matches nothing)."""
    return _tables(agent, oracle, GAMMA)[0][-1][-1]


def task_reward(episode: Episode, gamma: float = GAMMA) -> float | None:
    """AndroidArena's task reward (TR): how much of the oracle's action sequence the agent's reproduces, later
    oracle steps (closer to the goal) weighing more.

    With the oracle's operations o_0 … o_{L−1} and a longest common subsequence of the agent's operations and
    them matching the oracle positions J, TR = Σ_{j∈J} γ^(L−1−j) / Σ_{k<L} γ^k, γ = 0.9; 1.0 when the agent
    played every oracle action in order (whatever else it did), 0.0 when it matched none.
    Ambiguity: when several longest common subsequences (or placements of one) exist, their evaluator places
    the one its DP returns as late as possible in the oracle's sequence; here J is the placement with the
    largest TR among all longest ones, which is that rule made independent of DP tie-breaking.
    Edge cases: ``None`` without an oracle or when the oracle has no operation (L = 0); 0.0 for an episode
    without operations. ``status`` steps are left out of both sequences (their evaluator drops ``FINISH``).
    """
    sequences = _sequences(episode)
    if sequences is None or not sequences[1]:
        return None
    agent, oracle = sequences
    # the normalizer is summed in the order the DP adds the weights, so a full match gives exactly 1.0
    return _tables(agent, oracle, gamma)[1][-1][-1] / sum(gamma**k for k in reversed(range(len(oracle))))


def task_completion_ratio(episode: Episode) -> float | None:
    """AndroidArena's task completion ratio (TCR): how far into the oracle's sequence the agent got.

    TCR = p / L, where p is the shortest prefix of the oracle's L operations that holds a longest common
    subsequence of the agent's operations and the whole oracle sequence (the position of the last matched oracle
    action, matched as early as possible, plus one); 0.0 when nothing matches.
    Ambiguity: their evaluator takes the first oracle action equal to the last action of the LCS, even one
    placed before the LCS's earlier actions; this keeps "as early as possible" but respects the order.
    Edge cases: ``None`` without an oracle or when it has no operation; 0.0 for an episode without operations.
    """
    sequences = _sequences(episode)
    if sequences is None or not sequences[1]:
        return None
    length = _tables(*sequences, GAMMA)[0][-1]
    return 0.0 if length[-1] == 0 else length.index(length[-1]) / (len(length) - 1)


def reversed_redundancy_ratio(episode: Episode, failed_as_zero: bool = False) -> float | None:
    """The reversed redundancy ratio (RRR): the oracle's operation count L over the agent's L̂, L / L̂ (AndroidArena;
    AndroidLab uses it with a human demonstration's length as L). Above 1 when the agent was shorter than the
    oracle (not clipped, as in both evaluators).

    Failed episodes: AndroidLab leaves them out (``None`` here, the default), AndroidArena multiplies by the
    success (``failed_as_zero=True`` gives 0.0). Edge cases: ``None`` without an oracle, or when the agent made
    no operation (a task solved before acting). ``status`` steps are not operations (AndroidArena drops
    ``FINISH`` from both lengths).
    """
    oracle = episode.oracle_operations
    if oracle is None or not episode.operations:
        return None
    if not episode.success:
        return 0.0 if failed_as_zero else None
    return len(oracle) / len(episode.operations)


def invalid_action_ratio(episode: Episode) -> float | None:
    """AndroidArena's invalid-action ratio: the share of steps the env reported invalid (``info["invalid_action"]``:
    unparseable output, an index off the screen, an unknown app, ...). Their evaluator counts observations
    carrying an invalid-action message over all steps; ``None`` for an episode without steps."""
    if not episode.steps:
        return None
    return sum(step.invalid for step in episode.steps) / len(episode.steps)


def _repeats(keys: Sequence[str]) -> list[bool]:
    """Per step, whether it lies in a block that repeats the block right before it (A B C B C: the second B C)."""
    marked = [False] * len(keys)
    for size in range(1, len(keys) // 2 + 1):
        for start in range(size, len(keys) - size + 1):
            if keys[start : start + size] == keys[start - size : start]:
                marked[start : start + size] = [True] * size
    return marked


def repeated_action_ratio(episode: Episode, free_scroll_repeats: int = FREE_SCROLL_REPEATS) -> float | None:
    """AndroidArena's repeated-action ratio: the share of steps that repeat, right away, the action or run of
    actions before them (A B B C C: 2 of 5; A B C B C: the second B C, 2 of 5; A B A: none).

    Each maximal run of repeating steps counts its length, except a run made only of scrolls/swipes, which
    counts its length minus ``free_scroll_repeats`` (at least 0): their evaluator lets two repeated swipes pass,
    since scrolling a list takes several identical drags.
    Ambiguity: their evaluator counts a run as its length plus one (A A counts 2 of 2); here the first occurrence
    is not a repeat (A A counts 1 of 2), which is the ratio the name describes.
    Edge cases: ``None`` for an episode without steps. Steps compare by ``action_key``; invalid steps take part
    (the same unreadable output twice is a repeat).
    """
    steps = episode.steps
    if not steps:
        return None
    count = 0
    for repeating, pairs in groupby(zip(_repeats([step.key for step in steps]), steps), key=lambda pair: pair[0]):
        run = [step for _, step in pairs]
        if repeating:
            scrolls = all(step.action is not None and step.action.action_type in _SCROLLS for step in run)
            count += max(0, len(run) - free_scroll_repeats) if scrolls else len(run)
    return count / len(steps)
