"""Tasks app tasks: row encodings, AndroidWorld-style row checks of TasksAddTask/TasksCompleteTask, and
``reveal_rows`` bringing rows on screen among noise."""

from __future__ import annotations

import datetime as dt

import gymnasium as gym
import numpy as np
import pytest

import android_gym
from android_gym.actions import ActionType
from android_gym.device import state
from android_gym.device.sim import SimDevice
from android_gym.envs.tasks_app import (
    NOISE_TASKS,
    TASKS_TABLE,
    TasksAddTask,
    TasksCompleteTask,
    random_task_row,
    reveal_rows,
    task_row,
)
from android_gym.tasks.oracle import OracleError, OraclePolicy, complete

UTC = dt.timezone.utc
DEVICE_NOW = dt.datetime(2023, 10, 15, 15, 34, tzinfo=UTC)


def ms(*args: int) -> int:
    return int(dt.datetime(*args, tzinfo=UTC).timestamp() * 1000)


TASKS_TABLE_COLUMNS = ("title", "importance", "dueDate", "hideUntil", "created", "modified", "completed", "deleted",
                       "notes", "estimatedSeconds", "elapsedSeconds", "timerStart", "notificationFlags",
                       "lastNotified", "recurrence", "repeat_from", "calendarUri", "remoteId", "collapsed", "parent",
                       "order", "read_only")


@pytest.fixture
def device():
    sim = SimDevice()
    yield sim
    sim.close()


def test_task_row_uses_the_apps_encodings_and_defaults():
    row = task_row("Pay rent", 0, dt.date(2023, 10, 20), dt.date(2023, 10, 18), notes="By card")
    assert (row["dueDate"], row["hideUntil"]) == (ms(2023, 10, 20, 12, 0), ms(2023, 10, 18))  # noon; midnight
    timed = task_row("Call", due=dt.datetime(2023, 10, 20, 9, 15), hide_until=dt.datetime(2023, 10, 19, 8, 0),
                     completed=dt.datetime(2023, 10, 21, 7, 5))
    assert timed["dueDate"] == ms(2023, 10, 20, 9, 15, 1) and timed["hideUntil"] == ms(2023, 10, 19, 8, 0, 1)
    assert timed["completed"] == ms(2023, 10, 21, 7, 5) and timed["importance"] == 2  # default priority: low
    assert row["created"] == row["modified"] == ms(2023, 10, 8, 15, 34) and row["deleted"] == 0
    assert row["notes"] == "By card" and timed["notes"] is None and row["remoteId"] != timed["remoteId"]
    assert row["remoteId"].isdigit() and int(row["remoteId"]) >= 100_000_000
    assert set(row) == set(TASKS_TABLE_COLUMNS)


def test_noise_rows_are_seeded_and_in_androidworlds_ranges():
    first = [random_task_row(np.random.default_rng(5)) for _ in range(3)]
    assert first == [random_task_row(np.random.default_rng(5)) for _ in range(3)]
    rows = [random_task_row(np.random.default_rng(seed)) for seed in range(40)]
    for row in rows:
        assert abs(row["dueDate"] - ms(2023, 10, 15, 15, 34)) <= 7 * 86_400_000
        assert row["hideUntil"] < row["dueDate"] and row["importance"] in range(4)
        assert row["completed"] == 0 or row["completed"] < ms(2023, 10, 15)
    assert {row["completed"] > 0 for row in rows} == {True, False}


def _noise_row_of_datetimes(rng: np.random.Generator) -> dict:
    """AndroidWorld's noise task drawn as ``_generate_random_task`` does, with datetimes, through ``task_row``."""
    def minute_in(center: dt.datetime, days: int = 14) -> dt.datetime:
        return center - dt.timedelta(days=days) / 2 + dt.timedelta(minutes=int(rng.integers(days * 24 * 60)))

    title = tuple(NOISE_TASKS)[int(rng.integers(len(NOISE_TASKS)))]
    notes = NOISE_TASKS[title] if rng.integers(2) else None
    importance = int(rng.integers(4))
    due = minute_in(DEVICE_NOW)
    start = minute_in(due - dt.timedelta(days=6), days=5)
    completed = minute_in(DEVICE_NOW - dt.timedelta(days=14)) if rng.integers(2) else None
    return task_row(title, importance, due, start, completed, notes, created=due - dt.timedelta(days=7),
                    remote_id=str(int(rng.integers(100_000_000, 2**62))))


def test_noise_rows_are_task_row_of_their_datetimes():
    """``random_task_row`` works its times out in seconds; the rows (and their column order) are those of the
    datetimes it draws, and it leaves the generator where they would."""
    for seed in range(60):
        fast, slow = np.random.default_rng(seed), np.random.default_rng(seed)
        rows = [random_task_row(fast) for _ in range(5)]
        expected = [_noise_row_of_datetimes(slow) for _ in range(5)]
        assert [list(row.items()) for row in rows] == [list(row.items()) for row in expected]
        assert fast.integers(2**62) == slow.integers(2**62)


def initialized(device: SimDevice, task_class, seed: int):
    task = task_class(task_class.generate_params(np.random.default_rng(seed)))
    task.initialize(device)
    return task


def test_adding_exactly_the_asked_task_is_the_only_success(device):
    task = initialized(device, TasksAddTask, 3)
    params = task.params
    due = dt.date.fromisoformat(params["due"])
    right = task_row(params["title"].upper(), params["importance"], due)
    assert task.is_successful(device) == 0.0
    TASKS_TABLE.insert(device, [right])
    assert task.is_successful(device) == 1.0
    TASKS_TABLE.insert(device, [task_row("Extra", params["importance"], due)])
    assert task.is_successful(device) == 0.0

    task = initialized(device, TasksAddTask, 3)
    TASKS_TABLE.insert(device, [task_row(params["title"], (params["importance"] + 1) % 4, due)])
    assert task.is_successful(device) == 0.0

    task = initialized(device, TasksAddTask, 3)
    TASKS_TABLE.insert(device, [task_row(params["title"], params["importance"], due + dt.timedelta(days=1))])
    assert task.is_successful(device) == 0.0


