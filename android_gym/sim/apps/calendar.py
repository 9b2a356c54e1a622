"""Simple Calendar Pro 6.22.2 (versionCode 238, the build AndroidWorld installs).

Facts come from github.com/SimpleMobileTools/Simple-Calendar at ``d7fa01958`` ("update version to 6.22.2") and
Simple-Commons at the commit it pins (``71d66584bd``): ``activity_main.xml`` (``calendar_fab``,
``fab_event_label``, ``fab_task_icon``, ``fab_task_label``, ``search_holder``), ``top_navigation.xml``
(``top_left_arrow``, ``top_value``, ``top_right_arrow``), ``month_view_background.xml``, ``fragment_day.xml``
(``day_events``), ``fragment_event_list.xml``, ``event_list_item.xml``, ``event_list_section_*.xml``,
``activity_event.xml``, ``menu_main.xml``, ``menu_event.xml``, ``cab_day.xml``, ``dialog_delete_event.xml``,
``dialog_reminder_warning.xml``, ``res/values/strings.xml``; Commons ``menu_search.xml``, ``actionbar_title.xml``,
``dialog_radio_group.xml``, ``strings.xml``. Behaviour follows ``MainActivity``, ``MonthFragment``,
``MonthlyCalendarImpl``, ``DayFragment``, ``DayEventsAdapter``, ``EventListFragment``, ``EventListAdapter``,
``EventActivity``, ``EventsHelper``, ``Formatter``, ``Config`` and Commons' ``MyRecyclerViewAdapter`` (action mode,
"1 / 3" title that selects all). The schema is Room's (version 8, exported ``8.json``, identity hash included).

Pickers: ``EventActivity`` opens the framework ``DatePickerDialog`` (calendar mode; its ``SimpleMonthView`` days
are virtual a11y nodes with text "15" and description "15 October 2023") and, with the system theme that API 33
defaults to, Material 1.9's ``MaterialTimePicker`` in clock mode and the phone's 12- or 24-hour format
(``framework.time_picker``): tapping an hour moves on to the minutes (5-minute steps); the keyboard-mode button
switches to two text fields for any minute.

State: ``databases/events.db`` (WAL) read on every build, so rows written from outside show up at once; the app's
``shared_prefs/Prefs.xml`` holds the chosen view, the reminder warning flag and the last used reminders, as
Commons' ``BaseConfig``/the app's ``Config`` keep them. The month view draws day numbers and event titles on its
canvas (``MonthView``), so the accessibility tree has only the unlabelled ``month_view_background`` cells, as on a
phone. The month and day fragments sit in a ``MyViewPager`` (``fragment_months_holder.xml``,
``fragment_days_holder.xml``; ``MonthFragmentsHolder``, ``DayFragmentsHolder``) that a horizontal fling turns like
the arrows. Not simulated: weekly, yearly and "monthly and daily" views, the overflow menu (go to date, settings,
import/export, ...), the go-to-date dialog, tasks, event types and colours, reminder and availability pickers, repeat
limits, attendees, time zones, CalDAV, sharing, duplicating, the date picker's year list, the "edit repeating event"
choice (an edit applies to every occurrence) and toasts.
"""

from __future__ import annotations

import calendar as _calendar
import datetime as dt
import hashlib
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any
from zoneinfo import ZoneInfo

from android_gym import locales
from android_gym.sim.apps.commons import (
    ACTIVATED_ITEM,
    DAY_COLORS,
    DIALOG_BACKGROUND,
    NAVIGATION_BAR_COLOR,
    NIGHT_COLORS,
    PRIMARY,
    SEARCH_BACKGROUND,
    UNCHECKED,
    Release,
    SearchMenuScreen,
    contextual_bar_color,
    faded,
    my_edit_text,
    search_menu,
    start_up_dialogs,
)
from android_gym.sim.framework import day_picker, formats
from android_gym.sim.framework.app import App, Context, Screen
from android_gym.sim.framework.formats import Plural
from android_gym.sim.framework.intent import CATEGORY_DEFAULT, Intent, IntentFilter
from android_gym.sim.framework.time_picker import Theme, TimePicker, release_focus
from android_gym.sim.int32 import to_int32
from android_gym.sim.system.clock import MINUTE_MS
from android_gym.sim.system.prefs import SharedPreferences
from android_gym.sim.system.provider import SqliteProvider
from android_gym.sim.ui.dialogs import alert_dialog, dialog_button, dialog_over
from android_gym.sim.ui.layout import line_height, text_width
from android_gym.sim.ui.views import (
    LAYOUT_ONLY,
    TEXT,
    WHITE,
    Callback,
    Color,
    View,
    check_box,
    column,
    divider,
    does_nothing,
    edit_text,
    fab,
    group,
    image_button,
    row,
    scroll_list,
    text_view,
)

PACKAGE = "com.simplemobiletools.calendar.pro"
DB_PATH = f"/data/data/{PACKAGE}/databases/events.db"
PREFS_PATH = f"/data/data/{PACKAGE}/shared_prefs/Prefs.xml"  # Commons PREFS_KEY = "Prefs"
#: The newest of ``MainActivity.checkWhatsNewDialog``'s releases (``res/values/strings.xml`` ``release_155``,
#: ``release_167``).
RELEASES = (Release(155, "Allow customizing the bottom navigation bar color"),
            Release(167, "Added time zone support (customization has to be enabled in the app settings)"))

# helpers/Constants.kt
DAY, WEEK, MONTH, YEAR = 86400, 604800, 2592001, 31536000
FLAG_ALL_DAY = 1
REMINDER_OFF = -1
REPEAT_SAME_DAY, REPEAT_ORDER_WEEKDAY_USE_LAST, REPEAT_LAST_DAY, REPEAT_ORDER_WEEKDAY = 1, 2, 3, 4
EVERY_DAY_BIT = 127
SOURCE_SIMPLE_CALENDAR, SOURCE_IMPORTED_ICS = "simple-calendar", "imported-ics"
REGULAR_EVENT_TYPE_ID = 1
MONTHLY_VIEW, EVENTS_LIST_VIEW, DAILY_VIEW = 1, 3, 5
MIN_EVENTS_THRESHOLD = 30
FETCH_INTERVAL = 3 * MONTH
SAVE_DISCARD_PROMPT_INTERVAL_MS = 1000  # Commons SAVE_DISCARD_PROMPT_INTERVAL
# Intent extras
EVENT_ID, EVENT_OCCURRENCE_TS, NEW_EVENT_START_TS = "event_id", "event_occurrence_ts", "new_event_start_ts"

# res/values/strings.xml of the app, then of Simple-Commons.
APP_LAUNCHER_NAME = "Calendar"
NEW_EVENT, EDIT_EVENT = "New Event", "Edit Event"
TITLE, LOCATION, DESCRIPTION, ALL_DAY = "Title", "Location", "Description", "All-day"
REGULAR_EVENT = "Regular event"
EVENT_LABEL, TASK_LABEL = "Event", "Task"
REPETITIONS = {0: "No repetition", DAY: "Daily", WEEK: "Weekly", MONTH: "Monthly", YEAR: "Yearly"}
REPEAT, REPEAT_ON, FOREVER, EVERY_DAY, THE_SAME_DAY = "Repeat", "Repeat on", "Forever", "Every day", "The same day"
STATUS_BUSY, EVENT_COLOR = "Busy", "Event color"
SAVE_BEFORE_CLOSING = "You have unsaved changes. Save before exit?"
PROCEED_WITH_DELETION = "Are you sure you want to proceed with the deletion?"
EVENT_IS_REPEATABLE = "The event is repeatable"
DELETE_OPTIONS = ("Delete the selected occurrence only", "Delete this and all future occurrences",
                  "Delete all occurrences")
DISCLAIMER = "Disclaimer"
REMINDER_WARNING = ("Please make sure the reminders work properly before relying on them. Check your device battery "
                    "and notification settings, if there is nothing blocking the reminders, or killing the app in "
                    "the background.")
VIEW_NAMES = {DAILY_VIEW: "Daily view", MONTHLY_VIEW: "Monthly view", EVENTS_LIST_VIEW: "Simple event list"}
CHANGE_VIEW, GO_TO_TODAY = "Change view", "Go to today"
NO_UPCOMING_EVENTS, CREATE_NEW_EVENT = "No upcoming events.", "Create a new event"
EVERYTHING_FILTERED_OUT = "You have filtered out all event types"
SEARCH, NO_ITEMS_FOUND = "Search", "No items found."
TYPE_2_CHARACTERS = "Type in at least 2 characters to start the search."
OK, CANCEL, YES, NO, SAVE, DISCARD, DELETE, SHARE, SETTINGS = (
    "OK", "Cancel", "Yes", "No", "Save", "Discard", "Delete", "Share", "Settings")
BACK, DONE, NO_REMINDER, AT_START = "Back", "Done", "No reminder", "At start"
ADD_ANOTHER_REMINDER = "Add another reminder"
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")
WEEK_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
# Commons week_day_letters and week_days_short, Monday first; a letter is named by its resource ("T" is two days).
WEEK_DAY_LETTERS = tuple(locales.Named(letter, f"{day.lower()}_letter") for letter, day in zip("MTWTFSS", WEEK_DAYS))
WEEK_DAYS_SHORT = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
# Commons plurals: getFormattedMinutes' *_before by unit (in minutes), getRepetitionText's by unit.
MINUTES_BEFORE = ((7 * 24 * 60, Plural("weeks_before", "{} week before", "{} weeks before")),
                  (24 * 60, Plural("days_before", "{} day before", "{} days before")),
                  (60, Plural("hours_before", "{} hour before", "{} hours before")),
                  (1, Plural("minutes_before", "{} minute before", "{} minutes before")))
DAYS = Plural("days", "{} day", "{} days")
REPEAT_EVERY = ((YEAR, Plural("years", "{} year", "{} years")), (MONTH, Plural("months", "{} month", "{} months")),
                (WEEK, Plural("weeks", "{} week", "{} weeks")))

#: Room's tables (exported schema ``8.json``), the Android metadata table and Room's identity hash.
SCHEMA = (
    "CREATE TABLE android_metadata (locale TEXT)",
    "INSERT INTO android_metadata VALUES ('en_US')",
    "CREATE TABLE IF NOT EXISTS `events` (`id` INTEGER PRIMARY KEY AUTOINCREMENT, `start_ts` INTEGER NOT NULL, "
    "`end_ts` INTEGER NOT NULL, `title` TEXT NOT NULL, `location` TEXT NOT NULL, `description` TEXT NOT NULL, "
    "`reminder_1_minutes` INTEGER NOT NULL, `reminder_2_minutes` INTEGER NOT NULL, `reminder_3_minutes` INTEGER "
    "NOT NULL, `reminder_1_type` INTEGER NOT NULL, `reminder_2_type` INTEGER NOT NULL, `reminder_3_type` INTEGER "
    "NOT NULL, `repeat_interval` INTEGER NOT NULL, `repeat_rule` INTEGER NOT NULL, `repeat_limit` INTEGER NOT NULL, "
    "`repetition_exceptions` TEXT NOT NULL, `attendees` TEXT NOT NULL, `import_id` TEXT NOT NULL, `time_zone` TEXT "
    "NOT NULL, `flags` INTEGER NOT NULL, `event_type` INTEGER NOT NULL, `parent_id` INTEGER NOT NULL, "
    "`last_updated` INTEGER NOT NULL, `source` TEXT NOT NULL, `availability` INTEGER NOT NULL, `color` INTEGER "
    "NOT NULL, `type` INTEGER NOT NULL)",
    "CREATE UNIQUE INDEX IF NOT EXISTS `index_events_id` ON `events` (`id`)",
    "CREATE TABLE IF NOT EXISTS `event_types` (`id` INTEGER PRIMARY KEY AUTOINCREMENT, `title` TEXT NOT NULL, "
    "`color` INTEGER NOT NULL, `caldav_calendar_id` INTEGER NOT NULL, `caldav_display_name` TEXT NOT NULL, "
    "`caldav_email` TEXT NOT NULL, `type` INTEGER NOT NULL)",
    "CREATE UNIQUE INDEX IF NOT EXISTS `index_event_types_id` ON `event_types` (`id`)",
    "CREATE TABLE IF NOT EXISTS `widgets` (`id` INTEGER PRIMARY KEY AUTOINCREMENT, `widget_id` INTEGER NOT NULL, "
    "`period` INTEGER NOT NULL)",
    "CREATE UNIQUE INDEX IF NOT EXISTS `index_widgets_widget_id` ON `widgets` (`widget_id`)",
    "CREATE TABLE IF NOT EXISTS `tasks` (`id` INTEGER PRIMARY KEY AUTOINCREMENT, `task_id` INTEGER NOT NULL, "
    "`start_ts` INTEGER NOT NULL, `flags` INTEGER NOT NULL)",
    "CREATE UNIQUE INDEX IF NOT EXISTS `index_tasks_id_task_id` ON `tasks` (`id`, `task_id`)",
    "CREATE TABLE IF NOT EXISTS room_master_table (id INTEGER PRIMARY KEY,identity_hash TEXT)",
    "INSERT OR REPLACE INTO room_master_table (id,identity_hash) VALUES(42, '1d5b2fddcb258e43f2935820863057a9')",
    "PRAGMA user_version = 8",
)
#: The regular event type's colour (``EventsDatabase``: ``getProperPrimaryColor()`` when the database is made), as a
#: signed ARGB int: what its events are drawn in.
DEFAULT_PRIMARY_COLOR = to_int32(0xFF << 24 | PRIMARY[0] << 16 | PRIMARY[1] << 8 | PRIMARY[2])

