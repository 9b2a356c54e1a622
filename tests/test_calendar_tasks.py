"""Simple Calendar Pro tasks: parameters as AndroidWorld draws them, goal texts, exact success checks (a wrong
deletion or addition scores 0), oracles over hard cases (midnight, odd minutes, long day lists), the app's state
reset between tasks, and ``reveal_rows`` over many events."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from oracle_taps import CutTapsNoted

import android_gym
from android_gym.actions import Action, ActionType
from android_gym.agents import OracleAgent
from android_gym.device import state
from android_gym.envs.calendar import (
    EVENTS,
    TITLE_PREFIXES,
    delete_events_steps,
    event_matches,
    event_row,
    random_event,
    reset_preferences,
    reveal_rows,
)
from android_gym.sim.apps.calendar import DAY, PACKAGE, WEEK
from android_gym.tasks.oracle import OracleError, OraclePolicy, OracleStep, Selector, act, complete, open_app, tap
from android_gym.testing import run_episode

UTC = dt.timezone.utc
ADD_TASKS = ("SimpleCalendarAddOneEvent", "SimpleCalendarAddOneEventInTwoWeeks",
             "SimpleCalendarAddOneEventRelativeDay", "SimpleCalendarAddOneEventTomorrow",
             "SimpleCalendarAddRepeatingEvent")
DELETE_TASKS = ("SimpleCalendarDeleteEvents", "SimpleCalendarDeleteEventsOnRelativeDay",
                "SimpleCalendarDeleteOneEvent")


class StepsAgent:
    """Plays given oracle steps, then declares the task complete."""

    def __init__(self, steps: Sequence[OracleStep]) -> None:
        self._policy = OraclePolicy(steps)

    def reset(self, env: gym.Env) -> None:
        """Nothing to prepare."""

    def act(self, observation: dict[str, Any], info: dict[str, Any]) -> Action:
        return self._policy.act(info["ui_elements"])


def _env(task: str, **kwargs: Any) -> gym.Env:
    return gym.make(android_gym.env_id(task), pixels=False, **kwargs)


def _start(row: dict) -> dt.datetime:
    return dt.datetime.fromtimestamp(row["start_ts"], UTC)


@pytest.mark.parametrize("task", ADD_TASKS + DELETE_TASKS)
def test_params_are_json_like_october_events(task):
    params = android_gym.get_task(task).generate_params(np.random.default_rng(7))
    assert json.loads(json.dumps(params)) == params
    for row in params["noise"] + params.get("targets", [params.get("event")]):
        start = _start(row)
        assert (start.year, start.month, start.minute) == (2023, 10, 0)
        assert (row["end_ts"] - row["start_ts"]) // 60 in (15, 30, 45, 60) and row["source"] == "imported-ics"
        assert row["title"].startswith(TITLE_PREFIXES) and row["description"].startswith("We will ")


def test_target_days_and_noise_follow_androidworld():
    rng, get = np.random.default_rng(11), android_gym.get_task
    for _ in range(5):
        tomorrow = get("SimpleCalendarAddOneEventTomorrow").generate_params(rng)
        assert tomorrow["day"] == 16 and 0 <= len(tomorrow["noise"]) <= 20
        assert tomorrow["event_title"] not in {row["title"] for row in tomorrow["noise"]}
        assert get("SimpleCalendarAddOneEventInTwoWeeks").generate_params(rng)["day"] == 29
        relative = get("SimpleCalendarAddOneEventRelativeDay").generate_params(rng)
        assert 16 <= relative["day"] <= 21 and relative["day_of_week"] == f"{dt.date(2023, 10, relative['day']):%A}"
        repeating = get("SimpleCalendarAddRepeatingEvent").generate_params(rng)["event"]
        weekday = 1 << _start(repeating).weekday()
        assert (repeating["repeat_interval"], repeating["repeat_rule"]) in ((DAY, 0), (WEEK, weekday))
        many = get("SimpleCalendarDeleteEvents").generate_params(rng)
        assert len(many["targets"]) == 3 and len(many["noise"]) == 20
        assert {_start(row).day for row in many["targets"]} == {many["day"]} and many["day"] >= 15
        assert many["day"] not in {_start(row).day for row in many["noise"]}
        relative_delete = get("SimpleCalendarDeleteEventsOnRelativeDay").generate_params(rng)
        assert len(relative_delete["targets"]) == 2 and 16 <= relative_delete["day"] <= 21
        one = get("SimpleCalendarDeleteOneEvent").generate_params(rng)
        [target] = one["targets"]
        assert all(n["start_ts"] != target["start_ts"] and n["title"] != target["title"] for n in one["noise"])
        assert (one["hour"], one["event_title"]) == (_start(target).hour, target["title"])


def test_goals_read_as_androidworlds():
    event = event_row("Call with HR", dt.datetime(2023, 10, 5, 9), duration_mins=45, description="We will plan.")
    add = android_gym.get_task("SimpleCalendarAddOneEvent")(
        {"year": 2023, "month": 10, "day": 5, "hour": 9, "duration_mins": 45, "event_title": event["title"],
         "event_description": event["description"], "day_of_week": "Thursday", "event": event, "noise": []})
    assert add.goal == ("In Simple Calendar Pro, create a calendar event on 2023-10-5 at 9h with the title 'Call with "
                        "HR' and the description 'We will plan.'. The event should last for 45 mins.")
    delete = android_gym.get_task("SimpleCalendarDeleteEventsOnRelativeDay")(
        {"year": 2023, "month": 10, "day": 17, "day_of_week": "Tuesday", "targets": [], "noise": []})
    assert delete.goal == "In Simple Calendar Pro, delete all events scheduled for this Tuesday."
    assert android_gym.get_task("SimpleCalendarDeleteOneEvent").max_steps() == 12


def test_event_matches_is_exact_on_times_and_repetition_and_fuzzy_on_text():
    wanted = event_row("Meeting with Alice", dt.datetime(2023, 10, 20, 9), duration_mins=30, description="We will go.")
    assert event_matches({**wanted, "title": "meeting with alice ", "description": "We will go.\n"}, wanted)
    assert not event_matches({**wanted, "end_ts": wanted["end_ts"] + 60}, wanted)
    assert not event_matches({**wanted, "repeat_interval": DAY}, wanted)
    assert not event_matches({**wanted, "location": "Room 4"}, wanted)


def test_wrong_or_extra_added_rows_score_zero():
    env = _env("SimpleCalendarAddOneEvent")
    try:
        env.reset(seed=3)
        task, device = env.unwrapped.task, env.unwrapped.device
        wanted = task.params["event"]
        assert len(task.before) == len(task.params["noise"])
        EVENTS.insert(device, [{**wanted, "start_ts": wanted["start_ts"] + 3600, "end_ts": wanted["end_ts"] + 3600}])
        assert task.is_successful(device) == 0.0  # an hour late
        newest = "DELETE FROM events WHERE id = (SELECT MAX(id) FROM events)"
        state.sqlite_execute(device, EVENTS.db_path, newest)
        EVENTS.insert(device, [{**wanted, "title": wanted["title"].upper(), "source": "simple-calendar"}])
        assert task.is_successful(device) == 1.0
        EVENTS.insert(device, [wanted])
        assert task.is_successful(device) == 0.0  # one too many
        state.sqlite_execute(device, EVENTS.db_path, newest)
        if task.before:
            state.sqlite_execute(device, EVENTS.db_path, "UPDATE events SET title = 'x' WHERE id = ?",
                                 (task.before[0]["id"],))
            assert task.is_successful(device) == 0.0  # a noise event changed
    finally:
        env.close()


def test_deleting_too_few_or_too_many_events_scores_zero():
    env = _env("SimpleCalendarDeleteEvents")
    try:
        env.reset(seed=5)
        task, device = env.unwrapped.task, env.unwrapped.device
        targets = [row["id"] for row in task.before[-3:]]
        assert [row["title"] for row in task.before[-3:]] == [row["title"] for row in task.params["targets"]]
        delete = "DELETE FROM events WHERE id = ?"
        for event_id in targets[:2]:
            state.sqlite_execute(device, EVENTS.db_path, delete, (event_id,))
        assert task.is_successful(device) == 0.0
        state.sqlite_execute(device, EVENTS.db_path, delete, (targets[2],))
        assert task.is_successful(device) == 1.0
        state.sqlite_execute(device, EVENTS.db_path, delete, (task.before[0]["id"],))
        assert task.is_successful(device) == 0.0
    finally:
        env.close()


def test_deleting_a_wrong_event_through_the_app_scores_zero():
    env = _env("SimpleCalendarDeleteEvents")
    try:
        params = android_gym.get_task("SimpleCalendarDeleteEvents").generate_params(np.random.default_rng(2))
        day = _start(params["targets"][0])
        stray = event_row("Catch up on Campaign", day.replace(hour=5), duration_mins=15, description="Stray.")
        params["noise"][0] = stray
        result = run_episode(env, StepsAgent([*delete_events_steps([*params["targets"], stray]), complete()]),
                             options={"params": params})
        assert not result.invalid_actions and result.terminated
        assert len(EVENTS.rows(env.unwrapped.device)) == 19 and result.score == 0.0
        again = run_episode(env, StepsAgent(env.unwrapped.task.oracle()), options={"params": params})
        assert again.score == 1.0  # the same day with the stray event kept
    finally:
        env.close()


def _solve(task: str, params: dict) -> None:
    env = _env(task)
    try:
        result = run_episode(env, StepsAgent(android_gym.get_task(task)(params).oracle()), options={"params": params})
        assert not result.invalid_actions and result.score == 1.0
        assert result.steps <= android_gym.get_task(task).max_steps()
    finally:
        env.close()


def _add_params(event: dict) -> dict:
    start = _start(event)
    return {"year": 2023, "month": 10, "day": start.day, "hour": start.hour,
            "duration_mins": (event["end_ts"] - event["start_ts"]) // 60, "event_title": event["title"],
            "event_description": event["description"], "day_of_week": f"{start:%A}", "event": event, "noise": []}


def test_oracle_adds_an_event_ending_in_the_next_month_and_one_at_an_odd_minute_with_a_location():
    late = event_row("Call with Bob", dt.datetime(2023, 10, 31, 23), duration_mins=60, description="We will talk.")
    _solve("SimpleCalendarAddOneEvent", _add_params(late))
    odd = event_row("Workshop on Project X", dt.datetime(2023, 10, 3, 9, 7), dt.datetime(2023, 10, 3, 10, 52),
                    location="Room 12", description="We will plan.")
    _solve("SimpleCalendarAddOneEvent", _add_params(odd))


def test_oracle_scrolls_a_long_day_list():
    rng = np.random.default_rng(0)
    target = random_event(rng, int(dt.datetime(2023, 10, 20, 23, tzinfo=UTC).timestamp()))
    noise = [event_row(f"Appointment for Campaign {hour}", dt.datetime(2023, 10, 20, hour), duration_mins=15,
                       description="We will plan.") for hour in range(1, 20)]
    params = {key: value for key, value in _add_params(target).items() if key != "event"}
    params.update(targets=[target], noise=noise)
    _solve("SimpleCalendarDeleteOneEvent", params)


@pytest.mark.parametrize("earlier", [8, 12])  # the first target's item cut at the bottom of the day's list
def test_the_delete_oracle_taps_an_item_only_once_it_is_shown_whole(earlier):
    noise = [event_row(f"Appointment for Campaign {hour}", dt.datetime(2023, 10, 20, hour), duration_mins=15,
                       description="We will plan.") for hour in range(1, 1 + earlier)]
    targets = [event_row(f"Meeting with Bob {n}", dt.datetime(2023, 10, 20, 16 + n), duration_mins=30,
                         description="We will talk.") for n in range(3)]
    params = {"year": 2023, "month": 10, "day": 20, "day_of_week": "Friday", "targets": targets, "noise": noise}
    env, agent = _env("SimpleCalendarDeleteEvents"), CutTapsNoted()
    try:
        result = run_episode(env, agent, options={"params": params})
        assert result.score == 1.0 and not result.invalid_actions and agent.cut_taps == []
    finally:
        env.close()


def test_each_task_starts_from_the_apps_default_view():
    env = _env("SimpleCalendarDeleteOneEvent")
    try:
        to_list = [open_app("Simple Calendar Pro"), tap(Selector(content_desc="Change view")),
                   tap(Selector(text="Simple event list")), complete()]
        run_episode(env, StepsAgent(to_list), seed=0)
        assert '"view" value="3"' in env.unwrapped.device.shell(
            f"cat /data/data/{PACKAGE}/shared_prefs/Prefs.xml").output
        result = run_episode(env, OracleAgent(), seed=1)
        assert result.score == 1.0  # the month view again
        prefs = env.unwrapped.device.shell(f"cat /data/data/{PACKAGE}/shared_prefs/Prefs.xml").output
        assert '"view"' not in prefs and "display_event_types" in prefs  # the shown event types are kept
    finally:
        env.close()


def test_reset_preferences_drops_a_session_s_preferences_and_leaves_a_file_without_them(device):
    path = f"/data/data/{PACKAGE}/shared_prefs/Prefs.xml"
    device.push(b"<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\n<map>\n"
                b"    <int name=\"view\" value=\"3\" />\n"
                b"    <set name=\"display_event_types\">\n        <string>1</string>\n    </set>\n</map>\n", path)
    reset_preferences(device)
    kept = device.pull(path)
    assert b'"view"' not in kept and b"display_event_types" in kept
    versions = device.file_versions([path])
    reset_preferences(device)  # nothing a session changed: not written again
    assert device.file_versions([path]) == versions and device.pull(path) == kept


def _spread_noise(rng: np.random.Generator, n: int) -> list[dict]:
    """``n`` events between October 8 and 22 (two weeks around the device date)."""
    return [random_event(rng, int(dt.datetime(2023, 10, int(rng.integers(8, 23)), int(rng.integers(0, 24)),
                                              tzinfo=UTC).timestamp())) for _ in range(n)]


def test_reveal_rows_visits_days_in_order_and_opens_rows_with_a_location():
    env = _env("SimpleCalendarAddOneEvent")
    try:
        rng = np.random.default_rng(1)
        noise = _spread_noise(rng, 75)
        noise[10] = {**noise[10], "location": "Conference room B"}
        params = {**_add_params(random_event(rng, int(dt.datetime(2023, 10, 25, tzinfo=UTC).timestamp()))),
                  "noise": noise}
        env.reset(options={"params": params})
        rows = EVENTS.rows(env.unwrapped.device)
        picked = [rows[i] for i in (40, 10, 3, 70, 22)]
        result = run_episode(env, StepsAgent([*reveal_rows(picked), complete()]), options={"params": params})
        assert not result.invalid_actions and result.terminated and result.steps <= 30
    finally:
        env.close()


def test_reveal_rows_shows_every_one_of_75_events():
    env = _env("SimpleCalendarAddOneEvent", max_episode_steps=120)
    try:
        rng = np.random.default_rng(2)
        params = {**_add_params(random_event(rng, int(dt.datetime(2023, 10, 25, tzinfo=UTC).timestamp()))),
                  "noise": _spread_noise(rng, 75)}
        env.reset(options={"params": params})
        rows = EVENTS.rows(env.unwrapped.device)
        result = run_episode(env, StepsAgent([*reveal_rows(rows), complete()]), options={"params": params})
        assert not result.invalid_actions and result.terminated and not result.truncated
    finally:
        env.close()


def test_reveal_rows_switches_back_to_the_monthly_view():
    env = _env("SimpleCalendarDeleteOneEvent")
    try:
        env.reset(seed=6)
        device = env.unwrapped.device
        to_list = [open_app("Simple Calendar Pro"), tap(Selector(content_desc="Change view")),
                   tap(Selector(text="Simple event list")), act(Action(ActionType.NAVIGATE_HOME))]
        rows = EVENTS.rows(device)[:2]
        steps = [*to_list, *reveal_rows(rows), complete()]
        result = run_episode(env, StepsAgent(steps), options={"params": env.unwrapped.task.params})
        assert not result.invalid_actions and result.terminated  # reveal_rows found the grid again
    finally:
        env.close()


def test_reveal_rows_fails_for_a_row_that_is_not_there():
    env = _env("SimpleCalendarAddOneEvent")
    try:
        missing = event_row("Nowhere", dt.datetime(2023, 10, 18, 9), duration_mins=30)
        with pytest.raises(OracleError, match="Nowhere"):
            run_episode(env, StepsAgent([*reveal_rows([missing]), complete()]), seed=0)
    finally:
        env.close()


def test_noise_events_show_in_the_month_and_day_views():
    env = _env("SimpleCalendarDeleteOneEvent")
    try:
        env.reset(seed=4)
        noise = env.unwrapped.task.params["noise"][:3]
        back = act(Action(ActionType.NAVIGATE_BACK))
        steps = [step for row in noise for step in (*reveal_rows([row])[1:], back)]
        result = run_episode(env, StepsAgent([open_app("Simple Calendar Pro"), *steps, complete()]), seed=4)
        assert not result.invalid_actions and result.score == 0.0
    finally:
        env.close()
