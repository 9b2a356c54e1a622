"""SystemUI (``com.android.systemui``) of Android 13: the notification shade with quick settings, the Internet
dialog, the brightness dialog, and the brightness slider's mapping between slider position and brightness.

It is part of the app framework (``sim/framework``), not an app: the window manager draws its shade on every frame
and routes touches to it, and no phone is without it. Its package is installed like the others so that ``am``
resolves its brightness dialog.

Sources: AOSP ``frameworks/base`` ``packages/SystemUI`` (``BrightnessController``, ``BrightnessDialog``,
``ToggleSeekBar`` — its node text is the slider's accessibility label —, ``QSTileViewImpl``, ``InternetTile``,
``BluetoothTile``, ``InternetDialog``/``InternetDialogController``), ``SettingsLib`` ``BrightnessUtils``,
``BrightnessSynchronizer``, and the layouts and strings of the Pixel SystemUI build SQ1D.220205.003
(``quick_settings_brightness_dialog.xml``, ``brightness_mirror_container.xml``, ``qs_tile_label.xml``,
``internet_connectivity_dialog.xml``, ``status_bar_no_notifications.xml``, ``tile_states_*``).

Simplified: the shade opens fully expanded in one pull (tiles, brightness slider, "No notifications"); its
tiles are Internet and Bluetooth only; the Internet tile shows Wi-Fi (connected to the emulator's
``AndroidWifi`` when on) and never the mobile network (the Internet dialog lists the SIM's); the slider writes
``system screen_brightness`` (the display manager's float brightness is not kept separately, so the slider is
re-read from that integer).
"""

from __future__ import annotations

import functools
import math
import shlex
from collections.abc import Callable

import numpy as np

from android_gym.sim.framework import formats
from android_gym.sim.framework.app import App, Context, Screen
from android_gym.sim.framework.intent import CATEGORY_DEFAULT, Intent, IntentFilter
from android_gym.sim.framework.notifications import NotificationManager
from android_gym.sim.system import radios
from android_gym.sim.system.clock import MINUTE_MS, unit_start
from android_gym.sim.ui.dialogs import scrim_over
from android_gym.sim.ui.layout import text_width
from android_gym.sim.ui.views import (
    TEXT,
    TEXT_SECONDARY,
    WHITE,
    View,
    column,
    does_nothing,
    frame,
    group,
    row,
    seek_bar,
    text_view,
    toggle,
)

PACKAGE = "com.android.systemui"
SHOW_BRIGHTNESS_DIALOG = "com.android.intent.action.SHOW_BRIGHTNESS_DIALOG"
# res/values/strings.xml and arrays.xml of SystemUI.
DISPLAY_BRIGHTNESS = "Display brightness"  # accessibility_brightness
INTERNET = "Internet"  # quick_settings_internet_label
BLUETOOTH = "Bluetooth"  # quick_settings_bluetooth_label
BLUETOOTH_DESC = "Bluetooth."  # accessibility_quick_settings_bluetooth
WIFI = "Wi‑Fi"  # turn_on_wifi (U+2011 non-breaking hyphen)
WIFI_IS_OFF = "Wi-Fi is off"  # wifi_is_off
TAP_A_NETWORK = "Tap a network to connect"  # tap_a_network_to_connect
DONE = "Done"  # inline_done_button
NO_NOTIFICATIONS = "No notifications"  # empty_shade_text
TILE_STATES = ("Unavailable", "Off", "On")  # tile_states_internet / tile_states_bt
EMULATOR_SSID = "AndroidWifi"  # the emulator's simulated access point
EMULATOR_CARRIER, EMULATOR_NETWORK_TYPE = "T-Mobile", "LTE"  # the emulator's SIM (310260) and its data network
CONNECTED = "Connected"  # mobile_data_connection_active
MOBILE_DATA = "Mobile data"  # mobile_data_settings_title: the mobile toggle's content description
MOBILE_DATA_OFF = "Mobile data won\u2019t auto\u2011connect"  # mobile_data_off_summary
#: The shade's date: ``abbrev_wday_month_day_no_year`` ("EEE, MMM d") taken as a skeleton
#: (``VariableDateViewController``: ``DateFormat.getInstanceForSkeleton``): "Sun, Oct 15", "So., 15. Okt.".
DATE_SKELETON = "EEEMMMd"
_SHADE_BG, _TILE_ON, _TILE_OFF, _DIALOG_DIM = (241, 243, 244), (211, 227, 253), (225, 227, 230), (96, 96, 96)
_TILE_CORNER, _DIALOG_CORNER = 52, 73  # qs_corner_radius 20 dp; a SystemUIDialog's 28 dp
#: The Internet dialog's padding (dialog_side_padding 24 dp), its divider (internet_dialog_progress_bar_width 152 dp
#: by 4 dp, ``colorSurfaceVariant``) with internet_dialog_network_layout_margin (16 dp) above and below, and its
#: network rows' padding (``wifi_connected_layout``'s paddingStart 20 dp to its texts, which pad 12 px).
_DIALOG_PADDING, _DIVIDER_WIDTH, _DIVIDER, _NETWORK_MARGIN, _NETWORK_PADDING = 63, 399, (225, 227, 225), 42, 53
#: A network row's height (internet_dialog_wifi_network_height 72 dp), and the connected one's ink
#: (``connected_network_primary_color``, ``textColorOnAccent``: tone 10 of the accent whose tone 90 fills the row).
_NETWORK_HEIGHT, _CONNECTED_INK = 189, (4, 30, 73)
_MOBILE_HEIGHT = 231  # InternetDialog.Network's 88 dp


