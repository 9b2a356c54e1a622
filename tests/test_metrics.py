"""android_gym.metrics on hand-made episodes (expected values worked out by hand in the comments) and on episodes
recorded by ``RecordTrajectory`` on the simulated phone."""

from __future__ import annotations

import json

import numpy as np
import pytest

from android_gym.actions import Action, ActionType
from android_gym.agents import OracleAgent
from android_gym.metrics import (
    Episode,
    bootstrap_interval,
    from_actions,
    from_jsonl,
    invalid_action_ratio,
    longest_common_subsequence,
    oracle_actions,
    reasonable_operation_ratio,
    repeated_action_ratio,
    reversed_redundancy_ratio,
    screen_changed,
    sub_goal_success_rate,
    success_rate,
    summarize,
    task_completion_ratio,
    task_reward,
    wilson_interval,
)
from android_gym.testing import run_episode
from android_gym.wrappers import RecordTrajectory

A = Action(ActionType.OPEN_APP, app_name="Simple SMS Messenger")
B = Action(ActionType.CLICK, index=3)
C = Action(ActionType.INPUT_TEXT, index=5, text="hi")
D = Action(ActionType.CLICK, index=7)
E = Action(ActionType.NAVIGATE_BACK)
X = Action(ActionType.CLICK, index=9)  # in no oracle
S = Action(ActionType.SCROLL, index=2, direction="down")
DONE = Action(ActionType.STATUS, goal_status="complete")
GARBLED = {"invalid_action": "action is not valid JSON"}  # what RecordTrajectory logs for unreadable output


def episode(actions, oracle=None, success=True, task="T", **kwargs) -> Episode:
    """An episode of ``actions`` whose last step leaves the score at 1.0 (``success``) or 0.0."""
    scores = [0.0] * (len(actions) - 1) + [1.0 if success else 0.0] if actions else []
    return from_actions(task, actions, scores, oracle, **kwargs)


# ----- AndroidArena ----------------------------------------------------------------------------------------------
def test_lcs_of_known_sequences():
    # CLRS's example: LCS(ABCBDAB, BDCABA) has length 4 (BCBA, BDAB, ...).
    assert longest_common_subsequence(list("ABCBDAB"), list("BDCABA")) == 4
    assert longest_common_subsequence([None, "A", None], ["A"]) == 1  # None (an invalid step) matches nothing
    assert longest_common_subsequence([None], [None]) == 0
    assert longest_common_subsequence([], ["A"]) == 0


def test_task_reward_weighs_later_oracle_steps_more():
    oracle = [A, B, C, D, E]  # L = 5; normalizer 1 + .9 + .81 + .729 + .6561 = 4.0951
    # LCS A C E at oracle positions 0, 2, 4: .9^4 + .9^2 + .9^0 = .6561 + .81 + 1 = 2.4661; 2.4661 / 4.0951
    skipping = episode([A, X, C, E], oracle)
    assert task_reward(skipping) == pytest.approx(0.602208, abs=1e-6)
    assert task_completion_ratio(skipping) == 1.0  # the last oracle action (position 4) was reached: 5 / 5
    # LCS A B at positions 0, 1: .6561 + .729 = 1.3851; 1.3851 / 4.0951 = 0.338233; TCR 2 / 5
    early = episode([A, B], oracle, success=False)
    assert task_reward(early) == pytest.approx(0.338233, abs=1e-6)
    assert task_completion_ratio(early) == pytest.approx(0.4)
    # every oracle action in order, with a detour first: full marks
    detour = episode([X, E, A, B, C, D, E], oracle)
    assert task_reward(detour) == pytest.approx(1.0) and task_completion_ratio(detour) == 1.0


def test_lcs_placement_late_for_reward_early_for_completion():
    # oracle A B A, agent A: the A is placed last for TR (.9^0 = 1 over 1 + .9 + .81 = 2.71: 0.369004) but the
    # completion ratio counts the shortest oracle prefix holding it: 1 / 3.
    ambiguous = episode([A], [A, B, A])
    assert task_reward(ambiguous) == pytest.approx(1 / 2.71)
    assert task_completion_ratio(ambiguous) == pytest.approx(1 / 3)


def test_lcs_metrics_edge_cases():
    assert task_reward(episode([A], [A], invalid=[True])) == 0.0  # an invalid step matches nothing
    assert task_reward(episode([A, B, DONE], [A, B, DONE])) == 1.0  # status is on neither side (L = 2)
    assert task_reward(episode([A, DONE], [A, B])) == pytest.approx(0.9 / 1.9)  # A at position 0 of 2
    assert task_reward(episode([A])) is None and task_completion_ratio(episode([A])) is None  # no oracle
    assert task_reward(episode([A], [DONE])) is None and task_completion_ratio(episode([A], [])) is None  # L = 0
    assert task_reward(episode([], [A])) == 0.0 and task_completion_ratio(episode([DONE], [A])) == 0.0


