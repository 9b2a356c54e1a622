"""Settings and SystemUI on the simulated phone: pages, switches, intents, the brightness slider and the
quick-settings shade, driven only through taps, swipes, keys and shell commands."""

from __future__ import annotations

import pytest

from android_gym.sim import keycodes
from android_gym.sim.framework.systemui import (
    brightness_float_to_int,
    brightness_int_to_float,
    gamma_to_linear,
    linear_to_gamma,
)
from android_gym.ui import parse_ui_dump

SETTINGS = "com.android.settings"
SYSTEMUI = "com.android.systemui"
SWITCH = "android:id/switch_widget"



def elements(phone):
    return parse_ui_dump(phone.ui_dump())


def find(phone, **wanted):
    return next((e for e in elements(phone) if all(getattr(e, k) == v for k, v in wanted.items())), None)


def tap(phone, **wanted):
    element = find(phone, **wanted)
    assert element is not None, f"no element {wanted}"
    phone.tap(*element.bbox_pixels.center)


def drag(phone, resource_name, to_x):
    """A horizontal drag from the middle of an element to ``to_x``."""
    x, y = find(phone, resource_name=resource_name).bbox_pixels.center
    phone.swipe(x, y, to_x, y, 500)


def setting(phone, namespace, key):
    return phone.run(f"settings get {namespace} {key}").stdout.decode().strip()


def open_settings(phone, *titles):
    phone.run(f"monkey -p {SETTINGS} -c android.intent.category.LAUNCHER 1")
    for title in titles:
        tap(phone, text=title, resource_name="android:id/title")


def test_homepage_lists_the_android_13_entries_with_real_ids(phone):
    open_settings(phone)
    assert phone.activities.foreground() == (SETTINGS, f"{SETTINGS}.Settings")
    assert find(phone, text="Settings", resource_name=f"{SETTINGS}:id/homepage_title")
    assert find(phone, text="Search settings", resource_name=f"{SETTINGS}:id/search_action_bar_title")
    titles = [e.text for e in elements(phone) if e.resource_name == "android:id/title"]
    assert titles[:8] == ["Network & internet", "Connected devices", "Apps", "Notifications", "Battery", "Storage",
                          "Sound & vibration", "Display"]
    assert find(phone, text="Mobile, Wi\u2011Fi, hotspot", resource_name="android:id/summary")
    x, y = find(phone, text="Connected devices").bbox_pixels.center
    row = next(e for e in elements(phone) if e.is_clickable and e.bbox_pixels.x_min <= x < e.bbox_pixels.x_max
               and e.bbox_pixels.y_min <= y < e.bbox_pixels.y_max)
    assert row.class_name == "android.widget.LinearLayout"
    scroller = find(phone, resource_name=f"{SETTINGS}:id/main_content_scrollable_container")
    phone.swipe(540, 1800, 540, 600, 300)
    assert find(phone, text="System") is not None and scroller.is_scrollable


def test_wifi_switch_writes_the_setting_and_the_page_follows_svc(phone):
    open_settings(phone, "Network & internet", "Internet")
    assert phone.activities.foreground() == (SETTINGS, f"{SETTINGS}.SubSettings")
    assert find(phone, resource_name=f"{SETTINGS}:id/collapsing_toolbar").content_description == "Internet"
    assert find(phone, resource_name=SWITCH).is_checked and find(phone, text="AndroidWifi")
    tap(phone, text="Wi-Fi")
    assert setting(phone, "global", "wifi_on") == "0"
    assert not find(phone, resource_name=SWITCH).is_checked and not find(phone, text="AndroidWifi")
    assert find(phone, text="To see available networks, turn Wi\u2011Fi on.")
    phone.run("svc wifi enable")
    assert find(phone, resource_name=SWITCH).is_checked
    phone.run("svc wifi disable")
    assert not find(phone, resource_name=SWITCH).is_checked
    phone.run("settings put global airplane_mode_on 1")
    tap(phone, text="Wi-Fi")
    assert setting(phone, "global", "wifi_on") == "2"  # on while in airplane mode, as WifiSettingsStore records
    tap(phone, content_description="Navigate up")
    assert find(phone, text="AndroidWifi", resource_name="android:id/summary")  # Internet's summary


