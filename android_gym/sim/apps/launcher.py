"""The home screen (Pixel Launcher on Android 13): At a Glance's date at the top, a grid with a shortcut for every
installed app that has a launcher icon, the dock (hotseat) and the Google search bar at the bottom.

An app like the others (on Android the launcher is a replaceable APK): it marks itself ``home``, and the phone
hands the activity manager the installed home app for the bottom task.

The layout and ids follow real Pixel Launcher dumps (tests/fixtures/uiautomator/pixel_launcher_home_1080x1794.xml;
a 1080x2400 one: cells 252 px apart, the hotseat's icons without labels, the search pill 165 px tall, 930 wide).
A hotseat icon is a ``BubbleTextView`` whose label Launcher3 hides (``setTextVisibility(false)``), so its text is
still the app's name, as a dump shows it.

The grid follows Launcher3's ``device_profiles.xml`` for the display: four columns on a phone, the ``6_by_5``
grid (six columns between 54 dp margins) on a tablet (a smallest width of 600 dp or more,
``DisplayController.isTablet``); cells share the width, and where the rows do not fit the height the icons shrink
(``DeviceProfile.updateIconSize`` with a scale under 1).

Simplified: every launchable app sits on one home page (a real phone keeps most in the app drawer); the dock holds
the installed ones of the Pixel's default dock apps, with Contacts in the Phone app's place. Not simulated: the
search bar (the Google app is not installed; its views are shown, not clickable), At a Glance's weather, widgets,
more home pages.
"""

from __future__ import annotations

import functools
import math
from typing import NamedTuple

from android_gym.sim.framework import formats
from android_gym.sim.framework.app import App, AppInfo, Screen
from android_gym.sim.framework.intent import ACTION_MAIN, CATEGORY_DEFAULT, CATEGORY_HOME, Intent, IntentFilter
from android_gym.sim.framework.looks import MATERIAL_YOU_NIGHT
from android_gym.sim.framework.window import NAV_BAR_HEIGHT, STATUS_BAR_HEIGHT
from android_gym.sim.system.clock import DAY_MS, unit_start
from android_gym.sim.ui.kept_tree import KeptTree
from android_gym.sim.ui.views import (
    TEXT_SECONDARY,
    WHITE,
    Color,
    View,
    app_icon,
    column,
    does_nothing,
    frame,
    group,
    row,
    text_view,
)

_COLUMNS, _TABLET_COLUMNS = 4, 6  # a phone's grid; Launcher3's 6_by_5 for tablets
_TABLET_SMALLEST_DP = 600  # DisplayController.isTablet: smallest width in dp
_TABLET_MARGIN = 142  # 6_by_5's horizontalMargin: 54 dp at 420 dpi
_DP_PER_PX = 160 / 420  # dp per design px
_WALLPAPER = (225, 233, 246)  # a light wallpaper: Launcher3 then draws dark text (``isWorkspaceDarkText``)
_ID = "com.google.android.apps.nexuslauncher:id/"
#: The Pixel's default dock (Phone, Messages, Chrome, Camera) as this phone has it.
_HOTSEAT = ("com.google.android.contacts", "com.simplemobiletools.smsmessenger", "com.android.chrome",
            "com.android.camera2")
_CELL_HEIGHT = 260  # an icon with its label
_GLANCE_HEIGHT, _DOCK_HEIGHT = 260, 190
#: At a Glance's date, the skeleton "EEEMMMd" in the system locale ("Sun, Oct 15"; "So., 15. Okt." in German).
_GLANCE_DATE = "EEEMMMd"
_SEARCH_WIDTH, _SEARCH_HEIGHT, _SEARCH_ICON = 930, 165, 126  # the pill and its 48 dp icons (real dumps)
_SEARCH_ICON_COLOR, _GOOGLE_BLUE = (68, 71, 70), (66, 133, 244)


class Shortcut(NamedTuple):
    """What the home screen shows of an app with a launcher icon."""

    package: str
    label: str
    icon: str
    icon_color: Color