def test_reversed_redundancy_ratio():
    oracle = [A, B, C, D, DONE]  # 4 operations
    # 5 operations (status left out): 4 / 5
    assert reversed_redundancy_ratio(episode([A, X, B, C, D, DONE], oracle)) == pytest.approx(0.8)
    assert reversed_redundancy_ratio(episode([A, D], oracle)) == pytest.approx(2.0)  # shorter than the oracle
    failed = episode([A, X, B, C, D, DONE], oracle, success=False)
    assert reversed_redundancy_ratio(failed) is None  # AndroidLab: failures left out
    assert reversed_redundancy_ratio(failed, failed_as_zero=True) == 0.0  # AndroidArena: times SR
    assert reversed_redundancy_ratio(episode([DONE], oracle)) is None  # no operation
    assert reversed_redundancy_ratio(episode([A, B])) is None  # no oracle


def test_invalid_action_ratio():
    # 1 of 4 steps invalid, given explicitly or found as the unreadable action it is
    assert invalid_action_ratio(episode([A, X, B, C], invalid=[False, True, False, False])) == 0.25
    assert invalid_action_ratio(episode([A, GARBLED, B, C])) == 0.25
    assert invalid_action_ratio(episode([])) is None


def test_repeated_action_ratio():
    assert repeated_action_ratio(episode([A, B, B, C, C])) == pytest.approx(2 / 5)  # the second B and second C
    assert repeated_action_ratio(episode([A, B, C, B, C])) == pytest.approx(2 / 5)  # the second "B C"
    assert repeated_action_ratio(episode([A, B, C, B, C, B, C])) == pytest.approx(4 / 7)  # "B C" three times
    assert repeated_action_ratio(episode([A, A, A])) == pytest.approx(2 / 3)
    assert repeated_action_ratio(episode([A, B, A])) == 0.0  # not consecutive
    assert repeated_action_ratio(episode([GARBLED, GARBLED])) == pytest.approx(1 / 2)  # same garbage twice
    # five identical scrolls: a run of 4 repeats, of which 2 pass free; 2 / 5 (4 / 5 with none free)
    assert repeated_action_ratio(episode([S] * 5)) == pytest.approx(2 / 5)
    assert repeated_action_ratio(episode([S] * 5), free_scroll_repeats=0) == pytest.approx(4 / 5)
    assert repeated_action_ratio(episode([])) is None


# ----- AndroidLab ------------------------------------------------------------------------------------------------
def test_reasonable_operation_ratio():
    # 4 operations, the second left the screen as it was; the final status is not an operation: 3 / 4
    changed = [True, False, True, True, None]
    assert reasonable_operation_ratio(episode([A, B, C, D, DONE], screen_changed=changed)) == 0.75
    assert reasonable_operation_ratio(episode([A, B], screen_changed=[True, None])) is None  # not known
    assert reasonable_operation_ratio(episode([A, B])) is None
    assert reasonable_operation_ratio(episode([DONE], screen_changed=[None])) == 1.0  # no operation


def test_screen_changed_follows_androidlab_pixel_rule():
    white = np.full((100, 100, 3), 255, np.uint8)
    small = white.copy()
    small[:10, :10] = 0  # 100 black pixels: 300 values not 255
    grey = small.copy()
    grey[0, 0] = 128  # 3 of those 300 values differ: 297 / 300 = 0.99 <= 0.999
    assert screen_changed(small, grey) and not screen_changed(small, small.copy())
    large = white.copy()
    large[:40, :40] = 0  # 1,600 black pixels: 4,800 values not 255
    nudged = large.copy()
    nudged[0, 0, 0] = 1  # 1 of 4,800 values differs: 4,799 / 4,800 = 0.99979 > 0.999, the same screen
    assert not screen_changed(large, nudged)
    assert not screen_changed(white, white.copy())  # nothing drawn on either
    assert screen_changed(white, white[:50])


def test_sub_goal_success_rate():
    assert sub_goal_success_rate(episode([A], success=False, subgoals=[True, False, False])) == pytest.approx(1 / 3)
    assert sub_goal_success_rate(episode([A], subgoals=[False, False])) == 1.0  # success counts in full
    assert sub_goal_success_rate(episode([A], success=False, subgoals=[])) == 0.0  # a task without sub-goals
    assert sub_goal_success_rate(episode([A], success=False)) is None  # not known


