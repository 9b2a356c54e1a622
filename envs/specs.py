"""The declarative tasks of ``task_specs/*.textproto``: the apps whose rows specs can hold (one ``RecordKind``
each: field types, row building, noise records, reveal steps), then every spec file loaded and registered."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from android_gym.envs import calendar, expense, recipe, tasks_app
from android_gym.tasks.base import DEVICE_TIME
from android_gym.tasks.spec_loader import RecordKind, load_specs, register_record_kind
from android_gym.tasks.spec_values import DATE_FORMAT, DEFAULT_DURATION, TIME_FORMAT

# Noise vocabularies: names nobody asks about, so noise never reads like an answer by accident.
_EVENT_TITLES = ("Gym session", "Grocery run", "Car service", "Piano practice", "Book club", "Haircut",
                 "Yoga class", "Call with the bank", "Parent-teacher meeting", "Laundry", "Study group",
                 "Farmers market", "Plumber visit", "Dog grooming", "Budget review", "Volunteer shift")
_EVENT_DESCRIPTIONS = ("Remember to bring water", "Confirm the time the day before", "Take the receipts",
                       "Meet at the entrance", "Bring the charger", "")
_TASK_TITLES = {
    "Grocery Shopping": "Milk, eggs, bread and snacks for the kids.",
    "Water Plants": "Check moisture level before watering.",
    "Call Grandma": "Ask for her cookie recipe.",
    "Meal Prep for the Week": "Cook chicken and chop veggies on Sunday.",
    "Schedule Car Maintenance": "Oil change and tire rotation.",
    "Read a Chapter": "Finish chapter seven.",
    "Clean Out Fridge": "Throw away expired food.",
    "Back Up Laptop": "Use the external drive.",
    "Return Library Books": "Due at the front desk.",
    "Sort Old Photos": "Start with the 2019 album.",
}
_EXPENSE_NAMES = ("Coffee", "Lunch", "Parking", "Movie", "Haircut", "Gas", "Snacks", "Gift card", "Magazine",
                  "Sandwich", "Bakery", "Laundry", "Printer ink", "Flowers", "Stamps", "Umbrella")
_RECIPE_TITLES = ("Banana Bread", "Beef Stew", "Caesar Salad", "Garlic Butter Shrimp", "Vegetable Lasagna",
                  "Pumpkin Pie", "French Toast", "Minestrone", "Fish Tacos", "Chocolate Mousse", "Pad Thai",
                  "Stuffed Peppers", "Corn Chowder", "Falafel Wrap", "Blueberry Muffins", "Ratatouille")
_RECIPE_INGREDIENTS = ("flour", "butter", "eggs", "sugar", "onion", "garlic", "tomatoes", "potatoes", "carrots",
                       "chicken", "rice", "pasta", "milk", "cheddar", "spinach", "lemon", "olive oil", "basil")


def _pick(rng: np.random.Generator, values: tuple[str, ...] | list[str]) -> str:
    return values[int(rng.integers(len(values)))]


def _random_moment(rng: np.random.Generator, today: dt.date, days_before: int, days_after: int) -> dt.datetime:
    """A whole-minute moment between ``days_before`` days before ``today`` and ``days_after`` days after it."""
    day = today + dt.timedelta(days=int(rng.integers(-days_before, days_after + 1)))
    return dt.datetime.combine(day, dt.time(int(rng.integers(24)), int(rng.integers(60))))


def _random_event(rng: np.random.Generator, today: dt.date) -> dict[str, str]:
    """AndroidWorld's noise event: within 15 days of today, 15–60 minutes long."""
    start = _random_moment(rng, today, 15, 15)
    return {"start_date": start.strftime(DATE_FORMAT), "start_time": start.strftime(TIME_FORMAT),
            "duration": f"{_pick(rng, ('15', '30', '45', '60'))} m", "title": _pick(rng, _EVENT_TITLES),
            "description": _pick(rng, _EVENT_DESCRIPTIONS)}