class LauncherScreen(Screen):
    """``com.google.android.apps.nexuslauncher.NexusLauncherActivity``."""

    activity = "com.google.android.apps.nexuslauncher.NexusLauncherActivity"
    shows_app_data = False  # the installed apps, the date and the system bars: no app's data, no running task

    def __init__(self, app: App, intent: Intent) -> None:
        super().__init__(app, intent)
        self._home_tree = KeptTree()
        self._shortcuts: tuple[tuple[AppInfo, ...], tuple[Shortcut, ...]] | None = None  # ``_apps``, of these apps

    def shown(self) -> tuple[tuple[Shortcut, ...], int, int, str]:
        """What the home screen shows: the apps' shortcuts, the screen's size and the date (in the system language)."""
        apps = self._apps()
        width, height = self.phone.window.design_width, self.phone.window.design_height
        return apps, width, height, _glance_date(self.phone.clock.units(DAY_MS), formats.system_tag(self.phone))

    def _apps(self) -> tuple[Shortcut, ...]:
        """The shortcuts of the apps with a launcher icon, made again only when those changed."""
        infos = self.phone.packages.launchable()
        if self._shortcuts is None or self._shortcuts[0] is not infos:
            self._shortcuts = infos, tuple(Shortcut(app.package, app.label, app.icon, app.icon_color) for app in infos)
        return self._shortcuts[1]

    def build(self) -> View:
        """The home screen, built again only when what it shows changed (the apps, the screen's size, the day or the
        language): most steps that come home find it as they left it."""
        shown = self.shown()
        return self._home_tree.get(shown, lambda: self._home(*shown))

    def _home(self, apps: tuple[Shortcut, ...], width: int, height: int, date: str) -> View:
        docked = [app for package in _HOTSEAT for app in apps if app.package == package]
        undocked = [app for app in apps if app not in docked]
        tablet = min(width, height) * _DP_PER_PX >= _TABLET_SMALLEST_DP
        columns, margin = (_TABLET_COLUMNS, _TABLET_MARGIN) if tablet else (_COLUMNS, 0)
        cell = (width - 2 * margin) // columns
        workspace = (height - STATUS_BAR_HEIGHT - NAV_BAR_HEIGHT - _GLANCE_HEIGHT - _DOCK_HEIGHT - _SEARCH_HEIGHT
                     - 84 - 2 * margin)
        cell_height = min(_CELL_HEIGHT, workspace // max(math.ceil(len(undocked) / columns), 1))
        icons = [self._shortcut(app, cell, cell_height) for app in undocked]
        grid = [row(*icons[i:i + columns], weight=1) for i in range(0, len(icons), columns)]
        glance = column(
            text_view(date, content_desc=date, resource_id=_ID + "clock", text_size=60, padding=0),
            resource_id=_ID + "search_container_workspace", padding=78, height=_GLANCE_HEIGHT,
        )
        hotseat = group("column", "android.view.ViewGroup",
                        row(*([View(width=margin)] if margin else []),
                            *(self._shortcut(app, cell, _DOCK_HEIGHT, docked=True) for app in docked),
                            height=_DOCK_HEIGHT),
                        frame(_search_bar(min(_SEARCH_WIDTH, width - 150)), height=_SEARCH_HEIGHT + 84),
                        resource_id=_ID + "hotseat")
        return column(
            glance,
            group("column", "android.widget.ScrollView", *grid, resource_id=_ID + "workspace", weight=1,
                  padding=margin),
            hotseat,
            background=_WALLPAPER,
        )

    def _shortcut(self, app: Shortcut, width: int, height: int, docked: bool = False) -> View:
        # Launcher3's ItemLongClickListener.onWorkspaceItemLongClick consumes a long press (a real launcher starts
        # a drag and opens the shortcut popup, which this one does not draw): nothing launches, nothing changes.
        return app_icon(app.label, app.icon, app.icon_color, lambda: self._launch(app.package),
                        does_nothing, width=width, height=height, show_label=not docked)

    def _launch(self, package: str) -> None:
        """A tap on a shortcut: the app's launcher activity, if the app is still installed."""
        app = self.phone.packages.get(package)
        if app is not None:
            self.phone.activities.launch(app)


@functools.lru_cache(maxsize=16)
def _glance_date(day: int, tag: str) -> str:
    """The glance's date on the ``day``-th day since the epoch (the phone's zone is UTC) in the language ``tag``, made
    once per day shown: the home screen tells it at every frame."""
    return formats.format_skeleton(unit_start(day, DAY_MS), _GLANCE_DATE, tag)


def _search_bar(width: int) -> View:
    """The search pill, ``width`` px wide: the Google "G" at the start, voice search and Lens at the end."""
    def icon(name: str, color: tuple[int, int, int], **props) -> View:
        props.setdefault("class_name", "android.widget.ImageView")
        return View(kind="icon", hint=name, text_color=color, width=_SEARCH_ICON, height=_SEARCH_ICON, **props)

    end_part = row(icon("mic", _SEARCH_ICON_COLOR, content_desc="Voice search", resource_id=_ID + "mic_icon"),
                   icon("lens", _SEARCH_ICON_COLOR, content_desc="Google Lens", resource_id=_ID + "lens_icon",
                        class_name="android.widget.ImageButton"),
                   resource_id=_ID + "end_part")
    gap = width - 2 * 19 - 3 * _SEARCH_ICON
    return group("row", "android.widget.FrameLayout",
                 icon("google", _GOOGLE_BLUE, resource_id=_ID + "g_icon"), end_part,
                 content_desc="Search", resource_id=_ID + "search_container_hotseat", background=WHITE,
                 corner=_SEARCH_HEIGHT // 2, width=width, height=_SEARCH_HEIGHT, padding=19, spacing=gap,
                 gravity="center")


class Launcher(App):
    """The launcher package."""

    package = "com.google.android.apps.nexuslauncher"
    label = "Pixel Launcher"
    screens = (LauncherScreen,)
    launchable = False
    home = True
    # Launcher3's launcher activity filter (AndroidManifest.xml): the home screen.
    intent_filters = (IntentFilter((ACTION_MAIN,), (CATEGORY_HOME, CATEGORY_DEFAULT, "android.intent.category.MONKEY",
                                                    "android.intent.category.LAUNCHER_APP")),)
    #: Launcher3 draws edge to edge (``styles.xml`` BaseLauncherTheme: ``navigationBarColor`` #00000000): the
    #: wallpaper shows behind the navigation bar.
    navigation_bar_color = _WALLPAPER
    #: In the dark theme the search pill turns dark; the workspace's text follows the wallpaper, not the theme.
    night_colors = {WHITE: MATERIAL_YOU_NIGHT[(232, 234, 237)], _SEARCH_ICON_COLOR: MATERIAL_YOU_NIGHT[TEXT_SECONDARY]}
