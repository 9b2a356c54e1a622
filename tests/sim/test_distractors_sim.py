"""Distractors on the simulated phone: each appears after its real shell command with the real texts and ids, goes
away the Android way, and leaves the apps' state alone."""

from __future__ import annotations

import hashlib

import pytest

from android_gym.sim.phone import Phone
from android_gym.sim.system.prefs import shared_prefs_xml
from android_gym.ui import parse_ui_dump

SMS = "com.simplemobiletools.smsmessenger"
SMS_DB = f"/data/data/{SMS}/databases/conversations.db"
ROW = "com.android.systemui:id/expandableNotificationRow"


@pytest.fixture()
def phone():
    phone = Phone(width=270, height=600)
    yield phone
    phone.close()


def _elements(phone: Phone):
    return parse_ui_dump(phone.ui_dump())


def _find(phone: Phone, **wanted):
    return next((e for e in _elements(phone) if all(getattr(e, k) == v for k, v in wanted.items())), None)


def _tap(phone: Phone, element) -> None:
    phone.tap(*element.bbox_pixels.center)


def _state(phone: Phone) -> tuple:
    """What tasks check: the app's data files and the settings tables."""
    root = phone.fs.host_path(f"/data/data/{SMS}")
    files = tuple(sorted((str(path), hashlib.sha1(path.read_bytes()).hexdigest())
                         for path in root.rglob("*") if path.is_file()))
    return files, tuple(sorted(phone.settings.items("global"))), tuple(sorted(phone.settings.items("system")))


def _open_shade(phone: Phone) -> None:
    phone.swipe(135, 5, 135, 400)


def test_notification_post_shows_in_status_bar_and_shade_and_clears(phone):
    before = _state(phone)
    result = phone.run("cmd notification post -t 'Weather' rain 'Light rain expected'")
    assert result.exit_code == 0 and result.stdout.startswith(b"posting:\n  Notification(channel=shellcmd ")
    status = [w for w in phone.window.screen_windows() if w.title == "StatusBar"][0].root
    assert any(v.content_desc == "Shell notification: Weather" for v in status.walk())
    assert _find(phone, resource_name=ROW) is None  # importance default: no heads-up over the app
    _open_shade(phone)
    assert _find(phone, resource_name="android:id/title").text == "Weather"
    assert _find(phone, resource_name="android:id/text").text == "Light rain expected"
    row = _find(phone, resource_name=ROW)
    box = row.bbox_pixels
    phone.swipe(box.x_min + 10, box.center[1], box.x_max - 10, box.center[1])  # swiped away sideways
    assert _find(phone, resource_name=ROW) is None and _find(phone, text="No notifications") is not None
    phone.run("cmd notification post a one; cmd notification post b two")
    _tap(phone, _find(phone, text="Clear all", resource_name="com.android.systemui:id/dismiss_text"))
    assert _find(phone, resource_name=ROW) is None
    assert phone.run("cmd notification post onlytag").stdout.startswith(b"usage: cmd notification post")
    assert _state(phone) == before


def test_low_battery_warning_heads_up_and_dismissal(phone):
    before = _state(phone)
    phone.run("dumpsys battery set level 15")  # on AC power: no warning
    assert _find(phone, resource_name=ROW) is None
    phone.run("dumpsys battery unplug")
    phone.run("dumpsys battery set level 14")
    assert b"UPDATES STOPPED" in phone.run("dumpsys battery").stdout
    assert b"level: 14" in phone.run("dumpsys battery").stdout
    assert _find(phone, resource_name="android:id/title").text == "Turn on Battery Saver?"
    assert _find(phone, resource_name="android:id/text").text.startswith("You have 20% battery left.")
    phone.tap(135, 590)  # taps elsewhere do not dismiss it
    _tap(phone, _find(phone, text="No thanks"))
    assert _find(phone, resource_name=ROW) is None
    phone.run("dumpsys battery reset")
    assert b"UPDATES STOPPED" not in phone.run("dumpsys battery").stdout
    assert _state(phone) == before


