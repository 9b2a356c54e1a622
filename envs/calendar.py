"""Simple Calendar Pro tasks (AndroidWorld ``task_evals/single/calendar/calendar.py`` with its ``events_generator``,
``calendar_evaluators`` and ``sqlite_validators``).

Each task empties the ``events`` table, restores the app's preferences to those of a fresh install (AndroidWorld
restores the app's data snapshot before every task, so the view is the month view and the reminder disclaimer
shows on the first save), then inserts its rows the way AndroidWorld does (``source`` "imported-ics", reminders
off): noise events for the "add" tasks, noise and then the targets for the "delete" tasks. Success is read back
from ``events.db``: exactly one new row matching ``start_ts``, ``end_ts``, ``repeat_interval`` and ``repeat_rule``
exactly and title, location and description fuzzily, every other row untouched; or exactly the targets gone.

Also exported for the information-retrieval tasks: ``EVENTS`` (the table), ``event_row`` (a full row from a
declarative spec), ``reset_preferences`` (the app's session preferences back to their defaults; never delete
``Prefs.xml``, the app then shows no events) and ``reveal_rows`` (UI steps that bring given rows on screen, day
view by day view).
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import groupby
from typing import Any, ClassVar
from xml.etree import ElementTree

import numpy as np

from android_gym.actions import Action, ActionType
from android_gym.device.base import Device
from android_gym.device.config import LANGUAGES
from android_gym.errors import RemoteFileNotFoundError
from android_gym.sim.apps.calendar import (
    DAY,
    DB_PATH,
    MONTHS,
    PACKAGE,
    PREFS_PATH,
    REPETITIONS,
    WEEK,
    Occurrence,
    day_title,
    event_row,
    item_time_text,
    month_grid_start,
    utc_event_row,
    weekday_bit,
)
from android_gym.sim.framework import formats
from android_gym.sim.framework.time_picker import HOUR_VALUES_24
from android_gym.tasks import register_task
from android_gym.tasks.base import DEVICE_TIME
from android_gym.tasks.draws import Rng, exact_draws
from android_gym.tasks.oracle import (
    OracleError,
    OracleStep,
    Selector,
    act,
    as_english,
    complete,
    expect,
    open_app,
    scroll_to,
    scroll_until,
    tap,
    tap_found,
    type_into,
)
from android_gym.tasks.sqlite_rows import AppTable, Row, SqliteRowsTask, rows_added_exactly, rows_removed_exactly
from android_gym.tasks.validators import fuzzy_match
from android_gym.ui import UIElement

__all__ = ["EVENTS", "event_row", "reset_preferences", "reveal_rows"]

APP_NAME = "Simple Calendar Pro"
EVENTS = AppTable(PACKAGE, DB_PATH, "events", "id")
UTC = dt.timezone.utc
TODAY = DEVICE_TIME.date()

# events_generator.py
TITLE_PREFIXES = ("Meeting with", "Call with", "Workshop on", "Appointment for", "Catch up on", "Review session for")
NAMES = ("Alice", "Bob", "the Team", "HR", "Dr. Smith", "Marketing")
SUBJECTS = ("Project X", "Annual Report", "Budget Planning", "Campaign")
ACTIONS = ("discuss", "finalize", "plan", "celebrate", "prepare for", "review", "explore", "understand", "organize",
           "strategize about")
SUBJECT_DESCRIPTIONS = ("upcoming project milestones", "marketing strategies", "annual budget", "product launch",
                        "team roles", "client feedback", "contract details", "software updates", "business objectives")
ADDITIONAL_NOTES = ("Please bring relevant documents.", "Remember to confirm attendance.", "Let's be punctual.",
                    "Looking forward to productive discussions.", "Snacks will be provided.")
DURATIONS_MINS = (15, 30, 45, 60)
REPEATS = {"daily": DAY, "weekly": WEEK}  # calendar.py _REPEAT_INTERVALS
#: ``Prefs.xml`` keys that using the app changes (``Config``/``BaseConfig``).
SESSION_PREFERENCES = ("view", "was_alarm_warning_shown", "reminder_minutes", "reminder_minutes_2",
                       "reminder_minutes_3")
_XML_DECLARATION = b"<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\n"


def _rid(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


FAB = Selector(resource_id=_rid("calendar_fab"))
NEW_EVENT_LABEL = Selector(resource_id=_rid("fab_event_label"))
TITLE_FIELD = Selector(resource_id=_rid("event_title"))
LOCATION_FIELD = Selector(resource_id=_rid("event_location"))
DESCRIPTION_FIELD = Selector(resource_id=_rid("event_description"))
START_TIME, END_TIME = Selector(resource_id=_rid("event_start_time")), Selector(resource_id=_rid("event_end_time"))
END_DATE = Selector(resource_id=_rid("event_end_date"))
REPETITION = Selector(resource_id=_rid("event_repetition"))
SAVE = Selector(resource_id=_rid("save"))
DELETE = Selector(resource_id=_rid("delete"))
CAB_DELETE = Selector(resource_id=_rid("cab_delete"))
DIALOG_POSITIVE = Selector(resource_id="android:id/button1")
DAY_EVENTS = Selector(resource_id=_rid("day_events"))
EVENT_FORM = Selector(resource_id=_rid("event_nested_scrollview"))
MONTH_LABEL = Selector(resource_id=_rid("top_value"))
NEXT = Selector(resource_id=_rid("top_right_arrow"))
PREVIOUS = Selector(resource_id=_rid("top_left_arrow"))
TIME_OK = Selector(resource_id=_rid("material_timepicker_ok_button"))
TIME_MODE = Selector(resource_id=_rid("material_timepicker_mode_button"))
TIME_FIELD = Selector(resource_id=_rid("material_timepicker_edit_text"))
_HOLDER, _ITEM_TITLE, _ITEM_TIME = _rid("event_item_holder"), _rid("event_item_title"), _rid("event_item_time")


# ----- AndroidWorld's event generation -----------------------------------------------------------------------------
def random_october_ts(rng: Rng, start_day: int = TODAY.day, end_day: int = 31) -> int:
    """``datetime_utils.create_random_october_2023_unix_ts``: a whole hour on a day in the range (inclusive)."""
    day, hour = int(rng.integers(start_day, end_day + 1)), int(rng.integers(0, 24))
    return int(dt.datetime(TODAY.year, TODAY.month, day, hour, tzinfo=UTC).timestamp())


#: ``generate_event``'s titles, by prefix then name (a prefix "with" someone names a person, else a subject), and
#: its descriptions, by action then subject, each made once.
_TITLES = tuple(tuple(f"{prefix} {name}" for name in (NAMES if "with" in prefix else SUBJECTS))
                for prefix in TITLE_PREFIXES)
_DESCRIPTIONS = tuple(tuple(f"We will {action} {subject}." for subject in SUBJECT_DESCRIPTIONS) for action in ACTIONS)
_NOTES = tuple(f" {note}" for note in ADDITIONAL_NOTES)


def random_event(rng: Rng, start_ts: int) -> Row:
    """``events_generator.generate_event``: 15–60 minutes, a generated title and description."""
    duration = DURATIONS_MINS[rng.integers(len(DURATIONS_MINS))]
    titles = _TITLES[rng.integers(len(_TITLES))]
    title = titles[rng.integers(len(titles))]
    description = _DESCRIPTIONS[rng.integers(len(ACTIONS))][rng.integers(len(SUBJECT_DESCRIPTIONS))]
    if rng.integers(2):
        description += _NOTES[rng.integers(len(_NOTES))]
    return utc_event_row(title, start_ts, duration, description)


def noise_events(rng: np.random.Generator, n: int, keep: Callable[[Row], bool]) -> list[Row]:
    """``generate_noise_events``/``get_random_items``: ``n`` distinct October events (from the 1st) that ``keep``
    accepts."""
    found: list[Row] = []
    with exact_draws(rng) as draws:
        for _ in range(10_000):
            if len(found) == n:
                return found
            candidate = random_event(draws, random_october_ts(draws, start_day=1))
            if keep(candidate) and candidate not in found:
                found.append(candidate)
    raise ValueError(f"could not generate {n} noise events")


def _start(row: Mapping[str, Any]) -> dt.datetime:
    return dt.datetime.fromtimestamp(row["start_ts"], UTC)


def _end(row: Mapping[str, Any]) -> dt.datetime:
    return dt.datetime.fromtimestamp(row["end_ts"], UTC)


def event_matches(candidate: Mapping[str, Any], wanted: Mapping[str, Any]) -> bool:
    """``validate_event_addition_integrity`` with ``repeat_rule``/``repeat_interval``: times and repetition exact,
    title, location and description fuzzy."""
    return (all(candidate[name] == wanted[name] for name in ("start_ts", "end_ts", "repeat_interval", "repeat_rule"))
            and all(fuzzy_match(candidate[name] or "", wanted[name] or "")
                    for name in ("title", "location", "description")))


# ----- oracle steps -------------------------------------------------------------------------------------------------
def _shown_month(label: str) -> tuple[int, int]:
    """``(year, month)`` of a month view's title ("October", "January 2024")."""
    name, _, year = label.partition(" ")
    return (int(year) if year.isdigit() else TODAY.year), MONTHS.index(as_english(name, MONTHS)) + 1