_NORMAL, _BIG, _DAY_TEXT, _MONTH_TEXT, _CELL_TEXT = 37, 42, 45, 58, 28  # 14sp, 16sp, 17sp, 22sp, 11sp at 420 dpi
_LETTERS_HEIGHT = 2 * _NORMAL  # MonthViewWrapper's weekDaysLetterHeight: twice normal_text_size
_CHIP_BG = SEARCH_BACKGROUND  # the primary colour at low alpha
#: An event's card (event_list_item.xml): section_holder_stroke, a 1 dp stroke of light_grey_stroke (#40FFFFFF)
#: that DayEventsAdapter tints with the text colour, rounded by activity_margin; its colour bar event_color_bar_width
#: 16 dp wide, rounded at its start (event_list_color_bar).
_CARD_STROKE, _STROKE, _CARD_CORNER, _BAR_WIDTH = faded(0.25), 3, 42, 42
_START_CORNERS = (True, False, False, True)
#: A selected card: selector_rounded's activated_item_foreground_rounded over it.
_SELECTED_BG = ACTIVATED_ITEM
#: MonthView.getTextPaint: a day of another month in the text colour at MEDIUM_ALPHA (0.5) over the window.
_OTHER_MONTH_INK = faded(0.5)
#: The placeholders of the event list and the search (``fragment_event_list.xml``, ``activity_main.xml``:
#: ``android:alpha="0.8"``) and an unset second reminder's "Add another reminder" (``updateReminder2Text``: 0.4).
_PLACEHOLDER_INK, _UNSET_REMINDER_INK = faded(0.8), faded(0.4)
_PAGES_EACH_SIDE = 251 // 2  # MonthFragmentsHolder.PREFILLED_MONTHS, DayFragmentsHolder.PREFILLED_DAYS
_ICON = 126
_SUNDAY = 6  # Python's weekday number


