"""Benchmark metrics over episodes: success rate with confidence intervals, AndroidArena's metrics (task reward
and task completion ratio against the oracle's actions, reversed redundancy ratio, invalid- and repeated-action
ratios) and AndroidLab's (success rate, sub-goal success rate, reversed redundancy ratio, reasonable operation
ratio). Each metric's docstring defines it and names its source; ``docs/metrics.md`` has the overview.

```python
from android_gym import metrics
oracle = metrics.oracle_actions(gym.make("AndroidWorld/SimpleSmsReply-v0"), seed=0)   # the agent's seed
episode = metrics.from_jsonl("runs/episode_000", oracle=oracle)   # `android-gym run --record`
metrics.summarize([episode])["overall"]["task_reward"]    # {"mean": ..., "n": 1, "interval": (...)}
```
"""

from __future__ import annotations

from android_gym.metrics.arena import (
    GAMMA,
    invalid_action_ratio,
    longest_common_subsequence,
    repeated_action_ratio,
    reversed_redundancy_ratio,
    task_completion_ratio,
    task_reward,
)
from android_gym.metrics.episode import (
    Episode,
    StepRecord,
    action_key,
    from_actions,
    from_jsonl,
    is_operation,
    oracle_actions,
    save_oracle,
)
from android_gym.metrics.lab import reasonable_operation_ratio, screen_changed, sub_goal_success_rate, success_rate
from android_gym.metrics.stats import Estimate, bootstrap_interval, wilson_interval
from android_gym.metrics.summary import EPISODE_METRICS, summarize

__all__ = [
    "GAMMA",
    "EPISODE_METRICS",
    "Episode",
    "Estimate",
    "StepRecord",
    "action_key",
    "bootstrap_interval",
    "from_actions",
    "from_jsonl",
    "invalid_action_ratio",
    "is_operation",
    "longest_common_subsequence",
    "oracle_actions",
    "reasonable_operation_ratio",
    "repeated_action_ratio",
    "reversed_redundancy_ratio",
    "save_oracle",
    "screen_changed",
    "sub_goal_success_rate",
    "success_rate",
    "summarize",
    "task_completion_ratio",
    "task_reward",
    "wilson_interval",
]
