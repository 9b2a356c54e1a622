"""Settings (``com.android.settings``) of Android 13: the homepage, and the pages on the way to the Wi-Fi,
Bluetooth and brightness controls.

Structure, keys, titles and intents come from AOSP ``packages/apps/Settings`` and the Pixel SettingsGoogle
build of Tiramisu beta 1 (``AndroidManifest.xml``, ``res/xml/top_level_settings.xml``,
``network_provider_internet.xml``, ``network_provider_settings.xml``, ``connected_devices.xml``,
``connected_devices_advanced.xml``, ``bluetooth_screen.xml``, ``display_settings.xml``,
``auto_brightness_detail.xml``, ``res/layout/homepage_preference.xml``, ``search_bar.xml``,
``settings_homepage_container.xml``, ``res/values/strings.xml``) and the controllers behind them
(``AddDevicePreferenceController``, ``BluetoothSwitchPreferenceController``,
``BluetoothDeviceRenamePreferenceController``, ``AdvancedConnectedDeviceController``,
``BrightnessLevelPreferenceController``). Real dumps at 1080x2400 (github.com/AdithyaNarayann/Settings-Assistant
``window_dump.xml``) show the row layout: ``icon_frame``/``android:id/icon``, ``android:id/title``,
``android:id/summary`` in a clickable ``LinearLayout``. Sound's summary is the final 13 wording (beta 1 said
"Priority mode").

Navigation is AOSP's: a row with a fragment starts ``SubSettings`` showing that fragment
(``SubSettingLauncher``); an intent such as ``android.settings.WIFI_SETTINGS`` starts the ``Settings$…Activity``
that hosts the same fragment. Every page reads the settings store when it is built, so ``svc``/``settings put``
show at once. Pages other than Network & internet → Internet, Connected devices → Connection preferences →
Bluetooth, Display and Adaptive brightness open with their title only (their content is not simulated); the
search bar and the Bluetooth device name do nothing; homepage entries whose summary depends on state not
simulated here (Storage, Location, accounts) show no summary; Security and Privacy are listed as on a device
without Safety Center; Wallpaper & style and the GMS-injected entries (Google, Digital Wellbeing, Tips &
support) are absent. Adaptive brightness is shown as on a Pixel (the emulator image, lacking a light sensor,
hides it). Internet shows Wi-Fi only (no mobile network, no airplane-mode row).
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from typing import ClassVar

from android_gym.sim.framework.app import App, Screen
from android_gym.sim.framework.intent import CATEGORY_DEFAULT, Intent, IntentFilter
from android_gym.sim.framework.looks import MATERIAL_YOU_NIGHT
from android_gym.sim.framework.systemui import GAMMA_SPACE_MAX, SHOW_BRIGHTNESS_DIALOG, brightness_position
from android_gym.sim.system import radios
from android_gym.sim.ui.views import (
    PRIMARY,
    TEXT,
    TEXT_SECONDARY,
    View,
    does_nothing,
    group,
    image_button,
    text_view,
    toggle,
)

PACKAGE = "com.android.settings"
#: ``SettingsActivity.EXTRA_SHOW_FRAGMENT`` / ``EXTRA_SHOW_FRAGMENT_TITLE`` / ``EXTRA_SHOW_FRAGMENT_TITLE_RESID``.
EXTRA_SHOW_FRAGMENT, EXTRA_SHOW_FRAGMENT_TITLE = ":settings:show_fragment", ":settings:show_fragment_title"
EXTRA_SHOW_FRAGMENT_TITLE_RESID = ":settings:show_fragment_title_resid"
# Fragments (android:fragment of the preference XML).
NETWORK_DASHBOARD = f"{PACKAGE}.network.NetworkDashboardFragment"
INTERNET_PAGE = f"{PACKAGE}.network.NetworkProviderSettings"
CONNECTED_DEVICES = f"{PACKAGE}.connecteddevice.ConnectedDeviceDashboardFragment"
CONNECTION_PREFERENCES = f"{PACKAGE}.connecteddevice.AdvancedConnectedDeviceDashboardFragment"
BLUETOOTH_PAGE = f"{PACKAGE}.connecteddevice.BluetoothDashboardFragment"
DISPLAY = f"{PACKAGE}.DisplaySettings"
AUTO_BRIGHTNESS = f"{PACKAGE}.display.AutoBrightnessSettings"
# res/values/strings.xml (U+2011 non-breaking hyphens as in AOSP).
SETTINGS = "Settings"  # settings_label
SEARCH_SETTINGS = "Search settings"  # search_menu
#: res/values/dimens.xml: search_bar_margin 16 dp, search_bar_height 52 dp, search_bar_content_inset 56 dp,
#: search_bar_text_size 20 sp (at 420 dpi).
_SEARCH_MARGIN, _SEARCH_HEIGHT, _SEARCH_INSET, _SEARCH_TEXT = 42, 136, 147, 52
NAVIGATE_UP = "Navigate up"  # abc_action_bar_up_description
NETWORK_AND_INTERNET = "Network & internet"  # network_dashboard_title
INTERNET = "Internet"  # provider_internet_settings
WIFI = "Wi-Fi"  # wifi (main_toggle_wifi's title)
CONNECTED_DEVICES_TITLE = "Connected devices"  # connected_devices_dashboard_title
CONNECTION_PREFERENCES_TITLE = "Connection preferences"  # connected_device_connections_title
BLUETOOTH = "Bluetooth"  # bluetooth_settings_title
USE_BLUETOOTH = "Use Bluetooth"  # bluetooth_main_switch_title
DEVICE_NAME = "Device name"  # bluetooth_device_name
PAIR_NEW_DEVICE = "Pair new device"  # bluetooth_pairing_pref_title
BLUETOOTH_WILL_TURN_ON = "Bluetooth will turn on to pair"  # connected_device_add_device_summary
BLUETOOTH_FOOTER = ("When Bluetooth is turned on, your device can communicate with other nearby Bluetooth "
                    "devices.")  # bluetooth_empty_list_bluetooth_off
BLUETOOTH_SCANNING_FOOTER = BLUETOOTH_FOOTER + (
    "\n\nTo improve device experience, apps and services can still scan for nearby devices at any time, even "
    "when Bluetooth is off. This can be used, for example, to improve location-based features and services. You "
    "can change this in Bluetooth scanning settings.")  # bluetooth_scanning_on_info_message
DISPLAY_TITLE = "Display"  # display_settings
BRIGHTNESS_LEVEL = "Brightness level"  # brightness
ADAPTIVE_BRIGHTNESS = "Adaptive brightness"  # auto_brightness_title
USE_ADAPTIVE_BRIGHTNESS = "Use adaptive brightness"  # adaptive_brightness_main_switch_title
ADAPTIVE_BRIGHTNESS_FOOTER = (
    "Your screen brightness will automatically adjust to your environment and activities. You can move the "
    "slider manually to help adaptive brightness learn your preferences.")  # auto_brightness_description
WIFI_OFF_FOOTER = "To see available networks, turn Wi‑Fi on."  # wifi_empty_list_wifi_off
EMULATOR_SSID, CONNECTED = "AndroidWifi", "Connected"
#: The titles the rows open their pages with, by resource name (the simulator's stand-in for the resource id):
#: ``SubSettingLauncher.setTitleRes`` puts the id in ``EXTRA_SHOW_FRAGMENT_TITLE_RESID`` and ``SettingsActivity``
#: resolves it in its own resources, so the page title is the app's string in the system language.
TITLE_RESOURCES: dict[str, str] = {
    "network_dashboard_title": NETWORK_AND_INTERNET, "connected_devices_dashboard_title": CONNECTED_DEVICES_TITLE,
    "apps_dashboard_title": "Apps", "configure_notification_settings": "Notifications",
    "power_usage_summary_title": "Battery", "storage_settings": "Storage", "sound_settings": "Sound & vibration",
    "display_settings": DISPLAY_TITLE, "accessibility_settings": "Accessibility",
    "security_settings_title": "Security", "privacy_dashboard_title": "Privacy", "location_settings_title": "Location",
    "emergency_settings_preference_title": "Safety & emergency", "account_dashboard_title": "Passwords & accounts",
    "header_category_system": "System", "about_settings": "About phone", "provider_internet_settings": INTERNET,
    "tether_settings_title_all": "Hotspot & tethering", "data_saver_title": "Data Saver",
    "vpn_settings_title": "VPN", "wifi_configure_settings_preference_title": "Network preferences",
    "wifi_saved_access_points_label": "Saved networks", "non_carrier_data_usage": "Non-carrier data usage",
    "bluetooth_pairing_pref_title": PAIR_NEW_DEVICE, "connected_device_connections_title":
    CONNECTION_PREFERENCES_TITLE, "bluetooth_settings_title": BLUETOOTH, "wifi_display_settings_title": "Cast",
    "print_settings": "Printing", "lockscreen_settings_title": "Lock screen", "screen_timeout": "Screen timeout",
    "dark_ui_mode": "Dark theme", "accessibility_text_reading_options_title": "Display size and text",
    "night_display_title": "Night Light", "accelerometer_title": "Auto-rotate screen",
    "screensaver_settings_title": "Screen saver", "auto_brightness_title": ADAPTIVE_BRIGHTNESS,
}
_RESOURCE_OF = {title: name for name, title in TITLE_RESOURCES.items()}
_TITLE, _SUMMARY, _BIG_TITLE = 45, 37, 95  # 17sp list item, 14sp summary, the collapsing toolbar's title (px)


def _id(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


# ----- preference widgets ------------------------------------------------------------------------------------
def _preference(title: str, summary: str = "", on_click: Callable[[], None] | None = None, icon: str = "",
                widget: View | None = None) -> View:
    """A preference row (``homepage_preference.xml``/``preference_material.xml``): icon frame, title over
    summary, widget frame; the whole row is the touch target."""
    texts = [text_view(title, resource_id="android:id/title", text_size=_TITLE, padding=0)]
    if summary:
        texts.append(text_view(summary, resource_id="android:id/summary", text_size=_SUMMARY, padding=0,
                               text_color=TEXT_SECONDARY))
    children = []
    if icon:
        children.append(group("row", "android.widget.LinearLayout",
                              View(kind="icon", class_name="android.widget.ImageView", resource_id="android:id/icon",
                                   hint=icon, width=92, height=92, text_color=PRIMARY),
                              resource_id=_id("icon_frame"), width=150, padding=29))
    children.append(group("column", "android.widget.RelativeLayout", *texts, weight=1, padding=42))
    if widget is not None:
        children.append(group("row", "android.widget.LinearLayout", widget, resource_id="android:id/widget_frame",
                              width=(widget.width or 0) + 42))
    clickable = on_click is not None
    return group("row", "android.widget.LinearLayout", *children, clickable=clickable, focusable=clickable,
                 on_click=on_click, padding=0 if icon else 21)


def _switch_preference(title: str, checked: bool, on_toggle: Callable[[bool], None], icon: str = "") -> View:
    """A ``SwitchPreference``: the row toggles; its ``android:id/switch_widget`` is not a touch target."""
    return _preference(title, on_click=lambda: on_toggle(not checked), icon=icon,
                       widget=toggle(checked, resource_id="android:id/switch_widget"))


def _main_switch_bar(title: str, checked: bool, on_toggle: Callable[[bool], None]) -> View:
    """``MainSwitchBar``: the page's on/off bar (``switch_text`` and ``switch_widget``)."""
    return group("row", "android.widget.LinearLayout",
                 text_view(title, resource_id=_id("switch_text"), text_size=50, weight=1, padding=0),
                 toggle(checked, resource_id=_id("switch_widget")),
                 clickable=True, focusable=True, on_click=lambda: on_toggle(not checked), padding=52,
                 background=(211, 227, 253) if checked else (225, 227, 230))


