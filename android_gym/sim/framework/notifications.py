"""Notifications: ``NotificationManagerService``'s list of posted notifications, and how SystemUI shows them — an
icon in the status bar, a row in the shade (swiped away, or gone with "Clear all"), and a heads-up over the app for
``HEADS_UP_MS`` of device time when the channel's importance is high (``IMPORTANCE_HIGH`` or above).

Part of the app framework (``sim/framework``): the window manager owns the manager, draws the heads-up window and
the status-bar icons, and the shade lists the rows.

Sources: AOSP ``NotificationManagerService`` (keys ``user|package|id|tag|uid``, ``cancelAllLocked`` leaves
ongoing notifications), SystemUI ``HeadsUpManager`` (``R.integer.heads_up_notification_decay``: 5000 ms),
``NotificationInterruptStateProviderImpl`` (a heads-up needs importance high), ``StatusBarIconView``
(content description "<app> notification: <title>"), ``ExpandableNotificationRow`` and
``notification_template_header.xml`` / ``notification_template_material_base.xml`` (``android:id/app_name_text``,
``title``, ``text``, ``actions``) and ``status_bar_notification_footer.xml`` (``dismiss_text``, "Clear all").

Simplified: rows are never grouped or expanded; touching a row does nothing (notifications posted here have no
content intent); only action buttons act.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from android_gym.sim.framework.locale import SystemLocale
from android_gym.sim.system.clock import VirtualClock
from android_gym.sim.ui.views import (
    TEXT,
    TEXT_SECONDARY,
    WHITE,
    Color,
    View,
    column,
    does_nothing,
    row,
    text_view,
)

SYSTEMUI = "com.android.systemui"
#: ``R.integer.heads_up_notification_decay``: how long a heads-up stays up.
HEADS_UP_MS = 5000
#: ``NotificationManager.IMPORTANCE_DEFAULT`` / ``IMPORTANCE_HIGH``.
IMPORTANCE_DEFAULT, IMPORTANCE_HIGH = 3, 4
CLEAR_ALL = "Clear all"  # SystemUI clear_all_notifications_text
ICON_DESCRIPTION = "{} notification: {}"  # SystemUI accessibility_desc_notification_icon: app name, title
ROW_ID = f"{SYSTEMUI}:id/expandableNotificationRow"
CLEAR_ALL_ID = f"{SYSTEMUI}:id/dismiss_text"
_CARD, _CORNER, _ACTION_INK = WHITE, 63, (11, 87, 208)  # notification_corner_radius 24 dp; colorAccent


@dataclass(frozen=True)
class NotificationAction:
    """A button under the notification (``Notification.Action``): its title and what it does."""

    title: str
    on_click: Callable[[], None]


@dataclass(frozen=True)
class Notification:
    """One posted notification (``StatusBarNotification``)."""

    package: str
    app_name: str
    tag: str
    id: int
    title: str
    text: str
    icon: str  # an icon name (``ui.icons``): the small icon
    importance: int = IMPORTANCE_DEFAULT
    ongoing: bool = False
    color: Color = TEXT_SECONDARY
    actions: tuple[NotificationAction, ...] = ()

    @property
    def key(self) -> str:
        """``StatusBarNotification.getKey`` without the uid: ``0|package|id|tag``."""
        return f"0|{self.package}|{self.id}|{self.tag}"


class NotificationManager:
    """The posted notifications (newest last) and the one shown heads-up, if any."""

    def __init__(self, clock: VirtualClock, invalidate: Callable[[], None], locale: SystemLocale) -> None:
        self._clock = clock
        self._locale = locale
        self._invalidate = invalidate
        self._posted: dict[str, Notification] = {}
        self._heads_up: tuple[str, int] | None = None  # key, device time it goes

    @property
    def active(self) -> list[Notification]:
        """The notifications in the shade, newest first."""
        return list(reversed(self._posted.values()))

    def post(self, notification: Notification) -> None:
        """``enqueueNotificationWithTag``: add or update; a high-importance one peeks as a heads-up."""
        self._posted.pop(notification.key, None)
        self._posted[notification.key] = notification
        if notification.importance >= IMPORTANCE_HIGH:
            self._heads_up = notification.key, self._clock.now_ms() + HEADS_UP_MS
        self._invalidate()

    def cancel(self, package: str, tag: str, notification_id: int) -> None:
        """``cancelNotificationWithTag``."""
        self._remove(f"0|{package}|{notification_id}|{tag}")

    def dismiss(self, key: str) -> None:
        """The user swiped the notification away (ongoing ones stay)."""
        notification = self._posted.get(key)
        if notification is not None and not notification.ongoing:
            self._remove(key)

    def clear_all(self) -> None:
        """The shade's "Clear all": every notification that is not ongoing (``cancelAllLocked``)."""
        for key in [key for key, n in self._posted.items() if not n.ongoing]:
            self._remove(key)

    def cancel_package(self, package: str) -> None:
        """Every notification of ``package``, ongoing or not (the package was force-stopped)."""
        for key in [key for key, n in self._posted.items() if n.package == package]:
            self._remove(key)

    def hide_heads_up(self) -> None:
        """A swipe up on the heads-up: it goes into the shade (the notification stays posted)."""
        self._heads_up = None
        self._invalidate()

    def heads_up(self) -> Notification | None:
        """The notification peeking over the app now (read from the clock: the frame goes stale when it ends)."""
        if self._heads_up is None:
            return None
        key, until = self._heads_up
        if not self._clock.before(until) or key not in self._posted:
            self._heads_up = None
            return None
        return self._posted[key]

    def _remove(self, key: str) -> None:
        if self._posted.pop(key, None) is not None:
            if self._heads_up is not None and self._heads_up[0] == key:
                self._heads_up = None
            self._invalidate()

    # ----- views ---------------------------------------------------------------------------------------------
    def description(self, notification: Notification) -> str:
        """``StatusBarIconView.contentDescForNotification``: "<app> notification: <title>" in the system language
        (the app name and title translated only when they are resource strings, never a posted text)."""
        string = self._locale.string
        return string(ICON_DESCRIPTION, SYSTEMUI).format(string(notification.app_name, SYSTEMUI),
                                                         string(notification.title, SYSTEMUI))

    def status_icons(self, ink: Color) -> list[View]:
        """The status bar's notification icons, newest first (``NotificationIconContainer``)."""
        return [View(kind="icon", class_name="android.widget.ImageView", hint=n.icon, width=48, height=48,
                     content_desc=self.description(n), text_color=ink) for n in self.active]

    def row_view(self, notification: Notification, heads_up: bool = False) -> View:
        """An ``ExpandableNotificationRow``: header (icon, app name), title, text and action buttons; a sideways
        swipe dismisses it; an ongoing one stays, and its heads-up goes into the shade."""
        n = notification
        header = row(View(kind="icon", class_name="android.widget.ImageView", hint=n.icon, width=48, height=48,
                          resource_id="android:id/icon", text_color=n.color),
                     text_view(n.app_name, resource_id="android:id/app_name_text", text_size=32, padding=8,
                               text_color=TEXT_SECONDARY), spacing=16)
        children = [header, text_view(n.title, resource_id="android:id/title", text_size=42, bold=True, padding=4),
                    text_view(n.text, resource_id="android:id/text", text_size=37, padding=4,
                              text_color=TEXT_SECONDARY)]
        if n.actions:
            children.append(row(*[View(kind="button", class_name="android.widget.Button", text=action.title,
                                       clickable=True, focusable=True, on_click=action.on_click, text_size=37,
                                       text_color=_ACTION_INK, background=_CARD, padding=16, height=110)
                                  for action in n.actions], resource_id="android:id/actions", spacing=24))

        def fling(direction: str) -> None:
            if heads_up and n.ongoing:
                self.hide_heads_up()
            else:
                self.dismiss(n.key)

        return column(*children, resource_id=ROW_ID, content_desc=self.description(n),
                      clickable=True, focusable=True, on_click=does_nothing, on_fling=fling, padding=42,
                      background=_CARD, corner=_CORNER, elevation=21 if heads_up else 0)

    def shade_rows(self) -> list[View]:
        """The shade's notification rows, then the footer's "Clear all" when anything can be cleared."""
        rows = [self.row_view(n) for n in self.active]
        if any(not n.ongoing for n in self._posted.values()):
            rows.append(row(View(weight=1), View(kind="button", class_name="android.widget.Button", text=CLEAR_ALL,
                                                 resource_id=CLEAR_ALL_ID, clickable=True, focusable=True,
                                                 on_click=self.clear_all, text_size=37, text_color=TEXT,
                                                 background=WHITE, corner=50, padding=24, height=110)))
        return rows
