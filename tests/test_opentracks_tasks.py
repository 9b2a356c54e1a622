"""OpenTracks tasks: AndroidWorld's rows (mile-rounded distances, ms times, noise), the SportsTracker* question
specs (parameters, noise exclusions, expected answers, checks) and our editing tasks' row checks."""

from __future__ import annotations

import datetime as dt
from collections import Counter

import numpy as np
import pytest

import android_gym
from android_gym.device import state
from android_gym.device.sim import SimDevice
from android_gym.envs.opentracks import (
    ACTIVITY_NAMES,
    CATEGORIES,
    NOISE_NAMES,
    TRACKS_TABLE,
    SportsTrackerChangeActivityType,
    SportsTrackerRenameActivity,
    activity_row,
    mile_rounded,
    random_activity_row,
)
from android_gym.envs.specs import ACTIVITIES
from android_gym.tasks import get_task

UTC = dt.timezone.utc
WEEK = (dt.date(2023, 10, 9), dt.date(2023, 10, 15))
#: androidworld-remaining.md §2: the 20 distance parameters and what AndroidWorld stores and expects for them.
MILE_ROUNDED = {100: 97, 300: 306, 500: 499, 800: 805, 1000: 998, 1200: 1207, 1500: 1497, 2000: 1996, 2500: 2494,
                3000: 2993, 3500: 3492, 4000: 4007, 4500: 4506, 5000: 5005, 6000: 6003, 7000: 7001, 8000: 7998,
                9000: 8996, 10000: 9994, 12000: 12006}


@pytest.fixture(scope="module")
def device():
    sim = SimDevice()
    yield sim
    sim.close()


def update_track(device, track_id: int, **values) -> None:
    sets = ", ".join(f"{column} = ?" for column in values)
    state.sqlite_execute(device, TRACKS_TABLE.db_path, f"UPDATE tracks SET {sets} WHERE _id = ?",
                         (*values.values(), track_id))


def spec_task(name: str, seed: int):
    task_class = get_task(name)
    return task_class(task_class.generate_params(np.random.default_rng(seed)))


def test_distances_are_rounded_to_the_miles_the_app_shows():
    assert {metres: mile_rounded(metres) for metres in MILE_ROUNDED} == MILE_ROUNDED
    assert ACTIVITIES.condition_value("total_distance", "12000") == 12006  # conditions are rounded alike


def test_activity_row_writes_androidworlds_columns():
    row = activity_row("Slow day", "running", dt.datetime(2023, 10, 12, 8, 0), 45, 4007, 100, 50, "Rainy")
    start = int(dt.datetime(2023, 10, 12, 8, 0, tzinfo=UTC).timestamp() * 1000)
    assert (row["starttime"], row["stoptime"]) == (start, start + 45 * 60_000)
    assert row["totaltime"] == row["movingtime"] == 2_700_000
    assert row["category"] == row["activity_type"] == "running" and row["description"] == "Rainy"
    assert row["avgspeed"] == row["avgmovingspeed"] == 4007 / (2_700_000 * 1000)  # AndroidWorld's unit slip
    assert (row["elevationgain"], row["elevationloss"], row["starttime_offset"], row["icon"]) == (100, 50, 0, None)
    assert len(row["uuid"]) == 16 and row["uuid"][6] >> 4 == 4  # a version-4 UUID
    record = ACTIVITIES.from_row(row)
    assert (record["start_date"], record["start_time"], record["duration"]) == (
        dt.date(2023, 10, 12), dt.time(8, 0), 45)


def test_noise_rows_are_seeded_and_in_androidworlds_ranges():
    assert random_activity_row(np.random.default_rng(4)) == random_activity_row(np.random.default_rng(4))
    rows = [random_activity_row(np.random.default_rng(seed)) for seed in range(200)]
    low = dt.datetime(2023, 10, 1, 15, 34, tzinfo=UTC).timestamp() * 1000
    for row in rows:
        assert low <= row["starttime"] < low + 14 * 86_400_000
        assert row["name"] in NOISE_NAMES[row["category"]] and row["description"] == ""
        assert 60_000 <= row["totaltime"] <= 299 * 60_000 and 0 <= row["totaldistance"] <= 20_000
        assert row["totaldistance"] == mile_rounded(row["totaldistance"])
        assert 0 <= row["elevationgain"] <= 500 and 0 <= row["elevationloss"] <= 500
    assert len(Counter(row["category"] for row in rows)) == len(CATEGORIES) == 19
    assert not set(ACTIVITY_NAMES) & {name for names in NOISE_NAMES.values() for name in names}


