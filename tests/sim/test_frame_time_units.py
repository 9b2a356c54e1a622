"""Screens that show the time read it in the unit they show it in: an input that changes nothing leaves the frame
as it is (the status bar shows minutes, so within a minute), and the frame is built again when the shown minute or
day turns."""

from __future__ import annotations

import pytest

from android_gym.sim.phone import Phone
from android_gym.sim.system.clock import DAY_MS
from android_gym.ui import parse_ui_dump

_BLANK = (5, 1500)  # a spot at the left edge no listed screen reacts to


def _texts(phone: Phone) -> list[str]:
    return [element.text for element in parse_ui_dump(phone.ui_dump()) if element.text]


@pytest.mark.parametrize(("package", "before", "after"), [
    ("com.google.android.deskclock", ["11:58 PM", "Sun, Oct 15"], ["12:00 AM", "Mon, Oct 16"]),  # the clock tab
    ("com.simplemobiletools.smsmessenger", ["03:34 PM"], ["15.10"]),  # today's message at its time, then its date
    ("com.simplemobiletools.calendar.pro", ["October"], ["October"]),  # the month view marks today
    ("de.dennisguse.opentracks", [], []),  # the track list: dates relative to today
])
def test_a_screen_is_built_again_only_when_what_it_shows_turns(phone: Phone, package: str, before: list[str],
                                                               after: list[str]) -> None:
    phone.telephony.deliver_sms("+14155550123", "hello")
    phone.clock.set(phone.clock.now_ms() // DAY_MS * DAY_MS + DAY_MS - 120_000)  # 23:58:00
    phone.run(f"monkey -p {package} -c android.intent.category.LAUNCHER 1")
    shown = phone.window.frame()
    assert set(before) <= set(_texts(phone))
    if package == "com.simplemobiletools.calendar.pro":  # a tap there opens a day: the second an input takes
        phone.clock.advance(1_000)
    else:
        phone.tap(*_BLANK)  # an input: a second passes
    phone.clock.advance(58_000)
    assert phone.window.frame() is shown
    phone.clock.advance(1_000)  # 23:59
    assert phone.window.frame() is not shown
    phone.clock.advance(60_000)  # the next day
    assert set(after) <= set(_texts(phone))


def test_alarm_rows_are_built_again_when_the_minute_turns(phone: Phone) -> None:
    phone.run("monkey -p com.google.android.deskclock -c android.intent.category.LAUNCHER 1")
    alarm = next(e for e in parse_ui_dump(phone.ui_dump()) if e.text == "Alarm")
    phone.tap(*alarm.bbox_pixels.center)
    phone.clock.set(phone.clock.now_ms() // 60_000 * 60_000)
    shown = phone.window.frame()
    assert any(view.resource_id.endswith("digital_clock") for view in shown.app.walk())  # the alarms' rows
    phone.clock.advance(59_000)
    assert phone.window.frame() is shown
    phone.clock.advance(1_000)
    assert phone.window.frame() is not shown