def _navigate_to_month(day: dt.date) -> OracleStep:
    """One arrow tap towards ``day``'s month in the month view; nothing once it is shown."""
    def step(elements: Sequence[UIElement]) -> Action | None:
        shown = _shown_month(MONTH_LABEL.find(elements).text)
        if shown == (day.year, day.month):
            return None
        arrow = NEXT if shown < (day.year, day.month) else PREVIOUS
        return tap(arrow)(elements)
    return step


def _tap_cell(day: dt.date) -> OracleStep:
    """Tap ``day``'s cell: the grid's cells carry no text, so count from the first one shown, taking the week to
    start on Sunday (``_to_day`` then corrects a week that starts on Monday)."""
    def step(elements: Sequence[UIElement]) -> Action:
        cells = [e for e in elements if e.resource_name == _rid("month_view_background")]
        if len(cells) != 42:
            raise OracleError(f"the month grid shows {len(cells)} cells, not 42")
        return Action(ActionType.CLICK, index=cells[(day - month_grid_start(day, sunday_first=True)).days].index)
    return step


def _to_day(day: dt.date) -> OracleStep:
    """In the day view: read the day's title (in any system language); on the day after ``day`` (the month grid
    started on Monday), go back one day."""
    def titles(shown: dt.date) -> frozenset[str]:
        return frozenset(day_title(shown, TODAY, language) for language in LANGUAGES)

    def step(elements: Sequence[UIElement]) -> Action | None:
        title = MONTH_LABEL.find(elements).text
        if title in titles(day):
            return None
        if title in titles(day + dt.timedelta(days=1)):
            return tap(PREVIOUS)(elements)
        raise OracleError(f"the day view shows {title!r}, not {day}")
    return step


