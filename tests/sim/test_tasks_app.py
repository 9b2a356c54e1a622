"""The Tasks app (org.tasks) on the simulated phone: its Room database, the list, the drawer and the editor,
driven through taps and typing and checked in the rows and the UI dump."""

from __future__ import annotations

import datetime as dt
import sqlite3
from contextlib import closing

import numpy as np
import pytest

from android_gym.envs.tasks_app import task_row
from android_gym.sim import keycodes
from android_gym.sim.apps.tasks import (
    DB_PATH,
    HIGH,
    LOW,
    MEDIUM,
    NONE,
    PACKAGE,
    PREFS_PATH,
    PRIORITY_COLORS,
    due_date_ms,
    relative_date_time,
    to_ms,
)
from android_gym.sim.phone import Phone
from android_gym.ui import UIElement, parse_ui_dump

UTC = dt.timezone.utc
NOW = dt.datetime(2023, 10, 15, 15, 34, tzinfo=UTC)
# app-schemas.md, as the tasks table must be.
TASKS_SQL = (
    "CREATE TABLE `tasks` (`_id` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, `title` TEXT, `importance` INTEGER NOT "
    "NULL, `dueDate` INTEGER NOT NULL, `hideUntil` INTEGER NOT NULL, `created` INTEGER NOT NULL, `modified` INTEGER "
    "NOT NULL, `completed` INTEGER NOT NULL, `deleted` INTEGER NOT NULL, `notes` TEXT, `estimatedSeconds` INTEGER NOT "
    "NULL, `elapsedSeconds` INTEGER NOT NULL, `timerStart` INTEGER NOT NULL, `notificationFlags` INTEGER NOT NULL, "
    "`lastNotified` INTEGER NOT NULL, `recurrence` TEXT, `repeat_from` INTEGER NOT NULL DEFAULT 0, `calendarUri` "
    "TEXT, `remoteId` TEXT, `collapsed` INTEGER NOT NULL, `parent` INTEGER NOT NULL, `order` INTEGER, `read_only` "
    "INTEGER NOT NULL DEFAULT 0)")


@pytest.fixture
def phone():
    device = Phone()
    device.run("settings put system time_12_24 24")
    yield device
    device.close()


def db(phone: Phone) -> sqlite3.Connection:
    connection = sqlite3.connect(phone.fs.host_path(DB_PATH))
    connection.row_factory = sqlite3.Row
    return connection


def insert(phone: Phone, *rows: dict) -> None:
    with closing(db(phone)) as connection, connection:
        for row in rows:
            connection.execute(f"INSERT INTO tasks ({', '.join(f'`{k}`' for k in row)}) "
                               f"VALUES ({', '.join('?' * len(row))})", tuple(row.values()))


def rows(phone: Phone, table: str = "tasks") -> list[dict]:
    with closing(db(phone)) as connection:
        return [dict(r) for r in connection.execute(f"SELECT * FROM {table} ORDER BY 1")]


def launch(phone: Phone) -> None:
    phone.run(f"monkey -p {PACKAGE} -c android.intent.category.LAUNCHER 1")


def elements(phone: Phone) -> list[UIElement]:
    return [e for e in parse_ui_dump(phone.ui_dump()) if e.bbox_pixels.area > 0]


def find(phone: Phone, **props: object) -> UIElement | None:
    """The last (top-most) element whose fields all have the given values."""
    found = [e for e in elements(phone) if all(getattr(e, k) == v for k, v in props.items())]
    return found[-1] if found else None


def tap(phone: Phone, **props: object) -> None:
    element = find(phone, **props)
    assert element is not None, f"no element with {props}"
    phone.tap(*element.bbox_pixels.center)


