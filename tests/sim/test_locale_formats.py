"""Dates and times follow the system language as on a real Android 13 phone: the 12/24-hour default of the locale
when ``time_12_24`` is unset, CLDR's patterns for the skeletons SystemUI, the launcher and the apps ask for, the
apps' own composed dates with the locale's names; English stays as it was."""

from __future__ import annotations

import datetime as dt

import pytest

from android_gym import locales
from android_gym.device.config import DeviceConfig
from android_gym.device.sim import SimDevice
from android_gym.sim.apps import calendar, deskclock, sms
from android_gym.sim.apps.commons import default_date_format
from android_gym.sim.framework import formats
from android_gym.ui import parse_ui_dump

WHEN = dt.datetime(2023, 10, 15, 15, 34, tzinfo=dt.timezone.utc)  # the device time of every fresh phone


@pytest.fixture(params=["en-US", "de-DE", "fr-FR"])
def device(request):
    phone = SimDevice(540, 1200)
    if request.param != "en-US":
        DeviceConfig(language=request.param).apply(phone)
    yield phone
    phone.close()


def _shown(device: SimDevice, resource_id: str) -> tuple[str, str]:
    """``(text, content description)`` of the element with ``resource_id`` on screen."""
    found = [e for e in parse_ui_dump(device.ui_dump()) if e.resource_name == resource_id]
    assert found, f"{resource_id} is not on screen"
    return found[-1].text or "", found[-1].content_description or ""


def _status_clock(device: SimDevice) -> str:
    bar = device.phone.window.frame().status_bar
    return next(v.text for v in bar.walk() if v.resource_id == "com.android.systemui:id/clock")


_HOME = {"en-US": ("3:34", "Sun, Oct 15"), "de-DE": ("15:34", "So., 15. Okt."), "fr-FR": ("15:34", "dim. 15 oct.")}


def test_the_home_screen_shows_the_locales_clock_and_date(device):
    language = device.phone.window.locale.tag
    clock, date = _HOME[language]
    assert _status_clock(device) == clock  # time_12_24 unset: de and fr are 24-hour locales, en-US is not
    assert _shown(device, "com.google.android.apps.nexuslauncher:id/clock") == (date, date)
    device.shell("settings put system time_12_24 12")
    assert _status_clock(device) == "3:34"  # the user's choice wins over the locale's
    device.shell("settings put system time_12_24 24")
    assert _status_clock(device) == "15:34"


def test_the_shade_shows_the_status_bar_clock_and_the_locales_date(device):
    language = device.phone.window.locale.tag
    device.phone.swipe(270, 25, 270, 600, 300)  # pull the shade down from the status bar
    clock, date = _HOME[language]
    assert _shown(device, "com.android.systemui:id/clock")[0] == clock == _status_clock(device)
    assert _shown(device, "com.android.systemui:id/date")[0] == date


_CLOCK_TAB = {"en-US": ("3:34 PM", "Sun, Oct 15", "Sunday, October 15"),
              "de-DE": ("15:34", "So., 15. Okt.", "Sonntag, 15. Oktober"),
              "fr-FR": ("15:34", "dim. 15 oct.", "dimanche 15 octobre")}


def test_the_clock_app_shows_the_time_and_date_in_the_locale(device):
    language = device.phone.window.locale.tag
    device.shell(f"monkey -p {deskclock.PACKAGE} -c android.intent.category.LAUNCHER 1")
    time, date, description = _CLOCK_TAB[language]
    assert _shown(device, f"{deskclock.PACKAGE}:id/digital_clock")[0] == time
    assert _shown(device, f"{deskclock.PACKAGE}:id/date") == (date, description)


def test_the_calendar_names_the_month_and_the_day_in_the_locale(device):
    language = device.phone.window.locale.tag
    device.shell(f"monkey -p {calendar.PACKAGE} -c android.intent.category.LAUNCHER 1")
    month = {"en-US": "October", "de-DE": "Oktober", "fr-FR": "Octobre"}[language]  # the app's own month names
    texts = {e.text for e in parse_ui_dump(device.ui_dump())}
    assert month in texts
    day = WHEN.date()
    assert calendar.day_title(day, day, language) == {
        "en-US": "October 15 (Sun)", "de-DE": "Oktober 15 (So.)", "fr-FR": "Octobre 15 (dim.)"}[language]
    assert calendar.date_day_title(day, language) == {
        "en-US": "15 Sunday", "de-DE": "15 Sonntag", "fr-FR": "15 dimanche"}[language]


def test_sms_dates_use_commons_default_formats_of_the_locale():
    now, today = WHEN, int(WHEN.timestamp())
    shown = {tag: (sms.format_date_or_time(today - 3600, now, True, False, tag),
                   sms.format_date_or_time(today - 3 * 86400, now, False, False, tag))
             for tag in ("en-US", "de-DE", "fr-FR")}
    assert shown == {"en-US": ("02:34 PM", "12.10, 03:34 PM"), "de-DE": ("14:34", "12.10, 15:34"),
                     "fr-FR": ("14:34", "12/10, 15:34")}


