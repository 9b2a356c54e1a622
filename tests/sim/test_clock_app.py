"""The Clock app on the simulated phone, driven through taps, the shell and the virtual clock."""

from __future__ import annotations

import os
import sqlite3

import pytest

from android_gym.envs.clock import (
    ClockStopWatchPausedVerify,
    ClockStopWatchPausedVerifyReport,
    ClockStopWatchRunning,
    ClockTimerEntry,
)
from android_gym.sim import keycodes
from android_gym.sim.apps.deskclock import ALARMS_DB, PACKAGE, PREFS_PATH, timer_text
from android_gym.sim.phone import Phone
from android_gym.ui import UIElement, parse_ui_dump


@pytest.fixture
def phone():
    device = Phone()
    device.run("settings put system time_12_24 24")
    device.run(f"monkey -p {PACKAGE} -c android.intent.category.LAUNCHER 1")
    yield device
    device.close()


def rid(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


def elements(phone: Phone) -> list[UIElement]:
    return parse_ui_dump(phone.ui_dump())


def find(phone: Phone, **props: object) -> UIElement | None:
    """The first element whose ``UIElement`` fields all have the given values."""
    return next((e for e in elements(phone) if all(getattr(e, k) == v for k, v in props.items())), None)


def text_of(phone: Phone, name: str) -> str | None:
    element = find(phone, resource_name=rid(name))
    return None if element is None else element.text


def texts_of(phone: Phone, name: str) -> list[str]:
    return [element.text for element in elements(phone) if element.resource_name == rid(name)]


def tap(phone: Phone, long: bool = False, **props: object) -> None:
    element = find(phone, **props)
    assert element is not None, f"no element with {props}"
    (phone.long_press if long else phone.tap)(*element.bbox_pixels.center)


def tab(phone: Phone, label: str) -> None:
    tap(phone, content_description=label, is_clickable=True)


def press_digits(phone: Phone, digits: str) -> None:
    for digit in digits:
        tap(phone, resource_name=rid(f"timer_setup_digit_{digit}"))


def descriptions(phone: Phone) -> set[str]:
    return {element.content_description for element in elements(phone)}


def stopwatch_shown(phone: Phone) -> str:
    return f"{text_of(phone, 'stopwatch_time_text')}.{text_of(phone, 'stopwatch_hundredths_text')}"


def test_the_app_opens_on_the_clock_tab_with_the_device_time(phone):
    assert phone.activities.foreground() == (PACKAGE, "com.android.deskclock.DeskClock")
    assert text_of(phone, "digital_clock") == "15:34"
    date = find(phone, resource_name=rid("date"))
    assert (date.text, date.content_description) == ("Sun, Oct 15", "Sunday, October 15")
    selected = [element.content_description for element in elements(phone) if element.is_selected]
    assert selected == ["Clock"]
    phone.run("settings put system time_12_24 12")
    assert text_of(phone, "digital_clock") == "3:34 PM"


def test_tabs_switch_pages_and_the_choice_survives_a_restart(phone):
    tab(phone, "Alarm")
    assert find(phone, resource_name=rid("alarms_recycler_view")) is not None
    tab(phone, "Timer")
    assert text_of(phone, "timer_setup_time") == "00h 00m 00s"
    tab(phone, "Stopwatch")
    assert text_of(phone, "stopwatch_time_text") == "0"
    assert find(phone, resource_name=rid("navigation_bar_item_large_label_view")).text == "Stopwatch"
    phone.run(f"am force-stop {PACKAGE}")
    phone.run(f"monkey -p {PACKAGE} -c android.intent.category.LAUNCHER 1")
    assert text_of(phone, "stopwatch_time_text") == "0"
    assert '<int name="selected_tab" value="3" />' in phone.fs.read_bytes(PREFS_PATH).decode()


def test_the_alarm_and_clock_tabs_show_their_fab_at_the_bottom_centre(phone):
    """DeskClock's fab: "Cities" (a globe) on the Clock tab, "Add alarm" (a plus) on the Alarm tab, each in the
    middle of the screen's width above the bottom navigation, drawn in the accent colour; a tap on "Cities" changes
    nothing here (the city list is not simulated)."""
    width = phone.screenshot().shape[1]
    for label, description in (("Clock", "Cities"), ("Alarm", "Add alarm")):
        tab(phone, label)
        fab = find(phone, resource_name=rid("fab"))
        assert fab is not None and fab.content_description == description and fab.is_clickable
        x, y = fab.bbox_pixels.center
        assert abs(x - width // 2) <= 1 and y < find(phone, resource_name=rid("bottom_view")).bbox_pixels.y_min
        assert tuple(phone.screenshot()[int(y) - 60, int(x)]) == (25, 118, 210)  # above the glyph: the fab's fill
    tab(phone, "Clock")
    before = phone.ui_dump()
    tap(phone, resource_name=rid("fab"))
    assert phone.ui_dump() == before


def test_timer_keypad_digits_shift_in_from_the_right(phone):
    tab(phone, "Timer")
    assert find(phone, content_description="Start") is None  # no input: the fab is hidden
    press_digits(phone, "0")  # a leading zero is ignored
    assert text_of(phone, "timer_setup_time") == "00h 00m 00s"
    press_digits(phone, "1")
    assert text_of(phone, "timer_setup_time") == "00h 00m 01s"
    press_digits(phone, "0203")
    display = find(phone, resource_name=rid("timer_setup_time"))
    assert (display.text, display.content_description) == ("01h 02m 03s", "1 hour, 2 minutes, 3 seconds")
    press_digits(phone, "45")
    assert text_of(phone, "timer_setup_time") == "10h 20m 34s"
    press_digits(phone, "9")  # a seventh digit (the 5 too) does not fit
    assert text_of(phone, "timer_setup_time") == "10h 20m 34s"
    assert find(phone, resource_name=rid("timer_setup_delete")).content_description == "Delete 4"
    tap(phone, resource_name=rid("timer_setup_delete"))
    assert find(phone, resource_name=rid("timer_setup_time")).content_description == \
        "1 hour, 2 minutes, 3 seconds"
    tap(phone, long=True, resource_name=rid("timer_setup_delete"))  # a long press clears the input
    assert text_of(phone, "timer_setup_time") == "00h 00m 00s"
    assert find(phone, resource_name=rid("timer_setup_delete")).is_enabled is False


def test_a_started_timer_counts_down_on_the_device_clock_and_expires(phone):
    tab(phone, "Timer")
    press_digits(phone, "110")  # 1 minute 10 seconds
    tap(phone, content_description="Start")
    assert text_of(phone, "timer_time_text") == "1:10"
    assert find(phone, resource_name=rid("fab")).content_description == "Stop"
    phone.run("sleep 20")
    assert text_of(phone, "timer_time_text") == "50"
    tap(phone, resource_name=rid("fab"))  # pause (a tap takes a second)
    phone.run("sleep 100")
    assert text_of(phone, "timer_time_text") == "49"
    assert text_of(phone, "reset_add") == "Reset"
    tap(phone, content_description="Start")
    phone.run("sleep 54")
    assert text_of(phone, "timer_time_text") == "\u22125"  # expired five seconds ago
    assert '<int name="timer_state_0" value="3" />' in phone.fs.read_bytes(PREFS_PATH).decode()
    tap(phone, resource_name=rid("reset_add"))  # + 1:00 restarts an expired timer with a minute
    assert text_of(phone, "timer_time_text") == "1:00"
    tap(phone, text="Delete")
    assert text_of(phone, "timer_setup_time") == "00h 00m 00s"


def test_timer_text_rounds_up_to_the_second():
    assert [timer_text(ms) for ms in (61_001, 60_000, 999, 0, -999, -3_600_000)] == \
        ["1:02", "1:00", "1", "0", "0", "\u22121:00:00"]


def test_stopwatch_time_follows_the_clock_across_pauses_and_laps(phone):
    tab(phone, "Stopwatch")
    assert descriptions(phone) >= {"Start"} and "Reset" not in descriptions(phone)
    tap(phone, content_description="Start")
    assert descriptions(phone) >= {"Pause", "Lap", "Reset"}
    phone.run("sleep 12.345")
    assert stopwatch_shown(phone) == "12.34"
    tap(phone, content_description="Lap")  # each tap takes a second of device time
    phone.run("sleep 60")
    tap(phone, content_description="Pause")
    assert stopwatch_shown(phone) == "1:14.34"
    phone.run("sleep 500")  # paused: time stands still
    assert stopwatch_shown(phone) == "1:14.34"
    assert texts_of(phone, "lap_number") == \
        ["# 2", "# 1"]
    assert texts_of(phone, "lap_total") == \
        ["1\u200e 14.34", "0\u200e 13.34"]
    assert "Lap" not in descriptions(phone)
    tap(phone, resource_name=rid("stopwatch_time_wrapper"))  # tapping the time resumes
    phone.run("sleep 3600")
    assert stopwatch_shown(phone) == "1:01:14.34"
    tap(phone, content_description="Reset")
    assert stopwatch_shown(phone) == "0.00"
    assert find(phone, resource_name=rid("laps_list")) is None


def test_a_running_stopwatch_shows_the_time_after_a_touch_that_hits_nothing(phone):
    """Time passes with every input event; the screen shows it even when the touch reached no view."""
    tab(phone, "Stopwatch")
    tap(phone, content_description="Start")
    before = stopwatch_shown(phone)
    phone.tap(540, 1300)  # empty space above the buttons
    assert stopwatch_shown(phone) != before


def test_stopwatch_keeps_running_through_force_stop_but_pm_clear_resets_everything(phone):
    tab(phone, "Stopwatch")
    tap(phone, content_description="Start")
    phone.run(f"am force-stop {PACKAGE}")
    phone.run("sleep 30")
    phone.run(f"monkey -p {PACKAGE} -c android.intent.category.LAUNCHER 1")
    assert text_of(phone, "stopwatch_time_text") == "30"
    assert phone.run(f"pm clear {PACKAGE}").stdout == b"Success\n"
    assert not phone.fs.exists(PREFS_PATH) and not phone.fs.exists(ALARMS_DB)
    phone.run(f"monkey -p {PACKAGE} -c android.intent.category.LAUNCHER 1")
    assert text_of(phone, "digital_clock") == "15:34"  # back on the Clock tab
    tab(phone, "Stopwatch")
    assert stopwatch_shown(phone) == "0.00"


def test_preferences_written_from_outside_show_after_a_restart(phone):
    paused = ("<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\n<map>\n"
              '    <int name="selected_tab" value="3" />\n    <int name="sw_state" value="2" />\n'
              '    <long name="sw_accum_time" value="754120" />\n</map>\n')
    phone.fs.makedirs(PREFS_PATH.rsplit("/", 1)[0])
    phone.fs.write_bytes(PREFS_PATH, paused.encode())
    assert text_of(phone, "digital_clock") == "15:34"  # the running process keeps what it loaded
    phone.run(f"am force-stop {PACKAGE}")
    phone.run(f"monkey -p {PACKAGE} -c android.intent.category.LAUNCHER 1")
    assert stopwatch_shown(phone) == "12:34.12"
    assert descriptions(phone) >= {"Start", "Reset"}


def test_alarms_come_from_alarms_db_and_the_switch_schedules_an_instance(phone):
    tab(phone, "Alarm")
    items = [element.content_description for element in elements(phone)
             if element.content_description.endswith("Alarm") and element.class_name.endswith("LinearLayout")]
    assert items == ["08:30 Alarm", "09:00 Alarm"]
    assert find(phone, resource_name=rid("days_of_week")).content_description == \
        "Monday, Tuesday, Wednesday, Thursday, Friday"
    tap(phone, resource_name=rid("onoff"))  # the 8:30 weekday alarm, on a Sunday at 15:34
    with sqlite3.connect(phone.fs.host_path(ALARMS_DB)) as db:
        assert db.execute("SELECT enabled FROM alarm_templates WHERE hour=8").fetchone() == (1,)
        assert db.execute("SELECT year, month, day, hour, minutes, alarm_state FROM alarm_instances").fetchall() \
            == [(2023, 9, 16, 8, 30, 0)]  # Monday; Calendar months count from 0
    assert find(phone, resource_name=rid("onoff")).is_checked
    phone.run(f"sqlite3 {ALARMS_DB} \"INSERT INTO alarm_templates (hour, minutes, daysofweek, enabled, vibrate, "
              "label, ringtone, delete_after_use) VALUES (7, 5, 0, 1, 0, 'Gym', NULL, 0)\"")
    assert find(phone, content_description="07:05 Gym") is not None
    assert find(phone, resource_name=rid("upcoming_instance_label")).text == "Tomorrow"
    phone.run(f"sqlite3 {ALARMS_DB} 'DELETE FROM alarm_templates'")
    assert text_of(phone, "alarms_empty_view") == "No Alarms"


def test_add_alarm_opens_the_time_picker_at_the_time_now_and_ok_adds_an_enabled_alarm(phone):
    """AlarmClockFragment.startCreatingAlarm: MaterialTimePicker at the device time (15:34, a 24-hour phone); an hour
    on the dial moves on to the minutes; OK adds an enabled one-time alarm with the default alarm sound and
    schedules its next instance (asyncAddAlarm); BACK on another picker adds nothing."""
    tab(phone, "Alarm")
    tap(phone, content_description="Add alarm")
    assert (text_of(phone, "header_title"), text_of(phone, "material_hour_tv"), text_of(phone, "material_minute_tv")) \
        == ("Select time", "15", "34")
    assert find(phone, resource_name=rid("material_clock_period_toggle")) is None  # 24-hour: no AM/PM
    tap(phone, text="6", content_description="6 hours")
    tap(phone, text="45", content_description="45 minutes")
    tap(phone, resource_name=rid("material_timepicker_ok_button"))
    assert find(phone, resource_name=rid("material_clock_face")) is None
    assert find(phone, content_description="06:45 Alarm") is not None
    with sqlite3.connect(phone.fs.host_path(ALARMS_DB)) as db:
        assert db.execute("SELECT hour, minutes, daysofweek, enabled, vibrate, label, ringtone, delete_after_use "
                          "FROM alarm_templates WHERE hour=6").fetchall() == [
            (6, 45, 0, 1, 1, "", "content://settings/system/alarm_alert", 0)]
        assert db.execute("SELECT year, month, day, hour, minutes, alarm_state FROM alarm_instances").fetchall() \
            == [(2023, 9, 16, 6, 45, 0)]  # tomorrow morning
    tap(phone, content_description="Add alarm")
    phone.key(keycodes.BACK)
    assert find(phone, resource_name=rid("material_clock_face")) is None
    with sqlite3.connect(phone.fs.host_path(ALARMS_DB)) as db:
        assert db.execute("SELECT COUNT(*) FROM alarm_templates").fetchone() == (3,)


def test_a_12_hour_phones_picker_has_am_and_pm_and_its_keyboard_mode_takes_any_minute(phone):
    """On a 12-hour phone the dial shows 12, 1 … 11 ("7 o'clock") and the hour chip 03 for 15:34, with PM chosen; AM
    moves the hour to the morning; the keyboard mode's fields take 1-12 and 0-59."""
    phone.run("settings put system time_12_24 12")
    tab(phone, "Alarm")
    tap(phone, content_description="Add alarm")
    assert text_of(phone, "material_hour_tv") == "03"
    assert find(phone, resource_name=rid("material_clock_period_pm_button")).is_checked
    assert [element.text for element in elements(phone) if element.class_name == "android.widget.TextView"
            and element.content_description.endswith("o'clock")] == ["12", *map(str, range(1, 12))]
    tap(phone, text="AM")
    tap(phone, content_description="Switch to text input mode for the time input.")
    hour, minute = [e for e in elements(phone) if e.resource_name == rid("material_timepicker_edit_text")]
    assert (hour.text, minute.text) == ("03", "34")
    phone.tap(*hour.bbox_pixels.center)
    phone.key(keycodes.DEL)
    phone.key(keycodes.DEL)
    phone.input_text("13")  # more than 12 is refused
    phone.input_text("11")
    tap(phone, resource_name=rid("material_timepicker_ok_button"))
    assert find(phone, content_description="11:34 AM Alarm") is not None


# ----- the tasks' checks against states near success -------------------------------------------------------------
def launch(phone: Phone) -> None:
    phone.run(f"monkey -p {PACKAGE} -c android.intent.category.LAUNCHER 1")


def test_timer_entry_wants_the_keypad_display_in_front_and_not_a_started_timer(device):
    task = ClockTimerEntry({"hours": 0, "minutes": 1, "seconds": 5})
    task.initialize(device)
    phone = device.phone
    launch(phone)
    tab(phone, "Timer")
    press_digits(phone, "15")
    assert task.is_successful(device) == 0.0  # 00h 00m 15s
    press_digits(phone, "0")
    assert task.is_successful(device) == 0.0  # 00h 01m 50s
    tap(phone, resource_name=rid("timer_setup_delete"))
    press_digits(phone, "5")  # 00h 01m 55s
    assert task.is_successful(device) == 0.0
    tap(phone, long=True, resource_name=rid("timer_setup_delete"))
    press_digits(phone, "105")
    assert task.is_successful(device) == 1.0
    phone.key(keycodes.HOME)
    assert task.is_successful(device) == 0.0  # the launcher is in front
    launch(phone)
    assert task.is_successful(device) == 1.0  # the activity kept its keypad input
    tap(phone, content_description="Start")
    assert task.is_successful(device) == 0.0


def test_stopwatch_tasks_follow_the_buttons(device):
    running, paused = ClockStopWatchRunning({}), ClockStopWatchPausedVerify({})
    running.initialize(device)
    phone = device.phone
    launch(phone)
    assert running.is_successful(device) == paused.is_successful(device) == 0.0  # the Clock tab
    tab(phone, "Stopwatch")
    assert (running.is_successful(device), paused.is_successful(device)) == (0.0, 1.0)
    tap(phone, content_description="Start")
    assert (running.is_successful(device), paused.is_successful(device)) == (1.0, 0.0)
    tap(phone, content_description="Pause")
    assert (running.is_successful(device), paused.is_successful(device)) == (0.0, 1.0)
    tap(phone, content_description="Start")
    running.initialize(device)  # pm clear: the stopwatch is reset and the Clock tab selected
    launch(phone)
    tab(phone, "Stopwatch")
    assert stopwatch_shown(phone) == "0.00"


def test_report_task_leaves_a_paused_stopwatch_and_checks_the_answer(device):
    task = ClockStopWatchPausedVerifyReport({"elapsed_ms": 754_120, "lap_ms": [100_000, 300_000]})
    task.initialize(device)
    phone = device.phone
    launch(phone)
    tab(phone, "Stopwatch")
    assert stopwatch_shown(phone) == "12:34.12"
    assert texts_of(phone, "lap_number") == \
        ["# 3", "# 2", "# 1"]
    assert task.is_successful(device) == 0.0  # no answer yet
    for answer, score in (("12:34", 1.0), ("It shows 12:34.12", 1.0), ("12:35", 0.0), ("5:00", 0.0),
                          ("1:40", 0.0), ("754", 0.0)):
        task.answer = answer
        assert task.is_successful(device) == score, answer


def test_reading_the_alarms_leaves_device_times_on_their_folder(phone):
    """The list's read of ``alarms.db`` (WAL) makes and removes its side files; their folder carries device time
    afterwards, never the host's (which is years after the device's 2023)."""
    tab(phone, "Alarm")
    phone.clock.advance(60_000)
    tab(phone, "Clock")
    tab(phone, "Alarm")
    folder = phone.fs.host_path(ALARMS_DB).parent
    assert os.stat(folder).st_mtime_ns <= phone.clock.record_ms() * 1_000_000
