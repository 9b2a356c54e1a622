"""Tasks (``org.tasks``) 13.6.3, versionCode 130605 (the build AndroidWorld installs), on its Room database.

Facts come from github.com/tasks/tasks at the commit that set versionCode 130605 (``ee21cc660e``):
``app/schemas/com.todoroo.astrid.dao.Database/88.json`` (every table, index and Room's identity hash),
``res/layout/fragment_task_list.xml``, ``task_adapter_row.xml``, ``fragment_task_edit.xml``,
``filter_adapter_row.xml``, ``date_time_picker_shortcuts.xml``, ``dialog_date_time_picker_buttons.xml``,
``res/menu/menu_task_list_fragment_bottom.xml``, ``menu_task_edit_fragment.xml``, ``res/values/strings.xml``,
and the code they name below: ``TaskListFragment`` (bottom app bar by default, overflow menu), ``FilterProvider``
and ``BuiltInFilterExposer`` (drawer: My Tasks, Filters: Today and Recently modified, Tags, Places, Local lists:
Default list), ``SortHelper``/``TaskListQueryRecursive`` (default "smart" sort, completed tasks at the bottom),
``Preferences`` (defaults: show completed and show unstarted on, default priority low, reminders when due),
``TaskViewHolder`` and ``DateUtilities`` (row texts), ``TaskEditFragment``/``TaskEditViewModel`` (save, discard,
delete), ``DateTimePicker``/``BaseDateTimePicker`` (shortcuts, calendar, OK/Cancel), ``Task.createDueDate``
(a date alone is noon with seconds 0, a date with a time has seconds 1), ``TaskCompleter``, ``TaskDeleter``
(``deleted`` = ``modified`` = now in whole seconds), ``TaskCreator``, ``CaldavDao``/``TaskMover`` (new tasks go
to the local "Default list"), ``UUIDHelper`` (remote ids are positive 63-bit longs in decimal).

The list and the editor are fragments of one activity (``MainActivity``), as in the app. Screens read the
database on every build, so rows a task writes from outside show up at once. Not simulated: subtasks (only
top-level tasks are listed), search, sorting and grouping options (the Sort button does nothing), multi-select,
swipe to refresh, tags, places, custom filters, reminders' notifications, repeating tasks, the start date,
location, tags, subtasks, reminder and file editors (their rows are shown, inert), the collapsing app bar of the
editor, and the drawer's footer actions. "Pick time" opens Material's time picker (``framework.time_picker``) as
``MyTimePickerDialog`` does, in its clock input mode; Tasks.org styles it with Material Components'
``ThemeOverlay.MaterialComponents.TimePicker``, drawn here in the shared picker's Material 3 roles.
"""

from __future__ import annotations

import calendar
import datetime as dt
import hashlib
import re
import sqlite3
import string
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from android_gym import locales
from android_gym.sim.framework import day_picker, formats
from android_gym.sim.framework.app import App, Context, Screen
from android_gym.sim.framework.intent import Intent
from android_gym.sim.framework.looks import MATERIAL_COMPONENTS_NIGHT
from android_gym.sim.framework.time_picker import Theme, TimePicker, release_focus
from android_gym.sim.framework.window import KEYBOARD_HEIGHT, STATUS_BAR_HEIGHT
from android_gym.sim.system.clock import DAY_MS
from android_gym.sim.system.prefs import SharedPreferences
from android_gym.sim.system.provider import SqliteProvider
from android_gym.sim.ui.dialogs import confirm_dialog, dialog_over, scrim_over
from android_gym.sim.ui.layout import line_height, measure_height, wrap
from android_gym.sim.ui.views import (
    DIVIDER,
    PRIMARY,
    TEXT,
    TEXT_SECONDARY,
    TOP_CORNERS,
    WHITE,
    View,
    button,
    column,
    does_nothing,
    edit_text,
    frame,
    image_button,
    row,
    text_view,
)

PACKAGE = "org.tasks"
MAIN_ACTIVITY = "com.todoroo.astrid.activity.MainActivity"
DB_PATH = f"/data/data/{PACKAGE}/databases/database"
PREFS_PATH = f"/data/data/{PACKAGE}/shared_prefs/{PACKAGE}_preferences.xml"
ROOM_VERSION = 88
ROOM_IDENTITY_HASH = "a2597380bdfaeeb040d40bab2fc653c1"

# res/values/strings.xml
APP_NAME = "Tasks"
MY_TASKS, TODAY, RECENTLY_MODIFIED, DEFAULT_LIST = "My Tasks", "Today", "Recently modified", "Default list"
FILTERS, TAGS, PLACES, LOCAL_LISTS = "Filters", "Tags", "Places", "Local lists"
DRAWER_ACTIONS = ("Donate", "Name your price", "Manage drawer", "Settings", "Help & feedback")
CREATE_NEW_TASK, SEARCH, SORT, MORE_OPTIONS = "Create new task", "Search", "Sort", "More options"
VOICE_INPUT = "Voice input"  # EPr_voiceInputEnabled_title: menu_voice_add's title
CLEAR_COMPLETED, COLLAPSE_SUBTASKS, EXPAND_SUBTASKS = "Clear Completed", "Collapse subtasks", "Expand subtasks"
SHOW_COMPLETED, SHOW_UNSTARTED, SHARE = "Show completed", "Show unstarted", "Share"
CLEAR_COMPLETED_CONFIRMATION = "Clear completed tasks?"
NO_ITEMS = "There are no tasks here."
TASK_NAME_HINT, DESCRIPTION_HINT, PRIORITY_LABEL = "Task name", "Description", "Priority"
NO_DUE_DATE, NO_START_DATE, DOES_NOT_REPEAT = "No due date", "No start date", "Does not repeat"
ADD_LOCATION, ADD_TAGS, ADD_SUBTASK, ADD_REMINDER, ADD_ATTACHMENT, TIMER = (
    "Add location", "Add tags", "Add subtask", "Add reminder", "Add attachment", "Timer")
SAVE, DELETE_TASK, NO_TITLE = "Save", "Delete task", "(No title)"
DELETE_QUESTION, DISCARD_CONFIRMATION = "Delete this task?", "Are you sure you want to discard your changes?"
KEEP_EDITING, DISCARD, OK, CANCEL = "Keep editing", "Discard", "OK", "Cancel"
NO_DATE, NO_TIME, PICK_TIME, TOMORROW = "No date", "No time", "Pick time", "Tomorrow"
NEXT_WEEKDAY = ("Next Mon", "Next Tue", "Next Wed", "Next Thu", "Next Fri", "Next Sat", "Next Sun")

# Task.Priority; ColorProvider.priorityColor (RED_500, AMBER_500, BLUE_500, GREY_500).
HIGH, MEDIUM, LOW, NONE = 0, 1, 2, 3
PRIORITY_COLORS = {HIGH: (244, 67, 54), MEDIUM: (255, 193, 7), LOW: (33, 150, 243), NONE: (158, 158, 158)}
OVERDUE_COLOR, TERTIARY = (211, 47, 47), (158, 158, 158)

# Filters by their p_last_viewed_list value (DefaultFilterProvider: "<type>:<id>"; a local list is "4:<uuid>").
FILTER_MY_TASKS, FILTER_TODAY, FILTER_RECENT = "0:0", "0:1", "0:3"
CALDAV_FILTER = "4:"
ONE_DAY_MS = 86_400_000
APPLE_EPOCH_MS = 978_307_200_000  # SortHelper.APPLE_EPOCH
# BaseDateTimePicker: preference times (09:00, 13:00, 17:00, 20:00) + 1 s, so they carry a time.
TIME_SHORTCUTS = (32_401_000, 46_801_000, 61_201_000, 72_001_000)
ALARM_TYPE_REL_END = 2  # Alarm.TYPE_REL_END: the "when due" default reminder

_TEXT_16SP, _TEXT_14SP, _TEXT_20SP, _TEXT_24SP = 42, 37, 53, 63  # px at 420 dpi
_BAR = 147  # ?attr/actionBarSize, 56 dp
_KEYLINE = 42  # keyline_first, 16 dp
_ROW_PADDING = 42  # p_rowPadding default 16 dp
_CHIP_SPACING = 10  # ChipGroup's mainAxisSpacing and crossAxisSpacing, 4 dp
_DRAWER_CORNER = 32  # bottom_sheet_corners, 12 dp: CustomShapeAppearanceBottomSheetDialog's top corners
_EDIT_ROW = 168  # a task-edit row: 20 dp padding around a 24 dp icon