# ----- confidence intervals --------------------------------------------------------------------------------------
def test_wilson_interval_against_hand_computation():
    # 7/10 at 95 %: z = 1.959964, z² = 3.841459; 1 + z²/n = 1.3841459;
    # centre = (0.7 + 3.841459/20) / 1.3841459 = 0.8920729 / 1.3841459 = 0.644489;
    # half = z * sqrt(0.7*0.3/10 + 3.841459/400) / 1.3841459 = 1.959964 * sqrt(0.0306036) / 1.3841459 = 0.247716
    low, high = wilson_interval(7, 10)
    assert low == pytest.approx(0.396773, abs=1e-5) and high == pytest.approx(0.892205, abs=1e-5)
    # 0/10: the lower end is 0 and the upper z²/(n + z²) = 3.841459 / 13.841459 = 0.277533
    assert wilson_interval(0, 10) == pytest.approx((0.0, 0.277533), abs=1e-6)
    assert wilson_interval(10, 10) == pytest.approx((0.722467, 1.0), abs=1e-6)
    narrower = wilson_interval(7, 10, confidence=0.9)
    assert low < narrower[0] < 0.7 < narrower[1] < high
    with pytest.raises(ValueError):
        wilson_interval(0, 0)
    with pytest.raises(ValueError):
        wilson_interval(11, 10)
    with pytest.raises(ValueError):
        wilson_interval(7, 10, confidence=1.0)


def test_bootstrap_interval_matches_the_normal_approximation_for_many_values():
    # 400 values, half 0 and half 1: mean 0.5, sd 0.5, standard error 0.025; normal 95 %: 0.5 ± 0.049
    values = [0.0] * 200 + [1.0] * 200
    low, high = bootstrap_interval(values)
    assert low == pytest.approx(0.451, abs=0.005) and high == pytest.approx(0.549, abs=0.005)
    assert bootstrap_interval(values) == (low, high)  # seeded: the same interval again
    spread = [i / 10 for i in range(11)]
    assert bootstrap_interval(spread, seed=1) != bootstrap_interval(spread, seed=2)  # the seed is used
    assert bootstrap_interval([0.5] * 7) == (0.5, 0.5)
    with pytest.raises(ValueError):
        bootstrap_interval([])