def open_day(day: dt.date, max_months: int = 24) -> list[OracleStep]:
    """From the month view: arrows to ``day``'s month, then its cell (the day view opens) and the day."""
    return [_navigate_to_month(day)] * max_months + [_tap_cell(day), _to_day(day), _to_day(day)]


def _tap_if_present(selector: Selector) -> OracleStep:
    def step(elements: Sequence[UIElement]) -> Action | None:
        return tap(selector)(elements) if selector.present(elements) else None
    return step


def set_time(field: Selector, hour: int, minute: int) -> list[OracleStep]:
    """Open the time picker of ``field`` and set ``hour:minute``: on the clock (the hour, then a five-minute mark),
    or through its text fields for other minutes."""
    if minute % 5:
        return [tap(field), tap(TIME_MODE), _replace_nth(TIME_FIELD, 0, f"{hour:02d}"),
                _replace_nth(TIME_FIELD, 1, f"{minute:02d}"), tap(TIME_OK)]
    return [tap(field), tap(Selector(text=HOUR_VALUES_24[hour], class_suffix="TextView")),
            tap(Selector(text=f"{minute:02d}", class_suffix="TextView")), tap(TIME_OK)]


def _replace_nth(selector: Selector, n: int, text: str) -> OracleStep:
    """``replace_text`` in the ``n``-th field ``selector`` matches (the time picker's hour, then minute)."""
    def step(elements: Sequence[UIElement]) -> Action:
        fields = [e for e in elements if selector.matches(e)]
        if len(fields) <= n:
            raise OracleError(f"fewer than {n + 1} fields match {selector}")
        return Action(ActionType.INPUT_TEXT, index=fields[n].index, text=text, clear_text=True)
    return step