SCHEMA = (  # 88.json: createSql of every entity with ${TABLE_NAME} filled in, then its indices
    "CREATE TABLE IF NOT EXISTS `notification` (`uid` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, `task` INTEGER "
    "NOT NULL, `timestamp` INTEGER NOT NULL, `type` INTEGER NOT NULL, `location` INTEGER, FOREIGN KEY(`task`) "
    "REFERENCES `tasks`(`_id`) ON UPDATE NO ACTION ON DELETE CASCADE )",
    "CREATE UNIQUE INDEX IF NOT EXISTS `index_notification_task` ON `notification` (`task`)",
    "CREATE TABLE IF NOT EXISTS `tagdata` (`_id` INTEGER PRIMARY KEY AUTOINCREMENT, `remoteId` TEXT, `name` TEXT, "
    "`color` INTEGER, `tagOrdering` TEXT, `td_icon` INTEGER, `td_order` INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS `userActivity` (`_id` INTEGER PRIMARY KEY AUTOINCREMENT, `remoteId` TEXT, "
    "`message` TEXT, `picture` TEXT, `target_id` TEXT, `created_at` INTEGER)",
    "CREATE TABLE IF NOT EXISTS `attachment_file` (`file_id` INTEGER PRIMARY KEY AUTOINCREMENT, `file_uuid` TEXT "
    "NOT NULL, `filename` TEXT NOT NULL, `uri` TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS `task_list_metadata` (`_id` INTEGER PRIMARY KEY AUTOINCREMENT, `tag_uuid` TEXT, "
    "`filter` TEXT, `task_ids` TEXT)",
    "CREATE TABLE IF NOT EXISTS `tasks` (`_id` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, `title` TEXT, "
    "`importance` INTEGER NOT NULL, `dueDate` INTEGER NOT NULL, `hideUntil` INTEGER NOT NULL, `created` INTEGER "
    "NOT NULL, `modified` INTEGER NOT NULL, `completed` INTEGER NOT NULL, `deleted` INTEGER NOT NULL, `notes` TEXT, "
    "`estimatedSeconds` INTEGER NOT NULL, `elapsedSeconds` INTEGER NOT NULL, `timerStart` INTEGER NOT NULL, "
    "`notificationFlags` INTEGER NOT NULL, `lastNotified` INTEGER NOT NULL, `recurrence` TEXT, `repeat_from` "
    "INTEGER NOT NULL DEFAULT 0, `calendarUri` TEXT, `remoteId` TEXT, `collapsed` INTEGER NOT NULL, `parent` "
    "INTEGER NOT NULL, `order` INTEGER, `read_only` INTEGER NOT NULL DEFAULT 0)",
    "CREATE UNIQUE INDEX IF NOT EXISTS `t_rid` ON `tasks` (`remoteId`)",
    "CREATE INDEX IF NOT EXISTS `active_and_visible` ON `tasks` (`completed`, `deleted`, `hideUntil`)",
    "CREATE TABLE IF NOT EXISTS `alarms` (`_id` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, `task` INTEGER NOT "
    "NULL, `time` INTEGER NOT NULL, `type` INTEGER NOT NULL DEFAULT 0, `repeat` INTEGER NOT NULL DEFAULT 0, "
    "`interval` INTEGER NOT NULL DEFAULT 0, FOREIGN KEY(`task`) REFERENCES `tasks`(`_id`) ON UPDATE NO ACTION ON "
    "DELETE CASCADE )",
    "CREATE INDEX IF NOT EXISTS `index_alarms_task` ON `alarms` (`task`)",
    "CREATE TABLE IF NOT EXISTS `places` (`place_id` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, `uid` TEXT, "
    "`name` TEXT, `address` TEXT, `phone` TEXT, `url` TEXT, `latitude` REAL NOT NULL, `longitude` REAL NOT NULL, "
    "`place_color` INTEGER NOT NULL, `place_icon` INTEGER NOT NULL, `place_order` INTEGER NOT NULL, `radius` "
    "INTEGER NOT NULL DEFAULT 250)",
    "CREATE UNIQUE INDEX IF NOT EXISTS `place_uid` ON `places` (`uid`)",
    "CREATE TABLE IF NOT EXISTS `geofences` (`geofence_id` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, `task` "
    "INTEGER NOT NULL, `place` TEXT, `arrival` INTEGER NOT NULL, `departure` INTEGER NOT NULL, FOREIGN KEY(`task`) "
    "REFERENCES `tasks`(`_id`) ON UPDATE NO ACTION ON DELETE CASCADE )",
    "CREATE INDEX IF NOT EXISTS `index_geofences_task` ON `geofences` (`task`)",
    "CREATE TABLE IF NOT EXISTS `tags` (`_id` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, `task` INTEGER NOT NULL, "
    "`name` TEXT, `tag_uid` TEXT, `task_uid` TEXT, FOREIGN KEY(`task`) REFERENCES `tasks`(`_id`) ON UPDATE NO "
    "ACTION ON DELETE CASCADE )",
    "CREATE INDEX IF NOT EXISTS `index_tags_task` ON `tags` (`task`)",
    "CREATE TABLE IF NOT EXISTS `filters` (`_id` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, `title` TEXT, `sql` "
    "TEXT, `values` TEXT, `criterion` TEXT, `f_color` INTEGER, `f_icon` INTEGER, `f_order` INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS `caldav_lists` (`cdl_id` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, `cdl_account` "
    "TEXT, `cdl_uuid` TEXT, `cdl_name` TEXT, `cdl_color` INTEGER NOT NULL, `cdl_ctag` TEXT, `cdl_url` TEXT, "
    "`cdl_icon` INTEGER, `cdl_order` INTEGER NOT NULL, `cdl_access` INTEGER NOT NULL, `cdl_last_sync` INTEGER "
    "NOT NULL)",
    "CREATE TABLE IF NOT EXISTS `caldav_tasks` (`cd_id` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, `cd_task` "
    "INTEGER NOT NULL, `cd_calendar` TEXT, `cd_remote_id` TEXT, `cd_object` TEXT, `cd_etag` TEXT, `cd_last_sync` "
    "INTEGER NOT NULL, `cd_deleted` INTEGER NOT NULL, `cd_remote_parent` TEXT, `gt_moved` INTEGER NOT NULL, "
    "`gt_remote_order` INTEGER NOT NULL, FOREIGN KEY(`cd_task`) REFERENCES `tasks`(`_id`) ON UPDATE NO ACTION ON "
    "DELETE CASCADE )",
    "CREATE INDEX IF NOT EXISTS `index_caldav_tasks_cd_task` ON `caldav_tasks` (`cd_task`)",
    "CREATE TABLE IF NOT EXISTS `caldav_accounts` (`cda_id` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, `cda_uuid` "
    "TEXT, `cda_name` TEXT, `cda_url` TEXT, `cda_username` TEXT, `cda_password` TEXT, `cda_error` TEXT, "
    "`cda_account_type` INTEGER NOT NULL, `cda_collapsed` INTEGER NOT NULL, `cda_server_type` INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS `principals` (`id` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, `account` INTEGER "
    "NOT NULL, `href` TEXT NOT NULL, `email` TEXT, `display_name` TEXT, FOREIGN KEY(`account`) REFERENCES "
    "`caldav_accounts`(`cda_id`) ON UPDATE NO ACTION ON DELETE CASCADE )",
    "CREATE UNIQUE INDEX IF NOT EXISTS `index_principals_account_href` ON `principals` (`account`, `href`)",
    "CREATE TABLE IF NOT EXISTS `principal_access` (`id` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, `principal` "
    "INTEGER NOT NULL, `list` INTEGER NOT NULL, `invite` INTEGER NOT NULL, `access` INTEGER NOT NULL, FOREIGN "
    "KEY(`principal`) REFERENCES `principals`(`id`) ON UPDATE NO ACTION ON DELETE CASCADE , FOREIGN KEY(`list`) "
    "REFERENCES `caldav_lists`(`cdl_id`) ON UPDATE NO ACTION ON DELETE CASCADE )",
    "CREATE UNIQUE INDEX IF NOT EXISTS `index_principal_access_list_principal` ON `principal_access` "
    "(`list`, `principal`)",
    "CREATE INDEX IF NOT EXISTS `index_principal_access_principal` ON `principal_access` (`principal`)",
    "CREATE TABLE IF NOT EXISTS `attachment` (`attachment_id` INTEGER PRIMARY KEY AUTOINCREMENT, `task` INTEGER NOT "
    "NULL, `file` INTEGER NOT NULL, `file_uuid` TEXT NOT NULL, FOREIGN KEY(`task`) REFERENCES `tasks`(`_id`) ON "
    "UPDATE NO ACTION ON DELETE CASCADE , FOREIGN KEY(`file`) REFERENCES `attachment_file`(`file_id`) ON UPDATE NO "
    "ACTION ON DELETE CASCADE )",
    "CREATE UNIQUE INDEX IF NOT EXISTS `index_attachment_task_file` ON `attachment` (`task`, `file`)",
    "CREATE INDEX IF NOT EXISTS `index_attachment_task` ON `attachment` (`task`)",
    "CREATE INDEX IF NOT EXISTS `index_attachment_file` ON `attachment` (`file`)",
    # Room's setupQueries, and what every Android database holds.
    "CREATE TABLE IF NOT EXISTS room_master_table (id INTEGER PRIMARY KEY,identity_hash TEXT)",
    f"INSERT OR REPLACE INTO room_master_table (id,identity_hash) VALUES(42, '{ROOM_IDENTITY_HASH}')",
    "CREATE TABLE android_metadata (locale TEXT)",
    "INSERT INTO android_metadata VALUES ('en_US')",
    f"PRAGMA user_version = {ROOM_VERSION}",
)

#: Every column of a ``tasks`` row as ``Task``'s constructor leaves it (``remoteId`` is ``Task.NO_UUID``).
TASK_DEFAULTS: dict[str, Any] = {
    "title": None, "importance": NONE, "dueDate": 0, "hideUntil": 0, "created": 0, "modified": 0, "completed": 0,
    "deleted": 0, "notes": None, "estimatedSeconds": 0, "elapsedSeconds": 0, "timerStart": 0,
    "notificationFlags": 0, "lastNotified": 0, "recurrence": None, "repeat_from": 0, "calendarUri": None,
    "remoteId": "0", "collapsed": 0, "parent": 0, "order": None, "read_only": 0,
}