def rid(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


def titles(phone: Phone) -> list[str]:
    return [e.text for e in elements(phone) if e.resource_name == rid("title") and e.class_name.endswith("TextView")]


def due_of(phone: Phone, title: str) -> str | None:
    """The due-date text on the line of the task titled ``title``."""
    label = find(phone, resource_name=rid("title"), text=title)
    assert label is not None, title
    return next((e.text for e in elements(phone) if e.resource_name == rid("due_date")
                 and e.bbox_pixels.y_min < label.bbox_pixels.y_max and label.bbox_pixels.y_min < e.bbox_pixels.y_max),
                None)


def priority_radios(phone: Phone) -> list[UIElement]:
    radios = [e for e in elements(phone) if e.class_name.endswith("RadioButton")]
    return sorted(radios, key=lambda e: e.bbox_pixels.x_min)


def ms(*args: int) -> int:
    return int(dt.datetime(*args, tzinfo=UTC).timestamp() * 1000)


def test_the_database_is_the_apps_room_88_schema_in_wal_mode(phone):
    with closing(db(phone)) as connection:
        sql = {name: text for name, text in connection.execute("SELECT name, sql FROM sqlite_master")}
        assert sql["tasks"] == TASKS_SQL
        assert sql["t_rid"] == "CREATE UNIQUE INDEX `t_rid` ON `tasks` (`remoteId`)"
        assert sql["active_and_visible"] == ("CREATE INDEX `active_and_visible` ON `tasks` "
                                             "(`completed`, `deleted`, `hideUntil`)")
        assert {"caldav_lists", "caldav_tasks", "caldav_accounts", "alarms", "tags", "tagdata", "notification",
                "geofences", "places", "filters", "attachment", "attachment_file", "principals",
                "principal_access", "userActivity", "task_list_metadata", "android_metadata"} <= set(sql)
        assert connection.execute("PRAGMA user_version").fetchone()[0] == 88
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert connection.execute("SELECT identity_hash FROM room_master_table WHERE id = 42").fetchone()[0] == \
            "a2597380bdfaeeb040d40bab2fc653c1"
    assert [(r["cdl_account"], r["cdl_name"]) for r in rows(phone, "caldav_lists")] == [("local", "Default list")]
    assert rows(phone, "caldav_accounts")[0]["cda_account_type"] == 2  # TYPE_LOCAL


def test_pm_clear_brings_back_an_empty_database(phone):
    insert(phone, task_row("Water Plants"))
    assert phone.run(f"pm clear {PACKAGE}").exit_code == 0
    assert rows(phone) == [] and len(rows(phone, "caldav_lists")) == 1


def test_the_list_sorts_as_the_app_and_shows_due_dates_notes_and_completed_tasks_last(phone):
    insert(phone,
           task_row("Low tomorrow", 2, dt.date(2023, 10, 16)),
           task_row("High on Friday", 0, dt.datetime(2023, 10, 20, 9, 30), notes="Bring the slides."),
           task_row("No date", 3),
           task_row("Done long ago", 0, dt.date(2023, 10, 1), completed=dt.datetime(2023, 10, 2, 8, 0)),
           task_row("Done lately", 3, dt.date(2023, 10, 10), completed=dt.datetime(2023, 10, 14, 8, 0)),
           task_row("Overdue", 1, dt.date(2023, 10, 14)),
           task_row("Later", 3, dt.datetime(2023, 10, 25, 14, 0)))
    launch(phone)
    assert find(phone, text="My Tasks") is not None
    # due + 172799999 × importance, a date alone counting as 23:59; completed ones last, newest first
    assert titles(phone) == ["Overdue", "High on Friday", "Low tomorrow", "Later", "No date", "Done lately",
                             "Done long ago"]
    assert [due_of(phone, t) for t in titles(phone)] == ["Yest", "Fri 09:30", "Tmrw", "Oct 25, 2:00 PM", None,
                                                         "Tue", "Oct 1"]
    assert find(phone, resource_name=rid("description"), text="Bring the slides.") is not None
    boxes = [e.is_checked for e in elements(phone) if e.resource_name == rid("completeBox")]
    assert boxes == [False] * 5 + [True, True]


def test_a_long_list_scrolls(phone):
    insert(phone, *(task_row(f"Task {n:02d}", 3, dt.date(2023, 10, 16) + dt.timedelta(days=n)) for n in range(25)))
    launch(phone)
    assert "Task 00" in titles(phone) and "Task 24" not in titles(phone)
    listing = find(phone, resource_name=rid("recycler_view"))
    assert listing.is_scrollable
    for _ in range(6):
        box = find(phone, resource_name=rid("recycler_view")).bbox_pixels
        phone.swipe(box.center[0], box.y_max - 10, box.center[0], box.y_min + 10)
    assert "Task 24" in titles(phone) and "Task 00" not in titles(phone)
    assert find(phone, resource_name=rid("recycler_view")).is_scrollable  # at its end: it can scroll back


def test_a_short_list_is_not_scrollable(phone):
    insert(phone, *(task_row(f"Task {n}", 3, dt.date(2023, 10, 16)) for n in range(3)))
    launch(phone)
    assert titles(phone) == ["Task 0", "Task 1", "Task 2"]
    assert not find(phone, resource_name=rid("recycler_view")).is_scrollable  # isScrollable: nothing to scroll


def test_creating_a_task_writes_the_apps_row(phone):
    launch(phone)
    tap(phone, content_description="Create new task")
    assert find(phone, resource_name=rid("title")).is_focused
    created = phone.clock.now_ms()
    phone.input_text("Book flights")
    tap(phone, text="No due date")
    tap(phone, content_description="Next month")
    tap(phone, content_description="03 November 2023")
    tap(phone, resource_name=rid("evening_button"))
    tap(phone, resource_name=rid("ok_button"))
    assert find(phone, text="Friday, November 3 at 5:00 PM") is not None
    phone.tap(*priority_radios(phone)[2].bbox_pixels.center)  # none, low, medium, high
    box = find(phone, class_name="android.widget.ScrollView").bbox_pixels
    phone.swipe(box.center[0], box.y_max - 10, box.center[0], box.y_min + 10)
    tap(phone, text="Description", class_name="android.widget.EditText")
    phone.input_text("Window seat")
    saved = phone.clock.now_ms() + 1000
    tap(phone, content_description="Save")
    [task] = rows(phone)
    assert task == {**task_row("Book flights"), "_id": 1, "importance": 1, "dueDate": ms(2023, 11, 3, 17, 0, 1),
                    "created": created, "modified": saved, "notes": "Window seat", "remoteId": task["remoteId"]}
    assert task["remoteId"].isdigit() and int(task["remoteId"]) >= 100_000_000
    [link] = rows(phone, "caldav_tasks")
    assert (link["cd_task"], link["cd_calendar"]) == (1, rows(phone, "caldav_lists")[0]["cdl_uuid"])
    assert [(a["task"], a["time"], a["type"]) for a in rows(phone, "alarms")] == [(1, 0, 2)]
    assert titles(phone) == ["Book flights"] and due_of(phone, "Book flights") == "Nov 3, 5:00 PM"


def test_the_calendar_pages_only_through_day_picker_views_range(phone):
    """The layout's ``CalendarView`` sets no ``minDate``/``maxDate``: ``DayPickerView`` offers January 1900 to
    December 2100. A task due past it opens the calendar on December 2100, whose next button is invisible."""

    def month_shown() -> str:
        first = find(phone, text="1", class_name="android.view.View")  # a day's description: "01 December 2100"
        assert first is not None
        return first.content_description.split(" ", 1)[1]

    insert(phone, task_row("Far away", 3, dt.date(2150, 6, 1)))
    launch(phone)
    tap(phone, resource_name=rid("title"), text="Far away")
    tap(phone, text="Monday, June 1, 2150")
    assert month_shown() == "December 2100" and find(phone, content_description="Next month") is None
    tap(phone, content_description="Previous month")
    assert month_shown() == "November 2100"
    tap(phone, content_description="Next month")
    assert month_shown() == "December 2100" and find(phone, content_description="Next month") is None
    phone.activities.top.editor.picker.month = dt.date(1900, 2, 1)  # 2,409 pages back, in one step
    phone.invalidate()
    tap(phone, content_description="Previous month")
    assert month_shown() == "January 1900" and find(phone, content_description="Previous month") is None
    assert find(phone, content_description="Next month") is not None


def test_the_priority_buttons_are_radio_rings_in_the_prioritys_colour(phone):
    """``PriorityButton``s are Compose RadioButtons: a 20 dp ring in each priority's colour, the selected one round
    a dot."""
    launch(phone)
    tap(phone, content_description="Create new task")
    phone.tap(*priority_radios(phone)[1].bbox_pixels.center)  # none, low, medium, high
    screen = phone.screenshot().astype(int)
    colours = [PRIORITY_COLORS[priority] for priority in (NONE, LOW, MEDIUM, HIGH)]
    for radio, colour in zip(priority_radios(phone), colours, strict=True):
        cx, cy = radio.bbox_pixels.center
        ys, xs = np.nonzero(abs(screen[cy - 40:cy + 40, cx - 40:cx + 40] - colour).sum(axis=2) < 60)
        distance = np.hypot(ys - ys.mean(), xs - xs.mean())
        inside = distance[distance < 0.75 * distance.max()]
        assert 24 < distance.max() < 29  # 10 dp at 420 dpi, round
        if radio.is_checked:
            assert colour == PRIORITY_COLORS[LOW] and inside.size > 100 and inside.max() < 0.55 * distance.max()
        else:
            assert inside.size == 0


def test_a_day_without_a_time_is_noon_with_zero_seconds_and_a_typed_time_has_one_second(phone):
    launch(phone)
    tap(phone, content_description="Create new task")
    phone.input_text("Date only")
    tap(phone, text="No due date")
    tap(phone, resource_name=rid("tomorrow_button"))
    tap(phone, resource_name=rid("ok_button"))
    tap(phone, content_description="Save")
    tap(phone, content_description="Create new task")
    phone.input_text("With time")
    tap(phone, text="No due date")
    tap(phone, content_description="20 October 2023")
    tap(phone, resource_name=rid("pick_time_button"))  # MaterialTimePicker in its clock mode, then the keyboard's
    tap(phone, resource_name=rid("material_timepicker_mode_button"))
    for field, value in (("hour", "14"), ("minute", "30")):  # the fields hold 12 and 00, two digits at most
        tap(phone, resource_name=rid(f"material_{field}_text_input"))
        phone.input_text("7")
        phone.key(keycodes.DEL)
        phone.key(keycodes.DEL)
        phone.input_text(value)
    tap(phone, resource_name=rid("material_timepicker_ok_button"))
    assert find(phone, resource_name=rid("current_time_selection")).text == "14:30"
    tap(phone, resource_name=rid("ok_button"))
    tap(phone, content_description="Save")
    due = {r["title"]: r["dueDate"] for r in rows(phone)}
    assert due == {"Date only": ms(2023, 10, 16, 12, 0), "With time": ms(2023, 10, 20, 14, 30, 1)}
    assert {r["title"]: r["importance"] for r in rows(phone)} == {"Date only": 2, "With time": 2}  # default low


def test_the_checkbox_completes_and_reopens_a_task(phone):
    insert(phone, task_row("Water Plants", 1, dt.date(2023, 10, 16)), task_row("Call Grandma"))
    launch(phone)
    before = rows(phone)
    label = find(phone, resource_name=rid("title"), text="Water Plants")
    box = next(e for e in elements(phone) if e.resource_name == rid("completeBox")
               and e.bbox_pixels.y_min < label.bbox_pixels.y_max)
    phone.tap(*box.bbox_pixels.center)
    now = phone.clock.now_ms()
    after = rows(phone)
    assert after[0] == {**before[0], "completed": now, "modified": now} and after[1] == before[1]
    assert titles(phone) == ["Call Grandma", "Water Plants"]  # completed tasks go last
    tap(phone, resource_name=rid("completeBox"), is_checked=True)
    assert rows(phone)[0]["completed"] == 0


def test_editing_a_task_updates_its_row_and_deleting_marks_it_deleted(phone):
    insert(phone, task_row("Change Air Filter", 3, dt.date(2023, 10, 18), notes="Buy a filter"))
    launch(phone)
    original = rows(phone)[0]
    tap(phone, resource_name=rid("title"), text="Change Air Filter")
    assert find(phone, text="Wednesday") is not None
    phone.tap(*priority_radios(phone)[3].bbox_pixels.center)
    tap(phone, content_description="Save")
    edited = rows(phone)[0]
    assert edited == {**original, "importance": 0, "modified": edited["modified"]}
    assert edited["modified"] > original["modified"]
    tap(phone, resource_name=rid("title"), text="Change Air Filter")
    tap(phone, content_description="Delete task")
    assert find(phone, text="Delete this task?") is not None
    tap(phone, text="OK")
    stamp = phone.clock.now_ms() // 1000 * 1000
    assert rows(phone)[0] == {**edited, "deleted": stamp, "modified": stamp}
    assert find(phone, text="There are no tasks here.") is not None


def test_back_asks_before_discarding_and_an_untouched_new_task_is_not_saved(phone):
    launch(phone)
    tap(phone, content_description="Create new task")
    phone.key(keycodes.BACK)  # hides the keyboard
    phone.key(keycodes.BACK)  # nothing typed: the editor closes
    assert rows(phone) == [] and find(phone, text="My Tasks") is not None
    tap(phone, content_description="Create new task")
    phone.input_text("Draft")
    phone.key(keycodes.BACK)
    phone.key(keycodes.BACK)
    assert find(phone, text="Are you sure you want to discard your changes?") is not None
    tap(phone, text="Keep editing")
    assert find(phone, resource_name=rid("title"), text="Draft") is not None
    phone.key(keycodes.BACK)
    tap(phone, text="Discard")
    assert rows(phone) == [] and find(phone, text="There are no tasks here.") is not None


def test_the_bottom_app_bar_shows_voice_input_before_sort_and_the_overflow(phone):
    """menu_task_list_fragment_bottom: menu_voice_add (ic_outline_mic_none_24px, "Voice input") and menu_sort are
    ifRoom items, shown on the bar where a speech recognizer is; the rest go to the overflow."""
    launch(phone)
    bar = find(phone, resource_name=rid("bottomAppBar")).bbox_pixels
    on_bar = [e.content_description for e in elements(phone) if e.class_name.endswith("ImageButton")
              and e.content_description and e.bbox_pixels.y_min >= bar.y_min]
    assert on_bar == ["Voice input", "Sort", "More options", "Create new task"]  # the FAB last, drawn over the bar
    mic = next(v for v in phone.window.frame().app.walk() if v.content_desc == "Voice input")
    assert mic.hint == "mic_outline"
    before = phone.screenshot().copy()
    tap(phone, content_description="Voice input")  # no recognizer on this phone to start: nothing changes
    assert (phone.screenshot() == before).all()


def test_the_drawer_filters_today_and_recently_modified_with_counts(phone):
    insert(phone, task_row("Due today", 3, dt.date(2023, 10, 15)), task_row("Overdue", 3, dt.date(2023, 10, 1)),
           task_row("Next week", 3, dt.date(2023, 10, 22)),
           task_row("Touched", 3, modified=NOW - dt.timedelta(hours=2)),
           task_row("Not started", 3, dt.date(2023, 10, 15), hide_until=dt.date(2023, 10, 20)))
    launch(phone)
    bar = find(phone, resource_name=rid("bottomAppBar")).bbox_pixels
    drawer_button = next(e for e in elements(phone) if e.class_name.endswith("ImageButton")
                         and not e.content_description and e.bbox_pixels.y_min >= bar.y_min)
    phone.tap(*drawer_button.bbox_pixels.center)
    labels = [e.text for e in elements(phone) if e.resource_name == rid("text")]
    assert labels == ["My Tasks", "Filters", "Today", "Recently modified", "Tags", "Places", "Local lists",
                      "Default list", "Donate", "Name your price", "Manage drawer", "Settings", "Help & feedback"]
    counts = [e.text for e in elements(phone) if e.resource_name == rid("size")]
    assert counts == ["4", "2", "1"]  # active and started: My Tasks, Today, Recently modified
    tap(phone, resource_name=rid("text"), text="Today")
    assert find(phone, text="Today", class_name="android.widget.TextView") is not None
    assert titles(phone) == ["Overdue", "Due today", "Not started"]  # unstarted shown by default
    phone.tap(*drawer_button.bbox_pixels.center)
    tap(phone, resource_name=rid("text"), text="Recently modified")
    assert titles(phone) == ["Touched"]
    phone.run(f"am force-stop {PACKAGE}")
    launch(phone)  # the last viewed list comes back
    assert titles(phone) == ["Touched"]


def test_show_completed_and_show_unstarted_are_kept_in_the_preferences(phone):
    insert(phone, task_row("Open"), task_row("Done", completed=NOW - dt.timedelta(days=1)),
           task_row("Later", hide_until=dt.date(2023, 10, 30)))
    launch(phone)
    assert titles(phone) == ["Later", "Open", "Done"]
    for item in ("Show completed", "Show unstarted"):
        tap(phone, content_description="More options")
        assert find(phone, text=item, resource_name="android:id/title") is not None
        tap(phone, text=item, resource_name="android:id/title")
    assert titles(phone) == ["Open"]
    phone.run(f"am force-stop {PACKAGE}")
    launch(phone)
    assert titles(phone) == ["Open"]
    assert b'name="show_completed_tasks" value="false"' in phone.fs.read_bytes(PREFS_PATH)


@pytest.mark.parametrize("language, texts", [
    ("en-US", ["Tmrw 09:00", "Fri", "Oct 25", "Oct 25, 2:00 PM", "Wednesday, October 25",
               "Wednesday, October 25 at 2:00 PM"]),
    ("de-DE", ["Morgen 09:00", "Fr.", "25.10.", "25.10., 14:00", "Mittwoch, 25. Oktober",
               "Mittwoch, 25. Oktober um 14:00"]),
    ("fr-FR", ["Demain 09:00", "ven.", "25 oct.", "25 oct., 14:00", "mercredi 25 octobre",
               "mercredi 25 octobre à 14:00"])])
def test_due_dates_are_formatted_in_the_system_locale(language, texts):
    """``getRelativeDateTime``: the app's "Tmrw" with the time, the short weekday within six days, else the MEDIUM
    date (with the SHORT time) or the FULL date (with the SHORT time "at" it: ICU 71's FULL date-time pattern), the
    current year stripped (``stripYear``)."""
    friday, later = dt.date(2023, 10, 20), dt.date(2023, 10, 25)
    shown = [relative_date_time(due_date_ms(dt.date(2023, 10, 16), dt.time(9, 0), UTC), NOW, False, True, language),
             relative_date_time(due_date_ms(friday, None, UTC), NOW, False, True, language),
             relative_date_time(due_date_ms(later, None, UTC), NOW, False, True, language),
             relative_date_time(due_date_ms(later, dt.time(14, 0), UTC), NOW, False, True, language),
             relative_date_time(due_date_ms(later, None, UTC), NOW, True, True, language),
             relative_date_time(due_date_ms(later, dt.time(14, 0), UTC), NOW, True, True, language)]
    assert shown == texts


def _titles(phone: Phone) -> list[str]:
    return [e.text for e in elements(phone) if e.resource_name == f"{PACKAGE}:id/title"]


def test_the_list_is_built_again_only_when_time_changes_it(phone: Phone) -> None:
    """The list reads the day (its dates are relative to today) and waits for the moments time changes it: a due
    time passing (the row turns red), an undated task (which sorts at twice the time now) passing a dated one. In
    between the frame stays; at them it is built again."""
    insert(phone, task_row("Call back", 1, dt.datetime(2023, 10, 15, 15, 40)), task_row("No date", 3),
           task_row("Far ahead", 3, dt.date(2080, 1, 1)))
    launch(phone)
    assert _titles(phone) == ["Call back", "No date", "Far ahead"]
    phone.clock.set(to_ms(dt.datetime(2023, 10, 15, 15, 40)))  # the status bar shows 15:40
    shown = phone.window.frame()
    phone.clock.advance(1_000)  # the due time (its seconds mark that it has one)
    assert phone.window.frame() is shown
    phone.clock.advance(1)  # past it: overdue
    assert phone.window.frame() is not shown

    def order_at(ms: int) -> list[str]:
        phone.clock.set(ms)
        phone.invalidate()
        return _titles(phone)

    low, high = phone.clock.now_ms(), to_ms(dt.datetime(2080, 1, 1))  # the undated task passes in between
    while high - low > 1:  # the first millisecond the order differs
        middle = (low + high) // 2
        low, high = (middle, high) if order_at(middle) == ["Call back", "No date", "Far ahead"] else (low, middle)
    assert order_at(high) == ["Call back", "Far ahead", "No date"]
    order_at(max(low - 999, low // 60_000 * 60_000))  # in the same minute
    shown = phone.window.frame()
    phone.clock.set(low)
    assert phone.window.frame() is shown
    phone.clock.set(high)
    assert phone.window.frame() is not shown and _titles(phone) == ["Call back", "Far ahead", "No date"]
