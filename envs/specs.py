"""The declarative tasks of ``task_specs/*.textproto``: the apps whose rows specs can hold (one ``RecordKind``
each: field types, rows from records and back, AndroidWorld's noise rows, reveal steps), then every spec file
loaded and registered."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from android_gym.envs import calendar, expense, joplin, opentracks, recipe, tasks_app
from android_gym.tasks.base import DEVICE_TIME
from android_gym.tasks.draws import Rng
from android_gym.tasks.spec_loader import RecordKind, load_specs, register_record_kind
from android_gym.tasks.spec_values import DEFAULT_DURATION, parse_number

#: The device's time zone (UTC, as AndroidWorld's), in which rows' timestamps are read back as dates and times.
ZONE = DEVICE_TIME.tzinfo or dt.timezone.utc


def _date_time(seconds: float) -> tuple[dt.date | None, dt.time | None]:
    """A timestamp in seconds as the device-local date and time of day; ``None`` for both for 0 (no date)."""
    if not seconds:
        return None, None
    moment = dt.datetime.fromtimestamp(seconds, ZONE)
    return moment.date(), moment.time()


#: The device's date at midnight, in seconds; the zone is a fixed offset (UTC), so a day is 86400 s.
_MIDNIGHT_TS = int(dt.datetime.combine(DEVICE_TIME.date(), dt.time(), ZONE).timestamp())


def _random_event_row(rng: Rng) -> dict[str, Any]:
    """AndroidWorld's IR noise event (``generate_random_event``): a generated event starting at a random minute
    within 15 days of the device's date."""
    day = int(rng.integers(-15, 16))
    hour = int(rng.integers(24))
    return calendar.random_event(rng, _MIDNIGHT_TS + (day * 24 + hour) * 3600 + int(rng.integers(60)) * 60)


def _event_record(row: Mapping[str, Any]) -> dict[str, Any]:
    start_date, start_time = _date_time(row["start_ts"])
    return {"start_date": start_date, "start_time": start_time,
            "duration": dt.timedelta(seconds=row["end_ts"] - row["start_ts"]), "title": row["title"] or None,
            "location": row["location"] or None, "description": row["description"] or None}


def _task_record(row: Mapping[str, Any]) -> dict[str, Any]:
    due_date, due_time = _date_time(row["dueDate"] / 1000)
    hide_date, hide_time = _date_time(row["hideUntil"] / 1000)
    done_date, done_time = _date_time(row["completed"] / 1000)
    return {"title": row["title"] or None, "importance": row["importance"], "due_date": due_date,
            "due_time": due_time, "hide_until_date": hide_date, "hide_until_time": hide_time,
            "completed_date": done_date, "completed_time": done_time, "notes": row["notes"] or None}


def _expense_record(row: Mapping[str, Any]) -> dict[str, Any]:
    date, time = _date_time(row["created_date"] / 1000)
    return {"name": row["name"] or None, "amount": row["amount"] / 100,
            "category": expense.CATEGORIES[row["category"] - 1], "note": row["note"] or None, "date": date,
            "time": time}


_RECIPE_COLUMNS = {"title": "title", "description": "description", "servings": "servings",
                   "preparation_time": "preparationTime", "source": "source", "ingredients": "ingredients",
                   "directions": "directions"}


def _recipe_record(row: Mapping[str, Any]) -> dict[str, Any]:
    return {field: row[column] or None for field, column in _RECIPE_COLUMNS.items()}


def _at(date: dt.date | None, time: dt.time | None) -> dt.datetime | None:
    """A date and an optional time of day (midnight when missing) as a local datetime; ``None`` without date."""
    return None if date is None else dt.datetime.combine(date, time or dt.time(0))


def _event_row(record: Mapping[str, Any]) -> dict[str, Any]:
    start = _at(record["start_date"], record["start_time"])
    return calendar.event_row(title=record["title"] or "", location=record["location"] or "",
                              description=record["description"] or "", start=start,
                              end=start + (record["duration"] or DEFAULT_DURATION))


def _task_row(record: Mapping[str, Any]) -> dict[str, Any]:
    def when(date: dt.date | None, time: dt.time | None) -> dt.date | dt.datetime | None:
        return date if time is None else _at(date, time)  # a date alone is a date-only due date

    return tasks_app.task_row(title=record["title"] or "", importance=2 if record["importance"] is None
                              else int(record["importance"]), notes=record["notes"],
                              due=when(record["due_date"], record["due_time"]),
                              hide_until=when(record["hide_until_date"], record["hide_until_time"]),
                              completed=_at(record["completed_date"], record["completed_time"]))


