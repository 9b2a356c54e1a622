"""Material's time picker as the Clock (a new alarm) and Simple Calendar (an event's times) show it: the numbers on
a round dial, the hand and selector in the app's primary colour, and the Material 3 colour roles by day and by
night."""

from __future__ import annotations

import math

import numpy as np
import pytest
from ui_nodes import tap

from android_gym.device.config import DeviceConfig
from android_gym.device.sim import SimDevice
from android_gym.sim.apps.commons import DIALOG_BACKGROUND, NIGHT_TEXT_COLOR, TEXT_COLOR
from android_gym.sim.apps.commons import NIGHT_COLORS as COMMONS_NIGHT
from android_gym.sim.apps.commons import PRIMARY as COMMONS_PRIMARY
from android_gym.sim.framework.looks import MATERIAL_COMPONENTS_NIGHT, MATERIAL_YOU_NIGHT
from android_gym.sim.framework.time_picker import DAY, NIGHT, Theme
from android_gym.sim.phone import Phone
from android_gym.sim.ui.views import PRIMARY, WHITE, View

CLOCK, CALENDAR, TASKS = "com.google.android.deskclock", "com.simplemobiletools.calendar.pro", "org.tasks"


def _views(phone: Phone) -> list[View]:
    return [view for window in phone.window.frame().windows() for view in window.walk()]


def _by_id(phone: Phone, package: str, name: str) -> View:
    return next(view for view in _views(phone) if view.resource_id == f"{package}:id/{name}")


def _middle(view: View) -> tuple[float, float]:
    x1, y1, x2, y2 = view.bounds
    return (x1 + x2) / 2, (y1 + y2) / 2


def _clock_picker(night: bool, hours: str = "12") -> Phone:
    phone = Phone()
    phone.run(f"cmd uimode night {'yes' if night else 'no'}")
    phone.run(f"settings put system time_12_24 {hours}")
    phone.run(f"monkey -p {CLOCK} -c android.intent.category.LAUNCHER 1")
    tap(phone, content_desc="Alarm")
    tap(phone, content_desc="Add alarm")
    return phone


def _calendar_field(field: str, *settings: str) -> Phone:
    """A phone after ``settings`` (shell lines) with Simple Calendar's new event open and its ``field`` tapped."""
    phone = Phone()
    for line in settings:
        phone.run(line)
    phone.run(f"monkey -p {CALENDAR} -c android.intent.category.LAUNCHER 1")
    tap(phone, resource_id=f"{CALENDAR}:id/calendar_fab")
    tap(phone, resource_id=f"{CALENDAR}:id/calendar_fab")
    tap(phone, resource_id=f"{CALENDAR}:id/{field}")
    return phone


def test_the_dials_numbers_lie_on_a_circle_clockwise_from_the_top():
    """ClockFaceView: 12 at the top, 3 at the right, 6 at the bottom, 9 at the left, all as far from the dial's
    centre; on a 24-hour dial 12-23 on an inner ring (0.66 of the outer radius)."""
    for hours, outer, inner in (("12", ["12", *map(str, range(1, 12))], []),
                                ("24", ["00", *map(str, range(1, 12))], list(map(str, range(12, 24))))):
        phone = _clock_picker(False, hours)
        face = _by_id(phone, CLOCK, "material_clock_face")
        cx, cy = _middle(face)
        numbers = {view.text: _middle(view) for view in _views(phone)
                   if view.class_name == "android.widget.TextView" and view.content_desc.endswith(("o'clock", "hours"))}
        assert sorted(numbers) == sorted(outer + inner)
        for ring, ratio in ((outer, 1.0), (inner, 0.66)):
            for index, text in enumerate(ring):
                x, y = numbers[text]
                radius = math.dist((x, y), (cx, cy))
                assert radius == pytest.approx(math.dist(numbers[outer[0]], (cx, cy)) * ratio, abs=2)
                angle = math.atan2(x - cx, cy - y) % (2 * math.pi)
                assert angle == pytest.approx(2 * math.pi * index / 12, abs=0.02)
        boxes = [view.bounds for view in _views(phone) if view.class_name == "android.widget.TextView"
                 and view.content_desc.endswith(("o'clock", "hours"))]
        for x, y in numbers.values():  # a tap on a number's middle is that number's alone
            assert sum(x1 <= x < x2 and y1 <= y < y2 for x1, y1, x2, y2 in boxes) == 1
        face_left, face_top, face_right, face_bottom = face.bounds
        assert face_right - face_left == face_bottom - face_top == 672  # material_clock_size, 256 dp