def _date_picker_towards(day: dt.date) -> OracleStep:
    """In the date picker: the previous/next month button until ``day``'s month is shown."""
    def step(elements: Sequence[UIElement]) -> Action | None:
        shown = [e.content_description.split(" ") for e in elements
                 if e.content_description.count(" ") == 2 and e.content_description.split(" ")[0].isdigit()]
        if not shown:
            raise OracleError("no day of the date picker is on screen")
        year, month = int(shown[0][2]), _month_number(shown[0][1])
        if (year, month) == (day.year, day.month):
            return None
        name = "next" if (year, month) < (day.year, day.month) else "prev"
        return tap(Selector(resource_id=f"android:id/{name}"))(elements)
    return step


def _month_number(name: str) -> int:
    """The month a date picker's day description names ("15 October 2023"), in any system language: the
    framework's month names (CLDR's, "octobre"), not the app's own ("Octobre")."""
    for language in LANGUAGES:
        for month in range(1, 13):
            if formats.format_pattern(dt.date(2000, month, 1), "MMMM", language) == name:
                return month
    raise OracleError(f"{name!r} names no month")


def set_date(field: Selector, day: dt.date) -> list[OracleStep]:
    """Open the date picker of ``field``, go to ``day``'s month, pick the day, OK."""
    return [tap(field), *[_date_picker_towards(day)] * 24, _tap_picker_day(day), tap(DIALOG_POSITIVE)]


def _tap_picker_day(day: dt.date) -> OracleStep:
    """Tap ``day`` in the date picker showing its month: the cell described "15 October 2023" (its month in the
    phone's language)."""
    def step(elements: Sequence[UIElement]) -> Action:
        for element in elements:
            words = (element.content_description or "").split(" ")
            if len(words) == 3 and words[0] == str(day.day) and words[2] == str(day.year):
                return Action(ActionType.CLICK, index=element.index)
        raise OracleError(f"the date picker shows no cell for {day}")
    return step


def add_event_steps(event: Mapping[str, Any]) -> list[OracleStep]:
    """From the home screen: open the event's day, start a new event there (it starts on that day), fill in
    title, description (and location), the start and end times (and end date), the repetition; save."""
    start, end = _start(event), _end(event)
    steps = [open_app(APP_NAME), *open_day(start.date()), tap(FAB), tap(NEW_EVENT_LABEL),
             type_into(TITLE_FIELD, event["title"])]
    if event["location"]:
        steps.append(type_into(LOCATION_FIELD, event["location"]))
    if event["description"]:
        steps.append(type_into(DESCRIPTION_FIELD, event["description"]))
    steps += [*scroll_to(START_TIME, EVENT_FORM), *set_time(START_TIME, start.hour, start.minute)]
    if end.date() != start.date():
        steps += [*scroll_to(END_DATE, EVENT_FORM), *set_date(END_DATE, end.date())]
    steps += [*scroll_to(END_TIME, EVENT_FORM), *set_time(END_TIME, end.hour, end.minute)]
    if event["repeat_interval"]:
        steps += [*scroll_to(REPETITION, EVENT_FORM), tap(REPETITION),
                  tap(Selector(text=REPETITIONS[event["repeat_interval"]], class_suffix="RadioButton"))]
    return [*steps, tap(SAVE), _tap_if_present(DIALOG_POSITIVE), complete()]