def _expense_row(record: Mapping[str, Any]) -> dict[str, Any]:
    created = _at(record["date"] or DEVICE_TIME.date(), record["time"] or dt.time(12))
    return expense.expense_row(name=record["name"] or "", amount=record["amount"] or 0.0,
                               category=record["category"] or "Others", note=record["note"] or "", created=created)


def _recipe_row(record: Mapping[str, Any]) -> dict[str, Any]:
    return recipe.recipe_row(**{field: record[field] or "" for field in _RECIPE_COLUMNS})


EVENTS = register_record_kind(RecordKind(
    state_field="events", table=calendar.EVENTS,
    fields={"start_date": "date", "start_time": "time", "duration": "duration", "title": "text",
            "location": "text", "description": "text"},
    to_row=_event_row, from_row=_event_record, random_row=_random_event_row, reveal=calendar.reveal_rows,
    noise_count=75, reset_app=calendar.reset_preferences))
TASKS = register_record_kind(RecordKind(
    state_field="tasks", table=tasks_app.TASKS_TABLE,
    fields={"title": "text", "importance": "int", "due_date": "date", "due_time": "time", "hide_until_date": "date",
            "hide_until_time": "time", "completed_date": "date", "completed_time": "time", "notes": "text"},
    to_row=_task_row, from_row=_task_record, random_row=tasks_app.random_task_row, reveal=tasks_app.reveal_rows,
    noise_count=20, reset_app=tasks_app.reset_view_state))
EXPENSES = register_record_kind(RecordKind(
    state_field="expenses", table=expense.EXPENSES,
    fields={"name": "text", "amount": "number", "category": "text", "note": "text", "date": "date", "time": "time"},
    to_row=_expense_row, from_row=_expense_record, random_row=expense.random_expense, reveal=expense.reveal_rows,
    noise_count=20))
RECIPES = register_record_kind(RecordKind(
    state_field="recipes", table=recipe.RECIPES,
    fields={"title": "text", "description": "text", "servings": "text", "preparation_time": "text",
            "source": "text", "ingredients": "text", "directions": "text"},
    to_row=_recipe_row, from_row=_recipe_record, random_row=recipe.random_recipe, reveal=recipe.reveal_rows,
    noise_count=20))



def _note_row(record: Mapping[str, Any]) -> dict[str, Any]:
    return joplin.note_row(title=record["title"] or "", body=record["body"] or "", folder=record["folder"] or "",
                           is_todo=bool(record["is_todo"]), todo_completed=bool(record["todo_completed"]))


NOTES = register_record_kind(RecordKind(
    state_field="notes", table=joplin.NOTES,
    fields={"title": "text", "body": "text", "folder": "text", "is_todo": "bool", "todo_completed": "bool"},
    to_row=_note_row, from_row=joplin.note_record, random_row=joplin.random_note_row, reveal=joplin.reveal_rows,
    noise_count=100, noise_sees_state=True))


def _activity_record(row: Mapping[str, Any]) -> dict[str, Any]:
    start_date, start_time = _date_time(row["starttime"] / 1000)
    return {"name": row["name"] or None, "description": row["description"] or None,
            "category": row["category"] or None, "start_date": start_date, "start_time": start_time,
            "duration": row["totaltime"] / 60_000, "total_distance": row["totaldistance"],
            "elevation_gain": int(row["elevationgain"]), "elevation_loss": int(row["elevationloss"])}


def _activity_row(record: Mapping[str, Any]) -> dict[str, Any]:
    return opentracks.activity_row(
        name=record["name"] or "", category=record["category"] or "",
        start=_at(record["start_date"] or DEVICE_TIME.date(), record["start_time"]), minutes=record["duration"] or 0,
        metres=record["total_distance"] or 0.0, elevation_gain=record["elevation_gain"] or 0,
        elevation_loss=record["elevation_loss"] or 0, description=record["description"] or "")


ACTIVITIES = register_record_kind(RecordKind(
    state_field="activities", table=opentracks.TRACKS_TABLE,
    fields={"name": "text", "description": "text", "category": "text", "start_date": "date", "start_time": "time",
            "duration": "number", "total_distance": "distance", "elevation_gain": "int", "elevation_loss": "int"},
    to_row=_activity_row, from_row=_activity_record, random_row=opentracks.random_activity_row,
    reveal=opentracks.reveal_rows, noise_count=opentracks.NOISE_COUNT,
    number_types={"distance": lambda text: opentracks.mile_rounded(parse_number(text))},
    detail_fields=frozenset({"category"}), reveal_details=opentracks.reveal_details))


def spec_files() -> list[Path]:
    """The ``.textproto`` files shipped in ``android_gym.task_specs``, sorted."""
    folder = resources.files("android_gym.task_specs")
    return sorted(Path(str(entry)) for entry in folder.iterdir() if entry.name.endswith(".textproto"))


SPEC_TASKS = load_specs(spec_files())
