"""Turning the radios on and off, as the system services record it in the ``global`` settings.

One place for every path that toggles a radio: ``svc``/``cmd`` on the shell, the Settings app's switches and the
quick-settings tiles. Wi-Fi on is ``global wifi_on`` (``WifiSettingsStore.handleWifiToggled``: 0 off, 1 on, 2 on
while in airplane mode), Bluetooth ``global bluetooth_on`` (``BluetoothManagerService.persistBluetoothSetting``:
0 off, 1 on, 2 on in airplane mode), airplane mode ``global airplane_mode_on``, mobile data ``global mobile_data``
(``TelephonyManager.setDataEnabled``'s setting for the one SIM: 0 off, 1 on).
"""

from __future__ import annotations

from android_gym.sim.system.services import SystemServices


def _radio_value(phone: SystemServices, enabled: bool) -> str:
    """``1`` on, ``2`` on while airplane mode is on, ``0`` off."""
    return ("2" if airplane_mode(phone) else "1") if enabled else "0"


def wifi_enabled(phone: SystemServices) -> bool:
    """Whether Wi-Fi is on (``WifiManager.isWifiEnabled``: ``wifi_on`` is 1 or 2)."""
    return phone.settings.get("global", "wifi_on") in ("1", "2")


def bluetooth_enabled(phone: SystemServices) -> bool:
    """Whether Bluetooth is on (``bluetooth_on`` is 1 or 2)."""
    return phone.settings.get("global", "bluetooth_on") in ("1", "2")


def set_wifi(phone: SystemServices, enabled: bool) -> None:
    """Turn Wi-Fi on or off as ``WifiSettingsStore.handleWifiToggled`` records it."""
    phone.settings.put("global", "wifi_on", _radio_value(phone, enabled))
    phone.invalidate()


def set_bluetooth(phone: SystemServices, enabled: bool) -> None:
    """Turn Bluetooth on or off as ``BluetoothManagerService.persistBluetoothSetting`` records it."""
    phone.settings.put("global", "bluetooth_on", _radio_value(phone, enabled))
    phone.invalidate()


def airplane_mode(phone: SystemServices) -> bool:
    """Whether airplane mode is on."""
    return phone.settings.get("global", "airplane_mode_on") == "1"


def mobile_data_enabled(phone: SystemServices) -> bool:
    """Whether mobile data is on (``TelephonyManager.isDataEnabled``: ``mobile_data`` is not 0)."""
    return phone.settings.get("global", "mobile_data") != "0"


def set_mobile_data(phone: SystemServices, enabled: bool) -> None:
    """Turn mobile data on or off (``svc data``, the Internet dialog's switch)."""
    phone.settings.put("global", "mobile_data", "1" if enabled else "0")
    phone.invalidate()


def set_airplane_mode(phone: SystemServices, enabled: bool) -> None:
    """``cmd connectivity airplane-mode enable|disable``."""
    phone.settings.put("global", "airplane_mode_on", "1" if enabled else "0")
    phone.invalidate()