def test_bluetooth_is_under_connection_preferences_and_writes_bluetooth_on(phone):
    open_settings(phone, "Connected devices")
    assert find(phone, text="Bluetooth", resource_name="android:id/summary")  # Connection preferences' summary
    tap(phone, text="Connection preferences")
    tap(phone, text="Bluetooth", resource_name="android:id/title")
    bar = f"{SETTINGS}:id/switch_widget"
    assert find(phone, text="Use Bluetooth") and find(phone, resource_name=bar).is_checked
    assert find(phone, text="Device name")
    tap(phone, text="Use Bluetooth")
    assert setting(phone, "global", "bluetooth_on") == "0"
    assert not find(phone, resource_name=bar).is_checked and find(phone, text="Device name") is None
    assert find(phone, text="Bluetooth will turn on to pair")
    phone.run("svc bluetooth enable")
    assert find(phone, resource_name=bar).is_checked


def test_unsimulated_pages_open_with_their_title_and_go_back(phone):
    open_settings(phone, "Apps")
    assert find(phone, resource_name=f"{SETTINGS}:id/collapsing_toolbar").content_description == "Apps"
    phone.key(keycodes.BACK)
    assert phone.activities.foreground() == (SETTINGS, f"{SETTINGS}.Settings")


@pytest.mark.parametrize("action, activity, shown", [
    ("android.settings.SETTINGS", "homepage.SettingsHomepageActivity", "Network & internet"),
    ("android.settings.WIRELESS_SETTINGS", "Settings$NetworkDashboardActivity", "Internet"),
    ("android.settings.WIFI_SETTINGS", "Settings$WifiSettingsActivity", "Wi-Fi"),
    ("android.settings.BLUETOOTH_SETTINGS", "Settings$ConnectedDeviceDashboardActivity", "Connection preferences"),
    ("android.settings.DISPLAY_SETTINGS", "Settings$DisplaySettingsActivity", "Brightness level"),
])
def test_settings_intents_resolve_to_their_activities(phone, action, activity, shown):
    out = phone.run(f"am start -W -a {action}").stdout.decode()
    assert f"Activity: {SETTINGS}/.{activity}" in out
    assert phone.activities.foreground() == (SETTINGS, f"{SETTINGS}.{activity}")
    assert find(phone, text=shown) is not None


def test_brightness_level_opens_systemui_dialog_whose_ends_give_androidworlds_values(phone):
    open_settings(phone, "Display", "Brightness level")
    assert phone.activities.foreground() == (SYSTEMUI, f"{SYSTEMUI}.settings.brightness.BrightnessDialog")
    slider = find(phone, resource_name=f"{SYSTEMUI}:id/slider")
    assert slider.class_name == "android.widget.SeekBar" and slider.text == "Display brightness"
    container = find(phone, resource_name=f"{SYSTEMUI}:id/brightness_mirror_container").bbox_pixels
    assert container.x_max > slider.bbox_pixels.x_max  # room to drag past the end
    drag(phone, f"{SYSTEMUI}:id/slider", container.x_max - 1)
    assert setting(phone, "system", "screen_brightness") == "255"
    drag(phone, f"{SYSTEMUI}:id/slider", container.x_min)
    phone.tap(slider.bbox_pixels.x_max - 1, slider.bbox_pixels.center[1])  # the end padding (20dp) is the maximum
    assert setting(phone, "system", "screen_brightness") == "255"
    drag(phone, f"{SYSTEMUI}:id/slider", container.x_min)
    assert setting(phone, "system", "screen_brightness") == "1"
    phone.tap(*slider.bbox_pixels.center)  # the middle of the gamma curve is dim
    assert setting(phone, "system", "screen_brightness") == "22"
    phone.key(keycodes.BACK)
    assert phone.activities.foreground() == (SETTINGS, f"{SETTINGS}.SubSettings")
    assert find(phone, text="50%", resource_name="android:id/summary")


def test_brightness_summary_and_slider_follow_the_setting(phone):
    open_settings(phone, "Display")
    phone.run("settings put system screen_brightness 128")
    assert find(phone, text="87%")  # 57123 / 65535 of the gamma range
    phone.run("settings put system screen_brightness 1")
    assert find(phone, text="0%")
    tap(phone, text="Brightness level")
    assert phone.window.frame().shade is None
    seek_bar = next(v for v in phone.window.frame().app.walk() if v.on_seek is not None)
    assert seek_bar.progress == 0.0
    phone.key(keycodes.HOME)  # finishOnCloseSystemDialogs
    assert all(screen.app.package != SYSTEMUI for task in phone.activities.task_stacks() for screen in task)


