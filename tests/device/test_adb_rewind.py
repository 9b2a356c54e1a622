"""The shell lines of an adb device's rewind (``device/adb_rewind.py``), run on the simulated phone's shell: the
settings they list are read back, the changed ones put back, the apps shown (but home and the system UI) stopped."""

from __future__ import annotations

from android_gym.device import adb_rewind
from android_gym.device.base import SETTINGS_NAMESPACES
from android_gym.sim.phone import Phone


def test_the_baseline_line_reads_the_settings_and_the_home_app(phone: Phone):
    output = phone.run(adb_rewind.baseline_line()).stdout.decode()
    settings = adb_rewind.read_settings(output)
    assert settings[("global", "wifi_on")] == phone.settings.get("global", "wifi_on")
    assert settings[("system", "font_scale")] == "1.0"
    assert len(settings) == sum(len(phone.settings.items(namespace)) for namespace in SETTINGS_NAMESPACES)
    assert adb_rewind.read_home(output) == phone.activities.launcher.package


def test_a_rewind_stops_the_apps_shown_and_puts_back_the_settings_that_changed(phone: Phone):
    baseline = adb_rewind.read_settings(phone.run(adb_rewind.baseline_line()).stdout.decode())
    home = phone.activities.launcher.package
    phone.run("monkey -p com.google.android.contacts -c android.intent.category.LAUNCHER 1")
    phone.settings.put("system", "screen_brightness", "7")
    phone.settings.put("system", "font_scale", "1.3")
    phone.settings.put("global", "added_since", "1")
    line = adb_rewind.rewind_line({"com.google.android.contacts", home, "com.android.systemui"}, home)
    assert "com.android.systemui" not in line and f"force-stop {home}" not in line
    now = adb_rewind.read_settings(phone.run(line).stdout.decode())
    assert "com.google.android.contacts" not in phone.activities.running()
    assert home in phone.activities.running()
    restore = adb_rewind.restore_settings_line(baseline, now, {("system", "font_scale")})
    assert restore == f"settings put system screen_brightness {baseline[('system', 'screen_brightness')]}"
    assert phone.run(restore).exit_code == 0
    assert phone.settings.get("system", "screen_brightness") == baseline[("system", "screen_brightness")]
    assert phone.settings.get("global", "added_since") == "1"  # left as it is


def test_nothing_to_put_back_is_an_empty_line():
    settings = {("global", "wifi_on"): "1"}
    assert adb_rewind.restore_settings_line(settings, dict(settings), ()) == ""