def _day_items(elements: Sequence[UIElement]) -> list[tuple[UIElement, str, str]]:
    """The day view's items as ``(holder, title, time text)``."""
    items: list[list[Any]] = []
    for element in elements:
        if element.resource_name == _HOLDER:
            items.append([element, "", ""])
        elif items and element.resource_name == _ITEM_TITLE:
            items[-1][1] = element.text
        elif items and element.resource_name == _ITEM_TIME:
            items[-1][2] = element.text
    return [(holder, title, time) for holder, title, time in items]


#: A day-view item as the oracle looks for it: its title and its time line in each system language.
ItemKey = tuple[str, frozenset[str]]


def item_key(row: Mapping[str, Any]) -> ItemKey:
    """What a row's item shows in the day view of its first day: its title and time line (in any language)."""
    occurrence = Occurrence(dict(row), row["start_ts"], row["end_ts"])
    return row["title"], frozenset(item_time_text(occurrence, _start(row).date(), TODAY, UTC, True, language)
                                   for language in LANGUAGES)


def _key_of(title: str, time: str, keys: Iterable[ItemKey]) -> ItemKey | None:
    """The one of ``keys`` that an item showing ``title`` and ``time`` is, if any."""
    return next((key for key in keys if key[0] == title and time in key[1]), None)


def _unselected_item(keys: Sequence[ItemKey]) -> Callable[[Sequence[UIElement]], UIElement | None]:
    """What finds the first day-view item on screen showing one of ``keys`` (a multiset) that is not selected while
    fewer items of its key are selected on screen than ``keys`` holds; ``None`` when none is on screen."""
    def find(elements: Sequence[UIElement]) -> UIElement | None:
        items, wanted = _day_items(elements), Counter(keys)
        shown = [(holder, _key_of(title, time, keys)) for holder, title, time in items]
        wanted.subtract(key for holder, key in shown if holder.is_selected and key is not None)
        return next((holder for holder, key in shown if not holder.is_selected and key is not None and wanted[key] > 0),
                    None)
    return find


def _select(find: Callable[[Sequence[UIElement]], UIElement | None], press: bool) -> list[OracleStep]:
    """Scroll the day view until the item ``find`` picks is shown (``scroll_until``: never one cut at the list's
    edge), then long-press it (``press``: to start the action mode) or tap it."""
    def step(elements: Sequence[UIElement]) -> Action:
        holder = find(elements)
        if holder is None:
            raise OracleError("no day-view item to select is on screen")
        if press:
            x, y = holder.bbox_pixels.center
            return Action(ActionType.LONG_PRESS, x=x, y=y)
        return Action(ActionType.CLICK, index=holder.index)
    return [*scroll_until(find, DAY_EVENTS, "a day-view item to select", max_scrolls=10), step]


def _item_holder(elements: Sequence[UIElement], key: ItemKey) -> UIElement | None:
    """The day-view item showing ``key``, if one is on screen."""
    return next((holder for holder, title, time in _day_items(elements) if _key_of(title, time, [key])), None)


def _open_item(key: ItemKey) -> OracleStep:
    """Tap the day-view item showing ``key`` (``_scroll_to_item`` brought it on screen)."""
    return tap_found(lambda elements: _item_holder(elements, key), f"the day-view item {key} is not on screen")


def _scroll_to_item(key: ItemKey) -> list[OracleStep]:
    """Scroll the day view down until the item showing ``key`` is shown, then check that it is."""
    return scroll_until(lambda elements: _item_holder(elements, key), DAY_EVENTS, f"the day-view item {key}",
                        max_scrolls=10)


def delete_events_steps(targets: Sequence[Mapping[str, Any]]) -> list[OracleStep]:
    """From the home screen: open the targets' day, long-press one, tap the others (each scrolled to first),
    delete, confirm."""
    find = _unselected_item([item_key(row) for row in targets])
    steps = [open_app(APP_NAME), *open_day(_start(targets[0]).date())]
    for number in range(len(targets)):
        steps += _select(find, press=number == 0)
    return [*steps, tap(CAB_DELETE), tap(DIALOG_POSITIVE), complete()]