def test_heads_up_ends_after_five_seconds_of_device_time(phone):
    phone.run("dumpsys battery unplug; dumpsys battery set level 10")
    assert _find(phone, resource_name=ROW) is not None
    phone.clock.advance(5000)
    assert _find(phone, resource_name=ROW) is None
    _open_shade(phone)  # it is ongoing: still in the shade, where "Clear all" does not take it
    assert _find(phone, text="Turn on Battery Saver?") is not None and _find(phone, text="Clear all") is None


def test_permission_prompt_after_pm_revoke(phone):
    before = _state(phone)
    revoke = f"pm revoke {SMS} android.permission.POST_NOTIFICATIONS"
    launch = f"monkey -p {SMS} -c android.intent.category.LAUNCHER 1"
    phone.run(launch)
    phone.run(revoke)  # a revoked runtime permission stops the app
    assert phone.activities.foreground()[0] != SMS
    phone.run(launch)
    message = _find(phone, resource_name="com.android.permissioncontroller:id/permission_message")
    assert message.text == "Allow SMS Messenger to send you notifications?"
    assert message.package_name == "com.google.android.permissioncontroller"
    _tap(phone, _find(phone, text="Don\u2019t allow", resource_name="com.android.permissioncontroller:id/"
                      "permission_deny_button"))
    assert phone.activities.foreground()[0] == SMS
    phone.run(f"am force-stop {SMS}")
    phone.run(launch)
    assert _find(phone, text="Allow") is not None  # still revoked: asked again at the next start
    phone.key(4)  # BACK closes the prompt
    assert phone.activities.foreground()[0] == SMS
    phone.run(f"am force-stop {SMS}; {revoke}; {launch}")
    _tap(phone, _find(phone, text="Allow"))
    phone.run(f"am force-stop {SMS}; {launch}")
    assert phone.activities.foreground()[0] == SMS  # granted: no prompt
    assert _state(phone) == before


def test_simple_commons_start_up_dialogs_from_prefs(phone):
    before = _state(phone)
    prefs = f"/data/data/{SMS}/shared_prefs/Prefs.xml"
    phone.fs.makedirs(f"/data/data/{SMS}/shared_prefs")
    phone.fs.write_bytes(prefs, shared_prefs_xml({"app_run_count": ("int", 39), "last_version": ("int", 61)}).encode())
    launch = f"monkey -p {SMS} -c android.intent.category.LAUNCHER 1"
    phone.run(launch)
    assert _find(phone, resource_name=f"{SMS}:id/alertTitle").text == "What's new"  # on top of the rating dialog
    assert _find(phone, resource_name=f"{SMS}:id/whats_new_content").text == (
        "- Allow scheduling messages by long pressing the Send button")
    phone.key(4)  # not cancelable (setCancelable(false)): BACK leaves it
    assert _find(phone, text="What's new") is not None and phone.activities.foreground()[0] == SMS
    _tap(phone, _find(phone, text="OK", resource_name="android:id/button1"))
    assert _find(phone, text="What's new") is None
    assert _find(phone, resource_name=f"{SMS}:id/rate_stars_text").text == "Rate our app please :)"
    _tap(phone, _find(phone, resource_name=f"{SMS}:id/rate_star_4"))
    assert _find(phone, text="Later") is None and _find(phone, text="Search") is not None
    stored = phone.fs.read_bytes(prefs).decode()
    assert all(key in stored for key in ('"app_run_count" value="40"', '"last_version" value="85"',
                                         '"was_app_rated" value="true"'))
    phone.run(f"am force-stop {SMS}; {launch}")
    assert _find(phone, text="Later") is None and _find(phone, text="OK") is None  # shown once
    phone.run(f"rm -r /data/data/{SMS}/shared_prefs")
    assert _state(phone) == before  # the messages and settings untouched
