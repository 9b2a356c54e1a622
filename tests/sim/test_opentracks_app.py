"""OpenTracks (de.dennisguse.opentracks) on the simulated phone: its database as the app creates it, the track
list, a track's statistics and the editor, driven through taps and typing and checked in the rows and the UI
dump."""

from __future__ import annotations

import datetime as dt
import sqlite3
from contextlib import closing

import pytest

from android_gym.envs.opentracks import activity_row, mile_rounded
from android_gym.sim import keycodes
from android_gym.sim.apps.opentracks import (
    DB_PATH,
    PACKAGE,
    PREFS_PATH,
    distance_parts,
    format_decimal,
    format_elapsed,
    medium_date_time,
    relative_date,
    speed_parts,
)
from android_gym.sim.phone import Phone
from android_gym.ui import UIElement, parse_ui_dump

UTC = dt.timezone.utc
# app-schemas.md: the tracks table and its index, as CustomSQLiteOpenHelper creates them.
TRACKS_SQL = (
    "CREATE TABLE tracks (_id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT, description TEXT, category TEXT, "
    "starttime INTEGER, stoptime INTEGER, numpoints INTEGER, totaldistance FLOAT, totaltime INTEGER, movingtime "
    "INTEGER, avgspeed FLOAT, avgmovingspeed FLOAT, maxspeed FLOAT, minelevation FLOAT, maxelevation FLOAT, "
    "elevationgain FLOAT, icon TEXT, uuid BLOB, elevationloss FLOAT, starttime_offset INTEGER, activity_type TEXT)")


@pytest.fixture
def phone():
    device = Phone()
    yield device
    device.close()


def db(phone: Phone) -> sqlite3.Connection:
    connection = sqlite3.connect(phone.fs.host_path(DB_PATH))
    connection.row_factory = sqlite3.Row
    return connection


def insert(phone: Phone, *rows: dict) -> None:
    with closing(db(phone)) as connection, connection:
        for row in rows:
            connection.execute(f"INSERT INTO tracks ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})",
                               tuple(row.values()))


def tracks(phone: Phone) -> list[dict]:
    with closing(db(phone)) as connection:
        return [dict(r) for r in connection.execute("SELECT * FROM tracks ORDER BY _id")]


def elements(phone: Phone) -> list[UIElement]:
    return [e for e in parse_ui_dump(phone.ui_dump()) if e.bbox_pixels.area > 0]


def texts(phone: Phone) -> list[str]:
    return [e.text for e in elements(phone) if e.text]


def find(phone: Phone, **props: object) -> UIElement | None:
    found = [e for e in elements(phone) if all(getattr(e, k) == v for k, v in props.items())]
    return found[-1] if found else None


def tap(phone: Phone, **props: object) -> None:
    element = find(phone, **props)
    assert element is not None, f"no element with {props}"
    phone.tap(*element.bbox_pixels.center)


