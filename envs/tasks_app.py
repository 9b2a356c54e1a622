"""Tasks (``org.tasks``) app: the pieces information-retrieval tasks build on, and two action tasks of our own.

AndroidWorld has only information-retrieval tasks for this app (``TasksDueOnDate``, ``TasksDueNextWeek``, ...,
declared in its ``tasks.textproto``); they insert rows into ``tasks`` (``task_app_utils``) and check the agent's
answer. This module gives them:

* ``TASKS_TABLE``, the ``AppTable`` of ``/data/data/org.tasks/databases/database``;
* ``task_row``: a full ``tasks`` row with the app's defaults and encodings (a due date alone is local noon with
  seconds 0, a due time keeps seconds 1; a start date alone is local midnight; times in epoch ms). AndroidWorld
  writes due and start times with seconds 0, which the app shows as dates without a time; rows made here are
  what the app itself writes;
* ``random_task_row``: AndroidWorld's noise task (``_generate_random_task``) drawn from a seeded generator;
* ``reset_view_state``: deletes the app's preferences, so the list opens on "My Tasks" with completed and
  unstarted tasks shown (the app's defaults) whatever an earlier episode toggled;
* ``reveal_rows``: the UI steps that bring given rows on screen in "My Tasks", scrolling as a person does.

``TasksAddTask`` and ``TasksCompleteTask`` are ours (not AndroidWorld's); they prove the app's editor and list
work and are checked on the rows, AndroidWorld style: exactly the wanted change, nothing else touched.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import shlex
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from android_gym.actions import Action, ActionType
from android_gym.device.base import Device
from android_gym.device.config import LANGUAGES
from android_gym.sim.apps.tasks import (
    DB_PATH,
    HIGH,
    LOW,
    MEDIUM,
    NONE,
    PACKAGE,
    PREFS_PATH,
    TASK_DEFAULTS,
    due_date_ms,
    list_due_text,
    list_sort_key,
    new_remote_id,
    start_date_ms,
    to_ms,
)
from android_gym.sim.framework import formats
from android_gym.tasks import register_task
from android_gym.tasks.base import DEVICE_TIME, Task
from android_gym.tasks.draws import Rng, exact_draws
from android_gym.tasks.oracle import (
    OracleError,
    OracleStep,
    Selector,
    complete,
    open_app,
    scroll_until,
    tap,
    type_into,
)
from android_gym.tasks.sqlite_rows import AppTable, Row, SqliteRowsTask, rows_added_exactly
from android_gym.tasks.validators import fuzzy_match
from android_gym.ui import UIElement

APP_NAME = "Tasks"
TASKS_TABLE = AppTable(PACKAGE, DB_PATH, "tasks", "_id")
ZONE = DEVICE_TIME.tzinfo or dt.timezone.utc  # AndroidWorld's device zone (UTC)
PRIORITY_WORDS = {HIGH: "high", MEDIUM: "medium", LOW: "low", NONE: "no"}

# AndroidWorld's noise tasks (task_app_utils._TASKS): title → notes.
NOISE_TASKS = {
    "Grocery Shopping": "Don\t forget milk, eggs, and bread. Also need to pick up snacks for the kids.",
    "Finish Project Proposal": "Deadline is Friday. Need to finalize budget and timeline sections.",
    "Schedule Dentist Appointment": "Teeth cleaning overdue. Call Dr. Smith's office.",
    "Water Plants": "Check moisture level before watering. Fertilize succulents.",
    "Meal Prep for the Week": "Make a grocery list based on planned meals. Cook chicken and chop veggies on Sunday.",
    "Research Vacation Destinations": "Looking for beach destinations with family-friendly activities.",
    "Read 'The Martian'": "Started last week. Aim to finish by next weekend.",
    "Call Grandma": "Catch up on family news. Ask for her famous cookie recipe.",
    "Change Air Filter": "Last changed 3 months ago. Buy a new filter at the hardware store.",
    "Brainstorm Blog Post Ideas": "Need 5 new topics for the next month's content calendar.",
    "Renew Driver's License": "Expires next month. Check DMV website for requirements.",
    "Organize Closet": "Donate old clothes and shoes. Put winter clothes in storage.",
    "Submit Expense Report": "Deadline is Wednesday. Attach receipts for all purchases.",
    "Attend Team Meeting": "Agenda includes project updates and brainstorming new initiatives.",
    "Learn to Play Guitar": "Practice chords for 30 minutes every day. Find online tutorials.",
    "Reply to Emails": "Inbox is overflowing. Prioritize urgent messages and unsubscribe from unwanted lists.",
    "Clean Out Fridge": "Check expiration dates and discard old food. Wipe down shelves.",
    "Create Budget for Next Month": "Track income and expenses. Set savings goals.",
    "Back Up Computer Files": "Use external hard drive or cloud storage. Schedule regular backups.",
    "Take Dog to the Vet": "Annual checkup and vaccinations due.",
}
_NOISE_TITLES = tuple(NOISE_TASKS)  # in the dict's order, which the draws index
# Titles of our action tasks' targets (none of them is a noise title).
TARGET_TITLES = ("Book flights for conference", "Review code changes", "Schedule team meeting",
                 "Update website content", "Prepare presentation for meeting", "Call client for follow-up",
                 "Plan team outing", "Send report to manager", "Renew gym membership", "Pay electricity bill")


def _id(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


TITLE_ID, DUE_ID, BOX_ID, LIST_ID = _id("title"), _id("due_date"), _id("completeBox"), _id("recycler_view")


# ----- rows ----------------------------------------------------------------------------------------------------
def _local(when: dt.datetime) -> dt.datetime:
    return when.replace(tzinfo=ZONE) if when.tzinfo is None else when


def _due_ms(due: dt.date | dt.datetime | None) -> int:
    if due is None:
        return 0
    if isinstance(due, dt.datetime):
        due = _local(due)
        return due_date_ms(due.date(), due.timetz().replace(tzinfo=None), due.tzinfo or ZONE)
    return due_date_ms(due, None, ZONE)


def _start_ms(start: dt.date | dt.datetime | None) -> int:
    if start is None:
        return 0
    if isinstance(start, dt.datetime):
        start = _local(start)
        return start_date_ms(start.date(), start.timetz().replace(tzinfo=None), start.tzinfo or ZONE)
    return start_date_ms(start, None, ZONE)


def task_row(title: str, importance: int = LOW, due: dt.date | dt.datetime | None = None,
             hide_until: dt.date | dt.datetime | None = None, completed: dt.datetime | None = None,
             notes: str | None = None, *, created: dt.datetime | None = None, modified: dt.datetime | None = None,
             remote_id: str | None = None) -> Row:
    """A full ``tasks`` row (every column but ``_id``) with the app's defaults and encodings.

    ``importance`` 0 high … 3 none (default low, the app's default priority); ``due``/``hide_until`` a date
    (no time) or a datetime (with a time; naive means device time); ``completed`` a datetime or ``None``;
    ``created`` defaults to a week before device time and ``modified`` to ``created``. ``remote_id`` (the
    app's unique id, a decimal long) defaults to one drawn from the row's content, so give look-alike rows
    their own.
    """
    created_ms = to_ms(_local(created)) if created is not None else to_ms(DEVICE_TIME - dt.timedelta(days=7))
    return _row(title, int(importance), _due_ms(due), _start_ms(hide_until), created_ms,
                to_ms(_local(modified)) if modified is not None else created_ms,
                to_ms(_local(completed)) if completed is not None else 0, notes, remote_id)


def _row(title: str, importance: int, due_ms: int, hide_until_ms: int, created_ms: int, modified_ms: int,
         completed_ms: int, notes: str | None, remote_id: str | None) -> Row:
    """``task_row`` of its columns' values (``remote_id`` drawn from the row when not given)."""
    row: Row = {**TASK_DEFAULTS, "title": title, "importance": importance, "dueDate": due_ms,
                "hideUntil": hide_until_ms, "created": created_ms, "modified": modified_ms, "completed": completed_ms,
                "notes": notes}
    if not remote_id:
        seed = hashlib.sha256(repr(sorted(row.items(), key=lambda item: item[0])).encode()).hexdigest()
        remote_id = new_remote_id(seed, lambda _: False)
    row["remoteId"] = remote_id
    return row


def _random_datetime(rng: Rng, center: dt.datetime, days: int = 14) -> dt.datetime:
    """``datetime_utils.generate_random_datetime``: a minute in a ``days``-long window around ``center``."""
    start = center - dt.timedelta(days=days) / 2
    return start + dt.timedelta(minutes=int(rng.integers(days * 24 * 60)))


_DAY_S = 86400
#: The device time in seconds: whole minutes in UTC, so ``_random_ts`` draws whole minutes and a due or start time
#: with seconds 1 (``due_date_ms``, ``start_date_ms``) is one second past its timestamp.
_DEVICE_TS = int(DEVICE_TIME.timestamp())


def _random_ts(rng: Rng, center_ts: int, days: int = 14) -> int:
    """``_random_datetime`` as a timestamp in seconds."""
    return center_ts - days * _DAY_S // 2 + 60 * int(rng.integers(days * 24 * 60))


def random_task_row(rng: Rng) -> Row:
    """AndroidWorld's noise task: a title (with its notes half the time), any priority, due within a week of
    device time, started about six days before that, completed half the time (around two weeks ago). The row
    ``task_row`` makes of those datetimes, its times worked out in whole seconds (20 rows a reset)."""
    title = _NOISE_TITLES[int(rng.integers(len(_NOISE_TITLES)))]
    notes = NOISE_TASKS[title] if rng.integers(2) else None
    importance = int(rng.integers(4))
    due = _random_ts(rng, _DEVICE_TS)
    start = _random_ts(rng, due - 6 * _DAY_S, days=5)
    completed = _random_ts(rng, _DEVICE_TS - 14 * _DAY_S) if rng.integers(2) else None
    created_ms = (due - 7 * _DAY_S) * 1000
    return _row(title, importance, (due + 1) * 1000, (start + 1) * 1000, created_ms, created_ms,
                completed * 1000 if completed is not None else 0, notes, str(int(rng.integers(100_000_000, 2**62))))


#: The shell line that stops the app and deletes its preferences (``reset_view_state``).
RESET_VIEW_STATE = f"am force-stop {shlex.quote(PACKAGE)} && rm -f {shlex.quote(PREFS_PATH)}"


def reset_view_state(device: Device) -> None:
    """Stop the app and delete its preferences: it reopens on "My Tasks" with completed and unstarted tasks shown
    (the defaults), whatever an earlier episode changed."""
    Task.run(device, RESET_VIEW_STATE)


# ----- reading the list -------------------------------------------------------------------------------------------
def _same_row(a: UIElement, b: UIElement) -> bool:
    """Whether two elements sit on the same line of a task row (their vertical extents overlap)."""
    return a.bbox_pixels.y_min < b.bbox_pixels.y_max and b.bbox_pixels.y_min < a.bbox_pixels.y_max


def _find_row(elements: Sequence[UIElement], row: Mapping[str, Any], now: dt.datetime) -> UIElement | None:
    """The title element of ``row``'s line in the task list: its title with its due date text beside it (or no
    due date at all), fully on screen."""
    dues_shown = frozenset(list_due_text(row["dueDate"], now, True, language) for language in LANGUAGES) \
        if row["dueDate"] else frozenset()
    dues = [e for e in elements if e.resource_name == DUE_ID and e.bbox_pixels.area > 0]
    for title in (e for e in elements if e.resource_name == TITLE_ID and e.text == row["title"]
                  and e.bbox_pixels.area > 0):
        beside = [d for d in dues if _same_row(title, d)]
        if not beside and not dues_shown:
            return title
        # the date in the phone's language ("Today" translated)
        if len(beside) == 1 and dues_shown and any(Selector(text=due).matches(beside[0]) for due in dues_shown):
            return title
    return None


def _scroll_to_row(row: Mapping[str, Any], now: dt.datetime, max_scrolls: int) -> list[OracleStep]:
    """Scroll the list down until ``row`` is on screen, then check that it is."""
    return scroll_until(lambda elements: _find_row(elements, row, now), Selector(resource_id=LIST_ID),
                        f"the task {row['title']!r}", max_scrolls=max_scrolls)


def _show_my_tasks() -> list[OracleStep]:
    """Open the drawer and pick "My Tasks" unless the list already shows it."""
    def is_my_tasks(elements: Sequence[UIElement]) -> bool:
        return any(Selector(text="My Tasks", class_suffix="TextView").matches(e) and not e.resource_name
                   for e in elements)

    def open_drawer(elements: Sequence[UIElement]) -> Action | None:
        if is_my_tasks(elements):
            return None
        bar = Selector(resource_id=_id("bottomAppBar")).find(elements)
        buttons = [e for e in elements if e.class_name.endswith("ImageButton") and not e.content_description
                   and _same_row(e, bar)]
        if not buttons:
            raise OracleError("no drawer button in the bottom app bar")
        return Action(ActionType.CLICK, index=buttons[0].index)

    def pick(elements: Sequence[UIElement]) -> Action | None:
        if is_my_tasks(elements):
            return None
        return tap(Selector(text="My Tasks", resource_id=_id("text")))(elements)

    return [open_drawer, pick]


def reveal_rows(rows: Sequence[Mapping[str, Any]]) -> list[OracleStep]:
    """From the home screen: open Tasks on "My Tasks" and scroll down through it, bringing each of ``rows``
    (``tasks`` rows as ``TASKS_TABLE.rows`` returns them, not deleted, top-level) on screen in the list's order.

    Needs the app's default view settings (completed and unstarted tasks shown: ``reset_view_state``)."""
    now_ms = to_ms(DEVICE_TIME)
    ordered = sorted(rows, key=lambda row: list_sort_key({"_id": 0, **row}, now_ms))  # rows from a spec have no id yet
    steps: list[OracleStep] = [open_app(APP_NAME), *_show_my_tasks()]
    for row in ordered:
        steps += _scroll_to_row(row, DEVICE_TIME, max_scrolls=40)
    return steps


def _complete_box(title: str) -> OracleStep:
    """Tap the checkbox on the line of the task titled ``title``."""
    def step(elements: Sequence[UIElement]) -> Action:
        label = Selector(text=title, resource_id=TITLE_ID).find(elements)
        boxes = [e for e in elements if e.resource_name == BOX_ID and _same_row(e, label)]
        if not boxes:
            raise OracleError(f"no checkbox beside {title!r}")
        return Action(ActionType.CLICK, index=boxes[0].index)
    return step


def _tap_calendar_day(day: dt.date) -> OracleStep:
    """Tap ``day`` in the editor's calendar: the cell described "20 October 2023" (``dd MMMM yyyy``, its month in
    the phone's language)."""
    def step(elements: Sequence[UIElement]) -> Action:
        described = {formats.format_pattern(day, "dd MMMM yyyy", language) for language in LANGUAGES}
        for element in elements:
            if element.content_description in described:
                return Action(ActionType.CLICK, index=element.index)
        raise OracleError(f"the calendar shows no cell for {day}")
    return step


def _priority_radio(importance: int) -> OracleStep:
    """Tap the editor's priority radio button for ``importance`` (left to right: none, low, medium, high)."""
    def step(elements: Sequence[UIElement]) -> Action:
        radios = sorted((e for e in elements if e.class_name.endswith("RadioButton") and e.bbox_pixels.area > 0),
                        key=lambda e: e.bbox_pixels.x_min)
        if len(radios) != 4:
            raise OracleError(f"expected 4 priority buttons, found {len(radios)}")
        return Action(ActionType.CLICK, index=radios[NONE - importance].index)
    return step


# ----- tasks ------------------------------------------------------------------------------------------------------
class _TasksAppTask(SqliteRowsTask):
    """Starts from the app's default view settings and a ``tasks`` table holding only the task's rows."""

    app_packages = (PACKAGE,)
    table = TASKS_TABLE
    extras_leave_apps_stopped = True  # ``clear_extras`` stops the app and removes its preferences

    def clear_extras(self, device: Device) -> None:
        """Default view settings."""
        reset_view_state(device)

    def initial_rows(self) -> list[Row]:
        """The rows kept in the parameters."""
        return [dict(row) for row in self.params["rows"]]


def _noise(rng: np.random.Generator, count: int) -> list[Row]:
    with exact_draws(rng) as draws:
        return [random_task_row(draws) for _ in range(count)]


@register_task
class TasksAddTask(_TasksAppTask):
    """Create a task with a title, a due date and a priority among noise tasks."""

    name = "TasksAddTask"
    complexity = 2.0
    template = 'In the Tasks app, add a task titled "{title}" due on {date} with {priority} priority.'

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """A title, a due day in the next month, a priority and 0–10 noise tasks."""
        due = DEVICE_TIME.date() + dt.timedelta(days=int(rng.integers(1, 31)))
        importance = int(rng.integers(4))
        return {"title": TARGET_TITLES[int(rng.integers(len(TARGET_TITLES)))], "due": due.isoformat(),
                "date": f"{due:%B} {due.day} {due.year}", "importance": importance,
                "priority": PRIORITY_WORDS[importance], "rows": _noise(rng, int(rng.integers(0, 11)))}

    def is_successful(self, device: Device) -> float:
        """1.0 when exactly one task was added — the title (fuzzily), the due day, the priority, not done — and
        every other row is untouched."""
        due = dt.date.fromisoformat(self.params["due"])

        def matches(added: Mapping[str, Any], wanted: Mapping[str, Any]) -> bool:
            day = dt.datetime.fromtimestamp(added["dueDate"] / 1000, ZONE).date() if added["dueDate"] else None
            return (fuzzy_match(added["title"] or "", wanted["title"]) and added["importance"] == wanted["importance"]
                    and day == due and added["completed"] == 0 and added["deleted"] == 0)

        expected = [{"title": self.params["title"], "importance": self.params["importance"]}]
        return 1.0 if rows_added_exactly(self.before, self.table.rows(device), expected, "_id", matches) else 0.0

    def oracle(self) -> Sequence[OracleStep]:
        """New task, title, due date from the calendar, priority, save."""
        due = dt.date.fromisoformat(self.params["due"])
        steps: list[OracleStep] = [open_app(APP_NAME), tap(Selector(content_desc="Create new task")),
                                   type_into(Selector(resource_id=TITLE_ID), self.params["title"]),
                                   tap(Selector(text="No due date"))]
        if (due.year, due.month) != (DEVICE_TIME.year, DEVICE_TIME.month):
            steps.append(tap(Selector(content_desc="Next month")))
        steps += [_tap_calendar_day(due),
                  tap(Selector(resource_id=_id("ok_button"))), _priority_radio(self.params["importance"]),
                  tap(Selector(content_desc="Save")), complete()]
        return steps


@register_task
class TasksCompleteTask(_TasksAppTask):
    """Mark one task done among noise tasks."""

    name = "TasksCompleteTask"
    complexity = 1.0
    template = 'Mark the task "{title}" as completed in the Tasks app.'

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """The target (due within a week, not done) placed among 8–20 noise tasks."""
        title = TARGET_TITLES[int(rng.integers(len(TARGET_TITLES)))]
        due = _random_datetime(rng, DEVICE_TIME)
        target = task_row(title, int(rng.integers(4)), due, due - dt.timedelta(days=6), None,
                          remote_id=str(int(rng.integers(100_000_000, 2**62))))
        rows = _noise(rng, int(rng.integers(8, 21)))
        rows.insert(int(rng.integers(len(rows) + 1)), target)
        return {"title": title, "rows": rows}

    def is_successful(self, device: Device) -> float:
        """1.0 when the target is now completed (``modified`` moved on with it) and no other row changed."""
        after = {row["_id"]: row for row in self.table.rows(device)}
        if set(after) != {row["_id"] for row in self.before}:
            return 0.0
        for row in self.before:
            now = after[row["_id"]]
            if row["title"] != self.params["title"]:
                if now != row:
                    return 0.0
                continue
            unchanged = {k: v for k, v in now.items() if k not in ("completed", "modified")}
            if (unchanged != {k: v for k, v in row.items() if k not in ("completed", "modified")}
                    or now["completed"] <= 0 or now["modified"] < row["modified"]):
                return 0.0
        return 1.0

    def oracle(self) -> Sequence[OracleStep]:
        """Scroll to the task in "My Tasks" and tick its checkbox."""
        target = next(row for row in self.params["rows"] if row["title"] == self.params["title"])
        return [*reveal_rows([{**target, "_id": 0}]), _complete_box(self.params["title"]), complete()]
