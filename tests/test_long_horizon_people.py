"""The long-horizon people-and-time tasks (``envs/long_horizon_people.py``): partial credit along the oracle, and
the checks that must tell a near miss from the real thing. (The catalogue tests run ``check_task`` and the RL and
LLM views over every task, these included.)"""

from __future__ import annotations

import datetime as dt
import shlex

import pytest

import android_gym
from android_gym.envs import long_horizon_people as people
from android_gym.envs import sms, tasks_app
from android_gym.evaluation.suite import long_horizon_tasks
from android_gym.tasks import get_task
from android_gym.tasks.oracle import OraclePolicy
from android_gym.tasks.validators import device_time_ms
from android_gym.testing import play_steps

TASKS = [name for name in android_gym.task_names(include_aliases=False)
         if get_task(name).__module__ == people.__name__]


def test_at_least_fourteen_tasks_in_the_long_horizon_suite():
    assert len(TASKS) >= 14
    assert set(TASKS) <= set(long_horizon_tasks())


@pytest.mark.parametrize("task", TASKS)
def test_half_the_oracle_earns_partial_credit_in_order(task, reset_task):
    """Played one action at a time, the oracle meets the sub-goals in the order ``subgoals()`` lists them, scores
    strictly between 0 and 1 halfway, and its length fits the step budget (1.5–2x) and 20–60 steps."""
    env, info = reset_task(task, device="sim:270x600")
    policy, history = OraclePolicy(env.unwrapped.task.oracle()), []
    terminated = truncated = False
    while not (terminated or truncated):
        _, _, terminated, truncated, info = env.step(policy.act(info["ui_elements"]))
        history.append(list(env.unwrapped.task.subgoal_scores))
    assert info["score"] == 1.0 and terminated
    steps = len(history)
    assert 20 <= steps <= 60 and 1.5 * steps <= get_task(task).max_steps() <= 2 * steps
    halfway = sum(history[steps // 2 - 1]) / len(history[0])
    assert 0.0 < halfway < 1.0
    first_met = [next(step for step, scores in enumerate(history) if scores[index] == 1.0)
                 for index in range(len(history[0]))]
    assert first_met == sorted(first_met)


def _send(env, number: str, body: str) -> None:
    """A sent text in the SMS store, dated now (as the app writes one)."""
    device = env.unwrapped.device
    now = device_time_ms(device)
    device.shell(f"content insert --uri content://sms/sent --bind address:s:{shlex.quote(number)} "
                 f"--bind body:s:{shlex.quote(body)} --bind date:l:{now}")


def test_a_text_with_another_address_or_to_another_contact_does_not_count(reset_task):
    env, info = reset_task("TextEventLocationThenAddTask")
    params, task = info["params"], env.unwrapped.task
    other_address = next(address for address in sms.ADDRESSES if address != params["event"]["location"])
    other_number = next(number for name, number in params["people"] if name != params["friend"])
    _send(env, params["friend_number"], other_address)
    _send(env, other_number, params["event"]["location"])
    assert task.is_successful(env.unwrapped.device) == 0.0
    _send(env, params["friend_number"], params["event"]["location"])
    assert task.is_successful(env.unwrapped.device) == 0.5 and task.subgoal_scores == [1.0, 0.0]


def test_a_task_due_a_day_late_does_not_count(reset_task):
    env, info = reset_task("TextEventLocationThenAddTask")
    device, task = env.unwrapped.device, env.unwrapped.task
    day = people.event_day(info["params"]["event"])
    tasks_app.TASKS_TABLE.insert(device, [tasks_app.task_row(info["params"]["title"], due=day + dt.timedelta(days=1))])
    assert task.is_successful(device) == 0.0
    tasks_app.TASKS_TABLE.insert(device, [tasks_app.task_row(info["params"]["title"], due=day)])
    assert task.subgoal_scores == [0.0, 0.0] and task.is_successful(device) == 0.5


def test_a_forwarded_number_counts_however_it_is_spaced(reset_task):
    env, info = reset_task("ForwardContactNumberThenRemind")
    params, task = info["params"], env.unwrapped.task
    number = params["who_number"]
    _send(env, params["friend_number"], number[:-1])  # a digit short
    assert task.is_successful(env.unwrapped.device) == 0.0
    _send(env, params["friend_number"], f"It is {number[:2]} {number[2:5]} {number[5:8]}-{number[8:]}")
    assert task.is_successful(env.unwrapped.device) == 0.5


def test_a_timer_a_minute_off_does_not_count(reset_task):
    env, info = reset_task("TextedCookingTimeToTimer")
    task = env.unwrapped.task
    info, invalid = play_steps(env, info, people.start_timer(info["params"]["minutes"] + 1))
    assert not invalid and info["score"] == 0.0 and task.subgoal_scores[0] == 0.0
    assert people.clock_preferences(env.unwrapped.device)  # a timer was started: the check read it and said no