def test_adding_the_task_but_touching_a_noise_row_fails(device):
    seed = next(s for s in range(20) if TasksAddTask.generate_params(np.random.default_rng(s))["rows"])
    task = initialized(device, TasksAddTask, seed)
    params = task.params
    TASKS_TABLE.insert(device, [task_row(params["title"], params["importance"], dt.date.fromisoformat(params["due"]))])
    state.sqlite_execute(device, TASKS_TABLE.db_path, "UPDATE tasks SET deleted = 1 WHERE _id = 1")
    assert task.is_successful(device) == 0.0


def test_completing_only_the_target_succeeds(device):
    task = initialized(device, TasksCompleteTask, 1)
    rows = TASKS_TABLE.rows(device)
    target = next(r["_id"] for r in rows if r["title"] == task.params["title"])
    other = next(r["_id"] for r in rows if r["_id"] != target and r["completed"] == 0)
    assert task.is_successful(device) == 0.0
    complete_sql = "UPDATE tasks SET completed = ?, modified = ? WHERE _id = ?"
    state.sqlite_execute(device, TASKS_TABLE.db_path, complete_sql, (ms(2023, 10, 15, 15, 35),) * 2 + (other,))
    assert task.is_successful(device) == 0.0  # the wrong task
    state.sqlite_execute(device, TASKS_TABLE.db_path, complete_sql, (ms(2023, 10, 15, 15, 35),) * 2 + (target,))
    assert task.is_successful(device) == 0.0  # and the right one
    task = initialized(device, TasksCompleteTask, 1)  # ids go on from the last ones (AUTOINCREMENT)
    rows = TASKS_TABLE.rows(device)
    target = next(r["_id"] for r in rows if r["title"] == task.params["title"])
    other = next(r["_id"] for r in rows if r["_id"] != target)
    state.sqlite_execute(device, TASKS_TABLE.db_path, complete_sql, (ms(2023, 10, 15, 15, 35),) * 2 + (target,))
    assert task.is_successful(device) == 1.0
    state.sqlite_execute(device, TASKS_TABLE.db_path, "DELETE FROM tasks WHERE _id = ?", (other,))
    assert task.is_successful(device) == 0.0


@pytest.fixture
def env():
    environment = gym.make(android_gym.env_id("TasksCompleteTask"), pixels=False)
    yield environment
    environment.close()


def seeded_rows() -> list[dict]:
    """Twenty AndroidWorld noise tasks and three targets: due on a date, done on a date, not started yet."""
    rng = np.random.default_rng(11)
    rows = [random_task_row(rng) for _ in range(20)]
    rows[4:4] = [task_row("Submit expense report", 0, dt.date(2023, 10, 18)),
                 task_row("Plan team outing", 3, dt.date(2023, 10, 16), completed=dt.datetime(2023, 10, 14, 10, 0)),
                 task_row("Send report to manager", 1, dt.datetime(2023, 10, 22, 11, 0),
                          hide_until=dt.date(2023, 10, 20))]
    return rows


def test_reveal_rows_scrolls_to_each_row_among_noise(env):
    rows = seeded_rows()  # the task's target is not done yet, so looking does not end the episode
    _, info = env.reset(seed=0, options={"params": {"title": "Submit expense report", "rows": rows}})
    stored = TASKS_TABLE.rows(env.unwrapped.device)
    targets = [r for r in stored if r["title"] in ("Submit expense report", "Plan team outing",
                                                   "Send report to manager")]
    assert len(stored) == 23 and len(targets) == 3
    policy, kinds, elements = OraclePolicy([*reveal_rows(targets), complete()]), [], info["ui_elements"]
    while not policy.done:
        action = policy.act(elements)
        *_, info = env.step(action)
        assert info["invalid_action"] is None
        kinds.append(action.action_type)
        elements = info["ui_elements"]
    assert kinds[0] is ActionType.OPEN_APP and ActionType.SCROLL in kinds and len(kinds) <= 15
    shown = {e.text for e in elements if e.resource_name == "org.tasks:id/title"}
    assert "Plan team outing" in shown  # the completed one is last: the list ends on it


def test_noise_rows_are_listed_in_the_app(env):
    rows = seeded_rows()
    _, info = env.reset(seed=0, options={"params": {"title": "Plan team outing", "rows": rows}})
    *_, info = env.step(android_gym.Action(ActionType.OPEN_APP, app_name="Tasks"))
    shown = {e.text for e in info["ui_elements"] if e.resource_name == "org.tasks:id/title"}
    assert len(shown) >= 8 and shown <= {row["title"] for row in rows}


def test_reveal_rows_fails_for_a_row_the_list_does_not_show(env):
    rows = seeded_rows()
    env.reset(seed=0, options={"params": {"title": "Submit expense report", "rows": rows}})
    ghost = {**task_row("Never stored", 0, dt.date(2023, 10, 17)), "_id": 99}
    policy = OraclePolicy(reveal_rows([ghost]))
    *_, info = env.step(policy.act([]))
    with pytest.raises(OracleError, match="Never stored"):
        for _ in range(60):  # it scrolls to the end of the list, then gives up
            *_, info = env.step(policy.act(info["ui_elements"]))