def _random_task(rng: np.random.Generator, today: dt.date) -> dict[str, str]:
    """AndroidWorld's noise task: any importance, due within 15 days, hidden until days before, half of them
    completed about two weeks ago, half with notes."""
    title = _pick(rng, list(_TASK_TITLES))
    due = _random_moment(rng, today, 15, 15)
    hide = _random_moment(rng, (due - dt.timedelta(days=6)).date(), 2, 2)
    record = {"title": title, "importance": str(int(rng.integers(4))), "due_date": due.strftime(DATE_FORMAT),
              "due_time": due.strftime(TIME_FORMAT), "hide_until_date": hide.strftime(DATE_FORMAT),
              "hide_until_time": hide.strftime(TIME_FORMAT), "notes": _TASK_TITLES[title] if rng.random() < 0.5 else ""}
    if rng.random() < 0.5:
        done = _random_moment(rng, today - dt.timedelta(days=14), 7, 7)
        record |= {"completed_date": done.strftime(DATE_FORMAT), "completed_time": done.strftime(TIME_FORMAT)}
    return record


def _random_expense(rng: np.random.Generator, today: dt.date) -> dict[str, str]:
    """An expense of the last month, 1–200 with cents, in any category."""
    when = _random_moment(rng, today, 30, 0)
    return {"name": _pick(rng, _EXPENSE_NAMES), "amount": f"{int(rng.integers(100, 20000)) / 100:.2f}",
            "category": _pick(rng, expense.CATEGORIES), "date": when.strftime(DATE_FORMAT),
            "time": when.strftime(TIME_FORMAT)}


def _random_recipe(rng: np.random.Generator, today: dt.date) -> dict[str, str]:
    """A recipe with three to five everyday ingredients."""
    picks = rng.choice(len(_RECIPE_INGREDIENTS), size=int(rng.integers(3, 6)), replace=False)
    return {"title": _pick(rng, _RECIPE_TITLES), "servings": str(int(rng.integers(1, 9))),
            "preparation_time": f"{int(rng.integers(1, 13)) * 5} min",
            "ingredients": "\n".join(_RECIPE_INGREDIENTS[int(i)] for i in picks)}


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
    return recipe.recipe_row(**{field: record[field] or "" for field in (
        "title", "description", "servings", "preparation_time", "source", "ingredients", "directions")})


EVENTS = register_record_kind(RecordKind(
    state_field="events", table=calendar.EVENTS,
    fields={"start_date": "date", "start_time": "time", "duration": "duration", "title": "text",
            "location": "text", "description": "text"},
    to_row=_event_row, random_record=_random_event, reveal=calendar.reveal_rows, noise_count=75,
    reset_app=calendar.reset_preferences))
TASKS = register_record_kind(RecordKind(
    state_field="tasks", table=tasks_app.TASKS_TABLE,
    fields={"title": "text", "importance": "int", "due_date": "date", "due_time": "time", "hide_until_date": "date",
            "hide_until_time": "time", "completed_date": "date", "completed_time": "time", "notes": "text"},
    to_row=_task_row, random_record=_random_task, reveal=tasks_app.reveal_rows, noise_count=20,
    reset_app=tasks_app.reset_view_state))
EXPENSES = register_record_kind(RecordKind(
    state_field="expenses", table=expense.EXPENSES,
    fields={"name": "text", "amount": "number", "category": "text", "note": "text", "date": "date", "time": "time"},
    to_row=_expense_row, random_record=_random_expense,
    reveal=expense.reveal_rows, noise_count=20))
RECIPES = register_record_kind(RecordKind(
    state_field="recipes", table=recipe.RECIPES,
    fields={"title": "text", "description": "text", "servings": "text", "preparation_time": "text",
            "source": "text", "ingredients": "text", "directions": "text"},
    to_row=_recipe_row, random_record=_random_recipe, reveal=recipe.reveal_rows, noise_count=20))


def spec_files() -> list[Path]:
    """The ``.textproto`` files shipped in ``android_gym.task_specs``, sorted."""
    folder = resources.files("android_gym.task_specs")
    return sorted(Path(str(entry)) for entry in folder.iterdir() if entry.name.endswith(".textproto"))


SPEC_TASKS = load_specs(spec_files())