def _id(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


def _android_id(name: str) -> str:
    return f"android:id/{name}"


# ----- events: rows, encodings, occurrences -----------------------------------------------------------------------
def event_row(title: str, start: dt.datetime, end: dt.datetime | None = None, *, duration_mins: int | None = None,
              location: str = "", description: str = "", all_day: bool = False, repeat_interval: int = 0,
              repeat_rule: int = 0, repeat_limit: int = 0, source: str = SOURCE_IMPORTED_ICS,
              reminders: Sequence[int] = (REMINDER_OFF, REMINDER_OFF, REMINDER_OFF), time_zone: str = "UTC",
              last_updated: int = 0, import_id: str = "") -> dict[str, Any]:
    """A full ``events`` row (every column but ``id``) as the app stores an event (``models/Event.kt``).

    ``start``/``end`` are wall-clock times in ``time_zone`` (naive, or aware in any zone); ``end`` defaults to
    ``start`` plus ``duration_mins`` (else ``start``). An all-day event runs from local midnight of its first day to
    12:00 of its last day with ``flags`` bit 1 (``EventActivity.getStartEndTimes``). The defaults are those of
    AndroidWorld's inserted rows (``CalendarEvent``: source "imported-ics", reminders off); the app's own saves pass
    ``source="simple-calendar"``, its reminders, ``last_updated`` and an ``import_id``.
    """
    zone = ZoneInfo(time_zone)
    start = _local(start, zone)
    end = _local(end, zone) if end is not None else start + dt.timedelta(minutes=duration_mins or 0)
    if all_day:
        start = dt.datetime.combine(start.date(), dt.time())
        end = dt.datetime.combine(end.date(), dt.time(12))
    first, second, third = (list(reminders) + [REMINDER_OFF] * 3)[:3]
    return {
        "start_ts": _ts(start, zone), "end_ts": _ts(end, zone), "title": title, "location": location,
        "description": description, "reminder_1_minutes": first, "reminder_2_minutes": second,
        "reminder_3_minutes": third, "reminder_1_type": 0, "reminder_2_type": 0, "reminder_3_type": 0,
        "repeat_interval": repeat_interval, "repeat_rule": repeat_rule,
        "repeat_limit": repeat_limit if repeat_interval else 0, "repetition_exceptions": "[]", "attendees": "",
        "import_id": import_id, "time_zone": time_zone, "flags": FLAG_ALL_DAY if all_day else 0,
        "event_type": REGULAR_EVENT_TYPE_ID, "parent_id": 0, "last_updated": last_updated, "source": source,
        "availability": 0, "color": 0, "type": 0,
    }


def utc_event_row(title: str, start_ts: int, duration_mins: int, description: str = "") -> dict[str, Any]:
    """``event_row(title, <start_ts in UTC>, duration_mins=duration_mins, description=description)`` made from the
    timestamp without datetimes (UTC has no offset to apply): the row of an AndroidWorld generated event."""
    return {**_UTC_EVENT, "start_ts": start_ts, "end_ts": start_ts + 60 * duration_mins, "title": title,
            "description": description}


def _local(when: dt.datetime, zone: ZoneInfo) -> dt.datetime:
    """``when`` as a naive wall-clock time in ``zone``."""
    return when.astimezone(zone).replace(tzinfo=None) if when.tzinfo is not None else when


#: ``Event``'s ``Int`` fields: Room reads them with ``Cursor.getInt``, whose ``CursorWindow.getInt`` casts the stored
#: 64-bit value to ``int`` (a repeat interval of a million years, 31536000000000 s, reads as -1944854528).
_INT_COLUMNS = frozenset({"reminder_1_minutes", "reminder_2_minutes", "reminder_3_minutes", "reminder_1_type",
                          "reminder_2_type", "reminder_3_type", "repeat_interval", "repeat_rule", "flags",
                          "availability", "color", "type"})


def _ts(local: dt.datetime, zone: ZoneInfo) -> int:
    return int(local.replace(tzinfo=zone).timestamp())


_UTC_EVENT = event_row("", dt.datetime(1970, 1, 1))  # utc_event_row's other columns, in event_row's order


def weekday_bit(day: dt.date) -> int:
    """The weekly ``repeat_rule`` bit of ``day``'s weekday (Monday 1 … Sunday 64)."""
    return 1 << day.weekday()


@dataclass(frozen=True)
class Occurrence:
    """One occurrence of an event: its row and the occurrence's start and end (seconds)."""

    event: dict[str, Any]
    start_ts: int
    end_ts: int

    @property
    def id(self) -> int:
        """The event's id."""
        return self.event["id"]

    @property
    def all_day(self) -> bool:
        """Whether the event is all-day."""
        return bool(self.event["flags"] & FLAG_ALL_DAY)

    @property
    def key(self) -> tuple[int, int]:
        """What the lists select by (``ListEvent.hashCode``: id and occurrence start)."""
        return self.id, self.start_ts


def _exceptions(raw: str) -> set[str]:
    """Day codes in ``repetition_exceptions`` (Gson's ``[]`` or Kotlin's ``[20231015, 20231016]``)."""
    return {part.strip().strip('"') for part in raw.strip("[]").split(",") if part.strip()}


def _add_months(day: dt.date, months: int, rule: int, original: dt.date) -> dt.date | None:
    """``Event.addMonthsWithSameDay``/``addXthDayInterval``: the date ``months`` after ``original`` (``None`` when
    that month has no such day)."""
    year, month = divmod(original.month - 1 + months, 12)
    year, month = original.year + year, month + 1
    last = _calendar.monthrange(year, month)[1]
    if rule == REPEAT_LAST_DAY:
        return dt.date(year, month, last)
    if rule in (REPEAT_ORDER_WEEKDAY, REPEAT_ORDER_WEEKDAY_USE_LAST):
        order = (original.day - 1) // 7
        first = dt.date(year, month, 1)
        offset = (original.weekday() - first.weekday()) % 7
        candidate = 1 + offset + 7 * order
        if rule == REPEAT_ORDER_WEEKDAY_USE_LAST and original.month != (original + dt.timedelta(days=7)).month:
            while candidate + 7 <= last:
                candidate += 7
        return dt.date(year, month, candidate) if candidate <= last else None
    return dt.date(year, month, original.day) if original.day <= last else None


def plus_months(day: dt.date, months: int) -> dt.date:
    """Joda ``plusMonths``: the same day ``months`` later, clamped to the end of a shorter month."""
    year, month = divmod(day.month - 1 + months, 12)
    year, month = day.year + year, month + 1
    return dt.date(year, month, min(day.day, _calendar.monthrange(year, month)[1]))


def moves_back(interval: int) -> bool:
    """Whether ``Event.addIntervalTime`` steps a ``repeat_interval`` back in time: a negative one (a Java int that
    overflowed) of years, months or seconds; weekly ones step a day forward."""
    return interval < 0 and (interval % YEAR == 0 or interval % MONTH == 0 or interval % WEEK != 0)


def _occurrence_starts(event: dict[str, Any], zone: ZoneInfo) -> Iterator[int]:
    """Start times of a repeating event's occurrences, in order (``Event.addIntervalTime``), up to Python's last
    (or first) year, which no screen reaches (Joda's ``DateTime`` goes on to the year 292278993)."""
    start = dt.datetime.fromtimestamp(event["start_ts"], zone).replace(tzinfo=None)
    interval, rule = event["repeat_interval"], event["repeat_rule"]
    step = 0
    while True:
        if interval % YEAR == 0 or interval % MONTH == 0:
            yearly = interval % YEAR == 0
            months = step * (12 * (interval // YEAR) if yearly else interval // MONTH)
            if not dt.MINYEAR <= start.year + (start.month - 1 + months) // 12 <= dt.MAXYEAR:
                return
            when = _add_months(start.date(), months, REPEAT_SAME_DAY if yearly else rule, start.date())
        elif interval % WEEK == 0:
            when = start.date() + dt.timedelta(days=step)
            weeks = (when - start.date()).days // 7
            if not (rule or weekday_bit(start.date())) & weekday_bit(when) or weeks % (interval // WEEK):
                when = None
        else:
            yield event["start_ts"] + step * interval
            step += 1
            continue
        if when is not None:
            yield _ts(dt.datetime.combine(when, start.time()), zone)
        step += 1
        if step > 100_000:  # a malformed rule that never matches
            return


def occurrences(event: dict[str, Any], from_ts: int, to_ts: int, zone: ZoneInfo) -> Iterator[Occurrence]:
    """The event's occurrences that overlap ``[from_ts, to_ts]`` (``EventsHelper.getEvents``): a repeating
    event up to its ``repeat_limit`` (a time, or ``-count``) and without its exception days. Occurrences that
    step back in time (see ``moves_back``) end where they leave the range."""
    duration = event["end_ts"] - event["start_ts"]
    if not event["repeat_interval"]:
        if event["start_ts"] <= to_ts and event["end_ts"] >= from_ts:
            yield Occurrence(event, event["start_ts"], event["end_ts"])
        return
    skipped, limit = _exceptions(event["repetition_exceptions"] or ""), event["repeat_limit"]
    back = moves_back(event["repeat_interval"])
    for count, start in enumerate(_occurrence_starts(event, zone)):
        if start > to_ts or (limit > 0 and start > limit) or (limit < 0 and count >= -limit):
            return
        if start + duration < from_ts:
            if back:
                return
            continue
        if dt.datetime.fromtimestamp(start, zone).strftime("%Y%m%d") not in skipped:
            yield Occurrence(event, start, start + duration)


def never_ends(event: dict[str, Any], to_ts: int) -> bool:
    """Whether ``getEventsRepeatingTillDateOrForever`` loops forever on ``event``: its occurrences step back in
    time, so its start stays before ``to_ts`` (and before a ``repeat_limit`` time) for ever."""
    limit = event["repeat_limit"]
    return (moves_back(event["repeat_interval"]) and event["start_ts"] <= to_ts
            and (limit == 0 or 0 < limit >= event["start_ts"]))


def _sorted(found: list[Occurrence]) -> list[Occurrence]:
    """``DayFragment``'s order: all-day first, then start, end, title, description."""
    return sorted(found, key=lambda o: (not o.all_day, o.start_ts, o.end_ts, o.event["title"],
                                        o.event["description"]))


# ----- storage ------------------------------------------------------------------------------------------------------
class EventsDatabase(SqliteProvider):
    """``EventsDatabase`` (Room 8, WAL): created with the "Regular event" type, as Room's ``onCreate`` callback
    inserts it on first use."""

    db_path = DB_PATH
    schema = SCHEMA
    journal_mode = "WAL"

    def on_create(self, db: sqlite3.Connection) -> None:
        """``insertRegularEventType``: event type 1 "Regular event"."""
        db.execute("INSERT INTO event_types (id, title, color, caldav_calendar_id, caldav_display_name, caldav_email, "
                   "type) VALUES (?, ?, ?, 0, '', '', 0)",
                   (REGULAR_EVENT_TYPE_ID, REGULAR_EVENT, DEFAULT_PRIMARY_COLOR))

    def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        """Rows of ``events`` as Room's ``Event`` holds them: its ``Int`` columns as Java ints."""
        with self.reading() as db:
            return [{name: to_int32(value) if name in _INT_COLUMNS else value for name, value in dict(found).items()}
                    for found in db.execute(sql, tuple(params))]

    def event(self, event_id: int) -> dict[str, Any] | None:
        """The event with ``event_id``."""
        found = self._rows("SELECT * FROM events WHERE id = ?", (event_id,))
        return found[0] if found else None

    def between(self, from_ts: int, to_ts: int, zone: ZoneInfo, types: Sequence[int], query: str = "") -> list[
            Occurrence]:
        """Occurrences of events (not tasks) of the event ``types`` overlapping the range, whose title, location or
        description contain ``query`` (``EventsDao``'s one-time and repeatable queries)."""
        like, marks = f"%{query}%", ", ".join("?" * len(types))
        rows = self._rows("SELECT * FROM events WHERE type = 0 AND start_ts != 0 AND start_ts <= ? AND "
                          f"(repeat_interval != 0 OR end_ts >= ?) AND event_type IN ({marks}) AND (title LIKE ? OR "
                          "location LIKE ? OR description LIKE ?)", (to_ts, from_ts, *types, like, like, like))
        if any(never_ends(event, to_ts) for event in rows):
            return []  # getEventsSync's background loop never calls back: the screen gets no events
        return [found for event in rows for found in occurrences(event, from_ts, to_ts, zone)]

    def insert(self, values: dict[str, Any]) -> int:
        """``EventsDao.insertOrUpdate`` of a new event; its id."""
        with self._transaction() as db:
            cursor = db.execute(f"INSERT INTO events ({', '.join(values)}) VALUES ({', '.join('?' * len(values))})",
                                tuple(values.values()))
            return int(cursor.lastrowid or 0)

    def update(self, event_id: int, values: dict[str, Any]) -> None:
        """Write ``values`` into the event's row."""
        with self._transaction() as db:
            db.execute(f"UPDATE events SET {', '.join(f'{name} = ?' for name in values)} WHERE id = ?",
                       (*values.values(), event_id))

    def delete(self, ids: Sequence[int]) -> None:
        """``EventsHelper.deleteEvents``: the events and, recursively, their child events."""
        with self._transaction() as db:
            pending = list(ids)
            while pending:
                marks = ", ".join("?" * len(pending))
                db.execute(f"DELETE FROM events WHERE id IN ({marks})", pending)
                pending = [found[0] for found in db.execute(f"SELECT id FROM events WHERE parent_id IN ({marks})",
                                                            pending)]


class CalendarConfig:
    """The ``Prefs`` SharedPreferences (Commons ``BaseConfig`` and the app's ``Config``)."""

    def __init__(self, phone: Context) -> None:
        self.phone = phone
        self.prefs = SharedPreferences(phone, PREFS_PATH)

    @property
    def is_sunday_first(self) -> bool:
        """Commons ``isSundayFirst`` (key ``sunday_first``): by default whether the week of the system locale
        starts on Sunday (``Calendar.getInstance(Locale.getDefault()).firstDayOfWeek``): yes in en-US, not in
        de-DE or fr-FR."""
        return self.prefs.get("sunday_first", formats.week_order(formats.system_tag(self.phone))[0] == _SUNDAY)

    @property
    def view(self) -> int:
        """``storedView`` (key ``view``), the monthly view by default."""
        view = self.prefs.get("view", MONTHLY_VIEW)
        return view if view in VIEW_NAMES else MONTHLY_VIEW

    def set_view(self, view: int) -> None:
        """Remember the chosen view."""
        self.prefs.apply({"view": ("int", view)})

    @property
    def was_alarm_warning_shown(self) -> bool:
        """``wasAlarmWarningShown``."""
        return self.prefs.get("was_alarm_warning_shown", False)

    def set_alarm_warning_shown(self) -> None:
        """The reminder disclaimer was confirmed."""
        self.prefs.apply({"was_alarm_warning_shown": ("boolean", True)})

    def display_event_types(self) -> list[int]:
        """``displayEventTypes``: the event types shown (none stored: every event is filtered out)."""
        return sorted(int(value) for value in self.prefs.get("display_event_types", []) if value.isdigit())

    def add_display_event_type(self, type_id: int) -> None:
        """``addDisplayEventType``."""
        shown = {str(value) for value in self.display_event_types()} | {str(type_id)}
        self.prefs.apply({"display_event_types": ("set", sorted(shown))})

    def last_reminders(self) -> list[int]:
        """``lastEventReminderMinutes1..3`` (10, off, off by default), used for new events."""
        return [self.prefs.get("reminder_minutes", 10), self.prefs.get("reminder_minutes_2", REMINDER_OFF),
                self.prefs.get("reminder_minutes_3", REMINDER_OFF)]

    def set_last_reminders(self, minutes: Sequence[int]) -> None:
        """Remember the reminders of the saved event (``usePreviousEventReminders``)."""
        keys = ("reminder_minutes", "reminder_minutes_2", "reminder_minutes_3")
        self.prefs.apply({key: ("int", value) for key, value in zip(keys, minutes)})


# ----- formatting (helpers/Formatter.kt) ------------------------------------------------------------------------------
def month_name(month: int, tag: str) -> str:
    """``getMonthName``: the app's own month name (its ``months`` array) in the locale ``tag``."""
    return locales.resource(tag, PACKAGE, MONTHS[month - 1])


def date_from_code(day: dt.date, today: dt.date, tag: str) -> str:
    """``getDateFromCode``: "October 15", with the year when it is not this year (the app's month name, then the
    day: "Oktober 15" in German)."""
    text = f"{month_name(day.month, tag)} {day.day}"
    return text if day.year == today.year else f"{text} {day.year}"


def day_title(day: dt.date, today: dt.date, tag: str, with_weekday: bool = True) -> str:
    """``getDayTitle``: "October 15 (Sun)", the weekday Joda's "EEE" in the locale ("Oktober 15 (So.)")."""
    text = date_from_code(day, today, tag)
    return f"{text} ({formats.format_pattern(day, 'EEE', tag)})" if with_weekday else text


def long_month_year(day: dt.date, today: dt.date, tag: str) -> str:
    """``getLongMonthYear``: "October", or "January 2024" in another year."""
    name = month_name(day.month, tag)
    return name if day.year == today.year else f"{name} {day.year}"


def date_day_title(day: dt.date, tag: str) -> str:
    """``getDateDayTitle`` (Joda's "d EEEE" in the locale): "15 Sunday", "15 Sonntag"."""
    return formats.format_pattern(day, "d EEEE", tag)


def time_text(when: dt.datetime, is24: bool, tag: str) -> str:
    """``Formatter.getTime`` (Joda in the locale): "HH:mm", or "hh:mm a"."""
    return formats.format_pattern(when, "HH:mm" if is24 else "hh:mm a", tag)


def reminder_text(minutes: int, tag: str) -> str:
    """Commons ``getFormattedMinutes`` for the reminder field, in the locale ``tag``."""
    if minutes == REMINDER_OFF:
        return NO_REMINDER
    if minutes == 0:
        return AT_START
    size, plural = next((size, plural) for size, plural in MINUTES_BEFORE if minutes % size == 0)
    return formats.quantity_string(plural, minutes // size, PACKAGE, tag)


def repetition_text(seconds: int, tag: str) -> str:
    """``getRepetitionText`` in the locale ``tag``."""
    if seconds in REPETITIONS:
        return REPETITIONS[seconds]
    size, plural = next(((size, plural) for size, plural in REPEAT_EVERY if seconds % size == 0), (DAY, DAYS))
    return formats.quantity_string(plural, seconds // size, PACKAGE, tag)


def week_days(sunday_first: bool) -> tuple[int, ...]:
    """The weekdays (Python's numbers, Monday 0) in the app's order: Monday first, or Sunday moved to the front
    (``moveLastItemToFront``) when ``sunday_first``."""
    return (_SUNDAY, 0, 1, 2, 3, 4, 5) if sunday_first else tuple(range(7))


def selected_days_text(mask: int, sunday_first: bool, tag: str) -> str:
    """Commons ``getSelectedDaysString`` (its ``week_days_short`` in the locale ``tag``): "Sun, Mon" (Sunday first)
    or "Mon, Sun"."""
    order = week_days(sunday_first)
    return ", ".join(locales.resource(tag, PACKAGE, WEEK_DAYS_SHORT[day]) for day in order if mask & (1 << day))


def item_time_text(occurrence: Occurrence, day: dt.date | None, today: dt.date, zone: dt.tzinfo, is24: bool,
                   tag: str) -> str:
    """The time line of an event item: ``DayEventsAdapter`` for ``day`` (a day view), else ``EventListAdapter``."""
    start = dt.datetime.fromtimestamp(occurrence.start_ts, zone).replace(tzinfo=None)
    end = dt.datetime.fromtimestamp(occurrence.end_ts, zone).replace(tzinfo=None)
    text = "All-day" if occurrence.all_day else time_text(start, is24, tag)
    if occurrence.start_ts == occurrence.end_ts:
        return text
    if day is None:
        if not occurrence.all_day:
            text += f" - {time_text(end, is24, tag)}"
        return text + (f" ({date_day_title(end.date(), tag)})" if end.date() != start.date() else "")
    start_day = f" ({day_title(start.date(), today, tag, False)})" if start.date() != day else ""
    if occurrence.all_day:
        return text + start_day + (f" - ({day_title(end.date(), today, tag, False)})" if end.date() != day else "")
    end_day = f" ({day_title(end.date(), today, tag, False)})" if end.date() != day else ""
    return f"{text}{start_day} - {time_text(end, is24, tag)}{end_day}"


def month_grid_start(month: dt.date, sunday_first: bool) -> dt.date:
    """``MonthlyCalendarImpl.getDays``: the month's first day sits at index ``dayOfWeek`` (Monday 1 … Sunday 7)
    with Sunday first, so a month starting on Sunday shows the whole week before it; at ``dayOfWeek - 1`` with
    Monday first."""
    first = month.replace(day=1)
    return first - dt.timedelta(days=first.isoweekday() - (0 if sunday_first else 1))


def new_event_start(day: dt.date, now: dt.datetime, allow_changing_day: bool) -> dt.datetime:
    """``getNewEventTimestampFromCode`` with "next full hour": ``day`` at the hour after the current one."""
    base = dt.datetime.combine(day, dt.time(now.hour))
    start = base + dt.timedelta(hours=1)
    if not allow_changing_day and start.date() != base.date():
        start -= dt.timedelta(days=1)
    return start


def _fit(text: str, size: int, width: int) -> str:
    """``text`` cut to what fits ``width`` px (a custom view's canvas clips it)."""
    while text and text_width(text, size) > width:
        text = text[:-1]
    return text


# ----- small widgets ------------------------------------------------------------------------------------------------
def _drawn(text: str, size: int, color: tuple[int, int, int] = TEXT, bold: bool = False, centered: bool = False,
           **props) -> View:
    """Text a custom view draws on its canvas: in the pixels, not in the accessibility tree; ``centered`` on its
    column (``Paint.Align.CENTER``), or from its start."""
    if centered:
        props["gravity"] = "center"
    props.setdefault("height", line_height(size) + 8)
    return View(kind="label", hint=text, text_size=size, padding=4, text_color=color, bold=bold, **props)


def _image(name: str, icon: str, on_click: Callback | None = None, content_desc: str = "", **props) -> View:
    """An ``ImageView`` (clickable when it has a listener)."""
    props.setdefault("width", _ICON)
    props.setdefault("height", _ICON)
    props.setdefault("text_color", TEXT)
    return View(kind="icon", class_name="android.widget.ImageView", resource_id=_id(name) if name else "", hint=icon,
                content_desc=content_desc, clickable=on_click is not None, focusable=on_click is not None,
                on_click=on_click, **props)


def _menu_item(name: str, title: str, icon: str, on_click: Callback, color: Color = TEXT) -> View:
    """An action-bar menu item (``ActionMenuItemView``: a Button described by the item's title)."""
    return View(kind="icon", class_name="android.widget.Button", resource_id=_id(name), content_desc=title, hint=icon,
                clickable=True, focusable=True, long_clickable=True, on_click=on_click, width=_ICON, height=_ICON,
                text_color=color)


def _line(name: str, text: str, on_click: Callback | None = None, **props) -> View:
    """A clickable ``MyTextView`` line of the event form."""
    props.setdefault("text_size", _BIG)
    props.setdefault("padding", 36)
    return text_view(text, resource_id=_id(name), clickable=on_click is not None, focusable=on_click is not None,
                     on_click=on_click, **props)


def _checkbox(text: str, checked: bool, on_click: Callback | None, **props) -> View:
    """A ``MyAppCompatCheckbox``: ``setColors`` fills a checked box in the primary colour and outlines an unchecked
    one in the text colour at 0.6."""
    return check_box(text, checked, on_click, text_size=_BIG, padding=30, button_tint=PRIMARY,
                     button_tint_off=UNCHECKED, **props)


def radio_group(items: list[tuple[str, bool, Callback]]) -> View:
    """Commons ``RadioGroupDialog``'s list: a ``RadioButton`` per item; picking one closes the dialog."""
    buttons = [View(kind="text", class_name="android.widget.RadioButton", resource_id=_id("dialog_radio_button"),
                    text=text, checkable=True, checked=checked, clickable=True, focusable=True, on_click=action,
                    text_size=_BIG, padding=42, text_color=PRIMARY if checked else TEXT)
               for text, checked, action in items]
    group = column(*buttons, resource_id=_id("dialog_radio_group"), padding=24)
    return View(kind="column", class_name="android.widget.ScrollView", resource_id=_id("dialog_radio_holder"),
                width=960, background=DIALOG_BACKGROUND, children=[group])


# ----- the framework DatePickerDialog --------------------------------------------------------------------------------
class DatePicker:
    """``DatePickerDialog`` in calendar mode: header, month pages with previous/next buttons, day cells, Cancel and
    OK, in Commons' ``MyDateTimePickerMaterialTheme`` (``getDatePickerDialogTheme`` with the system theme): on
    ``dialog_you_background``, the dialogs' surface (``DIALOG_BACKGROUND``, by day and by night), its header and the
    chosen day in ``you_primary_color``, the days and weekday letters in ``you_neutral_text_color`` (its
    ``textColorPrimary`` and ``textColorSecondary``). ``on_set`` gets the chosen date; ``on_close`` runs when the
    dialog goes away. Dates are in the locale ``tag``: the header the skeleton "EMMMd", the month title "MMMMy"
    (``DatePickerCalendarDelegate``, ``SimpleMonthView``), a day's description "d MMMM y"."""

    def __init__(self, selected: dt.date, on_set: Callable[[dt.date], None], on_close: Callback, tag: str,
                 sunday_first: bool) -> None:
        self.selected, self.tag, self.sunday_first = selected, tag, sunday_first
        self.shown = day_picker.shown_month(selected)  # the app leaves DatePicker's minDate and maxDate as they are
        self._on_set, self._on_close = on_set, on_close

    def _move(self, months: int) -> None:
        self.shown = day_picker.turned(self.shown, months)

    def _pick(self, day: dt.date) -> None:
        self.selected = day

    def _ok(self) -> None:
        self._on_close()
        self._on_set(self.selected)

    def view(self) -> View:
        """The dialog's panel."""
        header = column(text_view(str(self.selected.year), resource_id=_android_id("date_picker_header_year"),
                                  text_size=_BIG, text_color=WHITE, padding=8),
                        text_view(formats.format_skeleton(self.selected, "EMMMd", self.tag), text_color=WHITE,
                                  padding=8,
                                  resource_id=_android_id("date_picker_header_date"), text_size=84),
                        resource_id=_android_id("date_picker_header"), background=PRIMARY, padding=40)
        navigation = row(day_picker.month_button(self.shown, -1, lambda: self._move(-1)),
                         _drawn(formats.format_skeleton(self.shown, "MMMMy", self.tag), _BIG, bold=True, weight=1),
                         day_picker.month_button(self.shown, 1, lambda: self._move(1)))
        letters = row(*(_drawn(formats.weekday_name(day, self.tag, "EEEEE"), 34, TEXT, weight=1,
                               centered=True) for day in week_days(self.sunday_first)), padding=12)
        month = View(kind="column", class_name="android.view.View", resource_id=_android_id("month_view"),
                     padding=12, children=self._weeks())
        buttons = row(View(weight=1), dialog_button(CANCEL, self._on_close, _android_id("button2")),
                      dialog_button(OK, self._ok, _android_id("button1")), padding=24, spacing=12)
        return column(header, navigation, letters, month, buttons, width=960, background=DIALOG_BACKGROUND)

    def _weeks(self) -> list[View]:
        """``SimpleMonthView``: rows of seven days from the column of the first day (``firstDayOfWeek``: Sunday
        or Monday, as the app sets it)."""
        days = _calendar.monthrange(self.shown.year, self.shown.month)[1]
        offset = week_days(self.sunday_first).index(self.shown.weekday())
        cells: list[View] = [View(weight=1, height=110) for _ in range(offset)]
        for number in range(1, days + 1):
            day = self.shown.replace(day=number)
            chosen = day == self.selected
            cells.append(day_picker.day_cell(
                number, chosen, PRIMARY, TEXT, _BIG, content_desc=formats.format_pattern(day, "d MMMM y", self.tag),
                clickable=True, focusable=True, selected=chosen, checkable=True, checked=chosen, weight=1, height=110,
                on_click=lambda day=day: self._pick(day)))
        cells += [View(weight=1, height=110) for _ in range(-len(cells) % 7)]
        return [row(*cells[i:i + 7]) for i in range(0, len(cells), 7)]


# ----- the activities -------------------------------------------------------------------------------------------------
class _CalendarScreen(Screen):
    """What both activities share: the app's data, the device zone and time."""

    @property
    def calendar(self) -> SimpleCalendarPro:
        """The app and its data."""
        assert isinstance(self.app, SimpleCalendarPro)
        return self.app

    @property
    def zone(self) -> ZoneInfo:
        """``DateTimeZone.getDefault()``: the device's time zone."""
        return ZoneInfo(self.phone.props.get("persist.sys.timezone") or "UTC")

    @property
    def now(self) -> dt.datetime:
        """Device time as local wall-clock time, read at minute resolution: the app shows dates, hours and minutes,
        and its events start and end on whole minutes, so a frame built on it is stale only when the minute turns."""
        return self.phone.clock.now(MINUTE_MS).astimezone(self.zone).replace(tzinfo=None)

    @property
    def tag(self) -> str:
        """The system locale, which the app formats dates in."""
        return formats.system_tag(self.phone)

    @property
    def is24(self) -> bool:
        """Commons ``use24HourFormat`` (key ``use_24_hour_format``): by default ``DateFormat.is24HourFormat``, the
        phone's ``time_12_24`` setting, else its locale's (12-hour in en-US, 24-hour in de-DE and fr-FR), as the
        Clock and the status bar read it."""
        return self.calendar.config.prefs.get("use_24_hour_format", formats.phone_is_24_hour(self.phone))

    def _day_range(self, first: dt.date, last: dt.date) -> tuple[int, int]:
        """``getDayStartTS(first)`` .. ``getDayEndTS(last)`` (the last minute of ``last``)."""
        start = dt.datetime.combine(first, dt.time())
        end = dt.datetime.combine(last + dt.timedelta(days=1), dt.time()) - dt.timedelta(minutes=1)
        return _ts(start, self.zone), _ts(end, self.zone)

    def _local_date(self, ts: int) -> dt.date:
        return dt.datetime.fromtimestamp(ts, self.zone).date()


@dataclass
class _Fragment:
    """One fragment of ``MainActivity``'s stack: ``kind`` is "month", "day" or "list"; ``day`` is the shown day
    (the month's first day for a month). A month or day holder's ViewPager is set up around ``anchor`` with
    ``PREFILLED_MONTHS``/``PREFILLED_DAYS`` = 251 pages, so it reaches 125 months/days either way."""

    kind: str
    day: dt.date
    anchor: dt.date = field(init=False)

    def __post_init__(self) -> None:
        self.anchor = self.day

    def turn(self, step: int) -> None:
        """``goLeft``/``goRight`` or a fling: the neighbouring page, none before the first or after the last."""
        if self.kind == "day":
            day = self.day + dt.timedelta(days=step)
            page = (day - self.anchor).days
        else:
            day = plus_months(self.day, step)
            page = (day.year - self.anchor.year) * 12 + day.month - self.anchor.month
        if abs(page) <= _PAGES_EACH_SIDE:
            self.day = day

    def reset(self, day: dt.date) -> None:
        """``goToToday``: ``setupFragment`` again, the pages now around ``day``."""
        self.day = self.anchor = day


class MainScreen(SearchMenuScreen, _CalendarScreen):
    """``MainActivity``: the search bar with the view menu, the month/day/list fragment and the new-event button."""

    activity = f"{PACKAGE}.activities.MainActivity"

    def __init__(self, app: App, intent: Intent) -> None:
        super().__init__(app, intent)
        self.fragments = [self._base_fragment(self.calendar.config.view)]
        self.extended_fab = False
        self.popup = ""  # "", "views" or "delete"
        self.action_mode = False
        self.selected: list[tuple[int, int]] = []
        self.last_long_pressed = -1
        self.delete_rule = 0
        self._items: list[Occurrence] = []  # the items of the list shown (what the action mode selects from)
        start_up_dialogs(self, self.calendar.config.prefs, RELEASES)  # onCreate's appLaunched, checkWhatsNewDialog

    def _base_fragment(self, view: int) -> _Fragment:
        today = self.now.date()
        if view == DAILY_VIEW:
            return _Fragment("day", today)
        if view == EVENTS_LIST_VIEW:
            return _Fragment("list", today)
        return _Fragment("month", today.replace(day=1))

    @property
    def top(self) -> _Fragment:
        """The fragment in front."""
        return self.fragments[-1]

    # ----- navigation -------------------------------------------------------------------------------------------
    def on_back(self) -> bool:
        """``onBackPressed``: close search, the action mode, the extended button or a dialog, else pop a day
        opened from the month."""
        if self.popup:
            self.popup = ""
        elif self.action_mode:
            self._finish_action_mode()
        elif self.search_open:
            self.close_search()
        elif self.extended_fab:
            self.extended_fab = False
        elif len(self.fragments) > 1:
            self.fragments.pop()
        else:
            return False
        return True

    def _open_day(self, day: dt.date) -> None:
        """``openDayFromMonthly``."""
        if self.top.kind != "day":
            self.fragments.append(_Fragment("day", day))

    def _shift(self, step: int) -> None:
        """The left/right arrows: the previous/next month or day (another page ends the selection)."""
        self._finish_action_mode()
        self.top.turn(step)

    def _fling(self, way: str) -> None:
        """``ViewPager``: the finger moving left shows the next page, moving right the previous one."""
        self._shift(1 if way == "left" else -1)

    def _is_today_shown(self) -> bool:
        today = self.now.date()
        top = self.top
        return top.kind == "list" or top.day == (today if top.kind == "day" else today.replace(day=1))

    def _go_to_today(self) -> None:
        today = self.now.date()
        self.top.reset(today if self.top.kind == "day" else today.replace(day=1))

    def _choose_view(self, view: int) -> None:
        """``updateView``: store the view and show it from scratch."""
        self.popup = ""
        self.close_search()
        self.calendar.config.set_view(view)
        self.fragments = [self._base_fragment(view)]

    def _new_event(self) -> None:
        """``openNewEvent``: from a day view the event starts that day, else on today; from another month on its
        first day (``MonthFragmentsHolder.getNewEventDayCode``: ``onPageSelected`` keeps the page's code, the first
        of its month)."""
        self.extended_fab, self.keyboard_shown = False, False
        top = self.top
        if top.kind == "day":
            start = new_event_start(top.day, self.now, allow_changing_day=False)
        else:
            day = top.day if top.kind == "month" and not self._is_today_shown() else self.now.date()
            start = new_event_start(day, self.now, allow_changing_day=True)
        self.start(EventScreen, Intent(extras={NEW_EVENT_START_TS: str(_ts(start, self.zone))}))

    def _fab_clicked(self) -> None:
        """``calendar_fab``: with tasks allowed the first tap shows the Event/Task choice, the second opens a new
        event."""
        if self.extended_fab:
            self._new_event()
        else:
            self.extended_fab = True

    def _edit(self, occurrence: Occurrence, with_occurrence: bool = True) -> None:
        self.keyboard_shown = False
        extras = {EVENT_ID: str(occurrence.id)}
        if with_occurrence:
            extras[EVENT_OCCURRENCE_TS] = str(occurrence.start_ts)
        self.start(EventScreen, Intent(extras=extras))

    # ----- action mode (MyRecyclerViewAdapter) ---------------------------------------------------------------------
    def _item_clicked(self, occurrence: Occurrence, open_event: Callback) -> None:
        """``viewClicked``: toggle the item in the action mode, else open it."""
        self.last_long_pressed = -1
        if self.action_mode:
            self._toggle(occurrence.key)
        else:
            open_event()

    def _item_long_clicked(self, occurrence: Occurrence) -> None:
        """``viewLongClicked``: start the action mode and select the item; a second long press selects every item
        between the two (``itemLongClicked``)."""
        if not self.action_mode:
            self.action_mode, self.selected, self.last_long_pressed = True, [], -1
        keys = [item.key for item in self._items]
        position = keys.index(occurrence.key)
        chosen = [occurrence.key]
        if self.last_long_pressed != -1:
            low, high = sorted((self.last_long_pressed, position))
            chosen = keys[low:high + 1]
        self.selected += [key for key in chosen if key not in self.selected]
        self.last_long_pressed = position

    def _toggle(self, key: tuple[int, int]) -> None:
        if key in self.selected:
            self.selected.remove(key)
        else:
            self.selected.append(key)
        if not self.selected:
            self._finish_action_mode()

    def _title_clicked(self) -> None:
        """The "2 / 5" title: select all, or end the action mode when all are selected."""
        keys = [item.key for item in self._items]
        if len(self.selected) >= len(keys):
            self._finish_action_mode()
        else:
            self.selected, self.last_long_pressed = keys, -1

    def _finish_action_mode(self) -> None:
        self.action_mode, self.selected, self.popup, self.last_long_pressed = False, [], "", -1

    def _confirm_delete(self) -> None:
        """``DeleteEventDialog`` confirmed: one-time events go, repeating ones by the chosen rule
        (``handleEventDeleting``)."""
        chosen = [item for item in self._items if item.key in self.selected]
        self.calendar.delete_occurrences(chosen, self.delete_rule)
        self._finish_action_mode()

    def _ask_delete(self) -> None:
        self.popup, self.delete_rule = "delete", 0

    # ----- building -----------------------------------------------------------------------------------------------
    def build(self) -> View:
        self._items = []
        searching = self.search_open and bool(self.search_text)
        body = self._search_holder() if searching else self._fragment()
        main = column(self._action_bar() if self.action_mode else self._search_menu(), body, gravity="fill",
                      resource_id=_id("main_holder"))
        children = [main]
        if self.extended_fab:
            children.append(View(gravity="fill", clickable=True, resource_id=_id("fab_extended_overlay"),
                                 on_click=self._hide_extended_fab))
        children.append(self._fab())
        root = View(kind="frame", class_name="androidx.coordinatorlayout.widget.CoordinatorLayout",
                    resource_id=_id("main_coordinator"), children=children)
        if self.popup == "views":
            current = self.calendar.config.view
            items = [(name, view == current, lambda view=view: self._choose_view(view))
                     for view, name in VIEW_NAMES.items()]
            return dialog_over(root, radio_group(items), self._dismiss)
        if self.popup == "delete":
            return dialog_over(root, self._delete_dialog(), self._dismiss)
        return root

    def _dismiss(self) -> None:
        self.popup = ""

    def _hide_extended_fab(self) -> None:
        self.extended_fab = False

    def _search_menu(self) -> View:
        """Commons ``MySearchMenu``: the search (or back-arrow) icon, the field and the toolbar's items."""
        arrow = len(self.fragments) > 1 and not self.search_open
        icon = _image("top_toolbar_search_icon", "arrow_back" if arrow else "search",
                      self._search_icon_clicked, width=110)
        items = []
        if not self._is_today_shown() and not self.search_open:
            items.append(_menu_item("go_to_today", GO_TO_TODAY, "today", self._go_to_today))
        items.append(_menu_item("change_view", CHANGE_VIEW, "grid", self._show_views))
        field = edit_text(self.search_text, SEARCH, self.SEARCH_KEY, self.set_search, resource_id=_id(self.SEARCH_KEY),
                          weight=1, text_size=_BIG)
        return search_menu(PACKAGE, icon, field, items)

    def _search_icon_clicked(self) -> None:
        if self.search_open:
            self.close_search()
        elif len(self.fragments) > 1:
            self.on_back()
        else:
            self.focus_key, self.keyboard_shown = self.SEARCH_KEY, True

    def _show_views(self) -> None:
        self.keyboard_shown = False
        self.popup = "views"

    def _action_bar(self) -> View:
        """The contextual action bar: close, the "selected / all" title, Share and Delete, white on Commons'
        ``AppTheme.ActionMode`` background, the system theme's ``you_contextual_status_bar_color``
        (``system_accent1_400``, the FAB's colour; by night ``accent1_700``, where the FAB keeps the day's: so the bar
        is given its night colour here rather than by the night palette)."""
        close = View(kind="icon", class_name="android.widget.ImageView", resource_id=_id("action_mode_close_button"),
                     content_desc=DONE, hint="arrow_back", clickable=True, focusable=True, width=_ICON, height=_ICON,
                     on_click=self._finish_action_mode, text_color=WHITE)
        title = text_view(f"{min(len(self.selected), len(self._items))} / {len(self._items)}",
                          resource_id=_id("actionbar_title"), text_size=_MONTH_TEXT, clickable=True, focusable=True,
                          on_click=self._title_clicked, weight=1, padding=32, text_color=WHITE)
        return View(kind="row", class_name="android.view.ViewGroup", resource_id=_id("action_mode_bar"), height=172,
                    background=contextual_bar_color(self.phone.window.looks.night), children=[
                        close, title, _menu_item("cab_share", SHARE, "send", does_nothing, WHITE),
                        _menu_item("cab_delete", DELETE, "delete", self._ask_delete, WHITE)])

    def _fab(self) -> View:
        if not self.extended_fab:
            return fab(NEW_EVENT, "plus", self._fab_clicked, resource_id=_id("calendar_fab"), margin=42,
                       background=PRIMARY)
        button = fab(NEW_EVENT, "calendar", self._fab_clicked, resource_id=_id("calendar_fab"), gravity="top",
                     margin=0, background=PRIMARY)
        label = text_view(EVENT_LABEL, resource_id=_id("fab_event_label"), text_size=_BIG, clickable=True,
                          focusable=True, on_click=self._new_event, padding=24)
        task_label = text_view(TASK_LABEL, resource_id=_id("fab_task_label"), text_size=_BIG, clickable=True,
                               focusable=True, on_click=self._hide_extended_fab, padding=24)
        task_icon = _image("fab_task_icon", "check", self._hide_extended_fab, width=105, height=105,
                           background=_CHIP_BG)
        return column(row(View(weight=1), task_label, task_icon, View(width=32), spacing=24),
                      row(View(weight=1), label, button, spacing=24), gravity="bottom_end", width=700, padding=42,
                      spacing=40)

    # fragments
    def _fragment(self) -> View:
        top = self.top
        if top.kind == "list":
            content = self._event_list()
        else:
            content = self._pager(self._month(top.day) if top.kind == "month" else self._day(top.day))
        return View(kind="frame", class_name="android.widget.FrameLayout", resource_id=_id("fragments_holder"),
                    weight=1, children=[content])

    def _pager(self, page: View) -> View:
        """``fragment_months_holder.xml``/``fragment_days_holder.xml``: a clickable, focusable Commons
        ``MyViewPager`` (an ``RtlViewPager``, i.e. androidx ``ViewPager``, whose accessibility delegate reports that
        class, scrollable with its 251 pages) showing one page. The holder gives it the id
        ``System.currentTimeMillis() % 100000``, which has no package byte, so the node has no resource id (``View``
        names only ids for which ``Resources.resourceHasPackage``). A dialog's or the FAB overlay's scrim on top
        takes a drag first (the window gives drags to the top-most view that takes touches).
        """
        return View(kind="frame", class_name="androidx.viewpager.widget.ViewPager", clickable=True, focusable=True,
                    scrollable=True, gravity="fill", children=[page], on_fling=self._fling)

    def _navigation(self, title: str) -> View:
        """``top_navigation.xml``."""
        return View(kind="row", class_name="android.widget.RelativeLayout", children=[
            _image("top_left_arrow", "chevron_left", lambda: self._shift(-1)),
            text_view(title, resource_id=_id("top_value"), content_desc=title, text_size=_MONTH_TEXT, weight=1,
                      padding=30, gravity="center"),
            _image("top_right_arrow", "chevron_right", lambda: self._shift(1))])

    def _month(self, month: dt.date) -> View:
        """``MonthFragment``: the month's name and the 6 × 7 grid of ``month_view_background`` cells, on which
        ``MonthView`` draws the day numbers and event titles."""
        sunday_first = self.calendar.config.is_sunday_first
        today, first = self.now.date(), month_grid_start(month, sunday_first)
        days = [first + dt.timedelta(days=i) for i in range(42)]
        start_ts, end_ts = self._day_range(days[0], days[-1])
        found = _sorted(self.calendar.occurrences(start_ts, end_ts, self.zone))
        titles: dict[dt.date, list[str]] = {}
        for occurrence in found:
            day = self._local_date(occurrence.start_ts)
            while day <= self._local_date(max(occurrence.end_ts - 1, occurrence.start_ts)):
                titles.setdefault(day, []).append(occurrence.event["title"])
                day += dt.timedelta(days=1)
        # addWeekDayLetters: today's weekday in the primary colour while today is in the month shown
        current = today.weekday() if (today.year, today.month) == (month.year, month.month) else None
        letters = group("row", LAYOUT_ONLY, *(
            _drawn(WEEK_DAY_LETTERS[day], _NORMAL, PRIMARY if day == current else TEXT, weight=1,
                   centered=True) for day in week_days(sunday_first)), height=_LETTERS_HEIGHT)
        cells = [self._cell(day, day.month == month.month, day == today, titles.get(day, [])) for day in days]
        weeks = [group("row", LAYOUT_ONLY, *cells[i:i + 7], weight=1) for i in range(0, 42, 7)]
        # MonthViewWrapper: the MonthView (month_view.xml) that paints it all, then the 42 cells it lays out itself
        # under the letters (each its own child: the rows are no views)
        month_view = View(resource_id=_id("month_view"), gravity="fill")
        grid = View(kind="frame", class_name="android.widget.FrameLayout", resource_id=_id("month_view_wrapper"),
                    weight=1, children=[month_view, group("column", LAYOUT_ONLY, letters, *weeks, gravity="fill")])
        return View(kind="column", class_name="android.widget.RelativeLayout", resource_id=_id("month_calendar_holder"),
                    gravity="fill", children=[self._navigation(long_month_year(month, today, self.tag)), grid])

    def _cell(self, day: dt.date, in_month: bool, is_today: bool, titles: list[str]) -> View:
        color = TEXT if in_month else _OTHER_MONTH_INK
        if is_today:  # MonthView.onDraw: a primary circle (radius 0.75 × the text size) under the number in white
            radius = _DAY_TEXT * 3 // 4
            number = _drawn(str(day.day), _DAY_TEXT, WHITE, centered=True, width=2 * radius, height=2 * radius,
                            background=PRIMARY, corner=radius)
        else:
            number = _drawn(str(day.day), _DAY_TEXT, color, centered=True)
        lines = [number]
        # MonthView.drawEvent: the event type's colour (the default type's is the primary) under contrasting text
        lines += [_drawn(_fit(title, _CELL_TEXT, 140), _CELL_TEXT, WHITE, background=PRIMARY, corner=8)
                  for title in titles[:3]]
        return View(kind="column", class_name="android.view.View", resource_id=_id("month_view_background"),
                    clickable=True, focusable=True, weight=1, gravity="fill", children=lines,
                    on_click=lambda: self._open_day(day))

    def _day(self, day: dt.date) -> View:
        """``DayFragment``: the day's title and its events (``DayEventsAdapter``)."""
        start_ts, end_ts = self._day_range(day, day)
        self._items = _sorted(self.calendar.occurrences(start_ts, end_ts, self.zone))
        items = [self._event_item(o, day, lambda o=o: self._edit(o)) for o in self._items]
        events = scroll_list(*items, key=f"day_events_{day:%Y%m%d}", resource_id=_id("day_events"), weight=1)
        return View(kind="column", class_name="android.widget.RelativeLayout", resource_id=_id("day_holder"),
                    gravity="fill", children=[self._navigation(day_title(day, self.now.date(), self.tag)), events])

    def _list_occurrences(self) -> list[Occurrence]:
        """``EventListFragment.checkEvents``: from a day ago for six months, three more when that holds fewer than
        30 events."""
        now_ts = _ts(self.now, self.zone)
        later = dt.datetime.combine(plus_months(self.now.date(), 6), self.now.time())
        start, end = now_ts - 24 * 3600, _ts(later, self.zone)
        found = self.calendar.occurrences(start, end, self.zone)
        if len(found) < MIN_EVENTS_THRESHOLD:
            found = self.calendar.occurrences(start, end + FETCH_INTERVAL, self.zone)
        return found

    def _event_list(self) -> View:
        """``EventListFragment``: month and day sections with the events, or the empty placeholders."""
        occurrences_ = self._list_occurrences()
        if not occurrences_:
            return column(
                text_view(NO_UPCOMING_EVENTS if self.calendar.config.display_event_types() else EVERYTHING_FILTERED_OUT,
                          resource_id=_id("calendar_empty_list_placeholder"), text_size=47,
                          text_color=_PLACEHOLDER_INK, padding=42),
                text_view(CREATE_NEW_EVENT, resource_id=_id("calendar_empty_list_placeholder_2"), text_size=47,
                          text_color=PRIMARY, padding=42, clickable=True, focusable=True, on_click=self._new_event),
                resource_id=_id("calendar_events_list_holder"), gravity="fill")
        items = self._sectioned(occurrences_, lambda o: self._edit(o))
        return scroll_list(*items, key="calendar_events_list", resource_id=_id("calendar_events_list"), gravity="fill")

    def _sectioned(self, found: list[Occurrence], open_event: Callable[[Occurrence], None]) -> list[View]:
        """``getEventListItems``: month and day sections (all-day events first in their day) and the items."""
        zone, today = self.zone, self.now.date()

        def order(o: Occurrence) -> tuple:
            day = self._local_date(o.start_ts)
            start = self._day_range(day, day)[0] - 1 if o.all_day else o.start_ts
            return start, o.end_ts, o.event["title"], o.event["description"]

        self._items = sorted(found, key=order)
        views, month, code = [], "", None
        for o in self._items:
            day = dt.datetime.fromtimestamp(o.start_ts, zone).date()
            if long_month_year(day, today, self.tag) != month:
                month = long_month_year(day, today, self.tag)
                views.append(text_view(month.upper(), resource_id=_id("event_section_title"), text_size=58,
                                       text_color=PRIMARY, padding=32))
            if day != code:
                code = day
                views.append(text_view(date_day_title(day, self.tag), resource_id=_id("event_section_title"),
                                       text_size=_NORMAL, text_color=PRIMARY if day == today else TEXT, padding=24))
            views.append(self._event_item(o, None, lambda o=o: open_event(o)))
        return views

    def _event_item(self, occurrence: Occurrence, day: dt.date | None, open_event: Callback) -> View:
        """``event_list_item.xml``: colour bar, title, time and description (shown when not empty)."""
        event, today = occurrence.event, self.now.date()
        lines = [text_view(event["title"], resource_id=_id("event_item_title"), text_size=_DAY_TEXT, padding=8,
                           height=line_height(_DAY_TEXT) + 16),
                 text_view(item_time_text(occurrence, day, today, self.zone, self.is24, self.tag), padding=8,
                           resource_id=_id("event_item_time"), text_size=_NORMAL)]
        description = event["description"].replace("\n", " ")
        if description:
            lines.append(text_view(description, resource_id=_id("event_item_description"), text_size=_NORMAL,
                                   padding=8, height=line_height(_NORMAL) + 16))
        # event_list_color_bar in the event's colour, rounded at its start, from the title's top to the last line's
        bar = View(class_name="android.widget.ImageView", resource_id=_id("event_item_color_bar"), width=_BAR_WIDTH,
                   gravity="fill", background=PRIMARY, corner=_CARD_CORNER, corners=_START_CORNERS)
        selected = occurrence.key in self.selected
        inside = group("row", LAYOUT_ONLY, bar, column(*lines, weight=1), spacing=10,
                       background=_SELECTED_BG if selected else WHITE, corner=_CARD_CORNER - _STROKE)
        card = View(kind="frame", class_name="android.view.ViewGroup", resource_id=_id("event_item_holder"),
                    clickable=True, focusable=True, long_clickable=True, selected=selected, weight=1,
                    background=_CARD_STROKE, corner=_CARD_CORNER, padding=_STROKE, children=[inside],
                    on_click=lambda: self._item_clicked(occurrence, open_event),
                    on_long_click=lambda: self._item_long_clicked(occurrence))
        # its activity_margin at the sides and medium_margin below (the grouping is no view: the card is the node)
        return group("column", LAYOUT_ONLY, group("row", LAYOUT_ONLY, View(width=42), card, View(width=42)),
                     View(height=21))

    def _search_holder(self) -> View:
        """``searchQueryChanged``: with two characters or more, the matching events within two years (all years
        when fewer than 30 match)."""
        text, children = self.search_text, []
        found: list[Occurrence] = []
        if len(text) >= 2:
            now = self.now  # DateTime().minusYears(2) and plusYears(2): a 29 February becomes the 28th
            found = self.calendar.occurrences(*(_ts(dt.datetime.combine(plus_months(now.date(), months), now.time()),
                                                    self.zone) for months in (-24, 24)), self.zone, text)
            if len(found) < MIN_EVENTS_THRESHOLD:
                found = self.calendar.occurrences(0, 2051218800, self.zone, text)  # MAX_SEARCH_YEAR
        if found:
            children.append(scroll_list(*self._sectioned(found, lambda o: self._edit(o, with_occurrence=False)),
                                        key="search_results_list", resource_id=_id("search_results_list"), weight=1))
        else:
            children.append(text_view(NO_ITEMS_FOUND, resource_id=_id("search_placeholder"), text_size=47,
                                      text_color=_PLACEHOLDER_INK, padding=42))
            if len(text) == 1:
                children.append(text_view(TYPE_2_CHARACTERS, resource_id=_id("search_placeholder_2"), text_size=47,
                                          text_color=_PLACEHOLDER_INK, padding=42))
        return View(kind="column", class_name="android.widget.RelativeLayout", resource_id=_id("search_holder"),
                    clickable=True, focusable=True, weight=1, children=children)

    def _delete_dialog(self) -> View:
        """``DeleteEventDialog``: the question, and for repeating events which occurrences to delete."""
        repeating = any(o.event["repeat_interval"] for o in self._items if o.key in self.selected)
        return _delete_dialog_view(repeating, self.delete_rule, self._set_delete_rule, self._confirm_delete,
                                   self._dismiss)

    def _set_delete_rule(self, rule: int) -> None:
        self.delete_rule = rule


def _delete_dialog_view(repeating: bool, rule: int, set_rule: Callable[[int], None], on_yes: Callback,
                        on_no: Callback) -> View:
    """``dialog_delete_event.xml`` in an alert dialog with Yes and No."""
    body = [text_view(PROCEED_WITH_DELETION, resource_id=_id("delete_event_description"), text_size=47, padding=52)]
    if repeating:
        body.append(text_view(EVENT_IS_REPEATABLE, resource_id=_id("delete_event_repeat_description"),
                              text_size=_NORMAL, padding=52))
        names = ("delete_event_one_only", "delete_event_future", "delete_event_all")
        body.append(column(*(View(kind="text", class_name="android.widget.RadioButton", resource_id=_id(name),
                                  text=text, checkable=True, checked=index == rule, clickable=True, focusable=True,
                                  on_click=lambda index=index: set_rule(index), text_size=_BIG, padding=36)
                             for index, (name, text) in enumerate(zip(names, DELETE_OPTIONS))),
                           resource_id=_id("delete_event_radio_view"), padding=24))
    return alert_dialog(body, [("button2", NO, on_no), ("button1", YES, on_yes)], background=DIALOG_BACKGROUND)


class EventScreen(_CalendarScreen):
    """``EventActivity``: a new event (``new_event_start_ts``) or an existing one (``event_id``, opened at
    ``event_occurrence_ts``): title, location, description, all-day, start and end date and time, reminders,
    repetition; Save, and Delete for an existing event."""

    activity = f"{PACKAGE}.activities.EventActivity"
    FIELDS = ("event_title", "event_location", "event_description")

    def __init__(self, app: App, intent: Intent) -> None:
        super().__init__(app, intent)
        extras = intent.extras
        event_id = int(extras[EVENT_ID]) if extras.get(EVENT_ID, "").isdigit() else 0
        self.event = self.calendar.db.event(event_id) if event_id else None
        self.popup: str = ""  # "", "repeat", "weekly", "warning", "delete", "save_prompt", "date", "time"
        self.picker: DatePicker | TimePicker | None = None
        self.delete_rule = 0
        self.last_prompt_ms = -SAVE_DISCARD_PROMPT_INTERVAL_MS - 1
        self.weekly_draft = 0
        if self.event is not None:
            self._setup_edit(self.event, int(extras.get(EVENT_OCCURRENCE_TS, "0") or 0))
        else:
            start_ts = extras.get(NEW_EVENT_START_TS, "")
            self._setup_new(int(start_ts) if start_ts.lstrip("-").isdigit() else _ts(self.now, self.zone))
        self.original = self._snapshot()

    def _setup_edit(self, event: dict[str, Any], occurrence_ts: int) -> None:
        """``setupEditEvent``."""
        real_start = occurrence_ts or event["start_ts"]
        self.occurrence_start = real_start
        duration = event["end_ts"] - event["start_ts"]
        self.start_at = dt.datetime.fromtimestamp(real_start, self.zone).replace(tzinfo=None)
        self.end_at = dt.datetime.fromtimestamp(real_start + duration, self.zone).replace(tzinfo=None)
        self.values = {"event_title": event["title"], "event_location": event["location"],
                       "event_description": event["description"]}
        self.reminders = [event["reminder_1_minutes"], event["reminder_2_minutes"], event["reminder_3_minutes"]]
        self.repeat_interval, self.repeat_rule = event["repeat_interval"], event["repeat_rule"]
        self.repeat_limit = event["repeat_limit"]
        self.all_day = bool(event["flags"] & FLAG_ALL_DAY)

    def _setup_new(self, start_ts: int) -> None:
        """``setupNewEvent``: the title focused with the keyboard up; the default duration is 0 minutes."""
        self.occurrence_start = 0
        self.start_at = dt.datetime.fromtimestamp(start_ts, self.zone).replace(tzinfo=None)
        self.end_at = self.start_at
        self.values = dict.fromkeys(self.FIELDS, "")
        self.reminders = self.calendar.config.last_reminders()
        self.repeat_interval = self.repeat_rule = self.repeat_limit = 0
        self.all_day = False
        self.focus_key, self.keyboard_shown = "event_title", True

    def _snapshot(self) -> tuple:
        return (dict(self.values), self._start_end(), self._reminders(), self.repeat_interval, self.repeat_rule,
                self.all_day)

    # ----- values -----------------------------------------------------------------------------------------------
    def _start_end(self) -> tuple[int, int]:
        """``getStartEndTimes``: an all-day event runs from midnight to noon of its last day."""
        if self.all_day:
            return (_ts(dt.datetime.combine(self.start_at.date(), dt.time()), self.zone),
                    _ts(dt.datetime.combine(self.end_at.date(), dt.time(12)), self.zone))
        return _ts(self.start_at, self.zone), _ts(self.end_at, self.zone)

    def _reminders(self) -> list[int]:
        """``getReminders`` for saving: the set reminders, smallest first, then off."""
        chosen = sorted(minutes for minutes in self.reminders if minutes != REMINDER_OFF)
        return (chosen + [REMINDER_OFF] * 3)[:3]

    def _set_value(self, name: str) -> Callable[[str], None]:
        def setter(text: str) -> None:
            self.values[name] = text
        return setter

    def _hide_keyboard(self) -> None:
        self.keyboard_shown = False

    # ----- dialogs ----------------------------------------------------------------------------------------------
    def _close_popup(self) -> None:
        self.popup, self.picker = "", None
        release_focus(self)

    def _pick_date(self, is_start: bool) -> None:
        """``setupStartDate``/``setupEndDate``."""
        self._hide_keyboard()
        current = (self.start_at if is_start else self.end_at).date()
        self.popup, self.picker = "date", DatePicker(current, lambda day: self._date_set(day, is_start),
                                                     self._close_popup, self.tag, self.calendar.config.is_sunday_first)

    def _date_set(self, day: dt.date, is_start: bool) -> None:
        """``dateSet``: a new start keeps the duration (and moves a one-day weekly rule to the new weekday)."""
        if is_start:
            duration = self.end_at - self.start_at
            self.start_at = dt.datetime.combine(day, self.start_at.time())
            self._check_repeat_rule()
            self.end_at = self.start_at + duration
        else:
            self.end_at = dt.datetime.combine(day, self.end_at.time())

    def _pick_time(self, is_start: bool) -> None:
        """``setupStartTime``/``setupEndTime`` with the system theme: a ``MaterialTimePicker`` in the clock input mode,
        in ``use24HourFormat``'s format."""
        self._hide_keyboard()
        current = self.start_at if is_start else self.end_at
        self.popup, self.picker = "time", TimePicker(self, PACKAGE, current.hour, current.minute, self.is24,
                                                     lambda h, m: self._time_set(h, m, is_start), self._close_popup)

    def _time_set(self, hour: int, minute: int, is_start: bool) -> None:
        """``timeSet``: a new start keeps the duration."""
        if is_start:
            duration = self.end_at - self.start_at
            self.start_at = self.start_at.replace(hour=hour, minute=minute)
            self.end_at = self.start_at + duration
        else:
            self.end_at = self.end_at.replace(hour=hour, minute=minute)

    def _toggle_all_day(self) -> None:
        """``toggleAllDay`` (``resetTime``: a same-day end before the start moves to the start time)."""
        self._hide_keyboard()
        self.all_day = not self.all_day
        if self.end_at < self.start_at and self.end_at.date() == self.start_at.date():
            self.end_at = self.start_at

    def _set_repeat_interval(self, interval: int) -> None:
        """``setRepeatInterval``: weekly repeats on the start's weekday, monthly/yearly on the same day."""
        self.popup = ""
        self.repeat_interval = interval
        if interval and interval % WEEK == 0:
            self.repeat_rule = weekday_bit(self.start_at.date())
        elif interval and (interval % MONTH == 0 or interval % YEAR == 0):
            self.repeat_rule = REPEAT_SAME_DAY

    def _check_repeat_rule(self) -> None:
        """``checkRepeatRule`` after a new start date."""
        if self.repeat_interval and self.repeat_interval % WEEK == 0 and self.repeat_rule in {1 << i for i in range(7)}:
            self.repeat_rule = weekday_bit(self.start_at.date())

    def _open_weekly(self) -> None:
        self.popup, self.weekly_draft = "weekly", self.repeat_rule

    def _weekly_ok(self) -> None:
        """``RepeatRuleWeeklyDialog`` OK: no day left means no repetition (``setRepeatRule(0)``)."""
        self.popup = ""
        self.repeat_rule = self.weekly_draft
        if not self.repeat_rule:
            self.repeat_interval = 0

    def _toggle_weekday(self, bit: int) -> None:
        self.weekly_draft ^= bit

    # ----- save and delete -------------------------------------------------------------------------------------
    def _save(self) -> None:
        """``saveCurrentEvent``: the reminder disclaimer first (once), then ``saveEvent``."""
        self._hide_keyboard()
        if not self.calendar.config.was_alarm_warning_shown and any(m != REMINDER_OFF for m in self.reminders):
            self.popup = "warning"
            return
        self._store()

    def _warning_ok(self) -> None:
        self.popup = ""
        self.calendar.config.set_alarm_warning_shown()
        self._store()

    def _store(self) -> None:
        """``saveEvent``/``storeEvent`` (the fields' trimmed ``value``s): an empty title or an end before the start
        saves nothing."""
        title, location, description = (self.values[name].strip() for name in self.FIELDS)
        start_ts, end_ts = self._start_end()
        if not title or start_ts > end_ts:
            return
        reminders = self._reminders()
        config = self.calendar.config
        config.set_last_reminders(reminders)
        if self.event is None:
            values = event_row(title, dt.datetime.fromtimestamp(start_ts, self.zone),
                               dt.datetime.fromtimestamp(end_ts, self.zone), location=location,
                               description=description, all_day=self.all_day,
                               repeat_interval=self.repeat_interval, repeat_rule=self.repeat_rule,
                               repeat_limit=self.repeat_limit, source=SOURCE_SIMPLE_CALENDAR, reminders=reminders,
                               time_zone=self.zone.key, last_updated=self.phone.clock.now_ms(),
                               import_id=self._import_id(title))
            self.calendar.db.insert(values)
        else:
            changes = self._changes(start_ts, end_ts, reminders)
            self.calendar.db.update(self.event["id"], {**changes, "title": title, "location": location,
                                                       "description": description})
        self.finish()

    def _changes(self, start_ts: int, end_ts: int, reminders: list[int]) -> dict[str, Any]:
        """The columns but the texts that ``saveEvent`` sets on an existing event (an edited occurrence of a repeating
        event moves the whole series by the same amount, as "all occurrences" does)."""
        event = self.event or {}
        if event.get("repeat_interval") and self.occurrence_start:
            shift = event["start_ts"] - self.occurrence_start
            start_ts, end_ts = start_ts + shift, end_ts + shift
        flags = (event.get("flags", 0) | FLAG_ALL_DAY) if self.all_day else (event.get("flags", 0) & ~FLAG_ALL_DAY)
        time_zone = self.zone.key if self.all_day or not event.get("time_zone") else event["time_zone"]
        return {"start_ts": start_ts, "end_ts": end_ts, "reminder_1_minutes": reminders[0],
                "reminder_2_minutes": reminders[1], "reminder_3_minutes": reminders[2], "reminder_1_type": 0,
                "reminder_2_type": 0, "reminder_3_type": 0, "repeat_interval": self.repeat_interval,
                "time_zone": time_zone, "flags": flags,
                "repeat_limit": self.repeat_limit if self.repeat_interval else 0, "repeat_rule": self.repeat_rule,
                "attendees": "", "event_type": event.get("event_type", 1),
                "last_updated": self.phone.clock.now_ms(), "source": SOURCE_SIMPLE_CALENDAR}

    def _import_id(self, title: str) -> str:
        """``generateImportId``: 32 hex digits (a UUID without dashes) and the time in ms; derived from the device
        time and title here, so runs are reproducible."""
        now_ms = self.phone.clock.now_ms()
        return hashlib.md5(f"{now_ms}:{title}".encode()).hexdigest() + str(now_ms)

    def _ask_delete(self) -> None:
        self._hide_keyboard()
        self.popup, self.delete_rule = "delete", 0

    def _set_delete_rule(self, rule: int) -> None:
        self.delete_rule = rule

    def _confirm_delete(self) -> None:
        """``deleteEvent`` confirmed: the event, or by the chosen rule for a repeating one; then close."""
        if self.event is not None:
            occurrence = Occurrence(self.event, self.occurrence_start or self.event["start_ts"], 0)
            self.calendar.delete_occurrences([occurrence], self.delete_rule)
        self.finish()

    # ----- back ---------------------------------------------------------------------------------------------------
    def on_back(self) -> bool:
        """A dialog closes; unsaved changes ask "Save before exit?" (again only after a second has passed)."""
        if self.popup:
            if self.popup != "warning":
                self._close_popup()
            return True
        now = self.phone.clock.now_ms()
        if now - self.last_prompt_ms > SAVE_DISCARD_PROMPT_INTERVAL_MS and self._snapshot() != self.original:
            self.last_prompt_ms, self.popup = now, "save_prompt"
            self._hide_keyboard()
            return True
        return False

    def _prompt_save(self) -> None:
        self.popup = ""
        self._save()

    # ----- building -----------------------------------------------------------------------------------------------
    def build(self) -> View:
        content = column(self._toolbar(), self._form(), gravity="fill", resource_id=_id("event_coordinator"))
        panel, dismiss = self._popup()
        return content if panel is None else dialog_over(content, panel, dismiss)

    def _popup(self) -> tuple[View | None, Callback | None]:
        """The open dialog's panel and what a touch outside it does."""
        if self.picker is not None:
            if isinstance(self.picker, TimePicker):
                return self.picker.view(Theme.of(self, PRIMARY)), self._close_popup
            return self.picker.view(), self._close_popup
        if self.popup == "repeat":
            options = sorted({0, DAY, WEEK, MONTH, YEAR, self.repeat_interval})
            items = [(repetition_text(v, self.tag), v == self.repeat_interval, lambda v=v: self._set_repeat_interval(v))
                     for v in options]
            return radio_group(items), self._close_popup
        if self.popup == "weekly":
            return self._weekly_dialog(), self._close_popup
        if self.popup == "warning":
            return alert_dialog([text_view(REMINDER_WARNING, resource_id=_id("reminder_warning"), text_size=47,
                                           padding=52)],
                                [("button3", SETTINGS, does_nothing), ("button1", OK, self._warning_ok)],
                                title=DISCLAIMER, package=PACKAGE, background=DIALOG_BACKGROUND), None
        if self.popup == "delete":
            repeating = bool(self.event and self.event["repeat_interval"])
            return _delete_dialog_view(repeating, self.delete_rule, self._set_delete_rule, self._confirm_delete,
                                       self._close_popup), self._close_popup
        if self.popup == "save_prompt":
            body = [text_view(SAVE_BEFORE_CLOSING, resource_id=_id("message"), text_size=47, padding=52)]
            return alert_dialog(body, [("button2", DISCARD, self.finish), ("button1", SAVE, self._prompt_save)],
                                background=DIALOG_BACKGROUND), \
                self._close_popup
        return None, None

    def _weekly_dialog(self) -> View:
        """``RepeatRuleWeeklyDialog``: a checkbox per weekday (Sunday first or Monday first), OK and Cancel."""
        # my_checkbox.xml, its id set to the day's bit in code: no resource name in the dump
        boxes = [_checkbox(WEEK_DAYS[day], bool(self.weekly_draft & (1 << day)),
                           lambda bit=1 << day: self._toggle_weekday(bit))
                 for day in week_days(self.calendar.config.is_sunday_first)]
        body = [column(*boxes, resource_id=_id("dialog_vertical_linear_layout"), padding=24)]
        return alert_dialog(body, [("button2", CANCEL, self._close_popup), ("button1", OK, self._weekly_ok)],
                            background=DIALOG_BACKGROUND)

    def _toolbar(self) -> View:
        back = image_button(BACK, "arrow_back", self._navigate_up, text_color=TEXT)
        items = [_menu_item("save", SAVE, "check", self._save)]
        if self.event is not None:
            items.append(_menu_item("delete", DELETE, "delete", self._ask_delete))
        title = text_view(NEW_EVENT if self.event is None else EDIT_EVENT, text_size=54, weight=1, padding=30)
        return View(kind="row", class_name="android.view.ViewGroup", resource_id=_id("event_toolbar"), height=168,
                    children=[back, title, *items])

    def _navigate_up(self) -> None:
        if not self.on_back():
            self.finish()

    def _form(self) -> View:
        """``event_nested_scrollview``: one row per line of ``activity_event.xml``."""
        today = self.now.date()
        hints = {"event_title": TITLE, "event_location": LOCATION, "event_description": DESCRIPTION}
        fields = [my_edit_text(edit_text(self.values[name], hints[name], name, self._set_value(name),
                                         resource_id=_id(name), multiline=name == "event_description",
                                         text_size=_BIG), self.focus_key == name) for name in self.FIELDS]
        all_day = View(kind="row", class_name="android.widget.RelativeLayout", resource_id=_id("event_all_day_holder"),
                       clickable=True, focusable=True, on_click=self._toggle_all_day, padding=24, children=[
                           # android:clickable="false" (the holder toggles it), layoutDirection rtl: box at the end
                           _checkbox(ALL_DAY, self.all_day, None, resource_id=_id("event_all_day"), box_at_end=True,
                                     weight=1)])
        items = [*fields, divider(), all_day,
                 self._date_time_row("start", self.start_at, today), self._date_time_row("end", self.end_at, today),
                 divider(), *self._reminder_lines(), divider(), *self._repetition_lines(), divider(),
                 _line("event_availability", STATUS_BUSY), _line("event_type", REGULAR_EVENT),
                 _line("event_color_text", EVENT_COLOR)]
        return scroll_list(*items, key="event_nested_scrollview", resource_id=_id("event_nested_scrollview"), weight=1)

    def _date_time_row(self, which: str, when: dt.datetime, today: dt.date) -> View:
        is_start = which == "start"
        date = _line(f"event_{which}_date", day_title(when.date(), today, self.tag), lambda: self._pick_date(is_start),
                     weight=1)
        children = [date]
        if not self.all_day:
            children.append(_line(f"event_{which}_time", time_text(when, self.is24, self.tag),
                                  lambda: self._pick_time(is_start)))
        return row(*children)

    def _reminder_lines(self) -> list[View]:
        lines = [_line("event_reminder_1", reminder_text(self.reminders[0], self.tag))]
        if self.reminders[0] != REMINDER_OFF:
            second = self.reminders[1]
            unset = second == REMINDER_OFF
            lines.append(_line("event_reminder_2", ADD_ANOTHER_REMINDER if unset else reminder_text(second, self.tag),
                               text_color=_UNSET_REMINDER_INK if unset else TEXT))
        return lines

    def _repetition_lines(self) -> list[View]:
        lines = [_line("event_repetition", repetition_text(self.repeat_interval, self.tag), self._open_repeat)]
        interval = self.repeat_interval
        if interval and interval % WEEK == 0:
            sunday_first = self.calendar.config.is_sunday_first
            rule = (EVERY_DAY if self.repeat_rule == EVERY_DAY_BIT
                    else selected_days_text(self.repeat_rule, sunday_first, self.tag))
            lines.append(self._labelled("event_repetition_rule", REPEAT_ON, rule, self._open_weekly))
        elif interval and (interval % MONTH == 0 or interval % YEAR == 0):
            lines.append(self._labelled("event_repetition_rule", REPEAT_ON, THE_SAME_DAY, None))
        if interval:
            lines.append(self._labelled("event_repetition_limit", REPEAT, FOREVER if not self.repeat_limit
                                        else str(self.repeat_limit), None))
        return lines

    @staticmethod
    def _labelled(name: str, label: str, value: str, on_click: Callback | None) -> View:
        return View(kind="row", class_name="android.widget.RelativeLayout", resource_id=_id(f"{name}_holder"),
                    clickable=on_click is not None, focusable=on_click is not None, on_click=on_click, padding=24,
                    children=[text_view(label, resource_id=_id(f"{name}_label"), text_size=_BIG, weight=1),
                              text_view(value, resource_id=_id(name), text_size=_BIG)])

    def _open_repeat(self) -> None:
        self._hide_keyboard()
        self.popup = "repeat"


class SimpleCalendarPro(App):
    """``com.simplemobiletools.calendar.pro``; the launcher's ``SplashActivity`` hands over to ``MainActivity`` at
    once, so ``MainActivity`` is the first screen."""

    package = PACKAGE
    night_colors = NIGHT_COLORS  # Simple-Commons' system theme (see commons.NIGHT_COLORS), its faded text
    day_colors = DAY_COLORS  # the system theme's text colour
    navigation_bar_color = NAVIGATION_BAR_COLOR
    label = APP_LAUNCHER_NAME
    icon, icon_color = "app_calendar", (245, 124, 0)
    version_name, version_code = "6.22.2", 238  # android_gym/device/apps.toml
    screens = (MainScreen, EventScreen)
    # MainActivity's and EventActivity's filters (AndroidManifest.xml; see ``resolve``).
    intent_filters = (*App.intent_filters,
                      IntentFilter(("android.intent.action.VIEW",), (CATEGORY_DEFAULT,),
                                   mime_types=("time/epoch", "vnd.android.cursor.item/event")),
                      IntentFilter(("android.intent.action.EDIT", "android.intent.action.INSERT"), (CATEGORY_DEFAULT,),
                                   mime_types=("vnd.android.cursor.item/event", "vnd.android.cursor.dir/event")))

    def resolve(self, intent: Intent) -> type[Screen] | None:
        """The manifest's filters: ``MainActivity`` takes ``VIEW`` of a ``time/epoch``
        ``content://com.android.calendar`` URI and of an event item; ``EventActivity`` takes ``EDIT``/``INSERT``
        of an event item or list. A ``VIEW`` of ``content://com.android.calendar`` itself, which has no type,
        matches neither."""
        view, edit = "android.intent.action.VIEW", ("android.intent.action.EDIT", "android.intent.action.INSERT")
        if intent.action == view and intent.mime_type == "time/epoch" and intent.data.startswith(
                "content://com.android.calendar"):
            return MainScreen
        if intent.action == view and intent.mime_type == "vnd.android.cursor.item/event":
            return MainScreen
        if intent.action in edit and intent.mime_type in ("vnd.android.cursor.item/event",
                                                          "vnd.android.cursor.dir/event"):
            return EventScreen
        return super().resolve(intent)

    def __init__(self, phone: Context) -> None:
        super().__init__(phone)
        self.db = EventsDatabase(phone)
        self.config = CalendarConfig(phone)
        self.config.add_display_event_type(REGULAR_EVENT_TYPE_ID)  # insertRegularEventType, on creating the database

    def occurrences(self, from_ts: int, to_ts: int, zone: ZoneInfo, query: str = "") -> list[Occurrence]:
        """``EventsHelper.getEvents``: occurrences of the displayed event types (none when all are filtered out)."""
        types = self.config.display_event_types()
        return self.db.between(from_ts, to_ts, zone, types, query) if types else []

    def delete_occurrences(self, chosen: Sequence[Occurrence], rule: int) -> None:
        """``handleEventDeleting``: one-time events are deleted; repeating ones lose the occurrence (an exception
        day), the occurrence and later ones (``addEventRepeatLimit``) or the whole series, by ``rule``."""
        zone = ZoneInfo(self.phone.props.get("persist.sys.timezone") or "UTC")
        once = [o.id for o in chosen if not o.event["repeat_interval"]]
        repeating = [o for o in chosen if o.event["repeat_interval"]]
        if rule == 2:
            once += [o.id for o in repeating]
            repeating = []
        self.db.delete(sorted(set(once)))
        for occurrence in repeating:
            event = self.db.event(occurrence.id)
            if event is None:
                continue
            if rule == 0:
                days = sorted(_exceptions(event["repetition_exceptions"] or "")
                              | {dt.datetime.fromtimestamp(occurrence.start_ts, zone).strftime("%Y%m%d")})
                self.db.update(occurrence.id, {"repetition_exceptions": f"[{', '.join(days)}]"})
            else:
                previous = dt.datetime.fromtimestamp(occurrence.start_ts - event["repeat_interval"], zone)
                end_of_day = previous.replace(hour=23, minute=59, second=59) if not event["flags"] & FLAG_ALL_DAY \
                    else previous.replace(hour=0, minute=0, second=0)
                self.db.update(occurrence.id, {"repeat_limit": int(end_of_day.timestamp())})

    def on_force_stop(self) -> None:
        """The process dies: its in-memory preferences go (the file stays)."""
        self.config.prefs.forget()

    def on_clear(self) -> None:
        """``pm clear``: a fresh database (with its event type, shown) and default preferences."""
        self.config.prefs.forget()
        self.db.ensure_db()
        self.config.add_display_event_type(REGULAR_EVENT_TYPE_ID)