@pytest.mark.parametrize("skeleton, tag, pattern", [
    ("EEEMMMd", "en-US", "EEE, MMM d"), ("EEEMMMd", "de-DE", "EEE, d. MMM"), ("EEEMMMd", "fr-FR", "EEE d MMM"),
    ("EEEEMMMMd", "en-US", "EEEE, MMMM d"), ("EEEEMMMMd", "de-DE", "EEEE, d. MMMM"),
    ("hm", "en-US", "h:mm a"),  # ICU 71's plain space before the marker, not CLDR 42's U+202F
    ("Hm", "de-DE", "HH:mm"), ("jmm", "en-US", "h:mm a"), ("jmm", "fr-FR", "HH:mm"), ("MMMMy", "de-DE", "MMMM y"),
])
def test_best_pattern_widens_the_fields_as_icu_does(skeleton, tag, pattern):
    assert formats.best_pattern(skeleton, tag) == pattern


def test_is_24_hour_follows_the_setting_then_the_locale():
    assert [formats.is_24_hour(None, tag) for tag in ("en-US", "de-DE", "fr-FR")] == [False, True, True]
    assert formats.is_24_hour("12", "de-DE") is False and formats.is_24_hour("24", "en-US") is True


def test_weekdays_follow_the_locales_week():
    mon_and_sun = (1 << 0) | (1 << 6)  # Python weekday bits, as the alarms' daysofweek
    assert deskclock.weekdays_text(mon_and_sun, "en-US") == "Sun, Mon"
    assert deskclock.weekdays_text(mon_and_sun, "de-DE") == "Mo., So."
    assert deskclock.weekdays_text(1 << 6, "fr-FR") == "dimanche"


def test_date_time_instances_and_dates_with_a_time():
    """``DateFormat.getDateTimeInstance`` (Audio Recorder's SHORT, OpenTracks' MEDIUM) and ``DateUtils`` dates
    with the time (Markor), joined by the locale's date-time pattern."""
    when = WHEN.replace(second=9)
    assert formats.format_date_time_instance(when, "short", "en-US") == "10/15/23, 3:34 PM"
    assert formats.format_date_time_instance(when, "medium", "en-US") == "Oct 15, 2023, 3:34:09 PM"
    assert formats.format_date_time_instance(when, "short", "de-DE") == "15.10.23, 15:34"
    # ICU 71 (CLDR 41) joins a FULL or LONG date and its time with "at" (CLDR 42 moved that to an atTime variant)
    assert [formats.format_date_time_instance(when, "full", tag, "short") for tag in ("en-US", "de-DE", "fr-FR")] == [
        "Sunday, October 15, 2023 at 3:34 PM", "Sonntag, 15. Oktober 2023 um 15:34", "dimanche 15 octobre 2023 à 15:34"]
    assert formats.format_date_time(when, "yMd", False, "en-US") == "10/15/2023, 3:34 PM"
    assert formats.format_date_time(when, "yMd", True, "de-DE") == "15.10.2023, 15:34"


@pytest.mark.parametrize("language, pattern", [("en-US", "dd.MM.yyyy"), ("de-DE", "dd.MM.yyyy"),
                                               ("fr-FR", "dd/MM/yyyy")])
def test_commons_date_format_follows_the_locales_short_date(language, pattern):
    """Simple-Commons ``getDefaultDateFormat``: a choice matching the SHORT date pattern, else dd.MM.yyyy."""
    assert default_date_format(language) == pattern


def test_a_count_takes_the_plural_form_the_locales_rule_picks():
    """getQuantityString: French says "one" for 0 and 1, German and English for 1 only; the form is read in the
    locale, the count put in."""
    forms = formats.Plural("minutes_before", "{} minute before", "{} minutes before")
    calendar = "com.simplemobiletools.calendar.pro"
    assert [formats.quantity_string(forms, n, calendar, "en-US") for n in (0, 1, 2)] == [
        "0 minutes before", "1 minute before", "2 minutes before"]
    assert [formats.quantity_string(forms, n, calendar, "de-DE") for n in (0, 1, 2)] == [
        "0 Minuten vorher", "1 Minute vorher", "2 Minuten vorher"]
    assert [formats.quantity_string(forms, n, calendar, "fr-FR") for n in (0, 1, 2)] == [
        "0 minute avant", "1 minute avant", "2 minutes avant"]


def test_french_many_takes_the_resources_many_item_else_its_other_item():
    """ICU's French rule (CLDR 38+) says "many" for a million and its multiples; Simple-Commons' values-fr has a
    ``many`` item for ``years`` ("%d an", unlike its ``other`` "%d ans"), which Android shows; a plural without one
    falls back to ``other`` (``ResourcesImpl.getQuantityText``); German has no "many"."""
    assert [calendar.repetition_text(n * calendar.YEAR, "fr-FR") for n in (2, 1_000_000, 2_000_000, 1_000_001)] == [
        "2 ans", "1000000 an", "2000000 an", "1000001 ans"]
    assert calendar.repetition_text(1_000_000 * calendar.YEAR, "de-DE") == "1000000 Jahre"
    plural = formats.Plural("things", "{} thing", "{} things")  # no app translates it
    assert formats.quantity_string(plural, 1_000_000, "com.simplemobiletools.calendar.pro", "fr-FR") == "1000000 things"
    assert locales.english_of("{} an", "com.simplemobiletools.calendar.pro") == {"{} year", "{} years"}