def test_adaptive_brightness_switch_and_page_write_screen_brightness_mode(phone):
    open_settings(phone, "Display")
    tap(phone, resource_name=f"{SETTINGS}:id/switchWidget")
    assert setting(phone, "system", "screen_brightness_mode") == "1"
    tap(phone, text="Adaptive brightness")
    assert find(phone, text="Use adaptive brightness") and find(phone, resource_name=f"{SETTINGS}:id/switch_widget")
    tap(phone, text="Use adaptive brightness")
    assert setting(phone, "system", "screen_brightness_mode") == "0"


def test_gamma_mapping_matches_aosp():
    """Expected values come from AOSP's HLG formulas evaluated in double precision."""
    for position, value in [(0, 1), (16384, 6), (32767, 22), (40000, 35), (49151, 68), (60000, 162),
                            (65535, 255)]:
        assert brightness_float_to_int(gamma_to_linear(position)) == value
    for value, position in [(1, 0), (2, 7122), (50, 44993), (128, 57123), (200, 62596), (255, 65535)]:
        assert linear_to_gamma(brightness_int_to_float(value)) == position
    assert gamma_to_linear(32768) == pytest.approx(0.0833358764, abs=1e-7)
    for value in range(1, 256):  # the slider shows every setting where dragging back to it restores it
        assert brightness_float_to_int(gamma_to_linear(linear_to_gamma(brightness_int_to_float(value)))) == value


def test_status_bar_swipe_opens_the_shade_and_tiles_toggle(phone):
    open_settings(phone)
    phone.swipe(540, 10, 540, 1500, 300)
    assert phone.window.shade.expanded
    assert {e.package_name for e in elements(phone)} == {SYSTEMUI}  # the active window is the shade
    assert phone.activities.foreground() == (SETTINGS, f"{SETTINGS}.Settings")  # still the resumed activity
    assert f"{SETTINGS}/" in phone.run("dumpsys activity activities").stdout.decode()
    bluetooth = find(phone, content_description="Bluetooth.")
    assert bluetooth.class_name == "android.widget.Switch" and bluetooth.is_checked and bluetooth.text == "On"
    tap(phone, content_description="Bluetooth.")
    assert setting(phone, "global", "bluetooth_on") == "0"
    assert find(phone, content_description="Bluetooth.").text == "Off"
    assert find(phone, text="Off", resource_name=f"{SYSTEMUI}:id/app_label")
    tap(phone, content_description="Internet,AndroidWifi")
    assert find(phone, text="Tap a network to connect")
    dialog = find(phone, resource_name=f"{SYSTEMUI}:id/internet_connectivity_dialog").bbox_pixels
    shade = elements(phone)[0].bbox_pixels  # the window: Android 13's dialog in its middle, not at its bottom
    assert dialog.x_min == shade.x_max - dialog.x_max > 0
    assert abs((dialog.y_min - shade.y_min) - (shade.y_max - dialog.y_max)) <= 1
    tap(phone, resource_name=f"{SYSTEMUI}:id/wifi_toggle")
    assert setting(phone, "global", "wifi_on") == "0" and find(phone, text="Wi-Fi is off")
    phone.key(keycodes.BACK)  # dismisses the dialog, then the shade
    assert find(phone, content_description="Internet,") is not None
    phone.key(keycodes.BACK)
    assert not phone.window.shade.expanded and find(phone, text="Network & internet")


def test_shade_slider_and_closing_by_swipe_and_home(phone):
    phone.run("settings put system screen_brightness 1")
    phone.swipe(540, 0, 540, 2399, 500)  # AndroidWorld's swipe "down"
    slider = find(phone, resource_name=f"{SYSTEMUI}:id/slider").bbox_pixels
    phone.swipe(slider.center[0], slider.center[1], 1079, slider.center[1], 500)
    assert setting(phone, "system", "screen_brightness") == "255"
    phone.swipe(540, 1500, 540, 300, 300)  # swipe up on the shade
    assert not phone.window.shade.expanded
    phone.swipe(540, 600, 540, 1500, 300)  # a drag down that does not start on the status bar
    assert not phone.window.shade.expanded
    phone.swipe(540, 5, 540, 900, 300)
    phone.key(keycodes.HOME)
    assert not phone.window.shade.expanded
    phone.swipe(540, 5, 540, 900, 300)
    phone.long_press(*find(phone, content_description="Bluetooth.").bbox_pixels.center)  # opens its settings
    assert not phone.window.shade.expanded
    assert phone.activities.foreground() == (SETTINGS, f"{SETTINGS}.Settings$ConnectedDeviceDashboardActivity")
