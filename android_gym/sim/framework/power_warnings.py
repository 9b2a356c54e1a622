"""SystemUI's low-battery warning (``PowerUI`` and ``PowerNotificationWarnings`` of Android 13): when the battery,
unplugged, drops into the warning bucket (at or below ``config_lowBatteryWarningLevel``), an ongoing notification
on the high-importance "Battery" channel peeks over the app: "Turn on Battery Saver?" with "No thanks" and "Turn on".
A charger, a level back above the threshold (``dumpsys battery reset``) or "No thanks" take it away.

Sources: AOSP ``packages/SystemUI/src/com/android/systemui/power/PowerUI.java`` (``findBatteryLevelBucket``,
``shouldShowLowBatteryWarning``: unplugged, and the bucket dropped or the charger was pulled),
``PowerNotificationWarnings.java`` (``showWarningNotification``: tag ``low_battery``, id ``NOTE_POWER_LOW`` = 3,
ongoing, app name overridden to "Settings" by ``overrideNotificationAppName(..., false)``), SystemUI
``strings.xml`` (``battery_low_title``, ``battery_low_description``, ``battery_saver_dismiss_action``,
``battery_saver_start_action``), core ``config.xml`` (``config_lowBatteryWarningLevel`` 20),
``NotificationChannels.BATTERY`` (``IMPORTANCE_MAX``).

Simplified: "Turn on" switches Battery Saver on at once (``global low_power``), without the confirmation dialog.
"""

from __future__ import annotations

from android_gym.sim.framework.locale import SystemLocale
from android_gym.sim.framework.notifications import Notification, NotificationAction, NotificationManager
from android_gym.sim.system.battery import Battery, BatteryState
from android_gym.sim.system.settings import Settings

WARNING_LEVEL = 20  # config_lowBatteryWarningLevel
TAG, NOTIFICATION_ID = "low_battery", 3  # PowerNotificationWarnings.TAG_BATTERY, SystemMessage.NOTE_POWER_LOW
IMPORTANCE_MAX = 5
TITLE = "Turn on Battery Saver?"  # battery_low_title
DESCRIPTION = ("You have {} battery left. Battery Saver turns on Dark theme, restricts background activity, and "
               "delays notifications.")  # battery_low_description, with the warning level as a percentage
NO_THANKS, TURN_ON = "No thanks", "Turn on"  # battery_saver_dismiss_action, battery_saver_start_action
_ERROR_RED = (179, 38, 30)  # colorError


class PowerWarnings:
    """Watches the battery and posts or cancels the low-battery warning."""

    def __init__(self, battery: Battery, notifications: NotificationManager, settings: Settings,
                 package: str, locale: SystemLocale) -> None:
        self._notifications = notifications
        self._locale = locale
        self._settings = settings
        self._package = package
        self._bucket, self._plugged = _bucket(battery.state.level), battery.state.plugged
        battery.listen(self._changed)

    def _changed(self, state: BatteryState) -> None:
        """``PowerUI``'s ``ACTION_BATTERY_CHANGED`` receiver: the warning shows when, unplugged, the bucket dropped
        or the charger was just pulled."""
        old, was_plugged = self._bucket, self._plugged
        self._bucket, self._plugged = _bucket(state.level), state.plugged
        if not state.plugged and (self._bucket < old or was_plugged) and self._bucket < 0:
            self._show()
        elif state.plugged or self._bucket >= 0:
            self._dismiss()

    def _show(self) -> None:
        text = self._locale.string(DESCRIPTION, self._package).format(f"{WARNING_LEVEL}%")
        self._notifications.post(Notification(
            package=self._package, app_name="Settings", tag=TAG, id=NOTIFICATION_ID, title=TITLE,
            text=text, icon="battery_low", importance=IMPORTANCE_MAX,
            ongoing=True, color=_ERROR_RED,
            actions=(NotificationAction(NO_THANKS, self._dismiss), NotificationAction(TURN_ON, self._turn_on))))

    def _dismiss(self) -> None:
        self._notifications.cancel(self._package, TAG, NOTIFICATION_ID)

    def _turn_on(self) -> None:
        self._settings.put("global", "low_power", "1")
        self._dismiss()


def _bucket(level: int) -> int:
    """``PowerUI.findBatteryLevelBucket``: 0 above the warning level, -1 at or below it."""
    return 0 if level > WARNING_LEVEL else -1