def _go_to_day(previous: dt.date | None, day: dt.date) -> list[OracleStep]:
    """To ``day``'s day view: from the month view, by the right arrow from a day or two before, else back to
    the month view and through its grid."""
    if previous is None:
        return open_day(day)
    gap = (day - previous).days
    if 0 < gap <= 2:
        return [tap(NEXT)] * gap
    return [act(Action(ActionType.NAVIGATE_BACK)), *open_day(day)]


def _unless_month_grid(step: OracleStep) -> OracleStep:
    """``step`` only while the month view's grid is not on screen."""
    def guarded(elements: Sequence[UIElement]) -> Action | None:
        if any(e.resource_name == _rid("month_view_background") for e in elements):
            return None
        return step(elements)
    return guarded


#: From another stored view (the daily view or the event list): switch to the monthly view.
TO_MONTH_VIEW = (_unless_month_grid(tap(Selector(resource_id=_rid("change_view")))),
                 _unless_month_grid(tap(Selector(text="Monthly view", class_suffix="RadioButton"))))


def reveal_rows(rows: Sequence[Mapping[str, Any]]) -> list[OracleStep]:
    """From the home screen, bring each ``events`` row on screen: open the app (in its monthly view), visit the day
    view of each row's first day (in date order) and expect its item (title, time line, description); a row with a
    location is opened to show it, then closed again."""
    steps: list[OracleStep] = [open_app(APP_NAME), *TO_MONTH_VIEW]
    ordered = sorted(rows, key=lambda row: (row["start_ts"], row["end_ts"], row["title"]))
    previous = None
    for day, day_rows in groupby(ordered, key=lambda row: _start(row).date()):
        steps += _go_to_day(previous, day)
        previous = day
        for row in day_rows:
            key = item_key(row)
            steps += _scroll_to_item(key)
            if row["location"]:
                steps += [_open_item(key), expect(Selector(text=row["location"], resource_id=_rid("event_location"))),
                          act(Action(ActionType.NAVIGATE_BACK))]
    return steps


# ----- tasks --------------------------------------------------------------------------------------------------------
def reset_preferences(device: Device) -> None:
    """Drop the preferences a session changes (the view, the reminder disclaimer, the last reminders) from the
    stopped app's ``Prefs.xml``; the rest stays, ``display_event_types`` above all: without it the app shows no
    events. A file without them is left as it is (most resets: the last set-up dropped them, and the episode's
    changes were rewound)."""
    try:
        root = ElementTree.fromstring(device.pull(PREFS_PATH))
    except (RemoteFileNotFoundError, ElementTree.ParseError):
        return
    dropped = [element for element in root if element.get("name") in SESSION_PREFERENCES]
    if not dropped:
        return
    for element in dropped:
        root.remove(element)
    device.push(_XML_DECLARATION + ElementTree.tostring(root, encoding="utf-8"), PREFS_PATH)


class _CalendarTask(SqliteRowsTask):
    """The ``events`` table emptied and the app's preferences as after install; the table emptied again at the
    end (``SQLiteApp.tear_down``)."""

    app_packages = (PACKAGE,)
    table = EVENTS
    empties_at_teardown = True
    extras_leave_apps_stopped = True  # ``clear_extras`` pulls and pushes the stopped app's preferences

    def clear_extras(self, device: Device) -> None:
        """The preferences a session changes back to their defaults (AndroidWorld restores the app's data
        snapshot)."""
        reset_preferences(device)


def _date_params(event: Row) -> dict[str, Any]:
    """The goal's date and event fields of AndroidWorld's ``generate_random_params``."""
    start = _start(event)
    return {"year": TODAY.year, "month": TODAY.month, "day": start.day, "hour": start.hour,
            "duration_mins": (event["end_ts"] - event["start_ts"]) // 60, "event_title": event["title"],
            "event_description": event["description"]}