def rid(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


def launch(phone: Phone) -> None:
    phone.run(f"monkey -p {PACKAGE} -c android.intent.category.LAUNCHER 1")


RIDE = activity_row("Evening loop", "mountain biking", dt.datetime(2023, 10, 14, 17, 5), 90, mile_rounded(12000),
                    320, 310, "Windy")
RUN = activity_row("Park run", "running", dt.datetime(2023, 10, 15, 7, 30), 45, mile_rounded(5000), 50, 40)
SWIM = activity_row("Lake swim", "swimming", dt.datetime(2023, 10, 2, 9, 0), 30, mile_rounded(100))


def test_database_is_created_with_the_real_schema_and_version(phone):
    with closing(db(phone)) as connection:
        tables = dict(connection.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table'").fetchall())
        indexes = {name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
        assert connection.execute("PRAGMA user_version").fetchone()[0] == 37
    assert tables["tracks"] == TRACKS_SQL
    assert {"trackpoints", "markers", "android_metadata"} <= set(tables)
    assert {"tracks_uuid_index", "trackpoints_trackid_index", "markers_trackid_index"} <= indexes
    assert "IMPERIAL" in phone.fs.read_bytes(PREFS_PATH).decode()  # applyDefaultUnit in en-US


def test_pm_clear_brings_back_an_empty_database(phone):
    insert(phone, RUN)
    phone.run(f"pm clear {PACKAGE}")
    launch(phone)
    assert tracks(phone) == [] and "Start recording your next adventure here" in texts(phone)


@pytest.mark.parametrize(("ms", "shown"), [(15 * 60_000, "15:00"), (5 * 60_000, "05:00"),
                                           (90 * 60_000, "1:30:00"), (270 * 60_000, "4:30:00"), (0, "00:00")])
def test_elapsed_time_as_the_app_formats_it(ms, shown):
    assert format_elapsed(ms) == shown


@pytest.mark.parametrize(("metres", "units", "shown"), [
    (12006, "IMPERIAL", ("7.46", "mi")), (805, "IMPERIAL", ("0.50", "mi")), (97, "IMPERIAL", ("318.24", "ft")),
    (499, "IMPERIAL", ("1,637.14", "ft")), (12006, "METRIC", ("12.01", "km")), (499, "METRIC", ("499.00", "m"))])
def test_distances_in_miles_or_feet_by_default_and_metric_when_chosen(metres, units, shown):
    assert distance_parts(metres, units) == shown


def test_speed_or_pace_and_rounding():
    assert speed_parts(12006 / 5400, "IMPERIAL", report_speed=True) == ("5.0", "mph")
    assert speed_parts(8046.72 / 3600, "IMPERIAL", report_speed=False) == ("12:00", "min/mi")
    assert format_decimal(0.125, 2) == "0.12" and format_decimal(1234.5, 0) == "1,234"  # HALF_EVEN, grouped


def test_relative_dates_and_medium_date_time():
    today = dt.date(2023, 10, 15)
    assert [relative_date(today - dt.timedelta(days=d), today, "en-US") for d in (0, 1, 6, 7)] == [
        "Today", "Yesterday", "Monday", "8 Oct"]
    assert relative_date(dt.date(2022, 10, 8), today, "en-US") == "8 Oct 2022"
    assert medium_date_time(dt.datetime(2023, 10, 14, 17, 5), "en-US") == "Oct 14, 2023, 5:05:00 PM"
    assert [relative_date(today - dt.timedelta(days=d), today, "de-DE") for d in (6, 7)] == ["Montag", "8 Okt."]
    assert medium_date_time(dt.datetime(2023, 10, 14, 17, 5), "fr-FR") == "14 oct. 2023, 17:05:00"


def test_list_shows_tracks_newest_first_with_time_distance_date_and_description(phone):
    insert(phone, SWIM, RIDE, RUN)
    launch(phone)
    names = [e.text for e in elements(phone) if e.resource_name == rid("track_list_item_name")]
    assert names == ["Park run", "Evening loop", "Lake swim"]
    shown = texts(phone)
    assert {"45:00 (3.11 mi)", "1:30:00 (7.46 mi)", "30:00 (318.24 ft)"} <= set(shown)
    assert {"Today", "Yesterday", "2 Oct", "07:30", "17:05", "Windy"} <= set(shown)
    icons = [e for e in elements(phone) if e.resource_name == rid("track_list_item_icon")]
    assert [e.content_description for e in icons] == ["Track"] * 3  # the type is only an icon in the list


def test_list_scrolls_to_older_tracks(phone):
    rows = [activity_row(f"Walk {n}", "walking", dt.datetime(2023, 10, 1, 8) + dt.timedelta(hours=n), 20, 1000)
            for n in range(25)]
    insert(phone, *rows)
    launch(phone)
    assert "Walk 0" not in texts(phone)
    for _ in range(6):
        phone.swipe(540, 1900, 540, 600, 300)
    assert "Walk 0" in texts(phone)


def test_statistics_show_every_field_the_questions_ask_about(phone):
    insert(phone, RIDE)
    launch(phone)
    tap(phone, text="Evening loop")
    assert phone.activities.foreground()[1].endswith("TrackRecordedActivity")
    value = {e.resource_name.rsplit("/", 1)[-1]: e.text for e in elements(phone) if e.text}
    assert value["stats_name_value"] == "Evening loop" and value["stats_description_value"] == "Windy"
    assert value["stats_start_datetime_value"] == "Oct 14, 2023, 5:05:00 PM"
    assert (value["stats_distance_value"], value["stats_distance_unit"]) == ("7.46", "mi")
    assert value["stats_moving_time_value"] == value["stats_total_time_value"] == "1:30:00"
    assert (value["stats_average_speed_value"], value["stats_average_speed_unit"]) == ("5.0", "mph")
    assert (value["stats_altitude_gain_value"], value["stats_altitude_gain_unit"]) == ("1,050", "ft")
    assert value["stats_altitude_loss_value"] == "1,017"
    assert value["stats_distance_label"] == "DISTANCE"  # all caps, as the app's headers
    assert "mountain biking" not in texts(phone)  # the statistics show the type only as an icon
    phone.key(4)  # BACK
    assert phone.activities.foreground()[1].endswith("TrackListActivity")


def test_running_shows_pace_not_speed(phone):
    insert(phone, RUN)
    launch(phone)
    tap(phone, text="Park run")
    shown = texts(phone)
    assert "AVG PACE" in shown and "min/mi" in shown and "mph" not in shown


def test_editor_shows_and_saves_name_type_and_description(phone):
    insert(phone, RIDE, RUN)
    launch(phone)
    tap(phone, text="Evening loop")
    tap(phone, content_description="More options")
    assert {"Markers", "Edit", "Delete", "Resume track", "Settings"} <= set(texts(phone))
    tap(phone, text="Edit")
    assert find(phone, resource_name=rid("track_edit_activity_type")).text == "mountain biking"
    field = find(phone, resource_name=rid("track_edit_name"))
    phone.tap(*field.bbox_pixels.center)
    phone.run("input keyevent KEYCODE_MOVE_END")
    for _ in range(len("Evening loop")):
        phone.key(67)  # DEL
    phone.run("input text 'Night loop'")
    field = find(phone, resource_name=rid("track_edit_activity_type"))
    phone.tap(*field.bbox_pixels.center)
    phone.run("input keyevent KEYCODE_MOVE_END")
    for _ in range(len("mountain biking")):
        phone.key(67)
    phone.run("input text 'trail running'")
    tap(phone, text="SAVE")
    ride, run = tracks(phone)
    assert (ride["name"], ride["category"]) == ("Night loop", "trail running")
    assert ride["activity_type"] == "track running"  # findByLocalizedString: the first type named so
    assert ride["avgspeed"] == pytest.approx(12006 / 5400)  # recomputed on save (AndroidWorld's is a unit slip)
    kept = ("description", "starttime", "stoptime", "totaldistance", "totaltime", "movingtime", "elevationgain",
            "elevationloss", "uuid")
    assert {column: ride[column] for column in kept} == {column: RIDE[column] for column in kept}
    assert {column: run[column] for column in RUN} == RUN
    assert phone.activities.foreground()[1].endswith("TrackRecordedActivity")
    assert "Night loop" in texts(phone)


def test_editor_cancel_and_back_change_nothing(phone):
    insert(phone, RUN)
    launch(phone)
    tap(phone, text="Park run")
    tap(phone, content_description="More options")
    tap(phone, text="Edit")
    original = tracks(phone)
    tap(phone, text="CANCEL")
    assert tracks(phone) == original and phone.activities.foreground()[1].endswith("TrackRecordedActivity")
    phone.key(4)
    assert phone.activities.foreground()[1].endswith("TrackListActivity")


def test_track_deleted_from_outside_closes_its_screen(phone):
    insert(phone, RUN)
    launch(phone)
    tap(phone, text="Park run")
    with closing(db(phone)) as connection, connection:
        connection.execute("DELETE FROM tracks")
    phone.invalidate()
    assert "Start recording your next adventure here" in texts(phone)


@pytest.mark.parametrize("night", [False, True])
def test_overflow_menus_are_material_3_surface_containers(night: bool) -> None:
    """Theme.Material3.DayNight (material 1.11): the overflow menus' window is ``m3_popupmenu_background_overlay``,
    ``?colorSurfaceContainer`` (neutral 94 by day, 12 by night: not the toolkit's white), with 8 dp of it above
    and below the items, in the list's and the track's menus alike; the items' text is ``colorOnSurface``."""
    phone = Phone()
    if night:
        phone.run("cmd uimode night yes")
    insert(phone, RIDE)
    launch(phone)
    for opened in ("Settings", "Markers"):
        tap(phone, content_description="More options")
        pixels = phone.screenshot()
        title = find(phone, text=opened)
        menu = find(phone, class_name="android.widget.ListView")
        assert title is not None and menu is not None
        left, top = menu.bbox_pixels.x_min, menu.bbox_pixels.y_min
        assert tuple(pixels[top - 10, left + 20]) == tuple(pixels[top + 10, left + 20]) == (
            (0x21, 0x1F, 0x26) if night else (0xF3, 0xED, 0xF7))  # above the list (its 8 dp) and in it
        text = {tuple(p) for p in pixels[title.bbox_pixels.y_min:title.bbox_pixels.y_max,
                                         title.bbox_pixels.x_min:title.bbox_pixels.x_max].reshape(-1, 3)}
        assert ((0xE6, 0xE0, 0xE9) if night else (0x1D, 0x1B, 0x20)) in text
        phone.key(keycodes.BACK)  # the menu closes
        tap(phone, text="Evening loop")  # the track's screen, whose menu is the next