def _id(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


# ----- dates ---------------------------------------------------------------------------------------------------
def has_time(ms: int) -> bool:
    """``Task.hasDueTime``: a due date (or start date) carries a time when its seconds are not zero."""
    return ms > 0 and ms % 60_000 > 0


def to_datetime(ms: int, tz: dt.tzinfo) -> dt.datetime:
    """Epoch milliseconds as a local datetime."""
    return dt.datetime.fromtimestamp(ms / 1000, tz=tz)


def to_ms(when: dt.datetime) -> int:
    """A datetime as epoch milliseconds."""
    return round(when.timestamp() * 1000)


def start_of_day(ms: int, tz: dt.tzinfo) -> int:
    """``startOfDay``: local midnight of the day of ``ms``."""
    return to_ms(to_datetime(ms, tz).replace(hour=0, minute=0, second=0, microsecond=0))


def due_date_ms(day: dt.date, time_of_day: dt.time | None, tz: dt.tzinfo) -> int:
    """``Task.createDueDate``: a day alone is local noon with seconds 0 (``URGENCY_SPECIFIC_DAY``); a day with
    a time keeps the time with seconds 1 (``URGENCY_SPECIFIC_DAY_TIME``)."""
    if time_of_day is None:
        return to_ms(dt.datetime.combine(day, dt.time(12, 0), tz))
    return to_ms(dt.datetime.combine(day, time_of_day.replace(second=1, microsecond=0), tz))


def start_date_ms(day: dt.date, time_of_day: dt.time | None, tz: dt.tzinfo) -> int:
    """``Task.createHideUntil``/``TaskEditViewModel.setStartDate``: a day alone is local midnight; a day with a
    time keeps the time with seconds 1."""
    if time_of_day is None:
        return to_ms(dt.datetime.combine(day, dt.time(0, 0), tz))
    return to_ms(dt.datetime.combine(day, time_of_day.replace(second=1, microsecond=0), tz))


def time_string(when: dt.datetime, is24: bool) -> str:
    """``DateUtilities.getTimeString``: "14:05" with the 24-hour setting, else "2 PM" / "2:05 PM"."""
    if is24:
        return when.strftime("%H:%M")
    hour, suffix = when.hour % 12 or 12, "AM" if when.hour < 12 else "PM"
    return f"{hour} {suffix}" if when.minute == 0 else f"{hour}:{when.minute:02d} {suffix}"


def _strip_year(text: str, year: int) -> str:
    """``stripYear``: the current year and the separator before it taken out of a formatted date."""
    return re.sub(rf"(?: de |, |/| )?{year}(?:年|년 | г\.)?", "", text)


def _full_date(when: dt.datetime, this_year: int, full: bool, tag: str) -> str:
    """``getFullDate``: ``ofLocalizedDate`` MEDIUM ("Oct 20, 2023") or FULL ("Friday, October 20, 2023") in the
    locale ``tag``, the current year stripped."""
    return _strip_year(formats.format_pattern(when, formats.date_pattern("full" if full else "medium", tag), tag),
                       this_year)


def _full_date_time(when: dt.datetime, this_year: int, full: bool, tag: str) -> str:
    """``getFullDateTime``: ``ofLocalizedDateTime(MEDIUM or FULL, SHORT)`` in the locale ``tag`` ("Oct 25, 2:00
    PM", "Wednesday, October 25 at 2:00 PM"; a SHORT time ignores the 24-hour setting), the current year
    stripped."""
    return _strip_year(formats.format_date_time_instance(when, "full" if full else "medium", tag, "short"),
                       this_year)


def _relative_day(day: dt.date, today: dt.date, abbreviated: bool, tag: str) -> str:
    """``DateUtilities.getRelativeDay`` for a day within six days of today: Today, Tomorrow, Yesterday (the app's
    strings in the locale ``tag``, which ``getRelativeDateTime`` composes with the time) or the weekday."""
    offset = (day - today).days
    if offset in (-1, 0, 1):
        word = {0: TODAY, 1: "Tmrw" if abbreviated else TOMORROW, -1: "Yest" if abbreviated else "Yesterday"}[offset]
        return locales.resource(tag, PACKAGE, word)
    return formats.weekday_name(day.weekday(), tag, "EEE" if abbreviated else "EEEE")


def relative_date_time(ms: int, now: dt.datetime, full: bool, is24: bool, tag: str) -> str:
    """``DateUtilities.getRelativeDateTime`` in the locale ``tag``: MEDIUM in the list ("Tmrw 14:00", "Fri",
    "Oct 25", "Oct 25, 2:00 PM"), FULL in the editor ("Tomorrow 14:00", "Wednesday, October 25 at 2:00 PM",
    "Mittwoch, 25. Oktober um 14:00"); the time alone for today."""
    when = to_datetime(ms, now.tzinfo or dt.timezone.utc)
    if abs((when.date() - now.date()).days) > 6:
        if not has_time(ms):
            return _full_date(when, now.year, full, tag)
        return _full_date_time(when, now.year, full, tag)
    day = _relative_day(when.date(), now.date(), abbreviated=not full, tag=tag)
    if not has_time(ms):
        return day
    time = time_string(when, is24)
    return time if when.date() == now.date() else f"{day} {time}"


def list_due_text(ms: int, now: dt.datetime, is24: bool, tag: str) -> str:
    """The ``due_date`` text of a task row (``TaskViewHolder.setupDueDate``, default sort)."""
    return relative_date_time(ms, now, full=False, is24=is24, tag=tag)


#: SQLite's ``UPPER`` without ICU: ASCII letters only.
_SQLITE_UPPER = str.maketrans(string.ascii_lowercase, string.ascii_uppercase)


def list_sort_key(task: dict[str, Any], now_ms: int) -> tuple:
    """The order of the default list (``TaskListQueryRecursive`` with ``SORT_AUTO``, completed tasks at the
    bottom, newest completion first): due time (a date alone counts as 23:59 of its day, no date as twice now)
    plus almost two days per importance step, then the upper-cased title."""
    due = task["dueDate"] or 0
    now_sql = now_ms // 1000 * 1000  # strftime('%s','now')*1000
    adjusted = now_sql * 2 if due == 0 else (due if (due // 1000) % 60 > 0 else due + 43_140_000)
    completed = task["completed"] or 0
    title = task["title"]
    upper = None if title is None else title.translate(_SQLITE_UPPER)
    return (completed > 0, -completed if completed > 0 else 0, adjusted + 172_799_999 * (task["importance"] or 0),
            upper is not None, upper or "", task["_id"])


def new_remote_id(seed: str, taken: Callable[[str], bool]) -> str:
    """``UUIDHelper.newUUID``: a positive 63-bit long of at least 100000000, in decimal; drawn from ``seed``
    (device state, so the phone stays deterministic) instead of ``UUID.randomUUID``."""
    attempt = 0
    while True:
        digest = hashlib.sha256(f"{seed}:{attempt}".encode()).digest()
        value = int.from_bytes(digest[:8], "big") & 0x7FFF_FFFF_FFFF_FFFF
        if value >= 100_000_000 and not taken(str(value)):
            return str(value)
        attempt += 1


# ----- the database -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class TaskFilter:
    """A drawer entry that lists tasks: its key, title and whether it honours "Show completed/unstarted"."""

    key: str
    title: str
    supports_hidden: bool = True


class TasksDatabase(SqliteProvider):
    """The app's Room database (``Database``, version 88, WAL). A new database gets the local account and its
    "Default list" (``CaldavDao.setupLocalAccount``, run as the app first shows its lists)."""

    db_path = DB_PATH
    schema = SCHEMA
    journal_mode = "WAL"
    created_alike = False  # the list's uuid comes from the clock

    def on_create(self, db: sqlite3.Connection) -> None:
        """The local account (``cda_uuid`` "local", ``TYPE_LOCAL``) and its "Default list"."""
        db.execute("INSERT INTO caldav_accounts (cda_uuid, cda_name, cda_url, cda_username, cda_password, "
                   "cda_error, cda_account_type, cda_collapsed, cda_server_type) VALUES ('local', '', '', '', '', "
                   "'', 2, 0, -1)")
        uuid = new_remote_id(f"list:{self._phone.clock.now_ms()}", lambda _: False)
        db.execute("INSERT INTO caldav_lists (cdl_account, cdl_uuid, cdl_name, cdl_color, cdl_ctag, cdl_url, "
                   "cdl_icon, cdl_order, cdl_access, cdl_last_sync) VALUES ('local', ?, ?, 0, NULL, '', -1, -1, 0, 0)",
                   (uuid, DEFAULT_LIST))

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        with self.reading() as db:
            return [dict(r) for r in db.execute(sql, tuple(params))]

    def lists(self) -> list[dict[str, Any]]:
        """The local account's lists, by name (``caldav_lists``)."""
        return self._read("SELECT * FROM caldav_lists WHERE cdl_account = 'local' ORDER BY UPPER(cdl_name)")

    def task(self, task_id: int) -> dict[str, Any] | None:
        """One row of ``tasks``."""
        found = self._read("SELECT * FROM tasks WHERE _id = ?", (task_id,))
        return found[0] if found else None

    def list_names(self) -> dict[int, str]:
        """Task id → the name of the list it is in (``caldav_tasks`` not deleted)."""
        return {r["cd_task"]: r["cdl_name"] for r in self._read(
            "SELECT cd_task, cdl_name FROM caldav_tasks JOIN caldav_lists ON cd_calendar = cdl_uuid "
            "WHERE cd_deleted = 0")}

    def filtered(self, key: str, now_ms: int, show_completed: bool, show_hidden: bool) -> list[dict[str, Any]]:
        """The tasks a filter lists, in the list's order (``TaskListQuery``: the filter's criteria, adjusted by
        ``SortHelper.adjustQueryForFlags``)."""
        now_sql = now_ms // 1000 * 1000
        if key == FILTER_RECENT:  # RecentlyModifiedFilter: its own order, no flags
            since = now_ms // 60_000 * 60_000 - ONE_DAY_MS
            return self._read("SELECT * FROM tasks WHERE deleted <= 0 AND modified > ? ORDER BY modified DESC",
                              (since,))
        where, params = ["tasks.deleted <= 0"], []
        if not show_completed:
            where.append("tasks.completed <= 0")
        if not show_hidden:
            where.append("tasks.hideUntil <= ?")
            params.append(now_sql)
        join = ""
        if key == FILTER_TODAY:  # TodayFilter: due by the end of today
            end_of_day = start_of_day(now_ms, dt.timezone.utc) + ONE_DAY_MS - 1
            where += ["tasks.dueDate > 0", "tasks.dueDate <= ?"]
            params.append(end_of_day)
        else:  # MyTasksFilter, or a local list (CaldavFilter)
            where.append("tasks.parent = 0")
            if key.startswith(CALDAV_FILTER):
                join = "JOIN caldav_tasks ON cd_task = tasks._id AND cd_deleted = 0 AND cd_calendar = ?"
                params.insert(0, key.removeprefix(CALDAV_FILTER))
        rows = self._read(f"SELECT tasks.* FROM tasks {join} WHERE {' AND '.join(where)}", params)
        return sorted(rows, key=lambda task: list_sort_key(task, now_ms))

    def list_turns(self, key: str, listed: list[dict[str, Any]], now_ms: int, show_hidden: bool) -> int | None:
        """The device time from which filter ``key`` may list other tasks or order them otherwise than ``listed``
        (what it gave at ``now_ms``), which a screen waits for (``VirtualClock.before``) instead of reading the
        clock to the millisecond: the next minute for the recent filter; else the next day for Today, the second
        the first hidden task shows, and the second an undated task, which sorts at twice the time now, reaches a
        dated one it sorts before; ``None`` when none of these can happen."""
        if key == FILTER_RECENT:
            return (now_ms // 60_000 + 1) * 60_000
        now_sql = now_ms // 1000 * 1000
        turns = [start_of_day(now_ms, dt.timezone.utc) + ONE_DAY_MS] if key == FILTER_TODAY else []
        if not show_hidden:
            until = self._read("SELECT MIN(hideUntil) AS until FROM tasks WHERE deleted <= 0 AND hideUntil > ?",
                               (now_sql,))[0]["until"]
            if until is not None:
                turns.append(-(-until // 1000) * 1000)
        undated: dict[tuple, set[int]] = {}
        dated: dict[tuple, list[int]] = {}
        for task in listed:
            sort_key = list_sort_key(task, now_ms)
            group, place = sort_key[:2], sort_key[2]  # done or not and when; the place in time
            if task["dueDate"]:
                dated.setdefault(group, []).append(place)
            else:
                undated.setdefault(group, set()).add(place)
        for group, places in undated.items():
            for undated_place in places:  # it grows by 2000 a second
                for place in dated.get(group, ()):
                    if place > undated_place:  # the first second it is no longer below
                        turns.append(now_sql + -(-(place - undated_place) // 2000) * 1000)
                    elif place == undated_place:  # tied (the titles decide): past it from the next second
                        turns.append(now_sql + 1000)
        return min(turns, default=None)

    def count(self, key: str, now_ms: int) -> int:
        """``TaskDao.count(filter)``: the filter's criteria as the drawer counts them (active, visible)."""
        if key == FILTER_RECENT:
            return len(self.filtered(key, now_ms, True, True))
        return len(self.filtered(key, now_ms, show_completed=False, show_hidden=False))

    def _remote_id_taken(self, db: sqlite3.Connection, table: str, column: str) -> Callable[[str], bool]:
        return lambda value: db.execute(f"SELECT 1 FROM {table} WHERE {column} = ?", (value,)).fetchone() is not None

    def create_task(self, values: dict[str, Any], list_uuid: str | None, now_ms: int) -> int:
        """``TaskEditViewModel.save`` of a new task: insert the row (``TaskDao.createNew``), put it in the list
        at the top (``CaldavDao.insert`` with ``addTasksToTop``) and add the default "when due" reminder."""
        with self._transaction() as db:
            row = {**TASK_DEFAULTS, **values, "modified": now_ms}
            row["remoteId"] = new_remote_id(f"task:{now_ms}:{row['created']}:{row['title']}",
                                            self._remote_id_taken(db, "tasks", "remoteId"))
            if list_uuid is not None:
                first = db.execute(
                    f"SELECT MIN(IFNULL(`order`, (created - {APPLE_EPOCH_MS}) / 1000)) FROM caldav_tasks INNER JOIN "
                    "tasks ON _id = cd_task WHERE cd_calendar = ? AND cd_deleted = 0 AND deleted = 0 AND parent = 0",
                    (list_uuid,)).fetchone()[0]
                if first is not None and (row["created"] - APPLE_EPOCH_MS) // 1000 >= first:
                    row["order"] = first - 1
            columns = ", ".join(f"`{name}`" for name in row)
            task_id = db.execute(f"INSERT INTO tasks ({columns}) VALUES ({', '.join('?' * len(row))})",
                                 tuple(row.values())).lastrowid
            if list_uuid is not None:
                remote = new_remote_id(f"caldav:{now_ms}:{task_id}",
                                       self._remote_id_taken(db, "caldav_tasks", "cd_remote_id"))
                db.execute("INSERT INTO caldav_tasks (cd_task, cd_calendar, cd_remote_id, cd_object, cd_etag, "
                           "cd_last_sync, cd_deleted, cd_remote_parent, gt_moved, gt_remote_order) VALUES "
                           "(?, ?, ?, ?, NULL, 0, 0, NULL, 0, 0)", (task_id, list_uuid, remote, f"{remote}.ics"))
            if row["dueDate"] > 0:
                db.execute("INSERT INTO alarms (task, time, type, repeat, interval) VALUES (?, 0, ?, 0, 0)",
                           (task_id, ALARM_TYPE_REL_END))
            return int(task_id)

    def update_task(self, task_id: int, values: dict[str, Any]) -> None:
        """``TaskDao.update``: write the edited columns."""
        if not values:
            return
        assignments = ", ".join(f"`{name}` = ?" for name in values)
        with self._transaction() as db:
            db.execute(f"UPDATE tasks SET {assignments} WHERE _id = ?", (*values.values(), task_id))

    def set_completion(self, remote_id: str | None, completed_ms: int, now_ms: int) -> None:
        """``TaskDao.setCompletionDate``: by remote id, with ``modified`` = now."""
        with self._transaction() as db:
            db.execute("UPDATE tasks SET completed = ?, modified = ? WHERE remoteId = ?",
                       (completed_ms, now_ms, remote_id))

    def mark_deleted(self, task_ids: Sequence[int], now_ms: int) -> None:
        """``DeletionDao.markDeleted``: ``modified`` and ``deleted`` = ``strftime('%s','now')*1000``."""
        stamp = now_ms // 1000 * 1000
        with self._transaction() as db:
            db.executemany("UPDATE tasks SET modified = ?, deleted = ? WHERE _id = ?",
                           [(stamp, stamp, task_id) for task_id in task_ids])


# ----- shared widgets ------------------------------------------------------------------------------------------
def _bottom_sheet(*children: View, **props) -> View:
    """A ``BottomSheetDialog``'s sheet at the bottom of the window (``design_bottom_sheet``)."""
    return View(kind="column", class_name="android.widget.FrameLayout", resource_id=_id("design_bottom_sheet"),
                children=list(children), gravity="bottom", background=WHITE, **props)


def _label(text: str, size: int = _TEXT_14SP, color=TEXT_SECONDARY, **props) -> View:
    """Text a custom view draws itself (in pixels, not in the accessibility tree)."""
    return View(kind="label", hint=text, text_size=size, text_color=color, height=line_height(size) + 24,
                padding=12, **props)


# ----- the editor ------------------------------------------------------------------------------------------------
@dataclass
class DatePicker:
    """``DateTimePicker``'s state: the chosen day (local midnight ms, 0 none), time of day (ms, 0 none), the
    month the calendar shows (its first day), and the time picker while it is open."""

    initial_day: int
    initial_time: int
    day: int
    time: int
    month: dt.date
    time_picker: TimePicker | None = None


@dataclass
class Editor:
    """``TaskEditFragment`` with its ``TaskEditViewModel``: the task as loaded and the fields being edited."""

    original: dict[str, Any]
    is_new: bool
    title: str
    description: str | None
    importance: int
    due: int
    completed: bool
    popup: str = ""  # "", "date", "delete" or "discard"
    picker: DatePicker | None = None

    @classmethod
    def load(cls, task: dict[str, Any], is_new: bool) -> Editor:
        """The editor on ``task`` (a row, or the defaults of a new task)."""
        return cls(dict(task), is_new, task["title"] or "", task["notes"], task["importance"], task["dueDate"],
                   task["completed"] > 0)

    def has_changes(self) -> bool:
        """``TaskEditViewModel.hasChanges`` for the fields simulated here."""
        original = self.original
        notes = original["notes"]
        description_changed = bool(self.description) if not notes else notes != self.description
        title = self.title.strip()
        return ((original["title"] or "") != title or (self.is_new and bool(title))
                or (original["completed"] > 0) != self.completed or original["dueDate"] != self.due
                or original["importance"] != self.importance or description_changed)


class MainScreen(Screen):
    """``MainActivity``: the task list of the selected filter (``TaskListFragment``), the drawer and the overflow
    menu, and the task editor (``TaskEditFragment``) when a task is open."""

    activity = MAIN_ACTIVITY
    LIST, EDIT_LIST, TITLE, DESCRIPTION = "recycler_view", "task_edit_scroll", "title", "description"

    def __init__(self, app: App, intent: Intent) -> None:
        super().__init__(app, intent)
        self.filter_key = self.tasks_app.prefs.get("last_viewed_list", FILTER_MY_TASKS)  # p_open_last_viewed_list
        self.popup = ""  # "", "drawer", "menu" or "clear_completed"
        self.editor: Editor | None = None

    @property
    def tasks_app(self) -> TasksApp:
        """The app and its data."""
        assert isinstance(self.app, TasksApp)
        return self.app

    @property
    def db(self) -> TasksDatabase:
        """The app's database."""
        return self.tasks_app.db

    def _now(self, resolution_ms: int = 1) -> dt.datetime:
        """The device time, read in units of ``resolution_ms`` (``VirtualClock.now``: a day where only dates show)."""
        return self.phone.clock.now(resolution_ms)

    def _wait_for_turn(self, key: str, listed: list[dict[str, Any]], now_ms: int, show_hidden: bool) -> None:
        """Have the frame go stale when filter ``key``'s list (``listed`` at ``now_ms``) may change as time passes
        (``TasksDatabase.list_turns``)."""
        turn = self.db.list_turns(key, listed, now_ms, show_hidden)
        if turn is not None:
            self.phone.clock.before(turn)

    def _overdue(self, due: int, now: dt.datetime) -> bool:
        """Whether ``due`` is past (``now`` read by the day): a due time once device time passed it (a deadline the
        frame waits for, ``VirtualClock.before``), a day alone from the next day on."""
        if has_time(due):
            return not self.phone.clock.before(due + 1)
        return due < start_of_day(to_ms(now), now.tzinfo or dt.timezone.utc)

    def _is24(self) -> bool:
        """``DateFormat.is24HourFormat``: ``time_12_24``, else the locale's (12-hour in en-US)."""
        return formats.phone_is_24_hour(self.phone)

    def _tag(self) -> str:
        return formats.system_tag(self.phone)

    # ----- navigation ------------------------------------------------------------------------------------------
    def on_back(self) -> bool:
        """BACK closes the time picker, sends the date picker's choice, closes a dialog, hides the keyboard, asks
        before discarding edits (``discardButtonClick``) or closes the editor, the drawer or the menu."""
        editor = self.editor
        if editor is not None:
            if editor.popup == "date" and editor.picker is not None and editor.picker.time_picker is not None:
                self._close_time()
            elif editor.popup == "date":
                self._send_date()  # BaseDateTimePicker.onCancel sends the selection
            elif editor.popup:
                editor.popup = ""
            elif self.keyboard_shown and self.focus_key:
                self.keyboard_shown = False
            elif editor.has_changes():
                editor.popup = "discard"  # discardButtonClick
            else:
                self._close_editor()
            return True
        if self.popup:
            self.popup = ""
            return True
        return False

    def filters(self) -> list[TaskFilter]:
        """The drawer's filters: My Tasks, Today, Recently modified and the local lists."""
        lists = [TaskFilter(CALDAV_FILTER + r["cdl_uuid"], r["cdl_name"] or "") for r in self.db.lists()]
        return [TaskFilter(FILTER_MY_TASKS, MY_TASKS), TaskFilter(FILTER_TODAY, TODAY),
                TaskFilter(FILTER_RECENT, RECENTLY_MODIFIED, supports_hidden=False), *lists]

    def current_filter(self) -> TaskFilter:
        """The selected filter; My Tasks when the stored one no longer exists (``DefaultFilterProvider``)."""
        filters = self.filters()
        return next((f for f in filters if f.key == self.filter_key), filters[0])

    def _open_filter(self, key: str) -> None:
        self.filter_key, self.popup = key, ""
        self.scroll.pop(self.LIST, None)
        self.tasks_app.prefs.apply({"last_viewed_list": ("string", key)})

    def build(self) -> View:
        """The editor when a task is open, else the list with the drawer, menu or dialog over it."""
        if self.editor is not None:
            return self._build_editor(self.editor)
        content = self._build_list()
        if self.popup == "drawer":
            return scrim_over(content, self._drawer(), self._close_popup)
        if self.popup == "menu":
            return scrim_over(content, self._overflow_menu(), self._close_popup)
        if self.popup == "clear_completed":
            dialog = confirm_dialog(CLEAR_COMPLETED_CONFIRMATION, CANCEL, self._close_popup, OK, self._clear_completed)
            return dialog_over(content, dialog, self._close_popup)
        return content

    def _close_popup(self) -> None:
        self.popup = ""

    # ----- the list ----------------------------------------------------------------------------------------------
    def _build_list(self) -> View:
        current = self.current_filter()
        prefs = self.tasks_app.prefs
        show_completed = prefs.get("show_completed_tasks", True) or not current.supports_hidden
        show_hidden = prefs.get("show_hidden_tasks", True) or not current.supports_hidden
        now = self._now(DAY_MS)  # the rows show dates relative to today
        now_ms = self.phone.clock.record_ms()  # the list waits for the time it turns instead of reading the clock
        tasks = self.db.filtered(current.key, now_ms, show_completed, show_hidden)
        self._wait_for_turn(current.key, tasks, now_ms, show_hidden)
        lists = self.db.list_names()
        toolbar = View(kind="row", class_name="android.view.ViewGroup", resource_id=_id("toolbar"), height=_BAR,
                       background=WHITE, children=[
                           text_view(current.title, weight=1, text_size=_TEXT_20SP, padding=_KEYLINE),
                           image_button(SEARCH, "search", does_nothing, text_color=TEXT, height=_BAR)])
        if tasks:
            items = [self._task_row(task, lists.get(task["_id"]), current, now) for task in tasks]
            body = View(kind="list", class_name="androidx.recyclerview.widget.RecyclerView", key=self.LIST,
                        resource_id=_id(self.LIST), scrollable=True, focusable=True, weight=1, children=items)
        else:
            body = column(text_view(NO_ITEMS, text_size=_TEXT_20SP, text_color=TERTIARY, padding=84), weight=1,
                          resource_id=_id("swipe_layout_empty"))
        # menu_task_list_fragment_bottom's ifRoom items: voice input (shown where a speech recognizer is, as the
        # Google app on the emulator is; this phone has none to start, so the tap changes nothing) and sort.
        bar = row(image_button("", "menu", self._open_drawer, text_color=TEXT, height=_BAR), View(weight=1),
                  image_button(VOICE_INPUT, "mic_outline", does_nothing, text_color=TEXT, height=_BAR),
                  image_button(SORT, "sort", does_nothing, text_color=TEXT, height=_BAR),
                  image_button(MORE_OPTIONS, "more", lambda: self._set_popup("menu"), text_color=TEXT, height=_BAR),
                  height=_BAR, background=(243, 246, 252))
        bar.class_name, bar.resource_id = "android.view.ViewGroup", _id("bottomAppBar")
        create = View(kind="fab", class_name="android.widget.ImageButton", resource_id=_id("fab"),
                      content_desc=CREATE_NEW_TASK, hint="plus", clickable=True, focusable=True, width=_BAR,
                      height=_BAR, gravity="center", background=PRIMARY, text_color=WHITE, on_click=self._new_task)
        return View(kind="column", class_name="android.view.ViewGroup", resource_id=_id("task_list_coordinator"),
                    children=[toolbar, body, frame(bar, create, height=_BAR)])

    def _set_popup(self, popup: str) -> None:
        self.popup = popup

    def _open_drawer(self) -> None:
        self.popup = "drawer"

    def _task_row(self, task: dict[str, Any], list_name: str | None, current: TaskFilter, now: dt.datetime) -> View:
        """``task_adapter_row`` as ``TaskViewHolder.bindView`` fills it."""
        completed = task["completed"] > 0
        hidden = self.phone.clock.before(task["hideUntil"])
        title = text_view(task["title"] or "", resource_id=_id("title"), weight=1, text_size=_TEXT_16SP, padding=0,
                          height=line_height(_TEXT_16SP), text_color=TERTIARY if completed or hidden else TEXT)
        top = [title]
        due = task["dueDate"]
        if due > 0:
            overdue = not completed and self._overdue(due, now)
            top.append(text_view(list_due_text(due, now, self._is24(), self._tag()), resource_id=_id("due_date"),
                                 text_size=_TEXT_14SP, padding=0, height=line_height(_TEXT_14SP),
                                 text_color=OVERDUE_COLOR if overdue else TEXT_SECONDARY))
        lines = [row(*top, spacing=21)]
        notes = task["notes"]
        if notes:  # p_show_description: at most two lines
            count = min(len(wrap(notes, _TEXT_16SP, self.phone.window.design_width - 132 - _ROW_PADDING)), 2)
            lines.append(text_view(notes, resource_id=_id("description"), text_size=_TEXT_16SP, padding=0,
                                   height=count * line_height(_TEXT_16SP), text_color=TEXT_SECONDARY))
        chips = []
        if hidden:  # StartDateChip
            chips.append(self._chip(relative_date_time(task["hideUntil"], now, False, self._is24(), self._tag())))
        if list_name is not None and task["parent"] == 0 and current.key in (FILTER_MY_TASKS, FILTER_TODAY,
                                                                              FILTER_RECENT):
            chips.append(self._chip(list_name))
        if chips:
            # org.tasks.compose.ChipGroup: a FlowRow, 4 dp between chips and between lines
            lines.append(View(kind="flow", class_name="android.widget.LinearLayout", resource_id=_id("chip_group"),
                              spacing=_CHIP_SPACING, children=chips))
        box = View(kind="icon", class_name="android.widget.ImageView", resource_id=_id("completeBox"),
                   hint="task_done" if completed else "task_open", checkable=True, checked=completed, clickable=True,
                   focusable=True, width=132, height=126, text_color=PRIORITY_COLORS.get(task["importance"], TERTIARY),
                   on_click=lambda: self._toggle_complete(task))
        body = View(kind="row", class_name="android.widget.RelativeLayout", resource_id=_id("rowBody"),
                    clickable=True, focusable=True, long_clickable=True, padding=0,
                    on_click=lambda: self._open_task(task["_id"]),
                    children=[box, column(*lines, weight=1, spacing=10, padding=_ROW_PADDING // 2)])
        return View(kind="frame", class_name="android.widget.FrameLayout", resource_id=_id("row"),
                    children=[body, View(height=2, background=DIVIDER, gravity="bottom")])

    @staticmethod
    def _chip(text: str) -> View:
        return text_view(text, text_size=_TEXT_14SP, padding=12, background=(232, 234, 237))

    def _toggle_complete(self, task: dict[str, Any]) -> None:
        """``TaskCompleter.setComplete``: completed = now (or 0), by remote id."""
        now = self.phone.clock.now_ms()
        self.db.set_completion(task["remoteId"], 0 if task["completed"] > 0 else now, now)

    def _drawer(self) -> View:
        """``NavigationDrawerFragment``: ``FilterProvider.navDrawerItems`` as rows of its RecyclerView."""
        filters = self.filters()
        now = self.phone.clock.record_ms()  # each count waits for the time it may change
        items = [self._drawer_filter(filters[0], now), self._subheader(FILTERS),
                 *(self._drawer_filter(f, now) for f in filters[1:3]), self._subheader(TAGS), self._subheader(PLACES),
                 self._subheader(LOCAL_LISTS), *(self._drawer_filter(f, now) for f in filters[3:]),
                 View(height=2, background=DIVIDER)]
        items += [self._drawer_action(text) for text in DRAWER_ACTIONS]
        drawer = View(kind="list", class_name="androidx.recyclerview.widget.RecyclerView", key="drawer",
                      resource_id=_id("recycler_view"), scrollable=True, focusable=True, children=items)
        # CustomBottomSheetDialog (NavigationDrawerFragment.getTheme); the date picker's sheet keeps
        # MaterialComponents' square shapeAppearanceLargeComponent
        return _bottom_sheet(drawer, padding=24, corner=_DRAWER_CORNER, corners=TOP_CORNERS)

    def _drawer_filter(self, item: TaskFilter, now_ms: int) -> View:
        """``filter_adapter_row``: icon, name (checked when selected) and the count of active tasks."""
        selected = item.key == self.filter_key
        count = self.db.count(item.key, now_ms)
        self._wait_for_turn(item.key, [], now_ms, show_hidden=False)  # a count does not change with the order
        children = [View(kind="icon", class_name="android.widget.ImageView", resource_id=_id("icon"), hint="list",
                         width=110, height=110, text_color=TEXT_SECONDARY),
                    View(kind="text", class_name="android.widget.CheckedTextView", resource_id=_id("text"),
                         text=item.title, checkable=True, checked=selected, weight=1, text_size=_TEXT_14SP,
                         padding=24, bold=True)]
        if count > 0:
            children.append(text_view(str(count), resource_id=_id("size"), text_size=_TEXT_14SP, padding=24,
                                      text_color=TEXT_SECONDARY))
        return View(kind="row", class_name="android.widget.RelativeLayout", resource_id=_id("row"), clickable=True,
                    focusable=True, selected=selected, padding=18, children=children,
                    background=(232, 240, 254) if selected else None,
                    on_click=lambda: self._open_filter(item.key))

    @staticmethod
    def _subheader(text: str) -> View:
        """``filter_adapter_subheader``."""
        return View(kind="row", class_name="android.widget.RelativeLayout", resource_id=_id("subheader_row"),
                    padding=18, children=[text_view(text, resource_id=_id("text"), text_size=_TEXT_14SP,
                                                    text_color=TEXT_SECONDARY, padding=24, weight=1)])

    def _drawer_action(self, text: str) -> View:
        """``filter_adapter_action``: the footer's actions (what they open is not simulated)."""
        return View(kind="row", class_name="android.widget.RelativeLayout", resource_id=_id("row"), clickable=True,
                    focusable=True, padding=18, on_click=self._close_popup,
                    children=[View(kind="icon", class_name="android.widget.ImageView", resource_id=_id("icon"),
                                   hint="action", width=110, height=110, text_color=TEXT_SECONDARY),
                              text_view(text, resource_id=_id("text"), text_size=_TEXT_14SP, padding=24, weight=1)])

    def _overflow_menu(self) -> View:
        """The bottom app bar's overflow (``menu_task_list_fragment_bottom``'s items shown as ``never``)."""
        current = self.current_filter()
        prefs = self.tasks_app.prefs
        items = [self._menu_item(CLEAR_COMPLETED, lambda: self._set_popup("clear_completed"))]
        if current.supports_hidden:
            items += [self._menu_item(COLLAPSE_SUBTASKS, self._close_popup),
                      self._menu_item(EXPAND_SUBTASKS, self._close_popup)]
        for text, key in ((SHOW_COMPLETED, "show_completed_tasks"), (SHOW_UNSTARTED, "show_hidden_tasks")):
            checked = prefs.get(key, True) or not current.supports_hidden
            items.append(self._menu_item(text, lambda key=key: self._toggle_pref(key), checked=checked,
                                         enabled=current.supports_hidden))
        items.append(self._menu_item(SHARE, self._close_popup))
        return View(kind="list", class_name="android.widget.ListView", key="overflow", children=items,
                    scrollable=True, focusable=True, width=620, gravity="bottom_end", margin=_BAR // 2,
                    background=WHITE)

    @staticmethod
    def _menu_item(text: str, on_click: Callable[[], None], checked: bool | None = None,
                   enabled: bool = True) -> View:
        """A popup menu row: its title, and a CheckBox for a checkable item."""
        children = [text_view(text, resource_id="android:id/title", weight=1, text_size=_TEXT_16SP, padding=42,
                              text_color=TEXT if enabled else TERTIARY)]
        if checked is not None:
            children.append(View(kind="icon", class_name="android.widget.CheckBox", resource_id="android:id/checkbox",
                                 hint="check" if checked else "", checkable=True, checked=checked, width=110,
                                 height=110, enabled=enabled, text_color=PRIMARY))
        return View(kind="row", class_name="android.widget.LinearLayout", clickable=enabled, focusable=True,
                    enabled=enabled, on_click=on_click, children=children)

    def _toggle_pref(self, key: str) -> None:
        """``menu_show_completed``/``menu_show_unstarted``: flip the preference and reload the list."""
        prefs = self.tasks_app.prefs
        prefs.apply({key: ("boolean", not prefs.get(key, True))})
        self.popup = ""

    def _clear_completed(self) -> None:
        """``TaskDeleter.clearCompleted``: mark the filter's completed tasks deleted."""
        now = self.phone.clock.now_ms()
        done = [t["_id"] for t in self.db.filtered(self.current_filter().key, now, True, True) if t["completed"] > 0]
        self.db.mark_deleted(done, now)
        self.popup = ""

    # ----- opening and closing the editor --------------------------------------------------------------------
    def _new_task(self) -> None:
        """``TaskCreator.createWithValues`` (default priority low, no dates) and the editor with the keyboard up;
        the Today filter gives new tasks today's date."""
        now = self.phone.clock.now_ms()
        task = {**TASK_DEFAULTS, "_id": 0, "title": "", "importance": LOW, "created": now, "modified": now}
        if self.current_filter().key == FILTER_TODAY:
            task["dueDate"] = due_date_ms(self._now().date(), None, dt.timezone.utc)
        self.editor = Editor.load(task, is_new=True)
        self.focus_key, self.keyboard_shown = self.TITLE, True

    def _open_task(self, task_id: int) -> None:
        task = self.db.task(task_id)
        if task is not None:
            self.editor = Editor.load(task, is_new=False)
            self.focus_key, self.keyboard_shown = "", False

    def _close_editor(self) -> None:
        self.editor = None
        self.focus_key, self.keyboard_shown = "", False
        self.scroll.pop(self.EDIT_LIST, None)

    def _save(self) -> None:
        """``TaskEditViewModel.save``: nothing to save discards; a new task is inserted into the default list; an
        edited one is updated (``modified`` = now); completing it goes through ``TaskCompleter``."""
        editor = self.editor
        if editor is None:
            return
        if not editor.has_changes() or editor.original["read_only"]:
            self._close_editor()
            return
        now = self.phone.clock.now_ms()
        values = {"title": editor.title.strip() or NO_TITLE, "dueDate": editor.due, "importance": editor.importance,
                  "notes": editor.description}
        if editor.is_new:
            original = editor.original
            lists = self.db.lists()
            self.db.create_task({**{k: v for k, v in original.items() if k != "_id"}, **values},
                                lists[0]["cdl_uuid"] if lists else None, now)
        else:
            self.db.update_task(editor.original["_id"], {**values, "modified": now})
            if (editor.original["completed"] > 0) != editor.completed:
                self.db.set_completion(editor.original["remoteId"], now if editor.completed else 0, now)
        self._close_editor()

    def _delete(self) -> None:
        """``TaskEditViewModel.delete``: ``TaskDeleter.markDeleted``, then the editor closes."""
        if self.editor is not None:
            self.db.mark_deleted([self.editor.original["_id"]], self.phone.clock.now_ms())
        self._close_editor()

    def _complete_from_editor(self) -> None:
        """The editor's check button: mark done and save (or, for a done task, undo)."""
        editor = self.editor
        if editor is None:
            return
        if editor.completed:
            editor.completed = False
            return
        editor.completed = True
        self._save()

    # ----- the editor's screen -------------------------------------------------------------------------------
    def _build_editor(self, editor: Editor) -> View:
        actions = [View(weight=1)]
        if not editor.is_new:
            actions.append(image_button(DELETE_TASK, "delete", lambda: self._set_editor_popup("delete"),
                                        resource_id=_id("menu_delete"), text_color=TEXT, height=_BAR))
        toolbar = View(kind="row", class_name="android.view.ViewGroup", resource_id=_id("toolbar"), height=_BAR,
                       children=[image_button(SAVE, "save", self._save, text_color=TEXT, height=_BAR), *actions])
        title = edit_text(editor.title, TASK_NAME_HINT, self.TITLE, self._set_title, resource_id=_id(self.TITLE),
                          text_size=_TEXT_24SP, padding=_KEYLINE)
        header = column(toolbar, title, resource_id=_id("appbarlayout"), background=WHITE)
        rows = self._edit_rows(editor)
        if self.focus_key == self.DESCRIPTION and self.keyboard_shown:
            self._scroll_into_view(rows, measure_height(header, self.phone.window.design_width))
        body = View(kind="list", class_name="android.widget.ScrollView", key=self.EDIT_LIST, scrollable=True,
                    focusable=True, weight=1, children=rows)
        content: View = column(header, body, background=WHITE)
        if not editor.is_new:
            check = View(kind="fab", class_name="android.widget.ImageButton", resource_id=_id("fab"), clickable=True,
                         focusable=True, hint="" if editor.completed else "check", width=_BAR, height=_BAR,
                         background=PRIMARY, text_color=WHITE, gravity="bottom_end", margin=_KEYLINE,
                         on_click=self._complete_from_editor)
            content = frame(content, check)
        if editor.popup == "date" and editor.picker is not None:
            picker = editor.picker
            sheet = scrim_over(content, self._date_sheet(picker), self._send_date)
            if picker.time_picker is None:
                return sheet
            return dialog_over(sheet, picker.time_picker.view(Theme.of(self, PRIMARY)), self._close_time)
        if editor.popup == "delete":
            dialog = confirm_dialog(DELETE_QUESTION, CANCEL, self._close_editor_popup, OK, self._delete)
            return dialog_over(content, dialog, self._close_editor_popup)
        if editor.popup == "discard":
            dialog = confirm_dialog(DISCARD_CONFIRMATION, DISCARD, self._close_editor, KEEP_EDITING,
                                    self._close_editor_popup)
            return dialog_over(content, dialog, self._close_editor_popup)
        return content

    def _scroll_into_view(self, rows: list[View], header_height: int) -> None:
        """``View.requestRectangleOnScreen``: with the keyboard up, scroll the description field into view."""
        window = self.phone.window
        visible = window.design_height - STATUS_BAR_HEIGHT - window.nav_bar_height - KEYBOARD_HEIGHT - header_height
        top = 0
        for item in rows:
            height = measure_height(item, self.phone.window.design_width)
            if any(v.key == self.DESCRIPTION for v in item.walk()):
                offset = self.scroll.get(self.EDIT_LIST, 0)
                self.scroll[self.EDIT_LIST] = min(max(offset, top + height - visible), top)
                return
            top += height

    def _set_editor_popup(self, popup: str) -> None:
        if self.editor is not None:
            self.editor.popup = popup
            self.keyboard_shown = False

    def _close_editor_popup(self) -> None:
        self._set_editor_popup("")

    def _set_title(self, text: str) -> None:
        if self.editor is not None:
            self.editor.title = text

    def _set_description(self, text: str) -> None:
        if self.editor is not None:
            self.editor.description = text.strip()

    def _set_importance(self, importance: int) -> None:
        if self.editor is not None:
            self.editor.importance = importance

    def _edit_rows(self, editor: Editor) -> list[View]:
        """The control sets in the default order (``TEA_control_sets_prefs``), each with its ``TaskEditRow`` icon
        (``ic_pending_actions``, ``ic_outline_schedule``, ``_repeat``, ``_flag``, ``_place``, ``_label``, ``ic_list``,
        ``ic_subdirectory_arrow_right``, ``ic_outline_notifications``, ``_attachment``, ``_notes``, ``_timer``) and
        followed by a divider."""
        due = editor.due
        if due > 0:
            now = self._now(DAY_MS)
            overdue = self._overdue(due, now)
            due_text = text_view(relative_date_time(due, now, True, self._is24(), self._tag()), text_size=_TEXT_16SP,
                                 padding=0, text_color=OVERDUE_COLOR if overdue and not editor.completed else TEXT)
        else:
            due_text = text_view(NO_DUE_DATE, text_size=_TEXT_16SP, padding=0, text_color=TERTIARY)
        radios = [self._radio(p, p == editor.importance) for p in (NONE, LOW, MEDIUM, HIGH)]
        priority = self._edit_row("flag", text_view(PRIORITY_LABEL, text_size=_TEXT_16SP, padding=0), View(weight=1),
                                  *radios)
        description = edit_text(editor.description or "", DESCRIPTION_HINT, self.DESCRIPTION, self._set_description,
                                multiline=True, weight=1, text_size=_TEXT_16SP, padding=12)
        list_names = self.db.list_names()
        list_name = list_names.get(editor.original["_id"]) if not editor.is_new else DEFAULT_LIST
        rows = [self._edit_row("pending_actions", self._inert(NO_START_DATE)),
                self._edit_row("time", due_text, on_click=self._open_date_picker),
                self._edit_row("loop", self._inert(DOES_NOT_REPEAT)), priority,
                self._edit_row("location", self._inert(ADD_LOCATION)), self._edit_row("label", self._inert(ADD_TAGS)),
                self._edit_row("list", text_view(list_name or "", text_size=_TEXT_14SP, padding=12,
                                                 background=(232, 234, 237))),
                self._edit_row("subdirectory_arrow_right", self._inert(ADD_SUBTASK)),
                self._edit_row("notifications", self._inert(ADD_REMINDER)),
                self._edit_row("attachment", self._inert(ADD_ATTACHMENT)),
                self._edit_row("notes", description, height=None), self._edit_row("stopwatch", self._inert(TIMER))]
        return [item for r in rows for item in (r, View(height=2, background=DIVIDER))]

    def _radio(self, importance: int, selected: bool) -> View:
        """``PriorityButton``: a Compose RadioButton in the priority's colour (no label), an empty ring or, selected,
        a ring round a dot."""
        return View(kind="icon", class_name="android.widget.RadioButton", hint="radio_on" if selected else "radio_off",
                    checkable=True, checked=selected, clickable=True, focusable=True, width=110, height=110,
                    text_color=PRIORITY_COLORS[importance], on_click=lambda: self._set_importance(importance))

    @staticmethod
    def _inert(text: str) -> View:
        return text_view(text, text_size=_TEXT_16SP, padding=0, text_color=TERTIARY)

    @staticmethod
    def _edit_row(icon: str, *content: View, on_click: Callable[[], None] | None = None,
                  height: int | None = _EDIT_ROW) -> View:
        """``TaskEditRow``: the row's icon, then its content; clickable when it opens something."""
        children = [View(kind="icon", class_name="android.view.View", hint=icon, width=189, height=_EDIT_ROW,
                         text_color=TEXT_SECONDARY), *content]
        return View(kind="row", class_name="android.view.View", children=children, clickable=on_click is not None,
                    focusable=on_click is not None, on_click=on_click, height=height, padding=0)

    # ----- the date and time picker --------------------------------------------------------------------------
    def _open_date_picker(self) -> None:
        """``DateTimePicker.newDateTimePicker`` with the current due date (not closing by itself)."""
        editor = self.editor
        if editor is None:
            return
        tz = self._now().tzinfo or dt.timezone.utc
        day = start_of_day(editor.due, tz) if editor.due > 0 else 0
        time = editor.due - day if has_time(editor.due) else 0
        shown = to_datetime(editor.due, tz) if editor.due > 0 else self._now()
        # The layout's CalendarView sets no minDate or maxDate: DayPickerView's own range.
        editor.picker = DatePicker(day, time, day, time, day_picker.shown_month(shown.date()))
        self._set_editor_popup("date")

    def _send_date(self) -> None:
        """``DateTimePicker.sendSelected`` then ``TaskEditViewModel.setDueDate``: only a changed choice counts."""
        editor = self.editor
        if editor is None or editor.picker is None:
            return
        picker = editor.picker
        if (picker.day, picker.time) != (picker.initial_day, picker.initial_time):
            if picker.day == 0:
                editor.due = 0
            else:
                tz = self._now().tzinfo or dt.timezone.utc
                day = to_datetime(picker.day, tz).date()
                time = None if picker.time == 0 else (dt.datetime.min + dt.timedelta(milliseconds=picker.time)).time()
                editor.due = due_date_ms(day, time, tz)
        editor.picker = None
        editor.popup = ""

    def _cancel_date(self) -> None:
        if self.editor is not None:
            self.editor.picker = None
            self.editor.popup = ""

    def _pick_day(self, day_ms: int) -> None:
        """A shortcut or a calendar day (``returnDate``)."""
        if self.editor is not None and self.editor.picker is not None:
            self.editor.picker.day = day_ms
            if day_ms == 0:
                self.editor.picker.time = 0

    def _pick_time(self, time_ms: int) -> None:
        """A time shortcut (``returnSelectedTime``): without a day, today if the time is still ahead, else
        tomorrow."""
        picker = self.editor.picker if self.editor is not None else None
        if picker is None:
            return
        if picker.day == 0 and time_ms > 0:
            today = start_of_day(self.phone.clock.now_ms(), dt.timezone.utc)
            picker.day = today if today + time_ms > self.phone.clock.now_ms() else today + ONE_DAY_MS
        picker.time = time_ms

    def _shift_month(self, delta: int) -> None:
        picker = self.editor.picker if self.editor is not None else None
        if picker is not None:
            picker.month = day_picker.turned(picker.month, delta)

    def _date_sheet(self, picker: DatePicker) -> View:
        """``dialog_date_time_picker`` with its shortcut columns, the ``CalendarView`` and the OK/Cancel bar."""
        now = self._now(DAY_MS)
        today = start_of_day(to_ms(now), dt.timezone.utc)
        tomorrow, next_week = today + ONE_DAY_MS, today + 7 * ONE_DAY_MS
        week_day = to_datetime(next_week, dt.timezone.utc).weekday()
        dates = []
        if picker.day not in (0, today, tomorrow, next_week):
            dates.append(self._shortcut("current_date_selection", relative_date_time(
                picker.day, now, False, self._is24(), self._tag()), True, does_nothing))
        dates += [self._shortcut("today_button", TODAY, picker.day == today, lambda: self._pick_day(today)),
                  self._shortcut("tomorrow_button", TOMORROW, picker.day == tomorrow,
                                 lambda: self._pick_day(tomorrow)),
                  self._shortcut("next_week_button", NEXT_WEEKDAY[week_day], picker.day == next_week,
                                 lambda: self._pick_day(next_week)),
                  self._shortcut("no_date_button", NO_DATE, picker.day == 0, lambda: self._pick_day(0))]
        times = []
        if picker.time and picker.time not in TIME_SHORTCUTS:
            times.append(self._shortcut("current_time_selection", self._time_text(picker.time), True, does_nothing))
        for name, value in zip(("morning_button", "afternoon_button", "evening_button", "night_button"),
                               TIME_SHORTCUTS):
            times.append(self._shortcut(name, self._time_text(value), picker.time == value,
                                        lambda value=value: self._pick_time(value)))
        times += [self._shortcut("pick_time_button", PICK_TIME, False, self._open_time),
                  self._shortcut("no_time", NO_TIME, picker.time == 0, lambda: self._pick_time(0))]
        height = 126 * max(len(dates), len(times))  # both toggle groups hang from the top
        shortcuts = row(column(*dates, weight=1, height=height, resource_id=_id("date_group")),
                        column(*times, weight=1, height=height, resource_id=_id("time_group")), padding=21, spacing=42,
                        resource_id=_id("shortcuts"))
        buttons = row(View(weight=1), self._text_button("cancel_button", CANCEL, self._cancel_date),
                      self._text_button("ok_button", OK, self._send_date), padding=12)
        return _bottom_sheet(shortcuts, self._calendar(picker), View(height=2, background=DIVIDER), buttons)

    def _time_text(self, time_ms: int) -> str:
        return time_string(dt.datetime(2000, 1, 1) + dt.timedelta(milliseconds=time_ms), self._is24())

    @staticmethod
    def _shortcut(name: str, text: str, checked: bool, on_click: Callable[[], None]) -> View:
        """A ``MaterialButton`` of a toggle group (checked when it is the current choice)."""
        return View(kind="button", class_name="android.widget.Button", resource_id=_id(name), text=text,
                    checkable=True, checked=checked, clickable=True, focusable=True, on_click=on_click, height=126,
                    padding=0, text_size=_TEXT_14SP, background=(210, 227, 252) if checked else WHITE,
                    text_color=PRIMARY)

    @staticmethod
    def _text_button(name: str, text: str, on_click: Callable[[], None]) -> View:
        return button(text, on_click, resource_id=_id(name), background=WHITE, text_color=PRIMARY, width=260,
                      height=126, text_size=_TEXT_14SP)

    def _calendar(self, picker: DatePicker) -> View:
        """``CalendarView`` (``DayPickerView``): the month with previous/next buttons and one node per day
        (text the day's number, description "20 October 2023", ``"dd MMMM yyyy"``), in the system locale: its
        month title (skeleton "MMMMy"), its narrow weekday names and its first day of the week (Sunday in en-US)."""
        first, tag = picker.month, self._tag()
        year, month = first.year, first.month
        header = row(day_picker.month_button(first, -1, lambda: self._shift_month(-1), height=126),
                     _label(formats.format_skeleton(first, "MMMMy", tag), _TEXT_16SP, TEXT, weight=1),
                     day_picker.month_button(first, 1, lambda: self._shift_month(1), height=126))
        order = formats.week_order(tag)
        weekdays = row(*(_label(formats.weekday_name(day, tag, "EEEEE"), color=TEXT_SECONDARY, weight=1,
                                gravity="center") for day in order))  # drawDaysOfWeek: centred on the column
        weeks = []
        for week in calendar.Calendar(firstweekday=order[0]).monthdayscalendar(year, month):
            cells = [self._day_cell(year, month, day, picker) if day else View(weight=1, height=116) for day in week]
            weeks.append(row(*cells, height=116))
        return View(kind="column", class_name="android.widget.CalendarView", resource_id=_id("calendar_view"),
                    children=[header, weekdays, *weeks], padding=21)

    def _day_cell(self, year: int, month: int, day: int, picker: DatePicker) -> View:
        when = dt.datetime(year, month, day, tzinfo=dt.timezone.utc)
        day_ms = to_ms(when)
        chosen = day_ms == picker.day
        description = formats.format_pattern(when, "dd MMMM yyyy", self._tag())
        return day_picker.day_cell(day, chosen, PRIMARY, TEXT, _TEXT_14SP, content_desc=description, clickable=True,
                                   focusable=True, selected=chosen, weight=1, height=116,
                                   on_click=lambda: self._pick_day(day_ms))

    # ----- the time picker (MyTimePickerDialog: MaterialTimePicker) ------------------------------------------
    def _open_time(self) -> None:
        """``pickTime``: ``newTimePicker`` at the chosen time, else noon, in the phone's 12- or 24-hour format and
        the clock input mode (``timeInputMode``: the ``p_picker_mode_time`` preference defaults to 0)."""
        picker = self.editor.picker if self.editor is not None else None
        if picker is None:
            return
        start = picker.time - 1000 if picker.time else 12 * 3_600_000
        picker.time_picker = TimePicker(self, PACKAGE, start // 3_600_000, start // 60_000 % 60, self._is24(),
                                        self._time_set, self._close_time)

    def _close_time(self) -> None:
        picker = self.editor.picker if self.editor is not None else None
        if picker is not None:
            picker.time_picker = None
        release_focus(self)

    def _time_set(self, hour: int, minute: int) -> None:
        """The time picker's OK: ``onActivityResult`` adds one second (``millisOfDay + 1000``)."""
        self._pick_time((hour * 60 + minute) * 60_000 + 1000)


class TasksApp(App):
    """``org.tasks``: its database is created when the app is installed (and again after ``pm clear``); its
    preferences (last viewed list, show completed/unstarted) live in the default SharedPreferences file."""

    package = PACKAGE
    night_colors = MATERIAL_COMPONENTS_NIGHT  # Tasks.org's default theme follows the system (DayNight)
    label = APP_NAME
    icon, icon_color = "app_tasks", (33, 150, 243)
    version_name, version_code = "13.6.3", 130605  # android_gym/device/apps.toml
    screens = (MainScreen,)

    def __init__(self, phone: Context) -> None:
        super().__init__(phone)
        self.db = TasksDatabase(phone)
        self.prefs = SharedPreferences(phone, PREFS_PATH)

    def on_force_stop(self) -> None:
        """The process dies: its in-memory preferences go (the file stays)."""
        self.prefs.forget()

    def on_clear(self) -> None:
        """``pm clear``: a fresh database, no preferences."""
        self.prefs.forget()
        self.db.ensure_db()