@pytest.mark.parametrize(("name", "complexity"), [
    ("SportsTrackerActivitiesOnDate", 2), ("SportsTrackerActivitiesCountForWeek", 1),
    ("SportsTrackerActivityDuration", 1), ("SportsTrackerLongestDistanceActivity", 1),
    ("SportsTrackerTotalDurationForCategoryThisWeek", 1), ("SportsTrackerTotalDistanceForCategoryOverInterval", 2)])
def test_androidworlds_questions_are_registered_with_their_step_budgets(name, complexity):
    task = get_task(name)
    assert task.complexity == complexity and task.max_steps() == 10 * complexity
    assert "OpenTracks app" in task.template and task.app_packages == ("de.dennisguse.opentracks",)
    assert android_gym.env_id(name) == f"AndroidWorld/{name}-v0"


@pytest.mark.parametrize("seed", range(6))
def test_activities_on_date_rows_and_noise(seed):
    task = spec_task("SportsTrackerActivitiesOnDate", seed)
    date = dt.datetime.strptime(task.params["date"], "%B %d %Y").date()
    assert dt.date(2023, 9, 24) <= date <= dt.date(2023, 10, 13)
    records = task.relevant_records()
    assert [r["start_date"] for r in records] == [date, date] and records[0]["category"] != records[1]["category"]
    noise = task.noise_rows()
    assert len(noise) == 20 and all(ACTIVITIES.from_row(row)["start_date"] != date for row in noise)
    items, match = task.expected()
    assert sorted(items) == sorted(task.params["category"]) and match == "STRING"


@pytest.mark.parametrize("seed", range(6))
def test_week_questions_keep_other_rows_of_the_category_out_of_the_week(seed):
    for name in ("SportsTrackerActivitiesCountForWeek", "SportsTrackerTotalDurationForCategoryThisWeek"):
        task = spec_task(name, seed)
        category = task.params["category"]
        records = task.relevant_records()
        assert len({r["start_date"] for r in records}) == 2 and all(WEEK[0] <= r["start_date"] <= WEEK[1]
                                                                    for r in records)
        for row in task.noise_rows():
            record = ACTIVITIES.from_row(row)
            assert category not in record["category"] or not WEEK[0] <= record["start_date"] <= WEEK[1]
    count = spec_task("SportsTrackerActivitiesCountForWeek", seed)
    assert count.expected() == ([2], "NUMBER")  # AndroidWorld's answer is always 2
    total = spec_task("SportsTrackerTotalDurationForCategoryThisWeek", seed)
    assert total.expected()[0] == [sum(int(d) for d in total.params["duration"])]


@pytest.mark.parametrize("seed", range(6))
def test_longest_distance_is_the_mile_rounded_distance_and_noise_stays_shorter(seed):
    task = spec_task("SportsTrackerLongestDistanceActivity", seed)
    distance = MILE_ROUNDED[int(task.params["distance"])]
    assert task.expected()[0] == [distance]
    for row in task.noise_rows():
        record = ACTIVITIES.from_row(row)
        in_week = WEEK[0] <= record["start_date"] <= WEEK[1]
        assert not (task.params["category"] in record["category"] and in_week and record["total_distance"] >= distance)