def _id(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


def clock_text(phone: Context) -> str:
    """SystemUI's ``Clock.getSmallTime`` (status bar and shade): ``LocaleData.timeFormat_Hm`` or ``timeFormat_hm``
    by ``DateFormat.is24HourFormat``, without the AM/PM marker (``AM_PM_STYLE_GONE``): "15:34" or "3:34"."""
    return _clock_text(phone.clock.units(MINUTE_MS), formats.phone_is_24_hour(phone), formats.system_tag(phone))


@functools.lru_cache(maxsize=16)
def _clock_text(minute: int, is24: bool, tag: str) -> str:
    """``clock_text`` in the ``minute``-th minute since the epoch (the phone's zone is UTC), made once per minute shown:
    the status bar asks at every frame."""
    return formats.format_time(unit_start(minute, MINUTE_MS), is24, tag, am_pm=False)


# ----- brightness (SettingsLib BrightnessUtils, BrightnessSynchronizer; Java float arithmetic) ----------------
GAMMA_SPACE_MAX = 65535
#: ``PowerManager.BRIGHTNESS_MIN/MAX``: the emulator's display reports this range in ``BrightnessInfo``.
BRIGHTNESS_MIN, BRIGHTNESS_MAX = 0.0, 1.0
_F = np.float32
_R, _A, _B, _C = _F(0.5), _F(0.17883277), _F(0.28466892), _F(0.55991073)


def _lerp(start: float, stop: float, amount: np.float32) -> np.float32:
    return _F(start) + (_F(stop) - _F(start)) * amount


def _norm(start: float, stop: float, value: float) -> np.float32:
    return (_F(value) - _F(start)) / (_F(stop) - _F(start))


def _java_round(value: np.float32) -> int:
    """``Math.round(float)``: half up."""
    return math.floor(float(value) + 0.5)


def gamma_to_linear(value: int, minimum: float = BRIGHTNESS_MIN, maximum: float = BRIGHTNESS_MAX) -> float:
    """``BrightnessUtils.convertGammaToLinearFloat``: slider position (0..65535, HLG gamma) → linear brightness."""
    normalized = _norm(0, GAMMA_SPACE_MAX, value)
    if normalized <= _R:
        ret = (normalized / _R) * (normalized / _R)
    else:
        ret = _F(math.exp(float((normalized - _C) / _A))) + _B
    return float(_lerp(minimum, maximum, _F(min(max(ret, _F(0)), _F(12))) / _F(12)))


def linear_to_gamma(value: float, minimum: float = BRIGHTNESS_MIN, maximum: float = BRIGHTNESS_MAX) -> int:
    """``BrightnessUtils.convertLinearToGammaFloat``: linear brightness → slider position (0..65535)."""
    normalized = _norm(minimum, maximum, value) * _F(12)
    if normalized <= _F(1):
        ret = _F(math.sqrt(float(normalized))) * _R
    else:
        ret = _A * _F(math.log(float(normalized - _B))) + _C
    return _java_round(_lerp(0, GAMMA_SPACE_MAX, ret))


def _constrained_map(range_min: float, range_max: float, value_min: float, value_max: float,
                     value: float) -> np.float32:
    """``MathUtils.constrainedMap``."""
    amount = _norm(value_min, value_max, value) if value_min != value_max else _F(0)
    return _lerp(range_min, range_max, _F(min(max(amount, _F(0)), _F(1))))


def brightness_int_to_float(value: int) -> float:
    """``BrightnessSynchronizer.brightnessIntToFloat``: the 1..255 setting → 0..1 (0 is off: -1)."""
    return -1.0 if value == 0 else float(_constrained_map(0.0, 1.0, 1.0, 255.0, value))


def brightness_float_to_int(value: float) -> int:
    """``BrightnessSynchronizer.brightnessFloatToInt``: 0..1 → the 1..255 ``screen_brightness`` setting."""
    return 0 if value == -1.0 else _java_round(_constrained_map(1.0, 255.0, 0.0, 1.0, value))


def brightness_position(phone: Context) -> int:
    """Where the brightness slider stands (0..65535) for the current ``system screen_brightness``."""
    setting = phone.settings.get("system", "screen_brightness")
    value = int(setting) if setting and setting.lstrip("-").isdigit() else 102  # config_screenBrightnessSettingDefault
    return linear_to_gamma(brightness_int_to_float(value))


def set_brightness_position(phone: Context, position: int) -> None:
    """``BrightnessController.onChanged``: the slider's linear value becomes the display brightness, which
    ``BrightnessSynchronizer`` writes to ``system screen_brightness`` as 1..255."""
    linear = min(gamma_to_linear(position), BRIGHTNESS_MAX)
    phone.settings.put("system", "screen_brightness", str(brightness_float_to_int(linear)))
    phone.invalidate()


#: ``ToggleSeekBar``'s horizontal padding: 20dp at 420 dpi (``TypedValue.complexToDimensionPixelSize`` rounds).
SLIDER_PADDING = 53


def brightness_slider(phone: Context) -> View:
    """``quick_settings_brightness_dialog.xml``: a ``BrightnessSliderView`` holding the ``ToggleSeekBar``, whose
    ``paddingStart``/``paddingEnd`` of 20dp (53 px at 420 dpi) frame its track: a touch in the end padding is the
    slider's maximum, in the start padding its minimum (``AbsSeekBar.trackTouchEvent``)."""
    slider = seek_bar(brightness_position(phone), GAMMA_SPACE_MAX,
                      lambda position: set_brightness_position(phone, position),
                      text=DISPLAY_BRIGHTNESS, resource_id=_id("slider"), padding=SLIDER_PADDING)
    return frame(slider, resource_id=_id("brightness_slider"), content_desc=DISPLAY_BRIGHTNESS, height=126)


class BrightnessDialog(Screen):
    """``settings.brightness.BrightnessDialog``: a slider in a rounded container at the top of the screen
    (``brightness_mirror_container``, 8 dp margin and padding), started by ``SHOW_BRIGHTNESS_DIALOG``."""

    activity = f"{PACKAGE}.settings.brightness.BrightnessDialog"

    def on_pause(self) -> None:
        """``android:finishOnCloseSystemDialogs``: HOME (or anything else covering it) closes the dialog."""
        self.finish()

    def build(self) -> View:
        container = frame(brightness_slider(self.phone), resource_id=_id("brightness_mirror_container"),
                          padding=21, background=WHITE, corner=_TILE_CORNER)
        return column(container, View(weight=1), padding=21, background=_SHADE_BG)


# ----- the notification shade --------------------------------------------------------------------------------
def _connected_network() -> View:
    """``wifi_connected_layout``: the emulator's access point, connected, on ``settingslib_switch_bar_bg_on``
    (``colorAccentPrimary``): its signal (``InternetDialogController.getInternetWifiDrawable``: the Wi-Fi level's
    icon, full for the emulator's access point), title and summary in ``connected_network_primary_color``, and the
    settings gear (``ic_settings_24dp``) at its end."""
    def icon(name: str, resource_id: str) -> View:
        return View(kind="icon", class_name="android.widget.ImageView", hint=name, resource_id=_id(resource_id),
                    width=63, height=63, text_color=_CONNECTED_INK)  # 24 dp

    texts = column(text_view(EMULATOR_SSID, resource_id=_id("wifi_connected_title"), text_size=37,
                             text_color=_CONNECTED_INK),
                   text_view(CONNECTED, resource_id=_id("wifi_connected_summary"), text_size=37,
                             text_color=_CONNECTED_INK),
                   weight=1, gravity="center_vertical")
    return row(icon("wifi_signal", "wifi_connected_icon"), texts, icon("settings_filled", "wifi_settings_icon"),
               resource_id=_id("wifi_connected_layout"), height=_NETWORK_HEIGHT, padding=_NETWORK_PADDING - 12,
               spacing=12, background=_TILE_ON, corner=_TILE_CORNER)


def _tile(label: str, content_desc: str, secondary: str, active: bool, on_click: Callable[[], None],
          on_long_click: Callable[[], None]) -> View:
    """``QSTileViewImpl`` of a switch-like tile: node class ``Switch``, text ``On``/``Off`` (``switch_bar_on``/
    ``off``), the tile label and the secondary label (the state text when the tile has none)."""
    state = TILE_STATES[2 if active else 1]
    labels = column(text_view(label, resource_id=_id("tile_label"), text_size=40, bold=True, padding=4),
                    text_view(secondary or state, resource_id=_id("app_label"), text_size=34, padding=4,
                              text_color=TEXT_SECONDARY), weight=1)
    icon = View(kind="icon", class_name="android.widget.ImageView", hint="wifi" if label == INTERNET else "bt",
                width=100, height=100, text_color=TEXT)
    return group("row", "android.widget.Switch", icon, labels, content_desc=content_desc, text=state, checkable=True,
                 checked=active, clickable=True, long_clickable=True, focusable=True, on_click=on_click,
                 on_long_click=on_long_click, background=_TILE_ON if active else _TILE_OFF, corner=_TILE_CORNER,
                 height=220, padding=24, weight=1)


def _mobile_network(phone: Context, wifi: bool) -> View:
    """``mobile_network_layout`` for the emulator's SIM (``InternetDialog.updateMobileNetworkLayout``): the signal
    icon (full bars), the carrier as title, ``getMobileNetworkSummary`` under it (the network type while Wi-Fi
    carries the data, "Connected / LTE" while the mobile network does, on ``settingslib_switch_bar_bg_on`` in
    ``connected_network_primary_color`` then, "Mobile data won't auto-connect" with data off), and the mobile data
    switch after a thin divider (``textColorSecondary``, the connected ink while connected). The switch turns
    ``global mobile_data`` on and off (the confirmation Android shows the first time data is turned off is not
    simulated); a tap on the row, which opens Settings' mobile network page, does nothing here."""
    data = radios.mobile_data_enabled(phone)
    active = data and not wifi
    ink = _CONNECTED_INK if active else TEXT
    summary = (f"{CONNECTED} / {EMULATOR_NETWORK_TYPE}" if active else EMULATOR_NETWORK_TYPE) if data \
        else MOBILE_DATA_OFF
    texts = column(text_view(EMULATOR_CARRIER, resource_id=_id("mobile_title"), text_size=42, text_color=ink),
                   text_view(summary, resource_id=_id("mobile_summary"), text_size=37,
                             text_color=ink if active else TEXT_SECONDARY),
                   weight=1, gravity="center_vertical")

    signal = View(kind="icon", class_name="android.widget.ImageView", hint="signal", resource_id=_id("signal_icon"),
                  width=63, height=63, text_color=ink)  # 24 dp
    divider = View(resource_id=_id("mobile_toggle_divider"), width=3, height=74,  # 1 x 28 dp
                   background=_CONNECTED_INK if active else TEXT_SECONDARY)
    return row(signal, texts, divider, toggle(data, resource_id=_id("mobile_toggle"), content_desc=MOBILE_DATA,
                                              on_click=lambda: radios.set_mobile_data(phone, not data)),
               resource_id=_id("mobile_network_layout"), height=_MOBILE_HEIGHT, padding=_NETWORK_PADDING - 12,
               spacing=12, clickable=True, focusable=True, on_click=does_nothing,
               background=_TILE_ON if active else None, corner=_TILE_CORNER)


class NotificationShade:
    """The notification shade window (``NotificationShadeWindowView``): quick settings over the notification
    list, and the Internet dialog the Internet tile opens over it.

    A swipe down from the status bar expands it; BACK, HOME or a swipe up collapses it. While it is expanded
    the app underneath stays the resumed activity.
    """

    def __init__(self, phone: Context, notifications: NotificationManager) -> None:
        self.phone = phone
        self.notifications = notifications
        self.expanded = False
        self.internet_dialog = False

    def expand(self) -> None:
        """Pull the shade down."""
        self.expanded = True
        self.phone.invalidate()

    def collapse(self) -> None:
        """Close the shade (and any dialog opened from it)."""
        self.expanded = self.internet_dialog = False
        self.phone.invalidate()

    def back(self) -> None:
        """BACK: dismiss the Internet dialog if it is up, else collapse the shade."""
        if self.internet_dialog:
            self.internet_dialog = False
            self.phone.invalidate()
        else:
            self.collapse()

    def window(self) -> View | None:
        """The shade's top window, or ``None`` while it is collapsed."""
        if not self.expanded:
            return None
        return self._internet_dialog() if self.internet_dialog else self._panel()

    def _open_settings(self, action: str) -> None:
        """A tile's long press: collapse and start its settings page (``QSTileImpl.getLongClickIntent``)."""
        self.collapse()
        self.phone.run(f"am start -a {shlex.quote(action)}")

    def _panel(self) -> View:
        phone = self.phone
        wifi, bluetooth = radios.wifi_enabled(phone), radios.bluetooth_enabled(phone)
        date = formats.format_skeleton(phone.clock.now(MINUTE_MS), DATE_SKELETON, formats.system_tag(phone))
        header = row(text_view(clock_text(phone), resource_id=_id("clock"), text_size=64, padding=24),
                     text_view(date, resource_id=_id("date"), text_size=40, padding=24),
                     resource_id=_id("header"))
        ssid = EMULATOR_SSID if wifi else ""
        tiles = row(
            _tile(INTERNET, f"{phone.window.locale.string(INTERNET, PACKAGE)},{ssid}", ssid, wifi,
                  self._show_internet_dialog,
                  lambda: self._open_settings("android.settings.WIFI_SETTINGS")),
            _tile(BLUETOOTH, BLUETOOTH_DESC, "", bluetooth, lambda: radios.set_bluetooth(phone, not bluetooth),
                  lambda: self._open_settings("android.settings.BLUETOOTH_SETTINGS")),
            spacing=24)
        quick_settings = column(brightness_slider(phone), tiles, resource_id=_id("quick_settings_panel"), spacing=36,
                                padding=24)
        rows = self.notifications.shade_rows()
        notifications = column(*rows, spacing=16, padding=24) if rows else text_view(
            NO_NOTIFICATIONS, resource_id=_id("no_notifications"), padding=32, text_size=40, text_color=TEXT_SECONDARY)
        return group("column", "android.widget.FrameLayout", header, quick_settings, notifications,
                     resource_id=_id("notification_panel"), background=_SHADE_BG)

    def _show_internet_dialog(self) -> None:
        self.internet_dialog = True
        self.phone.invalidate()

    def _internet_dialog(self) -> View:
        """``InternetDialog`` as Android 13 shows it (``internet_connectivity_dialog.xml``): a SystemUIDialog in the
        middle of the screen (Android 12's sat at the bottom over the navigation bar; 13 dropped its
        ``Gravity.BOTTOM``) over the quick settings panel, which it dims and shows in the pixels only (uiautomator
        dumps the dialog's window); a touch outside it closes it. Its title and subtitle
        (``InternetDialogController.getSubtitleText``) centred over the divider, the Wi-Fi toggle, the connected
        network when Wi-Fi is on, and the Done button (``Widget.Dialog.Button``: filled with ``colorAccentPrimary``)
        at the end of its button row."""
        phone = self.phone
        wifi = radios.wifi_enabled(phone)
        header = column(
            text_view(INTERNET, resource_id=_id("internet_dialog_title"), text_size=63, padding=0,
                      gravity="center_horizontal"),
            View(height=11),  # the subtitle's 4 dp top margin
            text_view(TAP_A_NETWORK if wifi else WIFI_IS_OFF, resource_id=_id("internet_dialog_subtitle"),
                      text_size=37, padding=0, text_color=TEXT_SECONDARY, gravity="center_horizontal"))
        divider = View(resource_id=_id("divider"), width=_DIVIDER_WIDTH, height=10, background=_DIVIDER,
                       gravity="center_horizontal")
        items = [header, View(height=_NETWORK_MARGIN), divider, View(height=_NETWORK_MARGIN)]
        if not radios.airplane_mode(phone):  # the SIM's row is gone in airplane mode
            items.append(_mobile_network(phone, wifi))
        items += [row(text_view(WIFI, resource_id=_id("wifi_toggle_title"), text_size=42, weight=1),
                     toggle(wifi, resource_id=_id("wifi_toggle"), content_desc=WIFI,
                            on_click=lambda: radios.set_wifi(phone, not wifi)),
                     resource_id=_id("turn_on_wifi_layout"), height=168, padding=_NETWORK_PADDING - 12)]
        if wifi:
            items.append(_connected_network())
        done = View(kind="button", class_name="android.widget.Button", text=DONE, resource_id=_id("done_button"),
                    clickable=True, focusable=True, on_click=self._dismiss_dialog, height=95, padding=42,
                    width=int(text_width(DONE, 37)) + 2 * 42, background=_TILE_ON, text_color=TEXT, text_size=37,
                    corner=47)
        items += [View(height=21), row(View(weight=1), done, resource_id=_id("button_layout"))]
        dialog = column(*items, resource_id=_id("internet_connectivity_dialog"), background=WHITE, gravity="center",
                        padding=_DIALOG_PADDING, margin=48, corner=_DIALOG_CORNER, elevation=63)
        key, picture = phone.window.shade_snapshot(self._panel())
        behind = View(kind="frame", class_name="android.widget.FrameLayout", key=key, image=picture,
                      background=_SHADE_BG)
        return scrim_over(behind, dialog, self._dismiss_dialog)

    def _dismiss_dialog(self) -> None:
        self.internet_dialog = False
        self.phone.invalidate()


class SystemUI(App):
    """``com.android.systemui``: no launcher icon; its one activity here is the brightness dialog."""

    package = PACKAGE
    label = "System UI"
    screens = (BrightnessDialog,)
    intent_filters = (IntentFilter((SHOW_BRIGHTNESS_DIALOG,), (CATEGORY_DEFAULT,)),)  # BrightnessDialog's
    launchable = False

    def resolve(self, intent: Intent) -> type[Screen] | None:
        """``com.android.intent.action.SHOW_BRIGHTNESS_DIALOG`` opens the brightness dialog."""
        return BrightnessDialog if intent.action == SHOW_BRIGHTNESS_DIALOG else None