# ----- episodes from logs, aggregation ---------------------------------------------------------------------------
def test_from_jsonl_reads_what_record_trajectory_writes(tmp_path):
    lines = [
        {
            "action": {"action_type": "open_app", "app_name": "Simple SMS Messenger"},
            "score": 0.0,
            "invalid_action": None,
        },
        {"action": GARBLED, "score": 0.0, "invalid_action": "action is not valid JSON"},
        {"action": {"action_type": "click", "index": 999}, "score": 0.0, "invalid_action": "index 999 is out of range"},
        {"action": {"action_type": "click", "index": 3}, "score": 1.0, "invalid_action": None},
    ]
    directory = tmp_path / "episode_000"
    directory.mkdir()
    (directory / "trajectory.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    read = from_jsonl(directory, "SimpleSmsReply", oracle=[A, B])
    assert [step.invalid for step in read.steps] == [False, True, True, False]
    assert read.steps[0].action == A and read.steps[1].action is None and read.steps[1].key.startswith("raw:")
    assert read.steps[2].action == Action(ActionType.CLICK, index=999) and read.success
    assert invalid_action_ratio(read) == 0.5 and task_reward(read) == 1.0 and reversed_redundancy_ratio(read) == 0.5
    assert reasonable_operation_ratio(read) is None  # this log records no screen change


def test_from_actions_rejects_misaligned_input():
    with pytest.raises(ValueError, match="scores has 1 entries for 2 actions"):
        from_actions("T", [A, B], [0.0])
    with pytest.raises(ValueError, match="screen_changed"):
        from_actions("T", [A], [1.0], screen_changed=[True, False])
    with pytest.raises(ValueError, match="oracle action"):
        from_actions("T", [A], [1.0], oracle=[GARBLED])


def test_summarize_per_task_and_overall():
    solved = episode([A, B], [A, B], task="T1")  # TR 1, RRR 1
    failed = from_actions("T1", [X], [0.5], [A, B])  # score 0.5, TR 0, RRR: None (AndroidLab), 0 (AndroidArena)
    other = episode([C], task="T2")  # no oracle: no TR, TCR, RRR
    summary = summarize([other, solved, failed], resamples=2_000)
    overall, t1, t2 = summary["overall"], summary["tasks"]["T1"], summary["tasks"]["T2"]
    assert list(summary["tasks"]) == ["T1", "T2"] and overall["episodes"] == 3
    assert overall["success_rate"] == {"mean": pytest.approx(2 / 3), "n": 3, "interval": wilson_interval(2, 3)}
    assert overall["score"]["mean"] == pytest.approx(2.5 / 3) and overall["score"]["n"] == 3
    assert t1["success_rate"]["mean"] == 0.5 and t2["success_rate"]["mean"] == 1.0
    assert t1["task_reward"]["mean"] == 0.5 and t1["task_reward"]["n"] == 2
    assert t2["task_reward"] == {"mean": None, "n": 0, "interval": None}
    assert t1["reversed_redundancy_ratio"]["mean"] == 1.0 and t1["reversed_redundancy_ratio"]["n"] == 1
    assert t1["reversed_redundancy_ratio_arena"]["mean"] == 0.5 and t1["reversed_redundancy_ratio_arena"]["n"] == 2
    low, high = t1["task_reward"]["interval"]
    assert 0.0 <= low <= 0.5 <= high <= 1.0
    assert overall["reasonable_operation_ratio"]["n"] == 0  # no screen changes given
    assert summarize([])["overall"]["success_rate"] == {"mean": None, "n": 0, "interval": None}
    assert success_rate([solved, failed]).interval == wilson_interval(1, 2)


# ----- recorded on the simulated phone ---------------------------------------------------------------------------
TASK = "SimpleSmsReply"
ENV_ID = f"AndroidWorld/{TASK}-v0"


def test_the_oracles_own_recorded_trajectory_scores_full_marks(make_env, tmp_path):
    oracle = oracle_actions(make_env(ENV_ID, pixels=False), seed=0)
    recorded = RecordTrajectory(make_env(ENV_ID, pixels=False), tmp_path)
    assert run_episode(recorded, OracleAgent(), seed=0).score == 1.0
    recorded.close()
    read = from_jsonl(tmp_path / "episode_000", TASK, oracle)
    assert read.success and [step.action for step in read.steps] == oracle
    assert task_reward(read) == 1.0 and task_completion_ratio(read) == 1.0 and reversed_redundancy_ratio(read) == 1.0
    assert invalid_action_ratio(read) == 0.0 and repeated_action_ratio(read) == 0.0


class _Detour:
    """An invalid tap (index off the screen) and a wait, then the oracle."""

    def reset(self, env) -> None:
        self.pending = [Action(ActionType.CLICK, index=999), Action(ActionType.WAIT)]
        self.oracle = OracleAgent()
        self.oracle.reset(env)

    def act(self, observation, info) -> Action:
        return self.pending.pop(0) if self.pending else self.oracle.act(observation, info)


def test_a_recorded_detour_costs_redundancy_but_not_reward(make_env, tmp_path):
    oracle = oracle_actions(make_env(ENV_ID, pixels=False), seed=0)
    env = RecordTrajectory(make_env(ENV_ID, pixels=True), tmp_path)
    agent, actions, scores, changed, ended = _Detour(), [], [], [], False
    observation, info = env.reset(seed=0)
    agent.reset(env)
    while not ended:
        action = agent.act(observation, info)
        after, _, terminated, truncated, info = env.step(action)
        actions.append(action)
        scores.append(info["score"])
        changed.append(screen_changed(observation["pixels"], after["pixels"]))
        observation, ended = after, terminated or truncated
    env.close()
    read = from_jsonl(tmp_path / "episode_000", TASK, oracle)
    length = len(oracle)  # L oracle operations; the agent made L + 2
    assert read.success and len(read.steps) == length + 2
    assert task_reward(read) == 1.0 and task_completion_ratio(read) == 1.0
    assert reversed_redundancy_ratio(read) == pytest.approx(length / (length + 2))
    assert invalid_action_ratio(read) == pytest.approx(1 / (length + 2))
    # the invalid tap and the wait left the screen as it was; every oracle action changed it
    assert changed == [False, False] + [True] * length
    with_screens = from_actions(
        TASK, actions, scores, oracle, invalid=[True] + [False] * (length + 1), screen_changed=changed
    )
    assert reasonable_operation_ratio(with_screens) == pytest.approx(length / (length + 2))
    assert [step.screen_changed for step in read.steps] == changed  # the recorder logs the same test
    assert reasonable_operation_ratio(read) == reasonable_operation_ratio(with_screens)
