"""AndroidWorld's row-integrity checks and table seeding, on a real simulated phone database."""

from __future__ import annotations

import gymnasium as gym
import pytest

from android_gym.device.sim import SimDevice
from android_gym.tasks.sqlite_rows import (
    AppTable,
    SqliteRowsTask,
    clear_tables,
    rows_added_exactly,
    rows_removed_exactly,
)
from android_gym.tasks.validators import one_to_one

BEFORE = [{"id": 1, "name": "Rent", "amount": 100}, {"id": 2, "name": "Food", "amount": 20}]


def same_name(row, expected):
    return row["name"] == expected["name"]


def test_rows_added_exactly():
    after = [*BEFORE, {"id": 3, "name": "Gym", "amount": 5}]
    assert rows_added_exactly(BEFORE, after, [{"name": "Gym"}], "id", same_name)
    assert not rows_added_exactly(BEFORE, after, [{"name": "Bus"}], "id", same_name)
    assert not rows_added_exactly(BEFORE, after, [], "id", same_name)
    changed = [{"id": 1, "name": "Rent", "amount": 101}, BEFORE[1], after[2]]
    assert not rows_added_exactly(BEFORE, changed, [{"name": "Gym"}], "id", same_name)
    assert not rows_added_exactly(BEFORE, after[1:], [{"name": "Gym"}], "id", same_name)


def test_duplicates_need_one_row_each():
    twice = [{"name": "Gym"}, {"name": "Gym"}]
    once = [*BEFORE, {"id": 3, "name": "Gym", "amount": 5}]
    assert not rows_added_exactly(BEFORE, once, twice, "id", same_name)
    assert rows_added_exactly(BEFORE, [*once, {"id": 4, "name": "Gym", "amount": 5}], twice, "id", same_name)


def test_one_to_one_is_a_matching_not_a_greedy_pairing():
    # "a" fits both candidates, "b" only the first: greedy would give the first to "a" and fail.
    assert one_to_one(["ab", "a"], ["a", "b"], lambda candidate, wanted: wanted in candidate)


def test_rows_removed_exactly():
    assert rows_removed_exactly(BEFORE, BEFORE[1:], [1], "id")
    assert not rows_removed_exactly(BEFORE, BEFORE[:1], [1], "id")
    assert not rows_removed_exactly(BEFORE, [], [1], "id")
    assert not rows_removed_exactly(BEFORE, BEFORE, [1], "id")
    assert not rows_removed_exactly(BEFORE, [*BEFORE[1:], {"id": 9, "name": "x", "amount": 0}], [1], "id")


@pytest.fixture
def device():
    device = SimDevice()
    yield device
    device.close()


def test_app_table_seeds_and_clears_a_device_database(device):
    path = "/data/data/com.example.notes/databases/notes.db"
    device.shell(f"mkdir -p /data/data/com.example.notes/databases && sqlite3 {path} "
                 "'CREATE TABLE notes (id INTEGER PRIMARY KEY, title TEXT, body TEXT)'")
    table = AppTable("com.example.notes", path, "notes", "id")
    hostile = "x'); DROP TABLE notes; --"
    table.insert(device, [{"title": hostile, "body": "b"}, {"title": "t2", "body": None}])
    rows = table.rows(device)
    assert [(row["id"], row["title"], row["body"]) for row in rows] == [(1, hostile, "b"), (2, "t2", None)]
    table.clear(device)
    assert table.rows(device) == []


def test_clear_tables_stops_their_apps_in_one_round_trip(device, monkeypatch):
    tables = []
    for package, name in (("com.example.notes", "notes"), ("com.example.todo", "tasks"), ("com.example.todo", "done")):
        path = f"/data/data/{package}/databases/app.db"
        device.shell(f"mkdir -p /data/data/{package}/databases && sqlite3 {path} "
                     f"'CREATE TABLE {name} (id INTEGER PRIMARY KEY, title TEXT)'")
        tables.append(AppTable(package, path, name, "id"))
        tables[-1].insert(device, [{"title": "kept until cleared"}])
    commands = []
    shell = device.shell
    monkeypatch.setattr(device, "shell", lambda command, timeout=None: commands.append(command) or shell(command))
    clear_tables(device, tables)
    assert commands == ["am force-stop com.example.notes && am force-stop com.example.todo"]
    assert [table.rows(device) for table in tables] == [[], [], []]


@pytest.mark.parametrize("name", ["ExpenseDeleteMultiple", "JoplinCreateNote", "TasksCompleteTask",
                                  "SimpleCalendarDeleteOneEvent", "RecipeAddMultipleRecipesFromMarkor",
                                  "ExpenseTotalForCategory", "NotesIsTodo"])
def test_a_reset_swaps_a_table_tasks_rows_in_one_write_and_a_teardown_still_does_its_whole_job(name, monkeypatch):
    env = gym.make(f"AndroidWorld/{name}-v0", pixels=False)
    env.reset(seed=0)
    device = env.unwrapped.device
    written = []
    push = device.push
    monkeypatch.setattr(device, "push", lambda data, path: (written.append(path), push(data, path))[1])
    env.reset(seed=1)
    task = env.unwrapped.task
    assert len([path for path in written if "/databases/" in path]) == 1  # the old rows' delete and the new inserts
    rows = task.table.rows(device)
    assert len(rows) == len(task.initial_rows())
    assert not task.reads_baseline or task.before == rows
    task.teardown(device)
    assert len(task.table.rows(device)) == (0 if task.empties_at_teardown else len(rows))
    env.close()


@pytest.mark.parametrize(("name", "stops"), [("ExpenseDeleteMultiple", 1), ("JoplinCreateNote", 1),
                                             ("SportsTrackerActivitiesOnDate", 1), ("SimpleCalendarDeleteOneEvent", 1),
                                             ("SimpleCalendarNextEvent", 1), ("TasksCompleteTask", 2)])
def test_a_reset_stops_a_table_tasks_app_again_only_after_a_set_up_of_its_own(name, stops, monkeypatch):
    """``prepare`` stops the app (``hand_over`` leaves it to it); with no app started since (no ``clear_extras``:
    Expense, Joplin, a declarative task of a kind without ``reset_app``; or one that leaves the apps stopped: Calendar's
    preferences pulled and pushed back, Tasks', which stops the app itself too) the write follows without another
    stop."""
    env = gym.make(f"AndroidWorld/{name}-v0", pixels=False)
    env.reset(seed=0)
    device = env.unwrapped.device
    package = env.unwrapped.task.table.package
    lines = []
    shell = device.shell
    monkeypatch.setattr(device, "shell", lambda command, timeout=None: lines.append(command) or shell(command))
    env.reset(seed=1)
    stopping = [line for line in lines if f"am force-stop {package}" in line]  # prepare[, extras][, replace]
    assert len(stopping) == stops
    assert len(env.unwrapped.task.table.rows(device)) == len(env.unwrapped.task.initial_rows())
    env.close()


def test_a_table_task_that_overrides_a_phase_reset_state_skips_is_refused():
    """``reset_state`` swaps the rows without calling ``clear_state`` or ``seed_state``: a subclass overriding one
    would lose it at every reset, so defining the class fails, naming the hooks to use."""
    with pytest.raises(TypeError, match="seed_extras"):
        class _Overriding(SqliteRowsTask):  # noqa: F841  (the class statement is what is refused)
            def seed_state(self, device) -> None:
                super().seed_state(device)