@pytest.mark.parametrize("seed", range(6))
def test_total_distance_sums_both_rows_on_the_start_date(seed):
    task = spec_task("SportsTrackerTotalDistanceForCategoryOverInterval", seed)
    start = dt.datetime.strptime(task.params["start_date"], "%B %d %Y").date()
    end = dt.datetime.strptime(task.params["end_date"], "%B %d %Y").date()
    assert dt.date(2023, 10, 1) <= start <= dt.date(2023, 10, 9) and dt.date(2023, 10, 10) <= end <= WEEK[1]
    assert [r["start_date"] for r in task.relevant_records()] == [start, start]
    assert task.expected()[0] == [sum(MILE_ROUNDED[int(d)] for d in task.params["distance"])]
    for row in task.noise_rows():
        record = ACTIVITIES.from_row(row)
        assert not (task.params["category"] in record["category"] and start <= record["start_date"] <= end)


def test_duration_answer_is_checked_as_androidworld_does():
    task = spec_task("SportsTrackerActivityDuration", 0)
    minutes = int(task.params["duration"])
    for answer, score in ((str(minutes), 1.0), (f"{minutes}.0", 1.0), (str(minutes + 1), 0.0),
                          (f"{minutes} minutes", 0.0), (None, 0.0)):
        task.answer = answer
        assert task.is_successful(None) == score, answer


def test_distance_answers_are_right_within_ten_metres():
    task = spec_task("SportsTrackerLongestDistanceActivity", 1)
    expected = task.expected()[0][0]
    for delta, score in ((0, 1.0), (9.5, 1.0), (-10, 1.0), (11, 0.0)):
        task.answer = str(expected + delta)
        assert task.is_successful(None) == score, delta


def test_activity_types_are_answered_in_any_order_fuzzily():
    task = spec_task("SportsTrackerActivitiesOnDate", 2)
    first, second = task.params["category"]
    for answer, score in ((f"{first}, {second}", 1.0), (f"{second.upper()}, {first}", 1.0), (first, 0.0),
                          (f"{first}, {second}, walking", 0.0)):
        task.answer = answer
        assert task.is_successful(None) == score, answer


def test_the_questions_rows_are_in_the_database_after_initialize(device):
    task = spec_task("SportsTrackerTotalDistanceForCategoryOverInterval", 3)
    task.initialize(device)
    rows = TRACKS_TABLE.rows(device)
    assert len(rows) == 22
    mine = [row for row in rows if row["name"] in task.params["activity_name"]]
    assert sorted(row["totaldistance"] for row in mine) == sorted(
        MILE_ROUNDED[int(d)] for d in task.params["distance"])
    task.teardown(device)
    assert TRACKS_TABLE.rows(device) == []


def _edit_target(device, task):
    rows = TRACKS_TABLE.rows(device)
    return next(row for row in rows if row["name"] == task.params["name"])


def test_renaming_exactly_the_target_is_the_only_success(device):
    task = SportsTrackerRenameActivity(SportsTrackerRenameActivity.generate_params(np.random.default_rng(5)))
    task.initialize(device)
    assert task.is_successful(device) == 0.0
    assert task.params["new_name"] in ACTIVITY_NAMES and task.params["new_name"] != task.params["name"]
    target = _edit_target(device, task)
    update_track(device, target["_id"], name=task.params["new_name"], avgspeed=1.5, activity_type="unknown")
    assert task.is_successful(device) == 1.0  # what the app recomputes on save does not count
    update_track(device, target["_id"], description="changed too")
    assert task.is_successful(device) == 0.0
    task.initialize(device)
    other = next(row for row in TRACKS_TABLE.rows(device) if row["name"] != task.params["name"])
    update_track(device, _edit_target(device, task)["_id"], name=task.params["new_name"])
    update_track(device, other["_id"], elevationgain=other["elevationgain"] + 1)
    assert task.is_successful(device) == 0.0
    task.teardown(device)


def test_changing_the_type_needs_the_category_and_its_type_id(device):
    task = SportsTrackerChangeActivityType(SportsTrackerChangeActivityType.generate_params(np.random.default_rng(2)))
    task.initialize(device)
    new = task.params["new_category"]
    assert new in CATEGORIES and new not in ("snowboarding", "skateboarding")  # types the app knows by name
    target = _edit_target(device, task)
    update_track(device, target["_id"], category=new)
    assert task.is_successful(device) == 0.0  # the app would have derived the type id too
    update_track(device, target["_id"], activity_type=new)
    assert task.is_successful(device) == 1.0
    task.teardown(device)
