"""Simple Calendar Pro on the simulated phone, driven only through taps, long presses, typed text and keys; the
results are read back from ``events.db`` and the UI dump."""

from __future__ import annotations

import datetime as dt
import re
import sqlite3
from contextlib import closing

import pytest
from lxml import etree

from android_gym.actions import Action, ActionType, execute
from android_gym.sim import keycodes
from android_gym.sim.apps.calendar import (
    DAY,
    DB_PATH,
    MONTH,
    PACKAGE,
    PREFS_PATH,
    WEEK,
    YEAR,
    Occurrence,
    event_row,
    month_grid_start,
    occurrences,
    utc_event_row,
)
from android_gym.sim.apps.commons import PRIMARY
from android_gym.sim.phone import Phone
from android_gym.ui import parse_ui_dump

UTC = dt.timezone.utc
MAIN, EVENT = f"{PACKAGE}.activities.MainActivity", f"{PACKAGE}.activities.EventActivity"


def rid(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


def ts(day: int, hour: int, minute: int = 0, month: int = 10) -> int:
    return int(dt.datetime(2023, month, day, hour, minute, tzinfo=UTC).timestamp())


def nodes(phone: Phone) -> list[etree._Element]:
    return list(etree.fromstring(phone.ui_dump().encode()).iter("node"))


def find_all(phone: Phone, **attrs: str) -> list[etree._Element]:
    return [node for node in nodes(phone)
            if all(node.get(key.replace("_", "-")) == value for key, value in attrs.items())]


def find(phone: Phone, **attrs: str) -> etree._Element | None:
    found = find_all(phone, **attrs)
    return found[-1] if found else None


def center(node: etree._Element) -> tuple[float, float]:
    x1, y1, x2, y2 = map(int, re.findall(r"\d+", node.get("bounds")))
    return (x1 + x2) / 2, (y1 + y2) / 2


def tap(phone: Phone, **attrs: str) -> None:
    node = find(phone, **attrs)
    assert node is not None, f"no node with {attrs}"
    phone.tap(*center(node))


def long_press(phone: Phone, **attrs: str) -> None:
    node = find(phone, **attrs)
    assert node is not None, f"no node with {attrs}"
    phone.long_press(*center(node))


def texts(phone: Phone, name: str) -> list[str]:
    return [node.get("text") for node in nodes(phone) if node.get("resource-id") == rid(name)]


def events(phone: Phone) -> list[dict]:
    with closing(sqlite3.connect(phone.fs.host_path(DB_PATH))) as db:
        db.row_factory = sqlite3.Row
        return [dict(row) for row in db.execute("SELECT * FROM events ORDER BY id")]


def insert(phone: Phone, *rows: dict) -> list[int]:
    return [phone.packages.get(PACKAGE).db.insert(row) for row in rows]


def open_app(phone: Phone) -> None:
    phone.run("settings put system time_12_24 24")
    tap(phone, text="Calendar")
    assert phone.activities.foreground() == (PACKAGE, MAIN)


def open_day(phone: Phone, day: int) -> None:
    """Tap a day of October 2023 in the month view (its cell has no text, as on a phone)."""
    cells = find_all(phone, resource_id=rid("month_view_background"))
    assert len(cells) == 42 and all(cell.get("text") == "" for cell in cells)
    first = dt.date(2023, 10, 1)
    phone.tap(*center(cells[(dt.date(2023, 10, day) - month_grid_start(first, sunday_first=True)).days]))


PAGER = "androidx.viewpager.widget.ViewPager"


def pager(phone: Phone) -> etree._Element:
    """The month or day holder's ViewPager: ``MyViewPager`` reports androidx's class and, its id replaced at run
    time by one without a package, no resource id."""
    [node] = find_all(phone, **{"class": PAGER})
    assert (node.get("resource-id"), node.get("scrollable"), node.get("clickable")) == ("", "true", "true")
    assert node.getparent().get("resource-id") == rid("fragments_holder")
    return node


def fling(phone: Phone, finger: str, bounds: str | None = None) -> None:
    """Drag across the middle of the pager (where ``bounds`` put it, else where the dump does), the finger moving
    ``"left"`` or ``"right"``."""
    x1, y1, x2, y2 = map(int, re.findall(r"\d+", bounds or pager(phone).get("bounds")))
    start, end = (x2 - 100, x1 + 100) if finger == "left" else (x1 + 100, x2 - 100)
    phone.swipe(start, (y1 + y2) / 2, end, (y1 + y2) / 2 + 40)


def pick_time(phone: Phone, field: str, hour: int, minute: int) -> None:
    """Set a time on the clock face: the hour (which moves on to the minutes), a five-minute mark, OK."""
    tap(phone, resource_id=rid(field))
    hour_text = "00" if hour == 0 else str(hour)
    tap(phone, text=hour_text, content_desc=f"{hour_text} hours")
    tap(phone, text=f"{minute:02d}", content_desc=f"{minute:02d} minutes")
    tap(phone, resource_id=rid("material_timepicker_ok_button"))


@pytest.fixture
def app_phone(phone: Phone) -> Phone:
    """The phone with the calendar open on its month view."""
    open_app(phone)
    return phone


def test_first_run_database_is_rooms_schema_with_the_regular_event_type(phone):
    with closing(sqlite3.connect(phone.fs.host_path(DB_PATH))) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (8,)
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert {"events", "event_types", "widgets", "tasks", "room_master_table", "android_metadata"} <= tables
        assert db.execute("SELECT identity_hash FROM room_master_table WHERE id = 42").fetchone() == (
            "1d5b2fddcb258e43f2935820863057a9",)
        assert db.execute("SELECT id, title, caldav_calendar_id, type FROM event_types").fetchall() == [
            (1, "Regular event", 0, 0)]
        columns = [row[1] for row in db.execute("PRAGMA table_info(events)")]
    assert columns[:4] == ["id", "start_ts", "end_ts", "title"] and columns[-1] == "type" and len(columns) == 27
    phone.run(f"pm clear {PACKAGE}")
    assert events(phone) == [] and phone.fs.exists(DB_PATH)


def test_only_displayed_event_types_show(app_phone):
    phone = app_phone
    insert(phone, event_row("Shown", dt.datetime(2023, 10, 16, 9)),
           {**event_row("Hidden", dt.datetime(2023, 10, 16, 10)), "event_type": 2})
    assert "<string>1</string>" in phone.fs.read_bytes(PREFS_PATH).decode()  # display_event_types, at install
    open_day(phone, 16)
    assert texts(phone, "event_item_title") == ["Shown"]
    phone.run(f"am force-stop {PACKAGE}")
    phone.fs.write_bytes(PREFS_PATH, b"<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\n<map />\n")
    tap(phone, text="Calendar")
    open_day(phone, 16)
    assert texts(phone, "event_item_title") == []  # every type filtered out, as with no preferences at all
    phone.run(f"pm clear {PACKAGE}")
    assert "display_event_types" in phone.fs.read_bytes(PREFS_PATH).decode()


def test_event_row_encodings():
    row = event_row("Lunch", dt.datetime(2023, 10, 16, 12), duration_mins=45, location="Cafe")
    assert (row["start_ts"], row["end_ts"], row["flags"], row["source"]) == (ts(16, 12), ts(16, 12, 45), 0,
                                                                            "imported-ics")
    assert (row["reminder_1_minutes"], row["repetition_exceptions"], row["time_zone"], row["event_type"]) == (
        -1, "[]", "UTC", 1)
    all_day = event_row("Trip", dt.datetime(2023, 10, 16, 9), dt.datetime(2023, 10, 18, 8), all_day=True)
    assert (all_day["start_ts"], all_day["end_ts"], all_day["flags"]) == (ts(16, 0), ts(18, 12), 1)
    assert event_row("Once", dt.datetime(2023, 10, 1), repeat_limit=5)["repeat_limit"] == 0


@pytest.mark.parametrize(("start", "minutes"), [(ts(16, 12), 45), (ts(1, 0), 15), (ts(31, 23, 59), 60)])
def test_utc_event_row_is_event_rows_row_of_the_same_moment(start, minutes):
    made = event_row("Review", dt.datetime.fromtimestamp(start, dt.timezone.utc), duration_mins=minutes,
                     description="We will review it.")
    quick = utc_event_row("Review", start, minutes, "We will review it.")
    assert list(quick.items()) == list(made.items())  # the same values, columns in the same order


def test_repeating_events_expand_by_their_rules():
    zone = dt.timezone.utc
    weekly = {**event_row("Gym", dt.datetime(2023, 10, 2, 7), duration_mins=60, repeat_interval=WEEK,
                          repeat_rule=1 | 4), "id": 1}  # Mondays and Wednesdays
    starts = [o.start_ts for o in occurrences(weekly, ts(1, 0), ts(12, 0), zone)]
    assert starts == [ts(2, 7), ts(4, 7), ts(9, 7), ts(11, 7)]
    daily = {**event_row("Pill", dt.datetime(2023, 10, 1, 8), repeat_interval=DAY, repeat_limit=-3), "id": 2}
    assert [o.start_ts for o in occurrences(daily, 0, ts(31, 0), zone)] == [ts(1, 8), ts(2, 8), ts(3, 8)]
    skipped = {**daily, "repeat_limit": 0, "repetition_exceptions": "[20231002]"}
    assert [o.start_ts for o in occurrences(skipped, 0, ts(3, 23), zone)] == [ts(1, 8), ts(3, 8)]
    monthly = {**event_row("Rent", dt.datetime(2023, 1, 31, 9), repeat_interval=MONTH, repeat_rule=1), "id": 3}
    assert [o.start_ts for o in occurrences(monthly, ts(1, 0, month=2), ts(1, 0, month=6), zone)] == [
        ts(31, 9, month=3), ts(31, 9, month=5)]  # months without a 31st are skipped
    yearly = {**event_row("Birthday", dt.datetime(2020, 10, 20), repeat_interval=YEAR), "id": 4}
    assert [o.start_ts for o in occurrences(yearly, ts(1, 0), ts(31, 0), zone)] == [ts(20, 0)]
    once = {**event_row("Call", dt.datetime(2023, 10, 5, 23), duration_mins=60), "id": 5}
    assert [o.key for o in occurrences(once, ts(6, 0), ts(6, 23), zone)] == [(5, ts(5, 23))]  # spills into the 6th
    assert isinstance(next(occurrences(once, 0, ts(6, 0), zone)), Occurrence)


def test_month_view_navigates_and_opens_a_day_with_events_written_from_outside(app_phone):
    phone = app_phone
    assert texts(phone, "top_value") == ["October"]
    assert find(phone, content_desc="Go to today") is None
    insert(phone, event_row("Meeting with Alice", dt.datetime(2023, 10, 16, 9), duration_mins=30,
                            description="We will plan.\nBring slides."),
           event_row("Holiday", dt.datetime(2023, 10, 16), all_day=True),
           event_row("Late call", dt.datetime(2023, 10, 15, 23, 30), duration_mins=60))
    tap(phone, resource_id=rid("top_right_arrow"))
    assert texts(phone, "top_value") == ["November"]
    tap(phone, content_desc="Go to today")
    assert texts(phone, "top_value") == ["October"]
    tap(phone, resource_id=rid("top_left_arrow"))
    tap(phone, resource_id=rid("top_left_arrow"))
    assert texts(phone, "top_value") == ["August"]
    tap(phone, content_desc="Go to today")
    open_day(phone, 16)
    assert texts(phone, "top_value") == ["October 16 (Mon)"]
    assert texts(phone, "event_item_title") == ["Holiday", "Late call", "Meeting with Alice"]  # all-day first
    assert texts(phone, "event_item_time") == ["All-day", "23:30 (October 15) - 00:30", "09:00 - 09:30"]
    assert texts(phone, "event_item_description") == ["We will plan. Bring slides."]
    tap(phone, resource_id=rid("top_right_arrow"))
    assert texts(phone, "top_value") == ["October 17 (Tue)"] and texts(phone, "event_item_title") == []
    phone.key(keycodes.BACK)
    assert texts(phone, "top_value") == ["October"]
    phone.key(keycodes.BACK)
    assert phone.activities.foreground()[0] != PACKAGE


def test_new_event_from_a_day_saves_the_apps_encodings(app_phone):
    phone = app_phone
    open_day(phone, 20)
    tap(phone, resource_id=rid("calendar_fab"))
    assert texts(phone, "fab_event_label") == ["Event"] and texts(phone, "fab_task_label") == ["Task"]
    tap(phone, resource_id=rid("fab_event_label"))
    assert phone.activities.foreground() == (PACKAGE, EVENT) and phone.activities.top.keyboard_shown
    assert find(phone, text="New Event") is not None
    assert find(phone, resource_id=rid("event_title")).get("focused") == "true"
    assert texts(phone, "event_start_date") == ["October 20 (Fri)"] and texts(phone, "event_start_time") == ["16:00"]
    assert texts(phone, "event_reminder_1") == ["10 minutes before"]
    phone.input_text("Dentist")
    tap(phone, resource_id=rid("event_location"))
    phone.input_text("Main St 1")
    tap(phone, resource_id=rid("event_description"))
    phone.input_text("Checkup")
    phone.key(keycodes.ENTER)  # a new line in the multi-line description; saved trimmed
    pick_time(phone, "event_start_time", 9, 30)
    assert texts(phone, "event_end_time") == ["09:30"]  # the duration (0 minutes) is kept
    pick_time(phone, "event_end_time", 10, 15)
    tap(phone, resource_id=rid("save"))
    assert texts(phone, "alertTitle") == ["Disclaimer"]
    tap(phone, resource_id="android:id/button1")
    assert phone.activities.foreground() == (PACKAGE, MAIN)
    [row] = events(phone)
    assert (row["start_ts"], row["end_ts"], row["title"], row["location"], row["description"]) == (
        ts(20, 9, 30), ts(20, 10, 15), "Dentist", "Main St 1", "Checkup")
    assert (row["reminder_1_minutes"], row["reminder_2_minutes"], row["reminder_3_minutes"]) == (10, -1, -1)
    assert (row["source"], row["time_zone"], row["flags"], row["event_type"], row["repeat_interval"]) == (
        "simple-calendar", "UTC", 0, 1, 0)
    assert row["last_updated"] == phone.clock.now_ms()  # saved at the last tap
    assert re.fullmatch(r"[0-9a-f]{32}\d{13}", row["import_id"])
    assert texts(phone, "event_item_title") == ["Dentist"]
    assert "was_alarm_warning_shown" in phone.fs.read_bytes(PREFS_PATH).decode()


def test_new_event_from_another_month_starts_on_its_first_day(app_phone):
    phone = app_phone
    fling(phone, "left")
    tap(phone, resource_id=rid("calendar_fab"))
    tap(phone, resource_id=rid("fab_event_label"))
    assert texts(phone, "event_start_date") == ["November 1 (Wed)"] and texts(phone, "event_start_time") == ["16:00"]


def test_flinging_the_month_pager_turns_months_both_ways_and_a_vertical_drag_does_not(app_phone):
    phone = app_phone
    insert(phone, event_row("Dentist", dt.datetime(2023, 11, 20, 9)))
    assert [child.get("resource-id") for child in pager(phone)] == [rid("month_calendar_holder")]
    fling(phone, "left")
    assert texts(phone, "top_value") == ["November"] and find(phone, content_desc="Go to today") is not None
    x1, y1, x2, y2 = map(int, re.findall(r"\d+", pager(phone).get("bounds")))
    phone.swipe((x1 + x2) / 2, y2 - 200, (x1 + x2) / 2 + 100, y1 + 400)  # mostly vertical
    assert texts(phone, "top_value") == ["November"]
    cells = find_all(phone, resource_id=rid("month_view_background"))
    phone.tap(*center(cells[(dt.date(2023, 11, 20) - month_grid_start(dt.date(2023, 11, 1), sunday_first=True)).days]))
    assert texts(phone, "top_value") == ["November 20 (Mon)"] and texts(phone, "event_item_title") == ["Dentist"]
    phone.key(keycodes.BACK)
    fling(phone, "right")
    fling(phone, "right")
    assert texts(phone, "top_value") == ["September"]
    tap(phone, resource_id=rid("top_right_arrow"))  # the arrows still turn the same pager
    assert texts(phone, "top_value") == ["October"] and find(phone, content_desc="Go to today") is None


def test_flinging_the_day_pager_shows_the_next_and_previous_days_events(app_phone):
    phone = app_phone
    insert(phone, event_row("Gym", dt.datetime(2023, 10, 17, 7)), event_row("Brunch", dt.datetime(2023, 10, 15, 11)))
    open_day(phone, 16)
    assert [child.get("resource-id") for child in pager(phone)] == [rid("day_holder")]
    fling(phone, "left")
    assert texts(phone, "top_value") == ["October 17 (Tue)"] and texts(phone, "event_item_title") == ["Gym"]
    fling(phone, "right")
    fling(phone, "right")
    assert texts(phone, "top_value") == ["October 15 (Sun)"] and texts(phone, "event_item_title") == ["Brunch"]
    bounds = pager(phone).get("bounds")
    x1, y1, x2, y2 = map(int, re.findall(r"\d+", bounds))
    phone.swipe((x1 + x2) / 2, y1 + 300, (x1 + x2) / 2, y2 - 100)
    assert texts(phone, "top_value") == ["October 15 (Sun)"]
    tap(phone, content_desc="Change view")  # a dialog over the pager takes the drag
    assert find_all(phone, **{"class": PAGER}) == []  # the dialog's window is the one dumped
    fling(phone, "left", bounds)
    phone.key(keycodes.BACK)
    assert texts(phone, "top_value") == ["October 15 (Sun)"]


def test_the_env_scroll_and_swipe_actions_turn_the_pager(device):
    phone = device.phone
    open_app(phone)
    tap(phone, content_desc="Change view")
    tap(phone, text="Daily view")
    assert texts(phone, "top_value") == ["October 15 (Sun)"]
    elements = parse_ui_dump(device.ui_dump())
    [index] = [e.index for e in elements if e.class_name == PAGER]
    execute(Action(ActionType.SCROLL, index=index, direction="right"), device, elements)  # shows what is right
    assert texts(phone, "top_value") == ["October 16 (Mon)"]
    execute(Action(ActionType.SWIPE, direction="left"), device, [])  # the finger goes from left to right
    execute(Action(ActionType.SWIPE, direction="left"), device, [])
    assert texts(phone, "top_value") == ["October 14 (Sat)"]


def test_the_pager_stops_at_its_251st_page_until_go_to_today_sets_it_up_again(app_phone):
    phone = app_phone
    tap(phone, content_desc="Change view")
    tap(phone, text="Daily view")
    for _ in range(126):
        fling(phone, "right")
    assert texts(phone, "top_value") == ["June 12 (Mon)"]  # 125 days before October 15
    tap(phone, content_desc="Go to today")
    fling(phone, "left")
    assert texts(phone, "top_value") == ["October 16 (Mon)"]


def test_date_picker_text_time_input_and_all_day(app_phone):
    phone = app_phone
    tap(phone, resource_id=rid("calendar_fab"))
    tap(phone, resource_id=rid("calendar_fab"))  # the second tap opens a new event too
    assert texts(phone, "event_start_date") == ["October 15 (Sun)"]
    phone.input_text("Conference")
    tap(phone, resource_id=rid("event_start_date"))
    assert find(phone, resource_id="android:id/date_picker_header_date").get("text") == "Sun, Oct 15"
    tap(phone, content_desc="Next month")
    tap(phone, content_desc="2 November 2023")
    assert find(phone, resource_id="android:id/date_picker_header_date").get("text") == "Thu, Nov 2"
    tap(phone, resource_id="android:id/button1")
    assert texts(phone, "event_start_date") == ["November 2 (Thu)"] == texts(phone, "event_end_date")
    tap(phone, resource_id=rid("event_end_time"))
    tap(phone, content_desc="Switch to text input mode for the time input.")
    hour, minute = find_all(phone, resource_id=rid("material_timepicker_edit_text"))
    assert (hour.get("text"), minute.get("text")) == ("16", "00")
    phone.tap(*center(minute))
    phone.key(keycodes.DEL)
    phone.key(keycodes.DEL)
    phone.input_text("77")  # MaxInputValidator: more than 59 is refused
    phone.input_text("07")
    assert find_all(phone, resource_id=rid("material_timepicker_edit_text"))[1].get("text") == "07"
    tap(phone, resource_id=rid("material_timepicker_ok_button"))
    assert texts(phone, "event_end_time") == ["16:07"]
    tap(phone, resource_id=rid("event_all_day"))
    assert texts(phone, "event_start_time") == []
    tap(phone, resource_id=rid("save"))
    tap(phone, resource_id="android:id/button1")
    [row] = events(phone)
    assert (row["start_ts"], row["end_ts"], row["flags"]) == (ts(2, 0, month=11), ts(2, 12, month=11), 1)


def test_weekly_repetition_takes_the_start_weekday_and_shows_every_week(app_phone):
    phone = app_phone
    open_day(phone, 18)
    tap(phone, resource_id=rid("calendar_fab"))
    tap(phone, resource_id=rid("fab_event_label"))
    phone.input_text("Standup")
    tap(phone, resource_id=rid("event_repetition"))
    assert [n.get("text") for n in find_all(phone, **{"class": "android.widget.RadioButton"})] == [
        "No repetition", "Daily", "Weekly", "Monthly", "Yearly"]
    tap(phone, text="Weekly")
    assert texts(phone, "event_repetition") == ["Weekly"] and texts(phone, "event_repetition_rule") == ["Wed"]
    assert texts(phone, "event_repetition_limit") == ["Forever"]
    tap(phone, resource_id=rid("event_repetition_rule_holder"))
    tap(phone, text="Friday")
    tap(phone, resource_id="android:id/button1")
    assert texts(phone, "event_repetition_rule") == ["Wed, Fri"]
    tap(phone, resource_id=rid("save"))
    tap(phone, resource_id="android:id/button1")
    [row] = events(phone)
    assert (row["repeat_interval"], row["repeat_rule"], row["repeat_limit"]) == (WEEK, 4 | 16, 0)
    tap(phone, resource_id=rid("top_right_arrow"))
    tap(phone, resource_id=rid("top_right_arrow"))
    assert texts(phone, "top_value") == ["October 20 (Fri)"] and texts(phone, "event_item_title") == ["Standup"]


def test_editing_an_event_updates_its_row_and_back_asks_before_discarding(app_phone):
    phone = app_phone
    [event_id, other] = insert(phone, event_row("Review", dt.datetime(2023, 10, 16, 9), duration_mins=30),
                               event_row("Other", dt.datetime(2023, 10, 16, 11), duration_mins=30))
    before = events(phone)
    open_day(phone, 16)
    tap(phone, text="Review")
    assert find(phone, text="Edit Event") is not None and not phone.activities.top.keyboard_shown
    tap(phone, resource_id=rid("event_title"))
    phone.input_text(" 2")
    phone.key(keycodes.BACK)  # the keyboard goes first
    phone.key(keycodes.BACK)
    assert texts(phone, "message") == ["You have unsaved changes. Save before exit?"]
    tap(phone, text="Discard")
    assert phone.activities.foreground() == (PACKAGE, MAIN) and events(phone) == before
    tap(phone, text="Review")
    pick_time(phone, "event_start_time", 10, 0)
    tap(phone, resource_id=rid("save"))
    assert phone.activities.foreground() == (PACKAGE, MAIN)  # no reminders: no disclaimer
    edited, untouched = events(phone)
    assert edited["id"] == event_id and (edited["start_ts"], edited["end_ts"]) == (ts(16, 10), ts(16, 10, 30))
    assert edited["source"] == "simple-calendar" and edited["last_updated"] > 0
    assert untouched == before[1] and untouched["id"] == other


def test_deleting_from_the_event_screen_asks_first(app_phone):
    phone = app_phone
    insert(phone, event_row("Keep", dt.datetime(2023, 10, 16, 9)), event_row("Drop", dt.datetime(2023, 10, 16, 10)))
    open_day(phone, 16)
    tap(phone, text="Drop")
    tap(phone, resource_id=rid("delete"))
    assert texts(phone, "delete_event_description") == ["Are you sure you want to proceed with the deletion?"]
    tap(phone, text="No")
    assert len(events(phone)) == 2
    tap(phone, resource_id=rid("delete"))
    tap(phone, text="Yes")
    assert [row["title"] for row in events(phone)] == ["Keep"]
    assert texts(phone, "event_item_title") == ["Keep"]


def test_multi_select_in_the_day_view_deletes_only_the_selected_events(app_phone):
    phone = app_phone
    insert(phone, *(event_row(title, dt.datetime(2023, 10, 16, hour)) for hour, title in
                    enumerate(("First", "Second", "Third", "Fourth"), start=8)))
    open_day(phone, 16)
    long_press(phone, text="First")
    assert texts(phone, "actionbar_title") == ["1 / 4"]
    assert find(phone, resource_id=rid("event_item_holder"), selected="true") is not None
    tap(phone, text="Third")
    tap(phone, text="Fourth")
    tap(phone, text="Fourth")  # a second tap deselects
    assert texts(phone, "actionbar_title") == ["2 / 4"]
    tap(phone, content_desc="Delete")
    tap(phone, text="Yes")
    assert [row["title"] for row in events(phone)] == ["Second", "Fourth"]
    assert texts(phone, "actionbar_title") == [] and texts(phone, "event_item_title") == ["Second", "Fourth"]
    long_press(phone, text="Second")
    tap(phone, resource_id=rid("actionbar_title"))  # selects all
    assert texts(phone, "actionbar_title") == ["2 / 2"]
    phone.key(keycodes.BACK)  # ends the action mode
    assert texts(phone, "actionbar_title") == [] and len(events(phone)) == 2


def test_second_long_press_selects_the_range_between(app_phone):
    phone = app_phone
    insert(phone, *(event_row(f"Event {i}", dt.datetime(2023, 10, 16, 8 + i)) for i in range(4)))
    open_day(phone, 16)
    long_press(phone, text="Event 0")
    long_press(phone, text="Event 2")
    assert texts(phone, "actionbar_title") == ["3 / 4"]


def test_deleting_one_occurrence_of_a_repeating_event_adds_an_exception(app_phone):
    phone = app_phone
    [event_id] = insert(phone, event_row("Pill", dt.datetime(2023, 10, 14, 8), repeat_interval=DAY))
    open_day(phone, 16)
    tap(phone, text="Pill")
    tap(phone, resource_id=rid("delete"))
    assert texts(phone, "delete_event_repeat_description") == ["The event is repeatable"]
    tap(phone, text="Yes")  # "Delete the selected occurrence only" is preselected
    [row] = events(phone)
    assert row["id"] == event_id and row["repetition_exceptions"] == "[20231016]"
    assert texts(phone, "event_item_title") == []


def test_changing_the_view_persists_and_the_list_shows_sections(app_phone):
    phone = app_phone
    insert(phone, event_row("Old", dt.datetime(2023, 10, 10, 9)), event_row("Soon", dt.datetime(2023, 10, 17, 9)),
           event_row("Later", dt.datetime(2023, 11, 2, 9), duration_mins=60))
    tap(phone, content_desc="Change view")
    assert [n.get("text") for n in find_all(phone, **{"class": "android.widget.RadioButton"})] == [
        "Daily view", "Monthly view", "Simple event list"]
    tap(phone, text="Simple event list")
    assert texts(phone, "event_section_title") == ["OCTOBER", "17 Tuesday", "NOVEMBER", "2 Thursday"]
    assert texts(phone, "event_item_title") == ["Soon", "Later"]  # from a day ago on
    assert texts(phone, "event_item_time") == ["09:00", "09:00 - 10:00"]
    phone.run(f"am force-stop {PACKAGE}")
    tap(phone, text="Calendar")
    assert texts(phone, "event_item_title") == ["Soon", "Later"]
    tap(phone, text="Soon")
    assert phone.activities.foreground() == (PACKAGE, EVENT)
    phone.key(keycodes.BACK)
    tap(phone, content_desc="Change view")
    tap(phone, text="Daily view")
    assert texts(phone, "top_value") == ["October 15 (Sun)"]
    assert '<int name="view" value="5" />' in phone.fs.read_bytes(PREFS_PATH).decode()


def test_search_finds_events_by_title_location_and_description(app_phone):
    phone = app_phone
    insert(phone, event_row("Yoga", dt.datetime(2023, 10, 3, 7), location="Studio"),
           event_row("Lunch", dt.datetime(2023, 10, 20, 12), description="with the studio team"),
           event_row("Dinner", dt.datetime(2023, 10, 21, 19)))
    tap(phone, resource_id=rid("top_toolbar_search"))
    phone.input_text("s")
    assert texts(phone, "search_placeholder_2") == ["Type in at least 2 characters to start the search."]
    phone.input_text("tudio")
    assert texts(phone, "event_item_title") == ["Yoga", "Lunch"]
    tap(phone, text="Lunch")
    assert phone.activities.foreground() == (PACKAGE, EVENT) and texts(phone, "event_title") == ["Lunch"]
    phone.key(keycodes.BACK)
    phone.key(keycodes.BACK)  # closes the search
    assert texts(phone, "top_toolbar_search") == ["Search"] and texts(phone, "top_value") == ["October"]


def test_an_empty_title_or_an_end_before_the_start_saves_nothing(app_phone):
    phone = app_phone
    tap(phone, resource_id=rid("calendar_fab"))
    tap(phone, resource_id=rid("fab_event_label"))
    tap(phone, resource_id=rid("save"))
    tap(phone, resource_id="android:id/button1")
    assert phone.activities.foreground() == (PACKAGE, EVENT) and events(phone) == []
    tap(phone, resource_id=rid("event_title"))
    phone.input_text("Backwards")
    pick_time(phone, "event_end_time", 9, 0)
    tap(phone, resource_id=rid("save"))
    assert phone.activities.foreground() == (PACKAGE, EVENT) and events(phone) == []


@pytest.mark.parametrize("language, first_cell", [("en-US", "September 24 (Sun)"), ("de-DE", "September 25 (Mo.)"),
                                                  ("fr-FR", "Septembre 25 (lun.)")])
def test_the_month_grid_starts_the_week_as_the_locale_does(phone, language, first_cell):
    """``isSundayFirst`` defaults to the locale's first day of the week: October 2023 (a Sunday) opens a whole
    week of September before it in en-US, a week from Monday 25 September in German and French."""
    phone.run(f"setprop persist.sys.locale {language} && setprop ctl.restart zygote")
    phone.run("monkey -p com.simplemobiletools.calendar.pro -c android.intent.category.LAUNCHER 1")
    phone.tap(*center(find_all(phone, resource_id=rid("month_view_background"))[0]))
    assert texts(phone, "top_value") == [first_cell]


def _colour_share(phone: Phone, node: etree._Element, colour: tuple[int, int, int]) -> tuple[float, float]:
    """How much of the left and of the right half of ``node``'s bounds is painted in ``colour``."""
    x1, y1, x2, y2 = map(int, re.findall(r"\d+", node.get("bounds")))
    pixels = phone.screenshot()[y1:y2, x1:x2]
    hits = (pixels == colour).all(axis=2)
    half = hits.shape[1] // 2
    return hits[:, :half].mean(), hits[:, half:].mean()


def test_all_day_and_weekday_check_boxes_are_drawn_boxes(app_phone):
    """``MyAppCompatCheckbox``es: All-day's box sits at the end of its row (``layoutDirection="rtl"``) and only its
    holder is clickable; the weekly dialog's boxes come before their day names; a checked box is filled in the
    primary colour and the label keeps its colour."""
    phone = app_phone
    tap(phone, resource_id=rid("calendar_fab"))
    tap(phone, resource_id=rid("calendar_fab"))
    phone.key(keycodes.BACK)  # the keyboard
    box = find(phone, resource_id=rid("event_all_day"))
    assert (box.get("class"), box.get("checkable"), box.get("clickable")) == ("android.widget.CheckBox", "true",
                                                                               "false")
    assert box.getparent().get("clickable") == "true"
    assert _colour_share(phone, box, PRIMARY) == (0.0, 0.0)
    tap(phone, resource_id=rid("event_all_day"))
    box = find(phone, resource_id=rid("event_all_day"))
    left, right = _colour_share(phone, box, PRIMARY)
    assert box.get("checked") == "true" and left == 0.0 and right > 0.01
    tap(phone, resource_id=rid("event_repetition"))
    tap(phone, text="Weekly")
    tap(phone, resource_id=rid("event_repetition_rule_holder"))
    day = find(phone, text="Sunday")
    assert (day.get("class"), day.get("checked"), day.get("resource-id")) == ("android.widget.CheckBox", "true", "")
    left, right = _colour_share(phone, day, PRIMARY)
    assert left > 0.01 and right == 0.0


def _app_root(phone: Phone):
    return next(w.root for w in phone.window.screen_windows() if w.kind == "application")


@pytest.mark.parametrize("language, letters, reminder, days, repeat_on", [
    ("en-US", "SMTWTFS", "10 minutes before", "Sun, Wed", "Repeat on"),
    ("de-DE", "MDMDFSS", "10 Minuten vorher", "Mi, So", "Wiederholen"),
    ("fr-FR", ["L", "Ma", "Me", "J", "V", "S", "D"], "10 minutes avant", "Mer, Dim", "Répéter le")])
def test_weekday_letters_reminders_and_repeat_days_in_the_system_language(phone, language, letters, reminder, days,
                                                                          repeat_on):
    """Simple-Commons' week_day_letters (one resource per day: Tuesday's and Thursday's "T" translate apart), the
    reminder's minutes_before plural and getSelectedDaysString's week_days_short, in the system language."""
    phone.run(f"setprop persist.sys.locale {language} && setprop ctl.restart zygote")
    phone.run(f"monkey -p {PACKAGE} -c android.intent.category.LAUNCHER 1")
    wrapper = next(v for v in _app_root(phone).walk() if v.resource_id == rid("month_view_wrapper"))
    letters_row = wrapper.children[1].children[0]  # under the MonthView, the grouping's first row
    assert [label.hint for label in letters_row.children] == list(letters)
    tap(phone, resource_id=rid("calendar_fab"))
    tap(phone, resource_id=rid("calendar_fab"))
    phone.key(keycodes.BACK)  # the keyboard
    assert texts(phone, "event_reminder_1") == [reminder]
    tap(phone, resource_id=rid("event_repetition"))
    tap(phone, resource_id=rid("dialog_radio_button"), index="2")  # weekly
    tap(phone, resource_id=rid("event_repetition_rule_holder"))
    tap(phone, text={"en-US": "Wednesday", "de-DE": "Mittwoch", "fr-FR": "Mercredi"}[language])
    tap(phone, resource_id="android:id/button1")
    assert texts(phone, "event_repetition_rule") == [days]
    assert find(phone, text=repeat_on) is not None


def test_far_and_backward_repetitions_end_without_overflowing_the_date_range():
    """Occurrences thousands of years apart stop past Python's year 9999 (no screen reaches it); a negative
    interval, stepping back in time, ends where it leaves the range or at its count."""
    zone = dt.timezone.utc
    start = dt.datetime(2023, 10, 16, 9)
    for interval in (9000 * YEAR, 95_000 * MONTH, -(3000 * YEAR), -(40_000 * MONTH)):
        eon = {**event_row("Eon", start, duration_mins=60, repeat_interval=interval, repeat_rule=1), "id": 1}
        assert [o.start_ts for o in occurrences(eon, ts(1, 0), ts(31, 0), zone)] == [ts(16, 9)]
        counted = {**eon, "repeat_limit": -5}
        assert [o.start_ts for o in occurrences(counted, ts(1, 0), ts(31, 0), zone)] == [ts(16, 9)]
    backwards = {**event_row("Pill", start, repeat_interval=-DAY), "id": 2}
    assert [o.start_ts for o in occurrences(backwards, ts(14, 0), ts(31, 0), zone)] == [
        ts(16, 9), ts(15, 9), ts(14, 9)]


def test_a_repeat_interval_past_a_java_int_reads_as_its_low_32_bits(app_phone):
    """``Event.repeatInterval`` is an ``Int``: a million years (31536000000000 s) reads as -1944854528 s, which
    ``addIntervalTime`` steps back in time for ever, so ``getEvents`` never calls back and the day shows no
    events, not even the others; 68 years still fit and repeat."""
    phone = app_phone
    ids = insert(phone, event_row("Eon", dt.datetime(2023, 10, 16, 9), duration_mins=60,
                                  repeat_interval=1_000_000 * YEAR),
                 event_row("Lunch", dt.datetime(2023, 10, 16, 12), duration_mins=60))
    assert phone.packages.get(PACKAGE).db.event(ids[0])["repeat_interval"] == -1944854528
    open_day(phone, 16)
    assert texts(phone, "event_item_title") == []
    phone.key(keycodes.BACK)
    phone.packages.get(PACKAGE).db.update(ids[0], {"repeat_interval": 68 * YEAR})
    open_day(phone, 16)
    assert texts(phone, "event_item_title") == ["Eon", "Lunch"]


def test_search_on_29_february_looks_two_years_either_side(app_phone):
    """``DateTime().minusYears(2)`` on 29 February 2024 is 28 February 2022 (Joda clamps the day)."""
    phone = app_phone
    phone.clock.set(int(dt.datetime(2024, 2, 29, 10, tzinfo=UTC).timestamp() * 1000))
    insert(phone, event_row("Leap lunch", dt.datetime(2024, 2, 29, 12)))
    tap(phone, resource_id=rid("top_toolbar_search"))
    phone.input_text("Leap")
    assert texts(phone, "event_item_title") == ["Leap lunch"]


def test_the_date_picker_ends_at_december_2100(phone):
    """``DatePicker``'s default ``maxDate`` (the app sets none): in December 2100 the next-month button is
    ``INVISIBLE`` and out of the dump."""
    phone.clock.set(int(dt.datetime(2100, 11, 15, 10, tzinfo=UTC).timestamp() * 1000))
    open_app(phone)
    tap(phone, resource_id=rid("calendar_fab"))
    tap(phone, resource_id=rid("calendar_fab"))
    tap(phone, resource_id=rid("event_start_date"))
    tap(phone, content_desc="Next month")
    assert find(phone, content_desc="31 December 2100") is not None
    assert find(phone, content_desc="Next month") is None and find(phone, content_desc="Previous month") is not None


def test_the_month_view_draws_its_letters_numbers_and_title_centred():
    """MonthView paints with Paint.Align.CENTER at each column's centre (xPosCenter): the ink of a weekday letter
    and of a day number lies around the middle of its cell, not against its start; the month's name is centred
    between the arrows."""
    phone = Phone()
    phone.run(f"monkey -p {PACKAGE} -c android.intent.category.LAUNCHER 1")
    cells = [view for view in phone.window.frame().app.walk() if view.resource_id == rid("month_view_background")]
    pixels = phone.screenshot().astype(int).sum(axis=2)
    letters_bottom = cells[0].bounds[1]
    for cell in cells[:7]:
        x1, y1, x2, _ = cell.bounds
        for top, bottom in ((letters_bottom - 50, letters_bottom), (y1, y1 + 60)):  # its letter; its number
            ink = (pixels[top:bottom, x1:x2] < 600).any(axis=0).nonzero()[0]
            assert ink.size and abs((ink[0] + ink[-1]) / 2 - (x2 - x1) / 2) <= 3
    title = next(view for view in phone.window.frame().app.walk() if view.resource_id == rid("top_value"))
    x1, y1, x2, y2 = title.bounds  # top_navigation.xml's top_value: android:gravity="center"
    ink = (pixels[y1:y2, x1:x2] < 600).any(axis=0).nonzero()[0]
    assert ink.size and abs((ink[0] + ink[-1]) / 2 - (x2 - x1) / 2) <= 3


def test_the_month_views_painted_days_are_not_in_the_dump(app_phone):
    """MonthView paints the weekday letters, day numbers and event titles on its canvas and exposes nothing to
    accessibility (no content descriptions, no virtual nodes): MonthViewWrapper's children are the MonthView and the
    42 month_view_background cells it lays out itself, each a leaf without text, under a band of twice
    normal_text_size for the letters (no rows: it places each cell); no node for a painted label; the frame still
    paints the event's title."""
    phone = app_phone
    insert(phone, event_row("Dentist", dt.datetime(2023, 10, 16, 9), duration_mins=30))
    wrapper = next(node for node in nodes(phone) if node.get("resource-id") == rid("month_view_wrapper"))
    inside = list(wrapper.iter("node"))[1:]
    assert list(wrapper) == inside  # every node a child of the wrapper
    assert [(node.get("index"), node.get("resource-id"), node.get("class")) for node in inside] == [
        ("0", rid("month_view"), "android.view.View"),
        *((str(i), rid("month_view_background"), "android.view.View") for i in range(1, 43))]
    assert all(len(node) == 0 and node.get("text") == "" for node in inside)
    top = int(re.findall(r"\d+", wrapper.get("bounds"))[1])
    first = [int(n) for n in re.findall(r"\d+", inside[1].get("bounds"))]
    assert first[1] - top == 2 * 37  # weekDaysLetterHeight at 420 dpi
    assert (inside[0].get("clickable"), inside[1].get("clickable")) == ("false", "true")
    assert not any(node.get("text") == "Dentist" for node in nodes(phone))
    drawn = [view for view in phone.window.frame().app.walk() if view.kind == "label"]
    assert "Dentist" in {view.hint for view in drawn}


def test_the_month_view_marks_today_as_monthview_paints_it(app_phone):
    """MonthView.onDraw: today's number in the primary colour's contrast (white) on a primary circle of radius 0.75
    × the text size, centred on its column; addWeekDayLetters: today's weekday letter in the primary colour."""
    phone = app_phone
    labels = [view for view in phone.window.frame().app.walk() if view.kind == "label"]
    [circle] = [view for view in labels if view.background == PRIMARY and view.hint.isdigit()]
    assert circle.text_color == (255, 255, 255) and circle.hint == "15"  # the phone's date: Sunday 15 October 2023
    assert circle.corner * 2 == circle.bounds[2] - circle.bounds[0] == circle.bounds[3] - circle.bounds[1]
    cell = next(view for view in phone.window.frame().app.walk() if view.resource_id == rid("month_view_background")
                and any(child is circle for child in view.children))
    assert abs((circle.bounds[0] + circle.bounds[2]) - (cell.bounds[0] + cell.bounds[2])) <= 1
    letters = [view for view in labels if len(view.hint) == 1 and view.hint.isalpha()][:7]
    assert [view.text_color == PRIMARY for view in letters] == [True] + [False] * 6  # Sunday first


def test_a_days_events_are_cards_with_their_colour_bar(app_phone):
    """event_list_item.xml: each event a card (event_item_holder, a direct child of day_events in the dump) inset by
    activity_margin at the sides, outlined by section_holder_stroke, with event_list_color_bar in the event's
    colour from the title's top to the last line's bottom, rounded at its start."""
    phone = app_phone
    insert(phone, event_row("Dentist", dt.datetime(2023, 10, 16, 9), duration_mins=30, description="Bring card"))
    open_day(phone, 16)
    day_events = next(node for node in nodes(phone) if node.get("resource-id") == rid("day_events"))
    card = day_events[0]
    assert card.get("resource-id") == rid("event_item_holder")
    box = [int(n) for n in re.findall(r"\d+", card.get("bounds"))]
    assert box[0] == 42 and box[2] == 1080 - 42
    frame = phone.window.frame()
    holder = next(v for v in frame.app.walk() if v.resource_id == rid("event_item_holder"))
    bar = next(v for v in holder.walk() if v.resource_id == rid("event_item_color_bar"))
    title, *_, last = [v for v in holder.walk() if v.kind == "text"]
    assert (bar.bounds[1], bar.bounds[3]) == (title.bounds[1], last.bounds[3]) and bar.background == PRIMARY
    pixels = phone.screenshot()
    x1, y1, x2, y2 = bar.bounds
    assert tuple(pixels[(y1 + y2) // 2, x1 + 4]) == PRIMARY and tuple(pixels[y1, x1]) != PRIMARY  # rounded corner
    assert tuple(pixels[(y1 + y2) // 2, holder.bounds[2] - 1]) != (255, 255, 255)  # the stroke at its end


def test_a_selected_events_card_is_greyed_as_selector_rounded_draws_it(app_phone):
    """A long press selects the card: selector_rounded's activated_item_foreground (#44888888) over it; the action
    mode's bar is the system theme's you_contextual_status_bar_color (the primary) with white on it."""
    phone = app_phone
    insert(phone, event_row("Dentist", dt.datetime(2023, 10, 16, 9), duration_mins=30))
    open_day(phone, 16)
    phone.long_press(*center(find(phone, resource_id=rid("event_item_holder"))))
    holder = next(v for v in phone.window.frame().app.walk() if v.resource_id == rid("event_item_holder"))
    assert holder.selected and holder.children[0].background == (223, 223, 223)
    bar = next(v for v in phone.window.frame().app.walk() if v.resource_id == rid("action_mode_bar"))
    assert bar.background == PRIMARY and {v.text_color for v in bar.children} == {(255, 255, 255)}
    phone.run("cmd uimode night yes")  # values-night-v31: system_accent1_700, the white on it kept
    bar = next(v for v in phone.window.frame().app.walk() if v.resource_id == rid("action_mode_bar"))
    assert bar.background == (0x08, 0x42, 0xA0) and {v.text_color for v in bar.children} == {(255, 255, 255)}
    x1, y1, x2, y2 = bar.bounds
    assert tuple(phone.screenshot()[y1 + 4, (x1 + x2) // 2]) == (0x08, 0x42, 0xA0)
    fab_view = next(v for v in phone.window.frame().app.walk() if v.resource_id == rid("calendar_fab"))
    assert fab_view.background == PRIMARY  # you_primary_color: accent1_400 by night too
