"""The three settings namespaces of Android's SettingsProvider (``SETTINGS_NAMESPACES``), as strings keyed by name."""

from __future__ import annotations

from collections.abc import Collection

from android_gym.device.base import SETTINGS_NAMESPACES

# Values a fresh API-33 emulator image reports (``settings list <ns>`` on a Pixel 6 AVD).
_DEFAULTS: dict[str, dict[str, str]] = {
    "global": {
        "airplane_mode_on": "0",
        "auto_time": "1",
        "auto_time_zone": "1",
        "bluetooth_on": "1",
        "wifi_on": "1",
        "mobile_data": "1",
        "device_provisioned": "1",
        "window_animation_scale": "1.0",
        "transition_animation_scale": "1.0",
        "animator_duration_scale": "1.0",
    },
    "system": {
        "accelerometer_rotation": "0",
        "user_rotation": "0",
        "screen_brightness": "102",
        "screen_brightness_mode": "0",
        "screen_off_timeout": "60000",
        "font_scale": "1.0",
    },
    "secure": {
        "default_input_method": "com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME",
        "location_mode": "3",
        "user_setup_complete": "1",
        "zen_duration": "0",
    },
}


class Settings:
    """``settings get|put|delete|list`` storage: missing keys read as ``None`` (printed ``null``)."""

    def __init__(self) -> None:
        self._values = {namespace: dict(_DEFAULTS[namespace]) for namespace in SETTINGS_NAMESPACES}

    def get(self, namespace: str, key: str) -> str | None:
        """Value of ``key`` or ``None``."""
        return self._values[namespace].get(key)

    def put(self, namespace: str, key: str, value: str) -> bool:
        """Store ``value`` under ``key``; whether that changed it."""
        values, value = self._values[namespace], str(value)
        changed = values.get(key) != value
        values[key] = value
        return changed

    def delete(self, namespace: str, key: str) -> bool:
        """Remove ``key``; whether it existed."""
        return self._values[namespace].pop(key, None) is not None

    def saved(self) -> dict[str, dict[str, str]]:
        """Every namespace's values as they are now, for ``restore``."""
        return {namespace: dict(values) for namespace, values in self._values.items()}

    def restore(self, since: dict[str, dict[str, str]], saved: dict[str, dict[str, str]],
                keep: Collection[tuple[str, str]] = ()) -> bool:
        """Give each key whose value is no longer the one in ``since`` (``saved`` values) the value it has in
        ``saved`` (deleted if it has none there), but the ``(namespace, key)`` pairs of ``keep``; whether anything
        changed."""
        changed = False
        for namespace, values in self._values.items():
            before = since[namespace]
            if values == before:
                continue
            for key in values.keys() ^ before.keys() | {key for key in values if values[key] != before.get(key)}:
                if (namespace, key) in keep:
                    continue
                value = saved[namespace].get(key)
                if values.get(key) != value:
                    changed = True
                    if value is None:
                        del values[key]
                    else:
                        values[key] = value
        return changed

    def items(self, namespace: str) -> list[tuple[str, str]]:
        """All ``(key, value)`` pairs of a namespace, sorted by key as ``settings list`` prints them."""
        return sorted(self._values[namespace].items())