def _category(title: str) -> View:
    """A ``PreferenceCategory`` header."""
    return text_view(title, resource_id="android:id/title", text_size=37, text_color=PRIMARY, padding=42)


def _footer(text: str) -> View:
    """A ``FooterPreference``: an info text at the end of the page."""
    return group("column", "android.widget.LinearLayout",
                 text_view(text, resource_id="android:id/title", text_size=_SUMMARY, text_color=TEXT_SECONDARY,
                           padding=0), padding=42)


def _percent(fraction: float) -> str:
    """``NumberFormat.getPercentInstance().format``: a whole percentage, ties to even."""
    return f"{round(fraction * 100)}%"


# ----- screens -----------------------------------------------------------------------------------------------
class SettingsHomepage(Screen):
    """``homepage.SettingsHomepageActivity`` as launched by the launcher alias ``Settings``: the title, the
    search bar and the top-level entries (``top_level_settings.xml``), in one scrolling view."""

    activity = f"{PACKAGE}.Settings"
    LIST = "main_content_scrollable_container"

    def shown(self) -> tuple[tuple[str, str, str, str], ...]:
        """What the homepage shows (the rest is fixed): (title, summary, fragment, icon) of the visible top-level
        entries, in ``android:order``."""
        model = self.phone.props.get("ro.product.model", "")
        return (
            (NETWORK_AND_INTERNET, "Mobile, Wi‑Fi, hotspot", NETWORK_DASHBOARD, "wifi"),
            (CONNECTED_DEVICES_TITLE, "Bluetooth, pairing", CONNECTED_DEVICES, "devices"),
            ("Apps", "Assistant, recent apps, default apps", f"{PACKAGE}.applications.AppDashboardFragment", "apps"),
            ("Notifications", "Notification history, conversations",
             f"{PACKAGE}.notification.ConfigureNotificationSettings", "notifications"),
            ("Battery", "100%", f"{PACKAGE}.fuelgauge.batteryusage.PowerUsageSummary", "battery"),
            ("Storage", "", f"{PACKAGE}.deviceinfo.StorageDashboardFragment", "storage"),
            ("Sound & vibration", "Volume, haptics, Do Not Disturb", f"{PACKAGE}.notification.SoundSettings",
             "sound"),
            (DISPLAY_TITLE, "Dark theme, font size, brightness", DISPLAY, "display"),
            ("Accessibility", "Display, interaction, audio", f"{PACKAGE}.accessibility.AccessibilitySettings",
             "accessibility"),
            ("Security", "Screen lock, Find My Device, app security", f"{PACKAGE}.security.SecuritySettings",
             "security"),
            ("Privacy", "Permissions, account activity, personal data",
             f"{PACKAGE}.privacy.PrivacyDashboardFragment", "privacy"),
            ("Location", "", f"{PACKAGE}.location.LocationSettings", "location"),
            ("Safety & emergency", "Emergency SOS, medical info, alerts",
             f"{PACKAGE}.emergency.EmergencyDashboardFragment", "emergency"),
            ("Passwords & accounts", "", f"{PACKAGE}.accounts.AccountDashboardFragment", "accounts"),
            ("System", "Languages, gestures, time, backup", f"{PACKAGE}.system.SystemDashboardFragment", "system"),
            ("About phone", model, f"{PACKAGE}.deviceinfo.aboutphone.MyDeviceInfoFragment", "info"),
        )

    def build(self) -> View:
        # search_bar.xml: the card search_bar_margin (16 dp) from the screen's sides, its Toolbar search_bar_height
        # (52 dp) tall and pill-shaped (search_bar_corner_radius 28 dp), the search icon in the navigation button,
        # the title search_bar_content_inset (56 dp) from the card's start in TextAppearance.SearchBar (20 sp)
        search = group("frame", "android.widget.FrameLayout",
                       group("row", "android.view.ViewGroup",
                             View(kind="icon", class_name="android.widget.ImageButton", hint="search",
                                  width=_SEARCH_INSET, height=_SEARCH_HEIGHT, text_color=TEXT_SECONDARY),
                             text_view(SEARCH_SETTINGS, resource_id=_id("search_action_bar_title"),
                                       text_size=_SEARCH_TEXT, text_color=TEXT_SECONDARY, padding=0, weight=1),
                             resource_id=_id("search_action_bar"), clickable=True, focusable=True,
                             height=_SEARCH_HEIGHT, background=(232, 234, 237), corner=_SEARCH_HEIGHT // 2),
                       resource_id=_id("search_bar"), padding=_SEARCH_MARGIN)
        header = group("column", "android.widget.LinearLayout",
                       text_view(SETTINGS, resource_id=_id("homepage_title"), text_size=84, padding=42), search,
                       resource_id=_id("app_bar"))
        rows = [_preference(title, summary, lambda f=fragment, t=title: open_page(self, f, t), icon=icon)
                for title, summary, fragment, icon in self.shown()]
        return group("list", "android.widget.ScrollView", header, *rows, key=self.LIST, scrollable=True,
                     focusable=True, resource_id=_id(self.LIST))


class SettingsHomepageActivity(SettingsHomepage):
    """The homepage activity itself, as ``android.settings.SETTINGS`` starts it."""

    activity = f"{PACKAGE}.homepage.SettingsHomepageActivity"


class SubSettings(Screen):
    """``SubSettings``: hosts the fragment named by ``:settings:show_fragment`` under a collapsing toolbar
    (Navigate up, the page title) with the preferences in ``recycler_view``."""

    activity = f"{PACKAGE}.SubSettings"
    #: The fragment a ``Settings$…Activity`` subclass always shows.
    FRAGMENT: ClassVar[str] = ""

    def __init__(self, app: App, intent: Intent) -> None:
        super().__init__(app, intent)
        self.fragment = intent.extras.get(EXTRA_SHOW_FRAGMENT) or self.FRAGMENT
        # SettingsActivity: the title resource id first, else the title string the caller sent (data, as typed)
        self.title = (TITLE_RESOURCES.get(intent.extras.get(EXTRA_SHOW_FRAGMENT_TITLE_RESID, ""))
                      or intent.extras.get(EXTRA_SHOW_FRAGMENT_TITLE, ""))

    def build(self) -> View:
        title, page = PAGES.get(self.fragment, (self.title, None))
        toolbar = group("column", "android.widget.FrameLayout",
                        group("row", "android.view.ViewGroup",
                              image_button(NAVIGATE_UP, "arrow_back", self.finish, text_color=TEXT),
                              resource_id=_id("action_bar"), height=168),
                        View(kind="label", hint=title, text_size=_BIG_TITLE, height=260, padding=52),
                        resource_id=_id("collapsing_toolbar"), content_desc=title)
        items = page(self) if page is not None else []
        return group("column", "android.widget.LinearLayout", toolbar,
                     group("list", "androidx.recyclerview.widget.RecyclerView", *items, key="recycler_view",
                           scrollable=True, focusable=True, resource_id=_id("recycler_view"), weight=1))


def open_page(screen: Screen, fragment: str, title: str) -> None:
    """``SubSettingLauncher.launch``: show ``fragment`` in a new ``SubSettings`` on top of ``screen``, titled by
    the resource ``title`` is (``setTitleRes``)."""
    screen.start(SubSettings, Intent(component=f"{PACKAGE}/{SubSettings.activity}",
                                     extras={EXTRA_SHOW_FRAGMENT: fragment,
                                             EXTRA_SHOW_FRAGMENT_TITLE_RESID: _RESOURCE_OF[title]}))


def _link(screen: Screen, title: str, fragment: str, summary: str = "", icon: str = "") -> View:
    """A row that opens another page."""
    return _preference(title, summary, lambda: open_page(screen, fragment, title), icon=icon)


# ----- pages -------------------------------------------------------------------------------------------------
def _network_dashboard(screen: Screen) -> list[View]:
    """``network_provider_internet.xml``: Internet (its summary the connected network), then the rest."""
    wifi = radios.wifi_enabled(screen.phone)
    return [_link(screen, INTERNET, INTERNET_PAGE, EMULATOR_SSID if wifi else "", icon="wifi"),
            _link(screen, "Hotspot & tethering", f"{PACKAGE}.TetherSettings", icon="hotspot"),
            _link(screen, "Data Saver", f"{PACKAGE}.datausage.DataSaverSummary", "Off", icon="data_usage"),
            _link(screen, "VPN", f"{PACKAGE}.vpn2.VpnSettings", "None", icon="vpn")]


def _internet(screen: Screen) -> list[View]:
    """``network_provider_settings.xml``: the Wi-Fi toggle, the connected network, Wi-Fi preferences."""
    phone = screen.phone
    wifi = radios.wifi_enabled(phone)
    items = [_switch_preference(WIFI, wifi, lambda on: radios.set_wifi(phone, on))]
    if wifi:
        items.append(_preference(EMULATOR_SSID, CONNECTED, icon="wifi"))
    items += [_link(screen, "Network preferences", f"{PACKAGE}.wifi.ConfigureWifiSettings"),
              _link(screen, "Saved networks", f"{PACKAGE}.wifi.savedaccesspoints2.SavedAccessPointsWifiSettings2"),
              _link(screen, "Non-carrier data usage", f"{PACKAGE}.datausage.DataUsageList")]
    if not wifi:
        items.append(_footer(WIFI_OFF_FOOTER))
    return items


def _connected_devices(screen: Screen) -> list[View]:
    """``connected_devices.xml``: Pair new device (``AddDevicePreferenceController``'s summary while Bluetooth is
    off) and Connection preferences (``AdvancedConnectedDeviceController``: no NFC, no driving mode)."""
    bluetooth = radios.bluetooth_enabled(screen.phone)
    return [_link(screen, PAIR_NEW_DEVICE, f"{PACKAGE}.bluetooth.BluetoothPairingDetail",
                  "" if bluetooth else BLUETOOTH_WILL_TURN_ON, icon="plus"),
            _link(screen, CONNECTION_PREFERENCES_TITLE, CONNECTION_PREFERENCES, "Bluetooth")]


def _connection_preferences(screen: Screen) -> list[View]:
    """``connected_devices_advanced.xml``: Bluetooth, Cast, Printing (NFC is unavailable on the emulator)."""
    return [_link(screen, BLUETOOTH, BLUETOOTH_PAGE, icon="bt"),
            _link(screen, "Cast", f"{PACKAGE}.wfd.WifiDisplaySettings", icon="cast"),
            _link(screen, "Printing", f"{PACKAGE}.print.PrintSettingsFragment", icon="print")]


def _bluetooth(screen: Screen) -> list[View]:
    """``BluetoothDashboardFragment``: the "Use Bluetooth" bar, the device name while on, Pair new device, and
    the footer ``BluetoothSwitchPreferenceController.updateText`` picks."""
    phone = screen.phone
    bluetooth = radios.bluetooth_enabled(phone)
    items = [_main_switch_bar(USE_BLUETOOTH, bluetooth, lambda on: radios.set_bluetooth(phone, on))]
    if bluetooth:
        items.append(_preference(DEVICE_NAME, phone.props.get("ro.product.model", ""), does_nothing))
    items.append(_link(screen, PAIR_NEW_DEVICE, f"{PACKAGE}.bluetooth.BluetoothPairingDetail",
                       "" if bluetooth else BLUETOOTH_WILL_TURN_ON, icon="plus"))
    scanning = phone.settings.get("global", "ble_scan_always_enabled") == "1"
    items.append(_footer(BLUETOOTH_SCANNING_FOOTER if scanning and not bluetooth else BLUETOOTH_FOOTER))
    return items


def _display(screen: Screen) -> list[View]:
    """``display_settings.xml``: Brightness level (the slider position as a percentage; it opens SystemUI's
    brightness dialog), Adaptive brightness (``screen_brightness_mode``), then the other display settings."""
    phone = screen.phone
    automatic = phone.settings.get("system", "screen_brightness_mode") == "1"

    def set_automatic(on: bool) -> None:
        phone.settings.put("system", "screen_brightness_mode", "1" if on else "0")
        phone.invalidate()

    return [
        _category("Brightness"),
        _preference(BRIGHTNESS_LEVEL, _percent(brightness_position(phone) / GAMMA_SPACE_MAX),
                    lambda: phone.run(f"am start -a {shlex.quote(SHOW_BRIGHTNESS_DIALOG)}")),
        _preference(ADAPTIVE_BRIGHTNESS, on_click=lambda: open_page(screen, AUTO_BRIGHTNESS, ADAPTIVE_BRIGHTNESS),
                    widget=toggle(automatic, resource_id=_id("switchWidget"),
                                  on_click=lambda: set_automatic(not automatic))),
        _category("Lock display"),
        _link(screen, "Lock screen", f"{PACKAGE}.security.LockscreenDashboardFragment"),
        _link(screen, "Screen timeout", f"{PACKAGE}.display.ScreenTimeoutSettings"),
        _category("Appearance"),
        _link(screen, "Dark theme", f"{PACKAGE}.display.darkmode.DarkModeSettingsFragment"),
        _link(screen, "Display size and text", f"{PACKAGE}.accessibility.TextReadingPreferenceFragment"),
        _category("Color"),
        _link(screen, "Night Light", f"{PACKAGE}.display.NightDisplaySettings"),
        _category("Other display controls"),
        _link(screen, "Auto-rotate screen", f"{PACKAGE}.display.SmartAutoRotatePreferenceFragment"),
        _link(screen, "Screen saver", f"{PACKAGE}.dream.DreamSettings"),
    ]


def _auto_brightness(screen: Screen) -> list[View]:
    """``auto_brightness_detail.xml``: the "Use adaptive brightness" bar and its description."""
    phone = screen.phone
    automatic = phone.settings.get("system", "screen_brightness_mode") == "1"

    def set_automatic(on: bool) -> None:
        phone.settings.put("system", "screen_brightness_mode", "1" if on else "0")
        phone.invalidate()

    return [_main_switch_bar(USE_ADAPTIVE_BRIGHTNESS, automatic, set_automatic), _footer(ADAPTIVE_BRIGHTNESS_FOOTER)]


#: Simulated fragments: class name → (page title, its preferences).
PAGES: dict[str, tuple[str, Callable[[Screen], list[View]]]] = {
    NETWORK_DASHBOARD: (NETWORK_AND_INTERNET, _network_dashboard),
    INTERNET_PAGE: (INTERNET, _internet),
    CONNECTED_DEVICES: (CONNECTED_DEVICES_TITLE, _connected_devices),
    CONNECTION_PREFERENCES: (CONNECTION_PREFERENCES_TITLE, _connection_preferences),
    BLUETOOTH_PAGE: (BLUETOOTH, _bluetooth),
    DISPLAY: (DISPLAY_TITLE, _display),
    AUTO_BRIGHTNESS: (ADAPTIVE_BRIGHTNESS, _auto_brightness),
}


def _settings_activity(name: str, fragment: str) -> type[SubSettings]:
    """A ``Settings$…Activity``: the ``SettingsActivity`` subclass whose ``FRAGMENT_CLASS`` meta-data is
    ``fragment``."""
    return type(name.rpartition("$")[2], (SubSettings,),
                {"activity": f"{PACKAGE}.{name}", "FRAGMENT": fragment, "__doc__": f"``{name}``: {fragment}."})


#: Intent actions → activities (the manifest's intent filters; Android 13 sends ``BLUETOOTH_SETTINGS`` to
#: Connected devices).
ACTIONS: dict[str, type[Screen]] = {
    "android.settings.SETTINGS": SettingsHomepageActivity,
    "android.settings.WIRELESS_SETTINGS": _settings_activity("Settings$NetworkDashboardActivity", NETWORK_DASHBOARD),
    "android.settings.WIFI_SETTINGS": _settings_activity("Settings$WifiSettingsActivity", INTERNET_PAGE),
    "android.settings.NETWORK_PROVIDER_SETTINGS": _settings_activity("Settings$NetworkProviderSettingsActivity",
                                                                     INTERNET_PAGE),
    "android.settings.BLUETOOTH_SETTINGS": _settings_activity("Settings$ConnectedDeviceDashboardActivity",
                                                              CONNECTED_DEVICES),
    "com.android.settings.ADVANCED_CONNECTED_DEVICE_SETTINGS": _settings_activity(
        "Settings$AdvancedConnectedDeviceActivity", CONNECTION_PREFERENCES),
    "android.settings.DISPLAY_SETTINGS": _settings_activity("Settings$DisplaySettingsActivity", DISPLAY),
}


class SettingsApp(App):
    """``com.android.settings``; the launcher alias ``Settings`` opens the homepage."""

    package = PACKAGE
    night_colors = MATERIAL_YOU_NIGHT  # Settings (SettingsLib) is on the DeviceDefault DayNight theme
    label = SETTINGS
    icon, icon_color = "app_settings", (95, 99, 104)
    screens = (SettingsHomepage, SubSettings, *ACTIONS.values())
    # The Settings$…Activity filters of AndroidManifest.xml: each one's android.settings.* action.
    intent_filters = (*App.intent_filters, IntentFilter(tuple(ACTIONS), (CATEGORY_DEFAULT,)))

    def resolve(self, intent: Intent) -> type[Screen] | None:
        """``MAIN`` opens the homepage; the ``android.settings.*`` actions of ``ACTIONS`` their pages."""
        return ACTIONS.get(intent.action) or super().resolve(intent)
