"""The home screen (Pixel Launcher): a grid with a shortcut for every installed app that has a launcher icon.

An app like the others (on Android the launcher is a replaceable APK): it marks itself ``home``, and the phone
hands the activity manager the installed home app for the bottom task."""

from __future__ import annotations

from android_gym.sim.framework.app import App, Screen
from android_gym.sim.system.clock import DAY_MS
from android_gym.sim.ui.views import View, app_icon, column, row, text_view

_COLUMNS = 4
_WALLPAPER = (225, 233, 246)  # a light wallpaper: Launcher3 then draws dark text (``isWorkspaceDarkText``)


class LauncherScreen(Screen):
    """``com.google.android.apps.nexuslauncher.NexusLauncherActivity``."""

    activity = "com.google.android.apps.nexuslauncher.NexusLauncherActivity"

    def build(self) -> View:
        apps = self.phone.packages.launchable()
        icons = [
            app_icon(app.label, app.icon, app.icon_color, (lambda app=app: self.phone.activities.launch(app)),
                     self._icon_long_click, width=270)
            for app in apps
        ]
        grid = [row(*icons[i:i + _COLUMNS]) for i in range(0, len(icons), _COLUMNS)]
        date = self.phone.clock.now(DAY_MS).strftime("%a, %b %-d")
        return column(
            text_view(date, content_desc=date, resource_id="com.google.android.apps.nexuslauncher:id/clock",
                      text_size=66, padding=60),
            column(*grid, resource_id="com.google.android.apps.nexuslauncher:id/workspace", weight=1),
            background=_WALLPAPER,
        )

    def _icon_long_click(self) -> None:
        """Launcher3 ``ItemLongClickListener.onWorkspaceItemLongClick``: the long press is consumed (a real
        launcher starts a drag and opens the shortcut popup, which this one does not draw); nothing launches."""


class Launcher(App):
    """The launcher package."""

    package = "com.google.android.apps.nexuslauncher"
    label = "Pixel Launcher"
    screens = (LauncherScreen,)
    launchable = False
    home = True

