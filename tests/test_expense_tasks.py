"""Pro Expense tasks: parameters as AndroidWorld draws them, goal texts, exact success checks (a wrong deletion or
addition scores 0), deletion by the swipe selection, and the reveal steps over a long, scrolling Expense Logs."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
import pytest

import android_gym
from android_gym.agents import OracleAgent
from android_gym.device import state
from android_gym.device.config import DeviceConfig
from android_gym.envs.expense import (
    CATEGORIES,
    DELETE_SELECTED,
    EXPENSE_NAMES,
    EXPENSES,
    delete_steps,
    expense_row,
    reveal_rows,
    rows_as_text,
    select_steps,
)
from android_gym.tasks.oracle import OracleError, OraclePolicy, OracleStep, Selector, complete, tap
from android_gym.testing import run_episode

UTC = dt.timezone.utc
OCTOBER_1, OCTOBER_16 = (int(dt.datetime(2023, 10, day, tzinfo=UTC).timestamp() * 1000) for day in (1, 16))
TASKS = ("ExpenseAddSingle", "ExpenseAddMultiple", "ExpenseDeleteSingle", "ExpenseDeleteMultiple",
         "ExpenseDeleteMultiple2", "ExpenseDeleteDuplicates", "ExpenseDeleteDuplicates2")


class StepsAgent:
    """Plays given oracle steps, then declares the task complete."""

    def __init__(self, steps: Sequence[OracleStep]) -> None:
        self._policy = OraclePolicy(steps)

    def reset(self, env: gym.Env) -> None:
        """Nothing to prepare."""

    def act(self, observation: dict[str, Any], info: dict[str, Any]):
        return self._policy.act(info["ui_elements"])


def _env(task: str) -> gym.Env:
    return gym.make(android_gym.env_id(task), pixels=False)


def test_expense_row_uses_the_apps_encodings():
    row = expense_row("Coffee", 12.5, "Food", "Urgent", dt.datetime(2023, 10, 3, 9))
    ms = int(dt.datetime(2023, 10, 3, 9, tzinfo=UTC).timestamp() * 1000)
    assert row == {"name": "Coffee", "amount": 1250, "category": 3, "note": "Urgent", "created_date": ms,
                   "modified_date": ms}
    assert expense_row("Tax", "0.1", "health care", "", dt.datetime(2023, 10, 3, tzinfo=UTC))["amount"] == 10
    assert expense_row("Gift", 20, 11, "", dt.datetime(2023, 10, 3))["category"] == 11
    assert CATEGORIES[:3] == ("Others", "Income", "Food") and len(CATEGORIES) == 11
    with pytest.raises(ValueError):
        expense_row("Gift", 20, "Gifts", "", dt.datetime(2023, 10, 3))


@pytest.mark.parametrize("task", TASKS)
def test_params_are_androidworlds_and_json_like(task):
    params = android_gym.get_task(task).generate_params(np.random.default_rng(3))
    assert json.loads(json.dumps(params)) == params
    for row in [*params["rows"], *params["noise"]]:
        category = CATEGORIES[row["category"] - 1]
        assert row["name"] in EXPENSE_NAMES[category] and 1000 <= row["amount"] <= 50999
        assert OCTOBER_1 <= row["modified_date"] < OCTOBER_16 and row["modified_date"] % 3_600_000 == 0


def test_each_task_seeds_androidworlds_rows():
    rng = np.random.default_rng(5)
    get = android_gym.get_task
    many = get("ExpenseDeleteMultiple2").generate_params(rng)
    assert (len(many["rows"]), len(many["noise"])) == (3, 50)
    assert len({row["name"] for row in many["rows"] + many["noise"]}) == 53
    assert (len(get("ExpenseDeleteMultiple").generate_params(rng)["noise"]),
            len(get("ExpenseDeleteSingle").generate_params(rng)["rows"])) == (0, 1)
    dup = get("ExpenseDeleteDuplicates").generate_params(rng)
    assert dup["rows"][0] == dup["rows"][1] and len(dup["noise"]) == 5 and dup["rows"][0] not in dup["noise"]
    dup2 = get("ExpenseDeleteDuplicates2").generate_params(rng)
    target, variations = dup2["rows"][0], dup2["noise"][-3:]
    assert len(dup2["noise"]) == 40
    assert all(v["name"] == target["name"] and v["note"] == target["note"] for v in variations)
    extras = sorted(v["amount"] - target["amount"] for v in variations)
    assert len(set(extras)) == 3 and 50 <= extras[0] and extras[-1] < 1000
    added = get("ExpenseAddMultiple").generate_params(rng)
    assert len(added["rows"]) == 3 and len(added["noise"]) == 10
    assert not {row["name"] for row in added["rows"]} & {row["name"] for row in added["noise"]}


def test_goals_list_expenses_as_androidworld_writes_them():
    rows = [expense_row("Coffee", 4.5, "Food", "Urgent", dt.datetime(2023, 10, 3)),
            expense_row("Salary", 2500, "Income", "A need", dt.datetime(2023, 10, 4))]
    assert rows_as_text(rows, "csv") == ("name|amount_dollars|category_name|note\nCoffee|$4.5|Food|Urgent\n"
                                         "Salary|$2500.0|Income|A need")
    assert rows_as_text(rows, "text_block") == (
        "Expense: Coffee\n amount_dollars: $4.5\n category_name: Food\n note: Urgent\n\n"
        "Expense: Salary\n amount_dollars: $2500.0\n category_name: Income\n note: A need\n")
    task = android_gym.get_task("ExpenseDeleteMultiple")({"rows": rows, "noise": []})
    assert task.goal == "Delete the following expenses from pro expense: Coffee, Salary."
    add = android_gym.get_task("ExpenseAddSingle")({"rows": rows[:1], "noise": [], "text_representation_type": "csv"})
    assert add.goal.startswith("Add the following expenses into the pro expense:\nname|amount_dollars|")


def test_deleting_a_wrong_row_through_the_app_scores_zero():
    env = _env("ExpenseDeleteMultiple2")
    try:
        params = android_gym.get_task("ExpenseDeleteMultiple2").generate_params(np.random.default_rng(0))
        wrong = {**params["noise"][0], "modified_date": OCTOBER_16 - 3_600_000}  # first in the list: goes first
        params["noise"][0] = wrong
        steps = [*delete_steps([*params["rows"], wrong]), complete()]
        result = run_episode(env, StepsAgent(steps), options={"params": params})
        assert not result.invalid_actions and result.terminated
        remaining = EXPENSES.rows(env.unwrapped.device)
        assert len(remaining) == 49 and wrong["name"] not in {row["name"] for row in remaining}
        assert result.score == 0.0 and result.total_reward == 0.0
    finally:
        env.close()


def test_the_deletion_oracles_select_by_swiping_and_delete_once():
    env = _env("ExpenseDeleteMultiple")
    try:
        result = run_episode(env, OracleAgent(), seed=3)
        # open the app, the drawer, Expense Logs; three drags; Delete; Confirm (the episode ends on success)
        assert result.score == 1.0 and not result.invalid_actions and result.steps == 8
    finally:
        env.close()


def test_cancelling_the_selections_deletion_deletes_nothing():
    env = _env("ExpenseDeleteMultiple2")
    try:
        params = android_gym.get_task("ExpenseDeleteMultiple2").generate_params(np.random.default_rng(1))
        cancel = Selector(resource_id="com.arduia.expense:id/imv_drop_close")
        steps = [*select_steps(params["rows"]), tap(DELETE_SELECTED), tap(cancel), complete()]
        result = run_episode(env, StepsAgent(steps), options={"params": params})
        assert not result.invalid_actions and result.terminated and result.score == 0.0
        assert EXPENSES.rows(env.unwrapped.device) == env.unwrapped.task.before
    finally:
        env.close()


def test_removing_both_duplicates_or_touching_another_row_scores_zero():
    env = _env("ExpenseDeleteDuplicates")
    try:
        env.reset(seed=1)
        task, device = env.unwrapped.task, env.unwrapped.device
        first, second = task.target_ids()
        db = EXPENSES.db_path
        state.sqlite_execute(device, db, "UPDATE expense SET note = 'changed' WHERE expense_id = 1")
        state.sqlite_execute(device, db, "DELETE FROM expense WHERE expense_id = ?", (first,))
        assert task.is_successful(device) == 0.0  # another row was changed
        state.sqlite_execute(device, db, "UPDATE expense SET note = ? WHERE expense_id = 1",
                             (task.before[0]["note"],))
        assert task.is_successful(device) == 1.0  # one copy gone, the rest as seeded
        state.sqlite_execute(device, db, "DELETE FROM expense WHERE expense_id = ?", (second,))
        assert task.is_successful(device) == 0.0  # both copies gone
    finally:
        env.close()


def test_a_wrong_or_extra_added_row_scores_zero():
    env = _env("ExpenseAddSingle")
    try:
        env.reset(seed=2)
        task, device = env.unwrapped.task, env.unwrapped.device
        [wanted] = task.params["rows"]
        db = EXPENSES.db_path
        EXPENSES.insert(device, [{**wanted, "amount": wanted["amount"] + 1}])
        assert task.is_successful(device) == 0.0  # the amount must be exact
        state.sqlite_execute(device, db, "DELETE FROM expense WHERE expense_id = (SELECT MAX(expense_id) FROM expense)")
        EXPENSES.insert(device, [{**wanted, "name": wanted["name"].lower(), "note": wanted["note"] + "\n"}])
        assert task.is_successful(device) == 1.0  # name and note match fuzzily
        EXPENSES.insert(device, [wanted])
        assert task.is_successful(device) == 0.0  # one too many
        state.sqlite_execute(device, db, "DELETE FROM expense WHERE expense_id = (SELECT MAX(expense_id) FROM expense)")
        state.sqlite_execute(device, db, "DELETE FROM expense WHERE expense_id = 1")
        assert task.is_successful(device) == 0.0  # a noise row is gone
    finally:
        env.close()


def test_reveal_rows_scrolls_every_seeded_row_into_view():
    env = _env("ExpenseDeleteMultiple2")
    try:
        env.reset(seed=4)
        rows = EXPENSES.rows(env.unwrapped.device)
        assert len(rows) == 53
        picked = [rows[i] for i in (40, 3, 52, 17)]
        result = run_episode(env, StepsAgent([*reveal_rows(picked), complete()]), seed=4)
        assert not result.invalid_actions and result.score == 0.0 and 5 <= result.steps <= 20
        every = run_episode(env, StepsAgent([*reveal_rows(rows), complete()]), seed=4)  # all noise shows up
        assert not every.invalid_actions and every.steps <= 20
    finally:
        env.close()


def test_reveal_rows_fails_for_a_row_that_is_not_there():
    env = _env("ExpenseAddMultiple")  # a budget long enough to scroll to the end of the list
    try:
        missing = expense_row("Nowhere", 1.23, "Food", "", dt.datetime(2023, 10, 2))
        with pytest.raises(OracleError, match="Nowhere"):
            run_episode(env, StepsAgent([*reveal_rows([missing]), complete()]), seed=0)
    finally:
        env.close()


def test_the_category_grid_half_scrolled_into_the_form_shows_its_chips():
    """On the small phone in German with large text the category grid does not fit under the amount: the form's
    ScrollView shows its top lines (a real ScrollView draws and dumps what is on screen of a block), so the oracle
    finds "Anderes" without scrolling past the grid (issue #28)."""
    small = DeviceConfig(phone="small_phone", font_scale=1.3, language="de-DE")
    env = gym.make(android_gym.env_id("ExpenseAddSingle"), device="sim:270x600", pixels=False)
    try:
        result = run_episode(env, OracleAgent(), seed=5, options={"device_config": small})
        assert result.info["params"]["rows"][0]["category"] == CATEGORIES.index("Others") + 1
        assert result.score == 1.0 and not result.invalid_actions
    finally:
        env.close()