class _AddEventTask(_CalendarTask):
    """``SimpleCalendarAddOneEvent`` and its variants: add one event (``params["event"]``) among 0–20 noise
    events."""

    complexity = 3.4
    #: The target's days (``create_random_october_2023_unix_ts``'s range).
    days: ClassVar[tuple[int, int]] = (TODAY.day, 31)

    @classmethod
    def target(cls, rng: np.random.Generator) -> Row:
        """``_get_random_target_row``."""
        return random_event(rng, random_october_ts(rng, *cls.days))

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """The target event and noise events with other titles."""
        event = cls.target(rng)
        noise = noise_events(rng, int(rng.integers(0, 21)), lambda c: c["title"] != event["title"])
        return {**_date_params(event), "day_of_week": f"{_start(event):%A}", "event": event, "noise": noise}

    def initial_rows(self) -> list[Row]:
        """The noise events."""
        return list(self.params["noise"])

    def is_successful(self, device: Device) -> float:
        """1.0 when exactly the target was added and nothing else changed."""
        added = rows_added_exactly(self.before, EVENTS.rows(device), [self.params["event"]], "id", event_matches)
        return 1.0 if added else 0.0

    def oracle(self) -> Sequence[OracleStep]:
        """Create the event from its day's view."""
        return add_event_steps(self.params["event"])


@register_task
class SimpleCalendarAddOneEvent(_AddEventTask):
    """Add an event on an absolute date."""

    name = "SimpleCalendarAddOneEvent"
    template = ("In Simple Calendar Pro, create a calendar event on {year}-{month}-{day} at {hour}h with the title "
                "'{event_title}' and the description '{event_description}'. The event should last for "
                "{duration_mins} mins.")


@register_task
class SimpleCalendarAddOneEventRelativeDay(_AddEventTask):
    """Add an event on "this <weekday>" (Monday 16th to Saturday 21st)."""

    name = "SimpleCalendarAddOneEventRelativeDay"
    days = (TODAY.day + 1, TODAY.day + 6)
    template = ("In Simple Calendar Pro, create a calendar event for this {day_of_week} at {hour}h with the title "
                "'{event_title}' and the description '{event_description}'. The event should last for "
                "{duration_mins} mins.")


@register_task
class SimpleCalendarAddOneEventTomorrow(_AddEventTask):
    """Add an event tomorrow."""

    name = "SimpleCalendarAddOneEventTomorrow"
    days = (TODAY.day + 1, TODAY.day + 1)
    template = ("In Simple Calendar Pro, create a calendar event for tomorrow at {hour}h with the title "
                "'{event_title}' and the description '{event_description}'. The event should last for "
                "{duration_mins} mins.")


@register_task
class SimpleCalendarAddOneEventInTwoWeeks(_AddEventTask):
    """Add an event two weeks from today."""

    name = "SimpleCalendarAddOneEventInTwoWeeks"
    days = (TODAY.day + 14, TODAY.day + 14)
    template = ("In Simple Calendar Pro, create a calendar event in two weeks from today at {hour}h with the title "
                "'{event_title}' and the description '{event_description}'. The event should last for "
                "{duration_mins} mins.")


@register_task
class SimpleCalendarAddRepeatingEvent(_AddEventTask):
    """Add an event repeating daily or weekly (on its weekday), forever."""

    name = "SimpleCalendarAddRepeatingEvent"
    template = ("In Simple Calendar Pro, create a recurring calendar event titled '{event_title}' starting on "
                "{year}-{month}-{day} at {hour}h. The event recurs {repeat_rule}, forever, and lasts for "
                "{duration_mins} minutes each occurrence. The event description should be '{event_description}'.")

    @classmethod
    def target(cls, rng: np.random.Generator) -> Row:
        """A target with a daily or weekly repetition (``generate_simple_calendar_weekly_repeat_rule``)."""
        event = super().target(rng)
        repeat = list(REPEATS)[int(rng.integers(len(REPEATS)))]
        rule = weekday_bit(_start(event).date()) if repeat == "weekly" else 0
        return {**event, "repeat_interval": REPEATS[repeat], "repeat_rule": rule}

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """Also the goal's ``repeat_rule`` ("daily" or "weekly")."""
        params = super().generate_params(rng)
        names = {seconds: name for name, seconds in REPEATS.items()}
        return {**params, "repeat_rule": names[params["event"]["repeat_interval"]]}