@pytest.mark.parametrize("night", [False, True])
def test_the_clocks_picker_draws_the_chosen_hour_under_its_selector_in_the_theme(night: bool):
    """15:34 on a 12-hour phone: the selector (colorPrimary) round 3, its number in colorOnPrimary; the dial
    colorSurfaceVariant, the hour chip colorPrimaryContainer, PM colorTertiaryContainer, by day and by night; the
    pixels show them."""
    phone = _clock_picker(night)
    scheme, primary = (NIGHT, MATERIAL_YOU_NIGHT[PRIMARY]) if night else (DAY, PRIMARY)
    pixels = phone.screenshot()
    three = next(view for view in _views(phone) if view.content_desc == "3 o'clock")
    x1, y1, x2, y2 = three.bounds
    assert three.text_color == Theme(primary, night).on_primary
    assert tuple(pixels[y1 + 8, (x1 + x2) // 2]) == primary  # inside the selector, above the number
    face = _by_id(phone, CLOCK, "material_clock_face")
    assert face.background == scheme.surface_variant
    assert tuple(pixels[face.bounds[1] + 150, (face.bounds[0] + face.bounds[2]) // 2 - 60]) == scheme.surface_variant
    hour = _by_id(phone, CLOCK, "material_hour_tv")
    assert (hour.background, hour.text_color) == (scheme.primary_container, scheme.on_primary_container)
    pm = _by_id(phone, CLOCK, "material_clock_period_pm_button")
    assert pm.checked and pm.background == scheme.tertiary_container
    assert tuple(pixels[pm.bounds[1] + 10, pm.bounds[0] + 20]) == scheme.tertiary_container
    tap(phone, content_desc="3 o'clock")  # on to the minutes: 34, between two marks, the selector over 35
    selected = [view for view in _views(phone) if view.selected and view.content_desc.endswith("minutes")]
    assert [view.text for view in selected] == ["35"] and selected[0].text_color == Theme(primary, night).on_primary


def test_simple_calendars_time_picker_turns_dark_by_night():
    """The picker follows the dark theme: its dial, chips and surface are the night roles, not light greys left
    from the day (the dialog's surface the night surface under the primary's elevation overlay)."""
    phone = _calendar_field("event_start_time", "cmd uimode night yes")
    face = _by_id(phone, CALENDAR, "material_clock_face")
    minute = _by_id(phone, CALENDAR, "material_minute_tv")
    assert (face.background, minute.background) == (NIGHT.surface_variant, NIGHT.surface_variant)
    panel = next(view for view in _views(phone) if _by_id(phone, CALENDAR, "header_title") in view.children)
    assert panel.background == Theme(COMMONS_PRIMARY, True).dialog_surface
    pixels = phone.screenshot()
    x1, y1, x2, y2 = panel.bounds
    assert np.asarray(pixels[y1:y2, x1:x2]).mean() < 90  # a dark dialog


@pytest.mark.parametrize("night", [False, True])
def test_simple_calendars_date_picker_is_on_the_dialogs_surface_in_its_text_colour(night: bool):
    """Commons' MyDateTimePickerMaterialTheme: dialog_you_background (system_accent2_50 by day, _800 by night), not
    the window's white, the days and weekday letters in you_neutral_text_color, the chosen day in the primary
    colour; the pixels between the days show the surface."""
    phone = _calendar_field("event_start_date", f"cmd uimode night {'yes' if night else 'no'}")
    surface, ink = (COMMONS_NIGHT[DIALOG_BACKGROUND], NIGHT_TEXT_COLOR) if night else (DIALOG_BACKGROUND, TEXT_COLOR)
    month = next(view for view in _views(phone) if view.resource_id == "android:id/month_view")
    days = {view.text: view for view in month.walk() if view.content_desc.endswith("October 2023")}
    numbers = {view.hint: view for view in month.walk() if view.kind == "label"}
    assert numbers["16"].text_color == ink and numbers["15"].text_color == WHITE
    letters = [view for view in _views(phone) if view.kind == "label" and view.hint in ("S", "M", "T", "W", "F")]
    assert len(letters) == 7 and {view.text_color for view in letters} == {ink}
    pixels = phone.screenshot()
    x1, y1, x2, y2 = days["16"].bounds
    assert tuple(pixels[y1 + 4, x1 + 4]) == surface
    _assert_circled(pixels, days["15"].bounds, COMMONS_PRIMARY, surface)


def _assert_circled(pixels: np.ndarray, bounds: tuple[int, int, int, int], selector: tuple, ground: tuple) -> None:
    """SimpleMonthView's selected day: a circle of date_picker_day_selector_radius (20 dp, 52 px) centred in its
    cell, the cell's corners and the circle's bounding square's corners left on the ``ground``."""
    x1, y1, x2, y2 = bounds
    cx, cy = (x1 + x2) // 2, (y1 + y2) // 2
    for x, y in ((cx - 48, cy), (cx + 47, cy), (cx, cy - 48), (cx, cy + 47), (cx - 30, cy - 30), (cx + 30, cy + 30)):
        assert tuple(pixels[y, x]) == selector
    for x, y in ((cx - 48, cy - 48), (cx + 47, cy + 47), (cx - 48, cy + 47), (x1 + 2, y1 + 2), (x2 - 3, y2 - 3)):
        assert tuple(pixels[y, x]) == ground


@pytest.mark.parametrize("night", [False, True])
def test_tasks_org_calendar_circles_the_chosen_day(night: bool):
    """Tasks.org's CalendarView is the framework's DayPickerView too: the chosen day on a circle, its number and
    the weekday letters centred on their columns; the day's node is the whole cell, as before."""
    phone = Phone()
    phone.run(f"cmd uimode night {'yes' if night else 'no'}")
    phone.run(f"monkey -p {TASKS} -c android.intent.category.LAUNCHER 1")
    tap(phone, content_desc="Create new task")
    phone.input_text("Date")
    tap(phone, text="No due date")
    tap(phone, content_desc="20 October 2023")
    calendar = _by_id(phone, TASKS, "calendar_view")
    day = next(view for view in calendar.walk() if view.content_desc == "20 October 2023")
    assert day.text == "20" and day.selected and day.bounds[2] - day.bounds[0] > 120
    ground = MATERIAL_COMPONENTS_NIGHT[WHITE] if night else WHITE
    _assert_circled(phone.screenshot(), day.bounds, PRIMARY, ground)
    friday = next(view for view in calendar.walk() if view.kind == "label" and view.hint == "F")
    assert _middle(friday)[0] == _middle(day)[0]


def test_the_clocks_picker_speaks_the_system_language():
    """Material's own strings, in the language of the phone (material-components' values-fr): the title and the
    mode button's description, in the Clock as in Simple Calendar."""
    device = SimDevice()
    DeviceConfig(language="fr-FR").apply(device)
    phone = device.phone
    phone.run(f"monkey -p {CLOCK} -c android.intent.category.LAUNCHER 1")
    tap(phone, content_desc="Alarme")
    tap(phone, resource_id=f"{CLOCK}:id/fab")
    assert _by_id(phone, CLOCK, "header_title").text == "Sélectionner l'heure"
    assert _by_id(phone, CLOCK, "material_timepicker_mode_button").content_desc == \
        "Passer en mode saisie de texte pour la saisie de l'heure."


def test_simple_calendars_picker_follows_the_phones_12_hour_format():
    """setupStartTime: TimeFormat.CLOCK_12H when use24HourFormat is off (the system's 12-hour setting): the dial's
    12, 1 … 11 and the AM/PM toggle; 9 PM picked on it is 21:00."""
    phone = _calendar_field("event_start_time", "settings put system time_12_24 12")
    assert _by_id(phone, CALENDAR, "material_clock_period_pm_button").checked  # 16:00
    tap(phone, content_desc="9 o'clock")
    tap(phone, content_desc="00 minutes")
    tap(phone, resource_id=f"{CALENDAR}:id/material_timepicker_ok_button")
    assert _by_id(phone, CALENDAR, "event_start_time").text == "09:00 PM"



@pytest.mark.parametrize(("language", "alarm", "is24"), [("en-US", "Alarm", False), ("de-DE", "Wecker", True)])
def test_simple_calendar_and_the_clock_agree_on_the_locales_hours_when_unset(language: str, alarm: str, is24: bool):
    """``time_12_24`` unset: both follow ``DateFormat.is24HourFormat``, the locale's default (12-hour in en-US,
    24-hour in de-DE): Simple Calendar's ``use24HourFormat`` defaults to it, as the Clock does; the event's time
    and both pickers (an AM/PM toggle or not) say the same."""
    has_toggle = []
    for package, opener in ((CALENDAR, "calendar_fab"), (CLOCK, "fab")):
        device = SimDevice()
        DeviceConfig(language=language).apply(device)
        phone = device.phone
        phone.run("settings delete system time_12_24")
        phone.run(f"monkey -p {package} -c android.intent.category.LAUNCHER 1")
        if package == CLOCK:
            tap(phone, content_desc=alarm)
        tap(phone, resource_id=f"{package}:id/{opener}")
        if package == CALENDAR:
            tap(phone, resource_id=f"{CALENDAR}:id/calendar_fab")
            assert _by_id(phone, CALENDAR, "event_start_time").text.endswith(("AM", "PM")) is not is24
            tap(phone, resource_id=f"{CALENDAR}:id/event_start_time")
        has_toggle.append(any(view.resource_id.endswith("material_clock_period_pm_button") for view in _views(phone)))
    assert has_toggle == [not is24, not is24]


def _on_face(phone: Phone, package: str, degrees: float, radius: float) -> tuple[float, float]:
    """The point ``radius`` design px from the dial's centre, ``degrees`` clockwise from the top."""
    cx, cy = _middle(_by_id(phone, package, "material_clock_face"))
    return cx + radius * math.sin(math.radians(degrees)), cy - radius * math.cos(math.radians(degrees))


def _numbers_at(phone: Phone, x: float, y: float) -> list[View]:
    return [view for view in _views(phone) if view.class_name == "android.widget.TextView"
            and view.bounds[0] <= x < view.bounds[2] and view.bounds[1] <= y < view.bounds[3]]


def test_a_tap_anywhere_on_the_dial_picks_the_value_nearest_its_angle():
    """ClockHandView takes the touches of the whole dial: a tap between the numbers, near the centre or at the
    dial's edge picks by its angle (the hours' nearest hour, then the minutes' nearest five), as a tap on the
    number itself does; the dump's selected number and the hand follow (the number under the selector)."""
    phone = _clock_picker(False)  # 15:34 on a 12-hour dial
    x, y = _on_face(phone, CLOCK, 8 * 30 + 10, 150)  # near the centre, a third of the way from 8 to 9
    assert _numbers_at(phone, x, y) == []
    phone.tap(x, y)
    assert _by_id(phone, CLOCK, "material_hour_tv").text == "08"
    assert _by_id(phone, CLOCK, "material_clock_period_pm_button").checked  # the period kept: 20:00
    x, y = _on_face(phone, CLOCK, 100, 320)  # between 15 and 20 minutes at the dial's rim, nearer 15
    assert _numbers_at(phone, x, y) == []
    phone.tap(x, y)
    assert _by_id(phone, CLOCK, "material_minute_tv").text == "15"
    selected = [view for view in _views(phone) if view.selected and view.content_desc.endswith("minutes")]
    assert [view.text for view in selected] == ["15"]
    number_x, number_y = _middle(selected[0])
    assert tuple(phone.screenshot()[round(number_y) - 18, round(number_x)]) == PRIMARY  # the selector round it
    phone.tap(*_middle(next(view for view in _views(phone) if view.content_desc == "45 minutes")))
    assert _by_id(phone, CLOCK, "material_minute_tv").text == "45"


def test_a_drag_on_the_minutes_picks_the_minute_under_the_finger():
    """A touch that moves is no tap: onActionUp leaves the minute at the angle where it ends, not snapped to five."""
    phone = _clock_picker(False)
    tap(phone, content_desc="3 o'clock")
    start, end = _on_face(phone, CLOCK, 0, 250), _on_face(phone, CLOCK, 22 * 6, 250)
    phone.swipe(*start, *end)
    assert _by_id(phone, CLOCK, "material_minute_tv").text == "22"
    selected = [view.text for view in _views(phone) if view.selected and view.content_desc.endswith("minutes")]
    assert selected == ["20"]  # the number the selector (24 dp round 22's point, 12 degrees on) overlaps


def test_the_24_hour_dial_picks_its_ring_by_the_distance_from_the_centre():
    """adjustLevel: a touch within the inner ring's radius and 12 dp more picks from the inner ring (13-23, 00's
    12), farther out from the outer one (00-11), at the same angle."""
    phone = _clock_picker(False, "24")
    inner = 0.66 * math.dist(_middle(next(view for view in _views(phone) if view.content_desc == "3 hours")),
                             _middle(_by_id(phone, CLOCK, "material_clock_face")))
    phone.tap(*_on_face(phone, CLOCK, 5 * 30 - 12, inner + 25))  # 12 dp is 31 px
    assert _by_id(phone, CLOCK, "material_hour_tv").text == "17"
    tap(phone, resource_id=f"{CLOCK}:id/material_hour_tv")
    phone.tap(*_on_face(phone, CLOCK, 5 * 30 - 12, inner + 40))
    assert _by_id(phone, CLOCK, "material_hour_tv").text == "05"


def _tasks_time_picker(hours: str | None) -> Phone:
    """Tasks.org's new task with the date picker's "Pick time" tapped, on a ``hours``-hour phone (``None``: the
    setting unset)."""
    phone = Phone()
    phone.run(f"settings put system time_12_24 {hours}" if hours else "settings delete system time_12_24")
    phone.run(f"monkey -p {TASKS} -c android.intent.category.LAUNCHER 1")
    tap(phone, content_desc="Create new task")
    phone.input_text("Call")
    tap(phone, text="No due date")
    tap(phone, content_desc="20 October 2023")
    tap(phone, resource_id=f"{TASKS}:id/pick_time_button")
    return phone


def test_tasks_org_picks_a_time_on_materials_dial():
    """MyTimePickerDialog.newTimePicker: MaterialTimePicker in the clock input mode (the p_picker_mode_time
    preference's default) at noon, in the phone's 12/24-hour format: the hour and minute picked on the dial (over the
    dimmed date sheet) come back as the day's time plus one second, as onActivityResult adds it."""
    phone = _tasks_time_picker("24")
    assert _by_id(phone, TASKS, "header_title").text == "Select time"
    assert _by_id(phone, TASKS, "material_hour_tv").text == "12"
    assert not any(view.resource_id.endswith("period_pm_button") for view in _views(phone))
    tap(phone, content_desc="14 hours")
    tap(phone, content_desc="30 minutes")
    tap(phone, resource_id=f"{TASKS}:id/material_timepicker_ok_button")
    assert _by_id(phone, TASKS, "current_time_selection").text == "14:30"
    assert _by_id(phone, TASKS, "calendar_view") is not None  # back on the date sheet
    for hours in ("12", None):  # unset: is24HourFormat is the locale's, 12-hour in en-US, as for the Clock
        phone = _tasks_time_picker(hours)
        assert _by_id(phone, TASKS, "material_clock_period_pm_button").checked  # noon