class _DeleteEventsTask(_CalendarTask):
    """``SimpleCalendarDeleteEvents`` and its variants: delete the targets (inserted after 20 noise events)."""

    n_rows: ClassVar[int] = 3
    n_rows_noise: ClassVar[int] = 20
    #: The days the target day is drawn from.
    days: ClassVar[tuple[int, int]] = (TODAY.day, 31)

    @classmethod
    def targets(cls, rng: np.random.Generator) -> list[Row]:
        """``n_rows`` events on one day."""
        day = _start(random_event(rng, random_october_ts(rng, *cls.days))).day
        return [random_event(rng, random_october_ts(rng, day, day)) for _ in range(cls.n_rows)]

    @classmethod
    def keep_noise(cls, targets: list[Row]) -> Callable[[Row], bool]:
        """Noise on other days than the targets'."""
        days = {_start(row).day for row in targets}
        return lambda candidate: _start(candidate).day not in days

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """The targets, their day and the noise."""
        targets = cls.targets(rng)
        noise = noise_events(rng, cls.n_rows_noise, cls.keep_noise(targets))
        day = _start(targets[0])
        return {"year": TODAY.year, "month": TODAY.month, "day": day.day, "day_of_week": f"{day:%A}",
                "targets": targets, "noise": noise}

    def initial_rows(self) -> list[Row]:
        """The noise, then the targets (so theirs are the last ids)."""
        return [*self.params["noise"], *self.params["targets"]]

    def is_successful(self, device: Device) -> float:
        """1.0 when exactly the targets are gone and nothing else changed."""
        removed = [row["id"] for row in self.before[len(self.before) - len(self.params["targets"]):]]
        return 1.0 if rows_removed_exactly(self.before, EVENTS.rows(device), removed, "id") else 0.0

    def oracle(self) -> Sequence[OracleStep]:
        """Select the targets in their day's view and delete them."""
        return delete_events_steps(self.params["targets"])


@register_task
class SimpleCalendarDeleteEvents(_DeleteEventsTask):
    """Delete the three events of a date."""

    name = "SimpleCalendarDeleteEvents"
    complexity = 1.4
    template = "In Simple Calendar Pro, delete all the calendar events on {year}-{month}-{day}"


@register_task
class SimpleCalendarDeleteEventsOnRelativeDay(_DeleteEventsTask):
    """Delete the two events of "this <weekday>"."""

    name = "SimpleCalendarDeleteEventsOnRelativeDay"
    complexity = 1.2
    n_rows = 2
    days = (TODAY.day + 1, TODAY.day + 6)
    template = "In Simple Calendar Pro, delete all events scheduled for this {day_of_week}."


@register_task
class SimpleCalendarDeleteOneEvent(_DeleteEventsTask):
    """Delete one event named by date, hour and title."""

    name = "SimpleCalendarDeleteOneEvent"
    complexity = 1.2
    n_rows = 1
    template = ("In Simple Calendar Pro, delete the calendar event on {year}-{month}-{day} at {hour}h with the title "
                "'{event_title}'")

    @classmethod
    def targets(cls, rng: np.random.Generator) -> list[Row]:
        """One event from the 15th on."""
        return [random_event(rng, random_october_ts(rng, *cls.days))]

    @classmethod
    def keep_noise(cls, targets: list[Row]) -> Callable[[Row], bool]:
        """Noise at another time and with another title than the target."""
        target = targets[0]
        return lambda c: c["start_ts"] != target["start_ts"] and c["title"] != target["title"]

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """Also the target's hour, title and description for the goal."""
        params = super().generate_params(rng)
        return {**params, **_date_params(params["targets"][0])}

    def oracle(self) -> Sequence[OracleStep]:
        """Open the event from its day's view and delete it there."""
        key = item_key(self.params["targets"][0])
        return [open_app(APP_NAME), *open_day(_start(self.params["targets"][0]).date()), *_scroll_to_item(key),
                _open_item(key), tap(DELETE), tap(DIALOG_POSITIVE), complete()]
